"""Differential tier, structured inputs: the shared metric names that read groups, dicts, tool calls, pairwise
comparisons or RAG fields — robustness.* (task_data group_id / variant_type), key_value_extraction.*,
tool_calling.*, weighted_win_rate_correlation, multi_turn.* and the lexical rag.* pipelines (a str answer with
task_data, a RAG response dict, or whole records as eval_utils.evaluate gives them) — run through the oracle and
ours on generated inputs: every global score, instance score and CI bound the original reports is reported here
under the same name and equals it within 1e-9, with the default CI settings and (a few names) n_resamples +
confidence_level and another seed overridden. What is left out, with its reason: exceptions.md."""

import random

import pytest

from unitxt.catalog import fetch_artifact
from unitxt.settings_utils import settings

from .test_ci_sweep import settings_holder
from .test_same_numbers import same

N = 120
WORDS = ["the", "cat", "sat", "on", "a", "mat", "blue", "sky", "is", "Rome", "Paris", "7", "don't", "été", ""]
IDS = [f"doc{k}" for k in range(6)]


def rng_for(name):
    return random.Random(sum(map(ord, name)) + 1)


def words(rng, low=1, high=6):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high))).strip()


# ---------------------------------------------------------------- generators: (predictions, references, task_data)
def robustness(rng, group=4):
    labels = ["cat", "dog", "bird"]
    task_data = [{"group_id": str(i // group), "variant_type": "original" if i % group == 0 else "paraphrase"}
                 for i in range(N)]
    return ([rng.choice(labels + ["a cat", "dog!"]) for _ in range(N)], [[rng.choice(labels)] for _ in range(N)],
            task_data)


def key_values(rng):
    def one():
        keys = rng.sample(["name", "city", "age", "role"], rng.randint(0, 4))
        return {key: rng.choice(["Ann", "Rome", "7", "chef", "", "Paris"]) for key in keys}
    return [one() for _ in range(N)], [[one()] for _ in range(N)], None


TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]}}},
         {"type": "function", "function": {"name": "add", "parameters": {
             "type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
             "required": ["a", "b"]}}}]


def call(rng, as_text=False):
    arguments = {}
    for key, values in (("city", ["Rome", "Paris", 3]), ("days", [1, 2, "two"]), ("a", [1, 2.5]), ("b", [3, "x"])):
        if rng.random() < 0.5:
            value = rng.choice(values)
            arguments[key] = str(value) if as_text else value
    return {"name": rng.choice(["get_weather", "add", "unknown"]), "arguments": arguments}


def tool_calls(rng, as_text=False):
    return ([call(rng, as_text) for _ in range(N)],
            [[call(rng, as_text) for _ in range(rng.randint(1, 2))] for _ in range(N)],
            [{"__tools__": TOOLS} for _ in range(N)])


def tool_calls_as_text(rng):  # token overlap scores text values only (both systems refuse numbers)
    return tool_calls(rng, as_text=True)


def tool_call_lists(rng):
    return ([[call(rng) for _ in range(rng.randint(1, 3))] for _ in range(N)], [[[call(rng)]] for _ in range(N)],
            [{"__tools__": TOOLS} for _ in range(N)])


def win_rates(rng):
    task_data = [dict(zip(("model_a", "model_b"), rng.sample(["m1", "m2", "m3", "m4"], 2))) for _ in range(N)]
    return ([rng.choice([-3, -1, 0, 1, 2]) for _ in range(N)], [[rng.choice([-2, -1, 0, 1, 3])] for _ in range(N)],
            task_data)


def multi_turn(rng):
    task_data = [{"conversation": {"id": f"d{i // 5}", "dialog": []}} for i in range(N)]
    return [rng.choice(["yes", "no"]) for _ in range(N)], [[rng.choice(["yes", "no"])] for _ in range(N)], task_data


def rag_task_data(rng):
    return {"question": words(rng), "contexts": [words(rng) for _ in range(rng.randint(1, 3))],
            "context_ids": rng.sample(IDS, rng.randint(1, 4)), "ground_truths": [words(rng)],
            "ground_truths_context_ids": rng.sample(IDS, rng.randint(1, 2)), "reference_answers": [words(rng)],
            "reference_contexts": [words(rng)], "reference_context_ids": rng.sample(IDS, rng.randint(1, 2)),
            "answer": words(rng)}


