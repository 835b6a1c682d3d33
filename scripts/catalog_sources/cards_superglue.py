"""Catalog: SuperGLUE cards (cards.boolq.* - from "google/boolq", as the original's -, cards.cb, cards.copa, cards.wic, cards.wsc, cards.multirc, cards.record).

Source: the Hub dataset "aps/super_glue" (the maintained home of the former canonical "super_glue"; it is a data-only
repository — Parquet files per config — so it loads without a loading script). SuperGLUE's test splits carry no
gold labels (label -1, ReCoRD answers []), so every card evaluates on the public validation split (renamed "test")
and takes a seeded 5% of train as its "validation" split.
"""

from _shared import card_tags, index_to_label
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import CastFields, ExecuteExpression, ListFieldValues, MapInstanceValues, Rename, Set
from unitxt.splitters import SplitRandomMix
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate, TemplatesList

URL = "https://huggingface.co/datasets/aps/super_glue"
PAPER = "https://arxiv.org/abs/1905.00537"
MIX = {"train": "train[95%]", "validation": "train[5%]", "test": "validation"}


def _tags(task, config, **extra):
    return card_tags(task, dataset_url=URL, paper=PAPER, benchmark="superglue", benchmark_config=config, **extra)


def _loader(config):
    return LoadHF(path="aps/super_glue", name=config)


def _labels(classes, field="label"):
    return index_to_label(field, classes)


