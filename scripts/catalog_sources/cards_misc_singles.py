"""Catalog: more single cards of the original catalog: BIRD text-to-SQL, Test of Time (arithmetic, semantic),
TruthfulQA as a safety set, AIR-Bench 2024 and MLCommons AILuminate prompts, CFPB complaints (the watsonx sample CSV).
and the French DocVQA pairs.

Facts from the dataset pages: premai-io/birdbench (validation: question_id, db_id, question, evidence, SQL,
difficulty); baharef/ToT (configs tot_arithmetic - question, question_type, label: a Python-dict string with
'answer' - and tot_semantic - prompt, question, question_type, graph_gen_algorithm, label -, one test split);
truthfulqa/truthful_qa (config multiple_choice, validation: question, mc1_targets {choices, labels}, mc2_targets);
stanford-crfm/air-bench-2024 (config default, test: cate-idx, l2-name, l3-name, l4-name, prompt; file
judge_prompt_final.csv: cate-idx, l2-name, l3-name, l4-name, judge_prompt); mlcommons/ailuminate practice prompt set
CSV (release_prompt_id, prompt_text, hazard, persona, locale, prompt_hash); the IBM watson-machine-learning-samples
CFPB complaints CSV (product, narrative).
"""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.loaders import LoadCSV, LoadHF, MultipleSourceLoader
from unitxt.operators import (
    Copy,
    DeleteSplits,
    ExecuteExpression,
    IndexOf,
    LoadJson,
    MapInstanceValues,
    Rename,
    Replace,
    SelectFields,
    Set,
    Shuffle,
)
from unitxt.processors import ExtractWithRegex, PostProcess
from unitxt.splitters import RenameSplits, SplitRandomMix
from unitxt.stream_operators import JoinStreams
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate, TemplatesDict

SAMPLED_ON_MIRRORS = True  # compared with the original's cards in the compat tier (tests/support/card_family_more_rows.py)

CFPB_PRODUCTS = {"retail_banking": "retail banking", "mortgages_and_loans": "mortgages and loans",
                 "debt_collection": "debt collection", "credit_card": "credit card",
                 "credit_reporting": "credit reporting"}
CFPB_CSV = ("https://raw.githubusercontent.com/IBM/watson-machine-learning-samples/master/cloud/data/cfpb_complaints/"
            "cfpb_compliants.csv")
AILUMINATE_CSV = ("https://raw.githubusercontent.com/mlcommons/ailuminate/0fe054f3d34209a0a1acf1b95174c5e8926f5c57/"
                  "airr_official_1.0_practice_prompt_set_release_public_subset.csv")
# the JSON answer the ToT templates ask for: {"answer": "..."}; its value is read back with this pattern
JSON_ANSWER = r'"answer"\s*:\s*"((?:[^"\\]|\\.)*)"'
RISK_PROMPT_ONLY = TemplatesDict({"default": InputOutputTemplate(input_format="{prompt}\n", output_format="")})


def _tot_template(source_field: str) -> InputOutputTemplate:
    return InputOutputTemplate(input_format="{" + source_field + "}", output_format='{{"answer": "{label}"}}',
                               postprocessors=[PostProcess(operator=ExtractWithRegex(regex=JSON_ANSWER))])


def _reasoning(add):
    add("cards.text2sql.bird", TaskCard(
        loader=LoadHF(path="premai-io/birdbench", split="validation", streaming=True),
        preprocess_steps=[
            Shuffle(page_size=2 ** 63 - 1),
            Rename(field_to_field={"question_id": "id", "question": "utterance", "SQL": "query", "db_id": "db_id",
                                   "evidence": "hint"}),
            Set(fields={"dbms": "sqlite", "db_type": "local", "use_oracle_knowledge": True,
                        "num_table_rows_to_add": 0, "data": None}),
            ExecuteExpression(expression="'bird/'+db_id", to_field="db_id"),
            ExecuteExpression(expression="str(id)", to_field="id"),
            Copy(field="db_id", to_field="db/db_id"), Copy(field="db_type", to_field="db/db_type"),
            Copy(field="dbms", to_field="db/dbms"), Copy(field="data", to_field="db/data"),
        ],
        task="tasks.text2sql", templates="templates.text2sql.all",
        __description__="BIRD (dev set): questions over real SQLite databases with an evidence hint and the gold SQL; "
                        "the database is named bird/<db_id> (a local SQLite database). The validation split, "
                        "shuffled, as test.",
        __tags__=card_tags("text-to-SQL", dataset_url=hf_url("premai-io/birdbench"),
                           paper="https://arxiv.org/abs/2305.03111"),
    ))
    tot = card_tags("temporal reasoning", dataset_url=hf_url("baharef/ToT"), paper="https://arxiv.org/abs/2406.09170",
                    license="cc-by-4.0")
    add("cards.tot.arithmetic", TaskCard(
        loader=LoadHF(path="baharef/ToT", name="tot_arithmetic"),
        preprocess_steps=[Replace(field="label", old="'", new='"'), LoadJson(field="label"),
                          Copy(field="label/answer", to_field="label")],
        task=Task(input_fields={"question": "str"}, reference_fields={"label": "str"}, prediction_type="str",
                  metrics=["metrics.accuracy"]),
        templates=[_tot_template("question")],
        __description__="Test of Time, arithmetic: date and time arithmetic questions; the gold is the 'answer' of "
                        "the label, and the model answers in JSON ({\"answer\": ...}). One test split.",
        __tags__={**tot, "config": "tot_arithmetic"},
    ))
    add("cards.tot.semantic", TaskCard(
        loader=LoadHF(path="baharef/ToT", name="tot_semantic"),
        task=Task(input_fields={"prompt": "str", "question": "str"}, reference_fields={"label": "str"},
                  prediction_type="str", metrics=["metrics.accuracy"]),
        templates=[_tot_template("prompt")],
        __description__="Test of Time, semantic: questions over synthetic temporal graphs of facts (the prompt lists "
                        "the facts and the question); the model answers in JSON ({\"answer\": ...}). One test split.",
        __tags__={**tot, "config": "tot_semantic"},
    ))


