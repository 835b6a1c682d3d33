"""Catalog: more single cards of the original catalog over Hub datasets, from tables of their facts: GPQA, five
LegalBench tasks and CoQA (as QA, as completion and as a multi-turn conversation).

Facts from the dataset pages: Idavidrein/gpqa (configs gpqa_main / gpqa_diamond / gpqa_extended, one train split;
Question, Correct Answer, Incorrect Answer 1-3, Explanation, Subdomain, High-level domain, Record ID, ...);
nguha/legalbench (one data folder per task, train / test; abercrombie and proa: text, answer; corporate_lobbying:
bill_title, bill_summary, company_name, company_description, answer; function_of_decision_section: Citation, Paragraph,
answer; international_citizenship_questions: question, answer; all with index); stanfordnlp/coqa (train / validation:
source, story, questions, answers {input_text, answer_start, answer_end}).
"""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import (
    AddID,
    Copy,
    Dictify,
    DuplicateBySubLists,
    FormatText,
    Get,
    ListFieldValues,
    Pop,
    Rename,
    SerializeDialog,
    Set,
    Shuffle,
    ToDialog,
    Wrap,
    ZipFieldValues,
)
from unitxt.operators.label_spans import ShuffleFieldValues
from unitxt.splitters import RenameSplits
from unitxt.templates import InputOutputTemplate

SAMPLED_ON_MIRRORS = True  # compared with the original's cards in the compat tier (tests/support/card_family_more_rows.py)

GPQA_CONFIGS = {"main": "the main set (448 questions)", "diamond": "the diamond subset (198 questions both experts "
                "answered right and most non-experts wrong)", "extended": "the extended set (546 questions)"}
LEGALBENCH_PAPER = "https://arxiv.org/abs/2308.11462"
OUTPUT_CLEANUP = ["processors.take_first_non_empty_line", "processors.lower_case_till_punc"]
# task -> (text field or None when composed, text_type, classes, type_of_class, classes_descriptions,
#          our template: input_format, instruction, target_prefix, title_fields)
LEGALBENCH = {
    "abercrombie": (
        "text", "products", ["generic", "descriptive", "suggestive", "arbitrary", "fanciful"], "type of mark",
        "A mark is generic if it is the common name for the product. A mark is descriptive if it describes a purpose, "
        "nature, or attribute of the product. A mark is suggestive if it suggests or implies a quality or "
        "characteristic of the product. A mark is arbitrary if it is a real English word that has no relation to the "
        "product. A mark is fanciful if it is an invented word.",
        ("Q: {text} Which {type_of_class} is it?", "{classes_descriptions}\n\nGive the {type_of_class} of the mark "
         "in these {text_type}:\n", "A: ", [])),
    "corporate_lobbying": (
        None, "", ["Yes", "No"], "",
        "You are a lobbyist analyzing Congressional bills for their impacts on companies.\nGiven the title and "
        "summary of the bill, plus information on the company from its 10K SEC filing, is a bill at least somewhat "
        "relevant to a company in terms of whether it could impact the company's bottom-line if it was enacted",
        ("{text}\nCould this bill be relevant to the company? FINAL ANSWER:", "{classes_descriptions}? Decide "
         "{type_of_class}(answer Yes or No).", "", [])),
    "function_of_decision_section": (
        "Paragraph", "text", ["Facts", "Procedural History", "Issue", "Rule", "Analysis", "Conclusion", "Decree"], "",
        "- Facts: The paragraph describes the factual background that led up to the present lawsuit.\n- Procedural "
        "History: The paragraph describes the course of litigation that led to the current proceeding before the "
        "court.\n- Issue: The paragraph describes the legal or factual issue that must be resolved by the court.\n- "
        "Rule: The paragraph describes a rule of law relevant to resolving the issue.\n- Analysis: The paragraph "
        "analyzes the legal issue by applying the relevant legal principles to the facts of the present dispute.\n- "
        "Conclusion: The paragraph presents a conclusion of the court.\n- Decree: The paragraph constitutes a decree "
        "resolving the dispute",
        ("{text_type}: {text}", "Give the function of this {text_type} of a court decision, by these definitions."
         "\n\n{classes_descriptions}.\n\n", "Label: ", ["text_type"])),
    "international_citizenship_questions": (
        "question", "question", ["Yes", "No"], "",
        "considering the state of international law on January 1st, 2020",
        ("{text_type}: {text} Answer with one of {classes}.", "Answer this {text_type}, {classes_descriptions}.\n",
         "Answer: ", ["text_type"])),
    "proa": (
        "text", "clause", ["Yes", "No"], "a private right of action",
        "A private right of action is when a regular person, a private citizen, is legally entitled to enforce their "
        "rights under a given statute",
        ("{text_type}: {text}", "{classes_descriptions}. Does this {text_type} give {type_of_class}? Answer with one "
         "of {classes}", "A: ", ["text_type"])),
}
CORPORATE_LOBBYING_TEXT = ("Official title of bill: {bill_title}\nOfficial summary of bill: {bill_summary}\n"
                           "Company name: {company_name}\nCompany business description: {company_description}")
COQA_ABOUT = ("CoQA: conversations about a story (passages from seven domains); each turn asks a question answered in "
              "free form. Each conversation yields one instance per turn (the turns so far). Train / validation / "
              "test are seeded portions of the published splits (splitters.small_no_test).")