def rag_answers(rng):  # response generation: the answer as the prediction, the rest in task_data
    task_data = [rag_task_data(rng) for _ in range(N)]
    return [words(rng) for _ in range(N)], [data["reference_answers"] for data in task_data], task_data


def rag_responses(rng):  # end to end: a RAG response dict as the prediction
    task_data = [rag_task_data(rng) for _ in range(N)]
    predictions = [{"answer": words(rng), "contexts": [words(rng) for _ in range(2)],
                    "context_ids": rng.sample(IDS, rng.randint(1, 4))} for _ in range(N)]
    return predictions, [[{"answer": answer} for answer in data["reference_answers"]] for data in task_data], task_data


def rag_records(rng):  # external RAG: whole records (their own answer, contexts, ... columns), given as instances
    records = []
    for _ in range(N):
        data = rag_task_data(rng)
        record = {field: data[field] for field in ("answer", "contexts", "context_ids", "question", "ground_truths",
                                                   "ground_truths_context_ids")}
        record.update(prediction={"answer": words(rng), "contexts": [words(rng)],
                                  "context_ids": rng.sample(IDS, rng.randint(1, 4))}, references=[], task_data=data)
        records.append(record)
    return records, None, None


ROBUSTNESS = ["group_mean_accuracy", "group_mean_string_containment", "group_mean_token_overlap"] + [
    f"fixed_group_{aggregation}_{metric}" for metric in ("accuracy", "string_containment") for aggregation in (
        "mean", "mean_baseline", "mean_paraphrase", "pdr_paraphrase", "norm_cohens_h_paraphrase",
        "norm_hedges_g_paraphrase", "absval_norm_cohens_h_paraphrase", "absval_norm_hedges_g_paraphrase")]
RAG_ANSWERS = ["response_generation.correctness.token_overlap", "response_generation.faithfullness.token_overlap",
               "response_generation.faithfulness.token_k_precision",
               "response_generation.answer_correctness.token_recall",
               "response_generation.answer_relevance.token_recall", "context_relevance.token_precision", "faithfulness",
               "answer_correctness", "faithfulness.token_k_precision", "answer_correctness.token_recall",
               "answer_relevance.token_recall"]
END_TO_END = ["context_correctness.retrieval_at_k", "context_correctness.map", "context_correctness.mrr",
              "context_relevance.token_precision", "answer_correctness", "faithfulness.token_k_precision",
              "answer_faithfulness", "context_correctness", "answer_correctness.token_recall",
              "answer_relevance.token_recall"]
EXTERNAL = ["context_correctness.retrieval_at_k", "context_correctness.map", "context_correctness.mrr",
            "context_relevance.token_precision", "faithfulness", "answer_correctness", "faithfulness.token_k_precision",
            "context_correctness", "answer_correctness.token_recall", "answer_relevance.token_recall"]
RAG_RECORDS = ([f"rag.external_rag.{name}" for name in EXTERNAL] + [f"rag.end_to_end.{name}" for name in END_TO_END]
               + [f"rag.{name}" for name in ("context_correctness.retrieval_at_k", "context_correctness.map",
                                             "context_correctness.mrr", "context_correctness", "faithfulness",
                                             "answer_correctness", "context_relevance.token_precision",
                                             "faithfulness.token_k_precision", "answer_correctness.token_recall",
                                             "answer_relevance.token_recall")])
METRICS = {
    "robustness": (robustness, [f"robustness.{name}" for name in ROBUSTNESS]),
    "key_values": (key_values, ["key_value_extraction.accuracy", "key_value_extraction.token_overlap"]),
    "tool_calls": (tool_calls, ["tool_calling", "tool_calling.key_value.accuracy"]),
    "tool_calls_as_text": (tool_calls_as_text, ["tool_calling.key_value.token_overlap"]),
    "tool_call_lists": (tool_call_lists, ["tool_calling.multi_turn.validity"]),
    "win_rates": (win_rates, ["weighted_win_rate_correlation"]),
    "multi_turn": (multi_turn, ["multi_turn.accuracy", "multi_turn.sequential_success_accuracy"]),
    "rag_answers": (rag_answers, [f"rag.{name}" for name in RAG_ANSWERS]),
    "rag_responses": (rag_responses, [f"rag.end_to_end.{name}" for name in END_TO_END]
                      + ["rag.external_rag.answer_relevance.token_recall"]),
    "rag_records": (rag_records, RAG_RECORDS),
}
CASES = [(family, name) for family, (_, names) in METRICS.items() for name in names]
# CI settings overridden (as test_ci_sweep): a few names of each kind of resampling
CI_VARIANTS = [("resamples_and_level", {"n_resamples": 50, "confidence_level": 0.9}, None), ("seed", {}, 7)]
CI_NAMES = {"robustness.group_mean_token_overlap": "robustness",
            "robustness.fixed_group_pdr_paraphrase_accuracy": "robustness",
            "robustness.fixed_group_norm_hedges_g_paraphrase_string_containment": "robustness",
            "key_value_extraction.accuracy": "key_values", "tool_calling": "tool_calls",
            "weighted_win_rate_correlation": "win_rates", "rag.end_to_end.answer_correctness": "rag_responses",
            "rag.response_generation.faithfulness.token_k_precision": "rag_answers"}
