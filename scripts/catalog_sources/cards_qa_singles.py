"""Catalog: single QA cards of the original catalog: TableBench's legacy cards (DataAnalysis, FactChecking,
NumericalReasoning, with the original's 20/20/60 portions and their own task), Open Australian Legal QA, PopQA as a
robustness set (the question variants grouped by relation) and QuALITY (long-document multiple choice).

Facts from the dataset pages: Multilingual-Multimodal-NLP/TableBench (revision 90593ad8, one test split: id, qtype,
qsubtype, instruction, instruction_type - DP, TCoT, SCoT, PoT -, table - a JSON string {columns, data} -, question,
answer, answer_formatter); umarbutler/open-australian-legal-qa (one train split: question, answer, text, prompt, source
{version_id, type, jurisdiction, source, citation, url, text}); akariasai/PopQA (one test split: id, subj, prop, obj,
subj_id, prop_id, obj_id, s_aliases, o_aliases, s_uri, o_uri, s_wiki_title, o_wiki_title, s_pop, o_pop, question,
possible_answers - a JSON string list); nyu-mll/quality on GitHub (v1.0.1 html-stripped train / dev JSON Lines: one
article per line - article_id, set_unique_id, title, author, year, topic, source, article - with its questions
[{question, question_unique_id, options (4), gold_label (1-4), writer_label, difficult}]).
"""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF, LoadJsonFile
from unitxt.operators import (
    Apply,
    Copy,
    Explode,
    FilterByCondition,
    MapInstanceValues,
    RemoveFields,
    Rename,
    Set,
    Shuffle,
    Wrap,
)
from unitxt.splitters import SplitRandomMix
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate, MultiReferenceTemplate, TemplatesList

SAMPLED_ON_MIRRORS = True  # compared with the original's cards in the compat tier (tests/support/card_family_more_rows.py)

TABLEBENCH_LEGACY = {"data_analysis": "DataAnalysis", "fact_checking": "FactChecking",
                     "numerical_reasoning": "NumericalReasoning"}
TABLEBENCH_LEGACY_TASK = Task(
    input_fields={"context": "Table", "context_type": "str", "question": "str", "answer_formatter": "str"},
    reference_fields={"answers": "str"}, prediction_type="str", metrics=["metrics.rouge"],
    augmentable_inputs=["context", "question"],
    __description__="Answer a question about a table (the legacy TableBench cards' own task); answer_formatter "
                    "states the expected answer format.",
)
TABLEBENCH_LEGACY_TEMPLATE = InputOutputTemplate(
    instruction="As a table analyst, answer the question from the table's content. {answer_formatter}\nGive the "
                "final answer only, with no explanation or preamble.\nThe examples below show the expected mapping; "
                "the last one has no output: give it.",
    input_format="{context_type}: {context} \nQuestion: {question}",
    target_prefix="Final Answer: ", output_format="{answers}",
    postprocessors=["processors.take_first_non_empty_line", "processors.lower_case", "processors.remove_punctuations",
                    "processors.remove_articles", "processors.fix_whitespace"],
)
QUALITY_DATA = ("https://raw.githubusercontent.com/nyu-mll/quality/05e85750d4c5444d2a0a4ad299f6df5f4df06068/data/"
                "v1.0.1/QuALITY.v1.0.1.htmlstripped")
POP_QA_ANSWER_CLEANUP = ["processors.take_first_non_empty_line", "processors.lower_case_till_punc",
                         "processors.to_string_stripped"]
POP_QA_PROMPTS = ["Question: {question}\nAnswer:",  # neutral, hedged and assertive framings of the same question
                  "Question: {question}\nI am not sure, but I believe the answer is:",
                  "Question: {question}\nI am completely certain the answer is:"]


def _tablebench_legacy(add):
    for suffix, qtype in TABLEBENCH_LEGACY.items():
        only = ({"filtering_lambda": f"lambda x: x['instruction_type'] == 'DP' and x['qtype'] in ['{qtype}']"}
                if suffix == "data_analysis" else {})
        add(f"cards.tablebench_{suffix}.legacy", TaskCard(
            loader=LoadHF(path="Multilingual-Multimodal-NLP/TableBench", revision="90593ad8", splits=["test"],
                          data_classification_policy=["public"], **only),
            preprocess_steps=[
                SplitRandomMix(mix={"train": "test[20%]", "validation": "test[20%]", "test": "test[60%]"}),
                FilterByCondition(values={"instruction_type": "DP"}, condition="eq"),
                FilterByCondition(values={"qtype": [qtype]}, condition="in"),
                Apply("table", function="json.loads", to_field="table"),
                Rename(field_to_field={"table/columns": "table/header", "table/data": "table/rows"}),
                Set(fields={"context_type": "Table"}),
                Rename(field_to_field={"table": "context", "answer": "answers"}),
                RemoveFields(fields=["instruction"]),
            ],
            task=TABLEBENCH_LEGACY_TASK, templates=[TABLEBENCH_LEGACY_TEMPLATE],
            __description__=f"TableBench ({qtype} questions, direct-prompting rows), the legacy card: seeded 20/20/60 "
                            "train / validation / test portions of the test split, the table as a Table value, "
                            "scored with ROUGE.",
            __tags__=card_tags("table question answering", dataset_url=hf_url("Multilingual-Multimodal-NLP/TableBench"),
                               paper="https://arxiv.org/abs/2408.09174", modality="table"),
        ))