def _gpqa(add):
    for config, what in GPQA_CONFIGS.items():
        add(f"cards.gpqa.{config}", TaskCard(
            loader=LoadHF(path="Idavidrein/gpqa", name=f"gpqa_{config}", data_classification_policy=["public"]),
            preprocess_steps=[
                RenameSplits(mapper={"train": "test"}),
                ListFieldValues(fields=["Correct Answer", "Incorrect Answer 1", "Incorrect Answer 2",
                                        "Incorrect Answer 3"], to_field="choices"),
                ShuffleFieldValues(field="choices"),
                Rename(field="Correct Answer", to_field="answer"),
                Rename(field="Subdomain", to_field="topic"),
                Rename(field="Question", to_field="question"),
                Set(fields={"context_type": "situation"}),
            ],
            task="tasks.qa.multiple_choice.with_topic", templates="templates.qa.multiple_choice.with_topic.all",
            __description__=f"GPQA, {what}: graduate-level, 'Google-proof' multiple-choice questions in biology, "
                            "physics and chemistry written by domain experts; four choices in a seeded order, the "
                            "subdomain as the topic. One split (train), used as test.",
            __tags__=card_tags("multiple-choice question answering", dataset_url=hf_url("Idavidrein/gpqa"),
                               paper="https://arxiv.org/abs/2311.12022", license="cc-by-4.0", config=config),
        ))


def _legalbench(add):
    for task, (text_field, text_type, classes, type_of_class, descriptions, template) in LEGALBENCH.items():
        input_format, instruction, target_prefix, title_fields = template
        text = ([FormatText(text=CORPORATE_LOBBYING_TEXT, to_field="text")] if text_field is None else [])
        add(f"cards.legalbench.{task}", TaskCard(
            loader=LoadHF(path="nguha/legalbench", data_dir=task, revision="refs/convert/parquet",
                          splits=["train", "test"], data_classification_policy=["public"]),
            preprocess_steps=[
                Shuffle(page_size=2 ** 63 - 1), *text,
                Rename(field_to_field={text_field or "text": "text", "answer": "label"}),
                Set(fields={"text_type": text_type, "classes": list(classes), "type_of_class": type_of_class,
                            "classes_descriptions": descriptions}),
            ],
            task="tasks.classification.multi_class.with_classes_descriptions",
            templates={"default": InputOutputTemplate(
                input_format=input_format, output_format="{label}", instruction=instruction,
                target_prefix=target_prefix, title_fields=list(title_fields), postprocessors=list(OUTPUT_CLEANUP))},
            __description__=f"LegalBench, task {task}: classify the {text_type or 'bill and company'} into one of "
                            f"{', '.join(classes)}; the class definitions travel with every instance. Published "
                            "train (few examples) / test splits, shuffled.",
            __tags__=card_tags("legal classification", dataset_url=hf_url("nguha/legalbench"), paper=LEGALBENCH_PAPER,
                               benchmark="legalbench", benchmark_config=task),
        ))


def _coqa(add):
    tags = card_tags("conversational question answering", dataset_url=hf_url("stanfordnlp/coqa"),
                     paper="https://arxiv.org/abs/1808.07042")
    turns = ZipFieldValues(fields=["questions", "answers/input_text"], to_field="dialog")
    as_turns = Dictify(field="dialog", with_keys=["user", "system"], process_every_value=True)
    add("cards.coqa.qa", TaskCard(
        loader=LoadHF(path="stanfordnlp/coqa"),
        preprocess_steps=[
            "splitters.small_no_test", Set(fields={"context_type": "story"}), turns, as_turns,
            DuplicateBySubLists(field="dialog"),
            Get(field="dialog", item=-1, to_field="last_turn"),
            Copy(field_to_field={"last_turn/user": "question", "last_turn/system": "answer"}),
            Wrap(field="answer", inside="list", to_field="answers"),
            SerializeDialog(field="dialog", to_field="context", context_field="story"),
        ],
        task="tasks.qa.extractive", templates="templates.qa.with_context.all",
        __description__=COQA_ABOUT + " As QA: the story and the turns so far are the context, the last question is "
                                     "asked and its answer is the reference.",
        __tags__=tags,
    ))
    add("cards.coqa.completion", TaskCard(
        loader=LoadHF(path="stanfordnlp/coqa"),
        preprocess_steps=[
            "splitters.small_no_test", Set(fields={"context_type": "dialog", "completion_type": "response"}), turns,
            as_turns, DuplicateBySubLists(field="dialog"),
            SerializeDialog(field="dialog", to_field="context", context_field="story",
                            last_response_to_field="completion"),
        ],
        task="tasks.completion.abstractive", templates="templates.completion.abstractive.all",
        __description__=COQA_ABOUT + " As completion: the story and the turns so far are the context, the last "
                                     "answer is the response to complete.",
        __tags__=tags,
    ))
    add("cards.coqa.multi_turn", TaskCard(
        loader=LoadHF(path="stanfordnlp/coqa"),
        preprocess_steps=[
            "splitters.small_no_test", AddID(), Copy(field="id", to_field="conversation/id"), turns,
            DuplicateBySubLists(field="dialog"), ToDialog(field="dialog"),
            Pop(field="dialog", item=-1, to_field="last_turn"),
            Copy(field_to_field={"last_turn/content": "answer", "story": "context"}),
            Wrap(field="answer", inside="list", to_field="answers"),
            Copy(field="dialog", to_field="conversation/dialog"),
        ],
        task="tasks.qa.extractive.multi_turn", templates=["templates.qa.multi_turn.with_context.simple"],
        __description__=COQA_ABOUT + " As a conversation: the turns before the last are the dialog (with a fresh "
                                     "conversation id), the story is the context and the last answer the reference.",
        __tags__=tags,
    ))


def register(add):
    _gpqa(add)
    _legalbench(add)
    _coqa(add)