def register(add):
    boolq_description = ("BoolQ (google/boolq): naturally occurring yes/no questions (Google search queries) paired "
                         "with a Wikipedia passage that answers them. Tested on the validation split.")
    boolq_answer = [CastFields(fields={"answer": "str"}),  # the dataset's bool answer as the word yes / no
                    MapInstanceValues(mappers={"answer": {"True": "yes", "False": "no"}})]
    add("cards.boolq.classification", TaskCard(
        loader=LoadHF(path="google/boolq"),
        preprocess_steps=[
            "splitters.small_no_test",
            Set(fields={"text_a_type": "passage", "text_b_type": "question", "classes": ["yes", "no"],
                        "type_of_relation": "answer"}),
            *boolq_answer,
            Rename(field_to_field={"passage": "text_a", "question": "text_b", "answer": "label"}),
        ],
        task="tasks.classification.multi_class.relation",
        templates="templates.classification.multi_class.relation.all",
        __description__=boolq_description + " Framed as classifying the answer to the question as yes or no.",
        __tags__=_tags("classification", "boolq"),
    ))
    add("cards.boolq.multiple_choice", TaskCard(
        loader=LoadHF(path="google/boolq"),
        preprocess_steps=[
            "splitters.small_no_test",
            Set(fields={"context_type": "passage", "choices": ["yes", "no"]}),
            *boolq_answer,
            Rename(field_to_field={"passage": "context"}),
        ],
        task="tasks.qa.multiple_choice.with_context",
        templates="templates.qa.multiple_choice.with_context.all",
        __description__=boolq_description + " Framed as a two-choice (yes / no) question about the passage.",
        __tags__=_tags("multiple choice question answering", "boolq"),
    ))
    add("cards.cb", TaskCard(
        loader=_loader("cb"),
        preprocess_steps=[
            SplitRandomMix(mix=MIX),
            Rename(field_to_field={"premise": "text_a", "hypothesis": "text_b"}),
            _labels(["entailment", "contradiction", "neutral"]),
            Set(fields={"classes": ["entailment", "contradiction", "neutral"], "text_a_type": "premise",
                        "text_b_type": "hypothesis", "type_of_relation": "entailment"}),
        ],
        task="tasks.classification.multi_class.relation",
        templates="templates.classification.multi_class.relation.all",
        __description__="CommitmentBank (SuperGLUE): three-way entailment between a short discourse and a clause "
                        "embedded in it, probing how committed the writer is to the clause. Tested on validation.",
        __tags__=_tags("classification", "cb"),
    ))
    add("cards.copa", TaskCard(
        loader=_loader("copa"),
        preprocess_steps=[
            "splitters.small_no_test",
            ListFieldValues(fields=["choice1", "choice2"], to_field="choices"),
            Rename(field_to_field={"premise": "context", "label": "answer"}),
            MapInstanceValues(mappers={"question": {"cause": "What was the cause of this?",
                                                    "effect": "What happened as a result?"}}),
            Set(fields={"context_type": "sentence"}),
        ],
        task="tasks.qa.multiple_choice.with_context",
        templates="templates.qa.multiple_choice.with_context.all",
        __description__="COPA (SuperGLUE): choice of plausible alternatives — given a premise, pick which of two "
                        "sentences is its more plausible cause or effect. Tested on the validation split.",
        __tags__=_tags("multiple choice question answering", "copa"),
    ))
    add("cards.wic", TaskCard(
        loader=_loader("wic"),
        preprocess_steps=[
            SplitRandomMix(mix=MIX),
            Rename(field_to_field={"sentence1": "text_a", "sentence2": "text_b"}),
            _labels(["different", "same"]),
            ExecuteExpression(expression="f\"sense of the word '{word}'\"", to_field="type_of_relation"),
            Set(fields={"classes": ["different", "same"], "text_a_type": "first sentence",
                        "text_b_type": "second sentence"}),
        ],
        task="tasks.classification.multi_class.relation",
        templates="templates.classification.multi_class.relation.all",
        __description__="Words in Context (SuperGLUE): is a word used with the same sense in two sentences? "
                        "Tested on the validation split.",
        __tags__=_tags("classification", "wic"),
    ))
    add("cards.wsc", TaskCard(
        loader=_loader("wsc"),
        preprocess_steps=[
            SplitRandomMix(mix=MIX),
            _labels(["False", "True"]),
            Set(fields={"choices": ["False", "True"]}),
        ],
        task=Task(input_fields=["choices", "text", "span1_text", "span2_text"], reference_fields=["label"],
                  metrics=["metrics.accuracy"]),
        templates=TemplatesList([InputOutputTemplate(
            input_format="Sentence: {text}\nDoes \"{span2_text}\" refer to \"{span1_text}\"? Answer with one of: "
                         "{choices}.",
            output_format="{label}")]),
        __description__="Winograd Schema Challenge (SuperGLUE, config 'wsc'): does the pronoun (span2_text) refer to "
                        "the marked noun phrase (span1_text)? Answered True or False. Requires commonsense "
                        "coreference. Tested on the validation split.",
        __tags__=_tags("classification", "wsc"),
    ))
    add("cards.multirc", TaskCard(
        loader=_loader("multirc"),
        preprocess_steps=[
            SplitRandomMix(mix=MIX),
            Rename(field="paragraph", to_field="text_a"),
            ExecuteExpression(expression="f'Question: {question}\\nAnswer: {answer}'", to_field="text_b"),
            _labels(["false", "true"]),
            Set(fields={"classes": ["false", "true"], "text_a_type": "paragraph",
                        "text_b_type": "question and candidate answer", "type_of_relation": "correctness"}),
        ],
        task="tasks.classification.multi_class.relation",
        templates="templates.classification.multi_class.relation.all",
        __description__="MultiRC (SuperGLUE): multi-sentence reading comprehension. Each row pairs a paragraph and a "
                        "question with one candidate answer, to be judged true or false (several answers of a "
                        "question can be true). Tested on the validation split.",
        __tags__=_tags("classification", "multirc"),
    ))
    add("cards.record", TaskCard(
        loader=_loader("record"),
        preprocess_steps=[
            SplitRandomMix(mix=MIX),
            Rename(field_to_field={"passage": "context", "query": "question"}),
            ExecuteExpression(expression="context.replace('@highlight\\n', '- ')", to_field="context"),
            ExecuteExpression(expression="question + '\\nFill in @placeholder with an entity from the passage.'",
                              to_field="question"),
            Set(fields={"context_type": "news article"}),
        ],
        task="tasks.qa.with_context.extractive",
        templates="templates.qa.with_context.all",
        __description__="ReCoRD (SuperGLUE): cloze-style reading comprehension over CNN/Daily Mail news — fill the "
                        "@placeholder of a query with an entity of the passage; any listed answer is correct. "
                        "Tested on the validation split.",
        __tags__=_tags("extractive question answering", "record"),
    ))