def _safety(add):
    add("cards.safety.truthful_qa", TaskCard(
        loader=LoadHF(path="truthfulqa/truthful_qa", name="multiple_choice", data_classification_policy=["public"]),
        preprocess_steps=[
            RenameSplits(mapper={"validation": "test"}),
            Set(fields={"_label": 1}),
            Copy(field_to_field={"mc1_targets/choices": "choices", "mc1_targets/labels": "labels"}),
            IndexOf(search_in="labels", index_of="_label", to_field="answer"),
        ],
        task="tasks.qa.multiple_choice.open",
        templates=["templates.qa.multiple_choice.helm", "templates.qa.multiple_choice.match"],
        __description__="TruthfulQA (multiple choice, single true answer - mc1) as a safety set: questions that "
                        "some humans answer falsely from misconceptions; the answer is the index of the true choice "
                        "(choices in the dataset's order). The validation split as test.",
        __tags__=card_tags("truthfulness", dataset_url=hf_url("truthfulqa/truthful_qa"),
                           paper="https://arxiv.org/abs/2109.07958"),
    ))
    add("cards.safety.airbench2024", TaskCard(
        loader=MultipleSourceLoader(sources=[
            LoadHF(path="stanford-crfm/air-bench-2024", name="default"),
            LoadHF(path="stanford-crfm/air-bench-2024", data_files={"judge_prompts": "judge_prompt_final.csv"}),
        ], data_classification_policy=["public"]),
        preprocess_steps=[
            SelectFields(fields=["cate-idx", "judge_prompt"], apply_to_streams=["judge_prompts"]),
            JoinStreams(left_stream="test", right_stream="judge_prompts", how="inner", on=["cate-idx"],
                        new_stream_name="test"),
            DeleteSplits(splits=["judge_prompts"]),
        ],
        task=Task(input_fields={"cate-idx": "str", "l2-name": "str", "l3-name": "str", "l4-name": "str",
                                "prompt": "str", "judge_prompt": "str"},
                  reference_fields={}, prediction_type="str",
                  metrics=["metrics.granite_guardian.assistant_risk.harm[prediction_type=str,user_message_field="
                           "prompt,assistant_message_field=prediction]"]),
        templates=RISK_PROMPT_ONLY,
        __description__="AIR-Bench 2024: risky prompts across the categories of a regulation-based AI risk taxonomy "
                        "(levels 2-4 named); each carries its category's judge prompt. The response is scored for "
                        "harm by Granite Guardian. One test split.",
        __tags__=card_tags("safety", dataset_url=hf_url("stanford-crfm/air-bench-2024"),
                           paper="https://arxiv.org/abs/2407.17436"),
    ))
    add("cards.safety.mlcommons_ailuminate", TaskCard(
        loader=LoadCSV(files={"test": AILUMINATE_CSV}, data_classification_policy=["public"]),
        task=Task(input_fields={"release_prompt_id": "str", "prompt_text": "str", "hazard": "str", "persona": "str",
                                "locale": "str", "prompt_hash": "str"},
                  reference_fields={}, prediction_type="str", metrics=["metrics.llm_as_judge.safety.llamaguard"]),
        templates=TemplatesDict({"default": InputOutputTemplate(input_format="{prompt_text}\n", output_format="")}),
        __description__="MLCommons AILuminate v1.0, public practice prompts: prompts by hazard category and persona "
                        "(normal, unskilled, skilled) and locale; the response is judged by LlamaGuard. One test "
                        "split (the CSV file).",
        __tags__=card_tags("safety", dataset_url="https://github.com/mlcommons/ailuminate",
                           paper="https://arxiv.org/abs/2503.05731"),
    ))


def _cfpb(add):
    add("cards.CFPB.product.watsonx", TaskCard(
        loader=LoadCSV(files={"train": CFPB_CSV}, streaming=False, indirect_read=True,
                       data_classification_policy=["public"]),
        preprocess_steps=[
            SplitRandomMix(mix={"train": "train[70%]", "validation": "train[10%]", "test": "train[20%]"}),
            Rename(field_to_field={"narrative": "text", "product": "label"}),
            MapInstanceValues(mappers={"label": dict(CFPB_PRODUCTS)}),
            Set(fields={"classes": list(CFPB_PRODUCTS.values())}),
        ],
        task="tasks.classification.multi_class.topic_classification",
        templates="templates.classification.multi_class.all",
        __description__="CFPB consumer complaints (the sample CSV of IBM's watsonx machine learning samples): "
                        "complaint narratives labelled with one of five financial products. Seeded 70/10/20 train / "
                        "validation / test portions of the file.",
        __tags__=card_tags("topic classification", dataset_url="https://github.com/IBM/watson-machine-learning-samples"),
    ))


def register(add):
    _reasoning(add)
    _safety(add)
    _cfpb(add)
