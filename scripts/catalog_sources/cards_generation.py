"""Catalog: generation cards — code (HumanEval, MBPP), data-to-text (DART, WikiBio), grammatical error correction
(CoEdIT), slot filling (ATIS) and chat-assistant benchmarks (MT-Bench, Arena-Hard)."""

from _factory import make
from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import Copy, ExecuteExpression, FilterByCondition, JoinStr, Rename, Set, Wrap
from unitxt.splitters import RenameSplits, SplitRandomMix
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate, TemplatesList

ATIS_SLOTS = [  # the ATIS slot types (BIO tags B-<slot> / I-<slot>)
    "aircraft_code", "airline_code", "airline_name", "airport_code", "airport_name",
    "arrive_date.date_relative", "arrive_date.day_name", "arrive_date.day_number", "arrive_date.month_name",
    "arrive_date.today_relative", "arrive_time.end_time", "arrive_time.period_mod", "arrive_time.period_of_day",
    "arrive_time.start_time", "arrive_time.time", "arrive_time.time_relative", "city_name", "class_type", "connect",
    "cost_relative", "day_name", "day_number", "days_code", "depart_date.date_relative", "depart_date.day_name",
    "depart_date.day_number", "depart_date.month_name", "depart_date.today_relative", "depart_date.year",
    "depart_time.end_time", "depart_time.period_mod", "depart_time.period_of_day", "depart_time.start_time",
    "depart_time.time", "depart_time.time_relative", "economy", "fare_amount", "fare_basis_code", "flight_days",
    "flight_mod", "flight_number", "flight_stop", "flight_time", "fromloc.airport_code", "fromloc.airport_name",
    "fromloc.city_name", "fromloc.state_code", "fromloc.state_name", "meal", "meal_code", "meal_description", "mod",
    "month_name", "or", "period_of_day", "restriction_code", "return_date.date_relative", "return_date.day_name",
    "return_date.day_number", "return_date.month_name", "return_date.today_relative", "return_time.period_mod",
    "return_time.period_of_day", "round_trip", "state_code", "state_name", "stoploc.airport_name",
    "stoploc.city_name", "stoploc.state_code", "time", "time_relative", "today_relative", "toloc.airport_code",
    "toloc.airport_name", "toloc.city_name", "toloc.country_name", "toloc.state_code", "toloc.state_name",
    "transport_type"]


def _tags(task, repo, paper=None, language="en", **extra):
    return card_tags(task, dataset_url=hf_url(repo), paper=paper, language=language, **extra)


# Open-ended chat prompts have no reference answer: they are meant for an LLM judge. Offline, the card's own task
# reports the prediction length (the judge metric can be given in the recipe with `metrics=[...]`).
OPEN_ENDED = Task(
    input_fields={"input": "str", "type_of_input": "str", "type_of_output": "str"},
    reference_fields={"output": "str"},
    prediction_type="str",
    metrics=["metrics.prediction_length"],
    defaults={"output": ""},
    default_template="templates.generation.default",
    __description__="Open-ended generation without reference answers (judged by a model or a person).",
    __tags__={"task": "generation", "modality": "text"},
)