def _australian_and_pop_qa(add):
    add("cards.open_australian_legal_qa", TaskCard(
        loader=LoadHF(path="umarbutler/open-australian-legal-qa", name="default"),
        preprocess_steps=[
            SplitRandomMix(mix={"train": "train[0.5]", "validation": "train[0.2]", "test": "train[0.3]"}),
            Shuffle(),
            Set(fields={"context_type": "legal document"}),
            Copy(field="source/text", to_field="context/body"),
            Copy(field="source/citation", to_field="context/title"),
            Wrap(field="answer", inside="list", to_field="answers"),
        ],
        task="tasks.qa.with_context", templates="templates.qa.with_context.all",
        __description__="Open Australian Legal QA: questions on Australian legislation and court decisions, answered "
                        "from one source document (its text and citation are the context). Seeded 50/20/30 portions "
                        "of the one train split, shuffled.",
        __tags__=card_tags("legal question answering", dataset_url=hf_url("umarbutler/open-australian-legal-qa")),
    ))
    add("cards.pop_qa_robust", TaskCard(
        loader=LoadHF(path="akariasai/PopQA"),
        preprocess_steps=[
            Apply("possible_answers", function="json.loads", to_field="possible_answers"),
            Copy(field_to_field=[["prop_id", "group_id"]]),
            Rename(field="obj", to_field="variant_id"),
            Rename(field="prop", to_field="variant_type"),
        ],
        task=Task(input_fields=["group_id", "id", "question", "variant_id", "variant_type"],
                  reference_fields=["possible_answers"],
                  metrics=["metrics.robustness.fixed_group_mean_string_containment"]),
        templates=TemplatesList([MultiReferenceTemplate(input_format=prompt, references_field="possible_answers",
                                                        postprocessors=list(POP_QA_ANSWER_CLEANUP))
                                 for prompt in POP_QA_PROMPTS]),
        __description__="PopQA as a robustness set: entity questions from Wikidata facts, grouped by relation "
                        "(group_id = the relation's id; the object and relation name the variant); scored by the "
                        "mean string containment per group. Three templates frame the question neutrally, hedged "
                        "and assertively. One test split.",
        __tags__=card_tags("robustness", dataset_url=hf_url("akariasai/PopQA"),
                           paper="https://arxiv.org/abs/2212.10511"),
    ))


def _quality(add):
    add("cards.quality", TaskCard(
        loader=LoadJsonFile(files={"train": f"{QUALITY_DATA}.train", "validation": f"{QUALITY_DATA}.dev"}, lines=True,
                            data_classification_policy=["public"]),
        preprocess_steps=[
            SplitRandomMix(mix={"train": "train[80%]", "validation": "train[20%]", "test": "validation"}),
            Copy(field="article", to_field="context"),
            Explode(field="questions", to_field="data"),
            Copy(field="data/question", to_field="question"),
            Copy(field="data/options", to_field="choices"),
            Copy(field="data/gold_label", to_field="answer"),
            MapInstanceValues(mappers={"answer": {"1": 0, "2": 1, "3": 2, "4": 3, "5": 4}}),
            Set(fields={"context_type": "document"}),
        ],
        task="tasks.qa.multiple_choice.with_context", templates="templates.qa.multiple_choice.with_context.all",
        __description__="QuALITY: multiple-choice questions on long articles and stories (about 5,000 tokens each); "
                        "each question of an article is an instance, its gold label (1-4) the answer index. The dev "
                        "file is the test split; validation is a seeded 20% of train.",
        __tags__=card_tags("multiple-choice question answering", dataset_url="https://github.com/nyu-mll/quality",
                           paper="https://arxiv.org/abs/2112.08608"),
    ))


def register(add):
    _tablebench_legacy(add)
    _australian_and_pop_qa(add)
    _quality(add)