CI_CASES = [(family, name, variant, overrides, seed) for name, family in CI_NAMES.items()
            for variant, overrides, seed in CI_VARIANTS]


def inputs(family, name):
    return METRICS[family][0](rng_for(name))


def job(family, name, overrides=None, seed=None):
    predictions, references, task_data = inputs(family, name)
    if family == "rag_records":
        return {"kind": "metric_stream", "name": f"metrics.{name}", "instances": predictions}
    return {"kind": "metric", "name": f"metrics.{name}", "predictions": predictions, "references": references,
            "task_data": task_data, "overrides": overrides or {}, "seed": seed}


def ours(family, name, overrides=None, seed=None):
    """(instance scores, global scores) here, as the oracle runs the name."""
    metric = fetch_artifact(f"metrics.{name}")[0]
    for field, value in (overrides or {}).items():
        setattr(settings_holder(metric), field, value)
    predictions, references, task_data = inputs(family, name)
    with settings.context(seed=seed if seed is not None else settings.seed):
        if family == "rag_records":  # the metric as a stream operator over whole records
            rows = list(metric.process(iter([dict(record) for record in predictions])))
            return [row["score"]["instance"] for row in rows], rows[0]["score"]["global"]
        scores = metric.evaluate(predictions, references, task_data)
        return metric.instance_results(scores), scores.global_scores(with_ci=True)


def assert_same_results(name, mine, theirs):
    """Every score the original reports is reported here under its name, with its value (1e-9)."""
    assert "error" not in theirs, theirs.get("error")
    instances, global_scores = mine
    for key, value in theirs["global"].items():
        assert key in global_scores, f"{name}: global {key} missing here"
        same(global_scores[key], value, f"{name} global {key}")
    assert len(instances) == len(theirs["instances"])
    for index, (row, original) in enumerate(zip(instances, theirs["instances"])):
        for key, value in original.items():
            assert key in row, f"{name}: instance {index} {key} missing here"
            same(row[key], value, f"{name} instance {index} {key}")
    return sum("_ci_" in key for key in theirs["global"])


@pytest.fixture(scope="module")
def oracle_results(oracle):
    jobs = [job(family, name) for family, name in CASES]
    jobs += [job(family, name, overrides, seed) for family, name, _, overrides, seed in CI_CASES]
    keys = CASES + [(name, variant) for _, name, variant, _, _ in CI_CASES]
    return dict(zip(keys, oracle(jobs)))


@pytest.mark.parametrize("family,name", CASES, ids=[f"{family}-{name}" for family, name in CASES])
def test_structured_metric_gives_the_original_numbers(family, name, oracle_results):
    theirs = oracle_results[(family, name)]
    assert_same_results(name, ours(family, name), theirs)
    assert theirs["global"]["score_name"]  # a real result of the original, not an empty one


@pytest.mark.parametrize("family,name,variant,overrides,seed", CI_CASES,
                         ids=[f"{name}-{variant}" for _, name, variant, _, _ in CI_CASES])
def test_structured_ci_settings_give_the_original_bounds(family, name, variant, overrides, seed, oracle_results):
    checked = assert_same_results(f"{name} {variant}", ours(family, name, overrides, seed),
                                  oracle_results[(name, variant)])
    assert checked >= 2, f"{name} {variant}: the original reports no CI to compare"


def test_every_lexical_rag_name_is_compared():
    """The lexical rag.* names that run without a model: each compared in at least one layout."""
    compared = {name for family, name in CASES if name.startswith("rag.")}
    assert len(compared) == 35, sorted(compared)