def register(add):
    add("cards.human_eval", TaskCard(
        loader=LoadHF(path="openai/openai_humaneval", split="test"),
        preprocess_steps=[
            # the test's assert statements, each with the function's own name in place of `candidate`
            ExecuteExpression(
                expression='[t for t in re.findall(r"assert.*?(?=\\n\\s*assert|$)", '
                           'test.replace("candidate", entry_point), re.DOTALL)]',
                imports_list=["re"], to_field="test_list"),
        ],
        task=Task(input_fields=["prompt"], reference_fields=["prompt", "canonical_solution", "test_list"],
                  metrics=["metrics.bleu"]),
        templates=TemplatesList([InputOutputTemplate(input_format="{prompt}\n",
                                                     output_format="{prompt}\n{canonical_solution}")]),
        __description__="HumanEval: 164 hand-written Python programming problems — complete a function from its "
                        "signature and docstring. The dataset has one split (test), used whole (no demos "
                        "split: zero-shot, as the benchmark is run). The reference is the prompt followed by the "
                        "canonical solution, with the test's assert statements (test_list); the card scores text "
                        "overlap (execution against the unit tests is not part of the offline metrics).",
        __tags__=_tags("code generation", "openai/openai_humaneval", "https://arxiv.org/abs/2107.03374",
                       language=["en", "python"]),
    ))
    add("cards.mbpp", TaskCard(
        loader=LoadHF(path="google-research-datasets/mbpp", name="full", split="test"),
        preprocess_steps=[
            JoinStr(field_to_field={"test_list": "test_list_str"}, separator="\n"),
        ],
        task=Task(input_fields=["text", "test_list_str"], reference_fields=["test_list", "code"],
                  metrics=["metrics.bleu"]),
        templates=TemplatesList([InputOutputTemplate(input_format='"""{text}\n\n{test_list_str}"""',
                                                     output_format="{code}")]),
        __description__="MBPP (full config): ~1,000 crowd-sourced entry-level Python problems, each with a "
                        "description, a reference solution and three assert tests (shown in the input, one per "
                        "line). The test split only.",
        __tags__=_tags("code generation", "google-research-datasets/mbpp", "https://arxiv.org/abs/2108.07732",
                       language=["en", "python"]),
    ))
    add("cards.atis", TaskCard(
        loader=LoadHF(path="tuetschek/atis"),
        preprocess_steps=[
            make("split_strip", delimiter=" ", field_to_field={"slots": "labels", "text": "tokens"}),
            make("iob_extractor", labels=ATIS_SLOTS, begin_labels=[f"B-{slot}" for slot in ATIS_SLOTS],
                 inside_labels=[f"I-{slot}" for slot in ATIS_SLOTS], outside_label="O"),
            Copy(field_to_field={"spans/*/start": "spans_starts", "spans/*/end": "spans_ends",
                                 "spans/*/label": "labels"}, get_default=[], not_exist_ok=True),
            Set(fields={"entity_types": ATIS_SLOTS}),
        ],
        task="tasks.span_labeling.extraction",
        templates="templates.span_labeling.extraction.all",
        __description__="ATIS: spoken requests to an airline travel information system with slot annotations "
                        "(BIO tags per word, e.g. B-fromloc.city_name) — extract the slot values. The entity types "
                        "are all 79 ATIS slot types. Published train and test splits.",
        __tags__=_tags("slot filling", "tuetschek/atis"),
    ))
    add("cards.coedit_gec", TaskCard(
        loader=LoadHF(path="grammarly/coedit"),
        preprocess_steps=[
            FilterByCondition(values={"task": "gec"}, condition="eq"),
            SplitRandomMix(mix={"train": "train[95%]", "validation": "train[5%]", "test": "validation"}),
            ExecuteExpression(expression="src.split(': ', 1)[1] if ': ' in src else src", to_field="original_text"),
            Wrap(field="tgt", to_field="corrected_texts"),
        ],
        task="tasks.grammatical_error_correction",
        templates="templates.grammatical_error_correction.all",
        __description__="CoEdIT, grammatical error correction subset (task == 'gec'): sentences with errors and "
                        "their corrections; the instruction prefix of the source ('Fix grammaticality: ...') is "
                        "removed. The published validation split is the test split; validation is 5% of train.",
        __tags__=_tags("grammatical error correction", "grammarly/coedit", "https://arxiv.org/abs/2305.09857"),
    ))
    add("cards.dart", TaskCard(
        loader=LoadHF(path="Yale-LILY/dart", revision="refs/convert/parquet", splits=["train", "validation"],
                      data_classification_policy=["public"]),
        preprocess_steps=[
            "splitters.small_no_test",
            make("serialize_triples", field_to_field=[["tripleset", "serialized_triples"]]),
            Rename(field_to_field={"serialized_triples": "input"}),
            Copy(field="annotations/text/0", to_field="output"),
            Set(fields={"type_of_input": "Triples", "type_of_output": "Text"}),
        ],
        task="tasks.generation",
        templates="templates.generation.all",
        __description__="DART: open-domain structured data-to-text — verbalise a set of RDF-style triples in "
                        "fluent text. The first annotated sentence is the reference. Test is the published "
                        "validation split; validation is 5% of train.",
        __tags__=_tags("data-to-text generation", "Yale-LILY/dart", "https://arxiv.org/abs/2007.02871"),
    ))
    add("cards.wiki_bio", TaskCard(
        loader=LoadHF(path="michaelauli/wiki_bio", revision="refs/convert/parquet",
                      splits=["train", "validation", "test"]),
        preprocess_steps=[
            make("list_to_key_val_pairs", fields=["input_text/table/column_header", "input_text/table/content"],
                 to_field="kvpairs"),
            make("serialize_key_val_pairs", field_to_field=[["kvpairs", "input"]]),
            Rename(field_to_field={"target_text": "output"}),
            Set(fields={"type_of_input": "Key-Value pairs", "type_of_output": "Text"}),
        ],
        task="tasks.generation",
        templates="templates.generation.all",
        __description__="WikiBio: Wikipedia biography infoboxes (serialized key-value pairs, tokenized and "
                        "lower-cased as in the data) with the first sentence of the article as the reference. The "
                        "Hub's Parquet conversion, splits train / validation / test.",
        __tags__=_tags("data-to-text generation", "michaelauli/wiki_bio", "https://arxiv.org/abs/1603.07771"),
    ))
    add("cards.mt_bench.generation.english_single_turn", TaskCard(
        loader=LoadHF(path="dim/mt_bench_en", split="train"),
        preprocess_steps=[
            RenameSplits(mapper={"train": "test"}),
            Copy(field="turns/0", to_field="input"),
            Rename(field_to_field={"category": "group"}),
            # no reference answer: the output is the text "None", as the original catalog's card sets it
            Set(fields={"output": "None", "type_of_input": "question", "type_of_output": "answer"}),
        ],
        task="tasks.generation",
        templates=["templates.empty"],
        __description__="MT-Bench prompts, first turn: 80 challenging open-ended requests in 8 categories (writing, "
                        "roleplay, reasoning, math, coding, extraction, STEM, humanities) for chat assistants, from "
                        "the dim/mt_bench_en export. Meant for an LLM judge (there is no reference answer). One split "
                        "(test).",
        __tags__=_tags("generation", "dim/mt_bench_en", "https://arxiv.org/abs/2306.05685"),
    ))
    add("cards.mt_bench.response_assessment.pairwise_comparison.human_single_turn", TaskCard(
        loader=LoadHF(path="lmsys/mt_bench_human_judgments"),
        preprocess_steps=[
            SplitRandomMix(mix={"train": "gpt4_pair", "test": "human"}),
            FilterByCondition(values={"turn": 1}, condition="eq"),
            ExecuteExpression(expression="conversation_a[0]['content']", to_field="question"),
            ExecuteExpression(expression="conversation_a[1]['content']", to_field="answer_a"),
            ExecuteExpression(expression="conversation_b[1]['content']", to_field="answer_b"),
            ExecuteExpression(expression="{'model_a': 'choice_a', 'model_b': 'choice_b'}.get(winner, 'tie')",
                              to_field="winner"),
        ],
        task="tasks.response_assessment.pairwise_comparison.single_turn",
        templates="templates.response_assessment.pairwise_comparison.single_turn.all",
        __description__="MT-Bench human judgments, first turn: expert votes on which of two model answers to an "
                        "MT-Bench question is better ('choice_a', 'choice_b' or 'tie'; both kinds of tie count as tie). Evaluates a "
                        "judge. Test: the 'human' split; train (demos): the 'gpt4_pair' split (GPT-4 verdicts).",
        __tags__=_tags("response assessment", "lmsys/mt_bench_human_judgments", "https://arxiv.org/abs/2306.05685"),
    ))
    add("cards.arena_hard.generation.english", TaskCard(
        loader=LoadHF(path="lmarena-ai/arena-hard-auto-v0.1"),
        preprocess_steps=[
            RenameSplits(mapper={"train": "test"}),
            ExecuteExpression(expression="turns[0]['content']", to_field="input"),
            Set(fields={"type_of_input": "user request", "type_of_output": "assistant response", "output": ""}),
        ],
        task=OPEN_ENDED,
        templates="templates.generation.all",
        __description__="Arena-Hard-Auto v0.1: 500 challenging user queries drawn from Chatbot Arena, for judging "
                        "chat assistants against a baseline with an LLM judge. Offline the card reports prediction "
                        "length. One split (test).",
        __tags__=_tags("generation", "lmarena-ai/arena-hard-auto-v0.1", "https://arxiv.org/abs/2406.11939"),
    ))
