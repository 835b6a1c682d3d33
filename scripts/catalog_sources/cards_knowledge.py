"""Catalog: knowledge and long-context question answering cards (PopQA, SimpleQA, LongBench v2)."""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import ExecuteExpression, ListFieldValues, LoadJson, Rename, Set, Shuffle, Wrap
from unitxt.splitters import RenameSplits
from unitxt.task import Task
from unitxt.templates import MultiReferenceTemplate, TemplatesList


def _tags(task, repo, paper=None):
    return card_tags(task, dataset_url=hf_url(repo), paper=paper)


def register(add):
    add("cards.pop_qa", TaskCard(
        loader=LoadHF(path="akariasai/PopQA"),
        preprocess_steps=[
            Shuffle(page_size=14267),
            LoadJson(field="possible_answers"),
        ],
        task=Task(input_fields={"question": "str", "prop": "str", "subj": "str"},
                  reference_fields={"possible_answers": "List[str]"},
                  metrics=["metrics.accuracy"]),
        templates=TemplatesList([MultiReferenceTemplate(
            input_format="Give only the {prop}, in a few words, without explanation or a full sentence.\n"
                         "Question: {question}\nThe {prop} of {subj} is:",
            references_field="possible_answers",
            postprocessors=["processors.take_first_non_empty_line", "processors.lower_case"])]),
        __description__="PopQA: entity-centric factual questions from Wikidata triples (subject, relation, object) "
                        "over entities of varied popularity; possible_answers (a JSON list in the data) are the "
                        "accepted answers. One split (test), shuffled.",
        __tags__=_tags("open question answering", "akariasai/PopQA", "https://arxiv.org/abs/2212.10511"),
    ))
    add("cards.simple_qa", TaskCard(
        loader=LoadHF(path="basicv8vc/SimpleQA"),
        preprocess_steps=[
            Rename(field="problem", to_field="question"),
            Wrap(field="answer", inside="list", to_field="answers"),
        ],
        task="tasks.qa.open",
        templates="templates.qa.open.all",
        __description__="SimpleQA: short fact-seeking questions with a single indisputable answer, written to be "
                        "hard for frontier models. One split (test).",
        __tags__=_tags("open question answering", "basicv8vc/SimpleQA", "https://arxiv.org/abs/2411.04368"),
    ))
    add("cards.long_bench_v2", TaskCard(
        loader=LoadHF(path="THUDM/LongBench-v2"),
        preprocess_steps=[
            RenameSplits(mapper={"train": "test"}),
            ListFieldValues(fields=["choice_A", "choice_B", "choice_C", "choice_D"], to_field="choices"),
            ExecuteExpression(expression="'ABCD'.index(answer)", to_field="answer"),
            Set(fields={"context_type": "document"}),
        ],
        task="tasks.qa.multiple_choice.with_context",
        templates="templates.qa.multiple_choice.with_context.all",
        __description__="LongBench v2: four-option questions over long contexts (8k to 2M words) in six categories "
                        "(single- and multi-document QA, long in-context learning, dialogue history, code "
                        "repositories, structured data). The answer letter becomes the option index. One split "
                        "(train in the data), used as test.",
        __tags__=_tags("long-context multiple choice question answering", "THUDM/LongBench-v2",
                       "https://arxiv.org/abs/2412.15204"),
    ))
