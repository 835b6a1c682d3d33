"""Differential tier, LLM judges on loopback: the original's catalog judges whose engine is a
`generic_inference_engine` (the RAG task-based judges) computed by the original and by ours against the same scripted
judge server on 127.0.0.1, over hard inputs (the paragraphs of test_same_numbers_hard_inputs.py as questions,
contexts, answers and ground truths).

Both systems delegate their generic engine to the engine named by the inference_engine setting: a local catalog (the
same folder registered in both) holds `engines.loopback_judge`, an OpenAI-protocol engine whose base URL is the server,
answers not cached, data_classification_policy public and proprietary (the rows carry no policy; the original's OpenAI
engine accepts only public data by default). The server answers from the row's content as it appears in any wording
of the judge's prompt - never from the prompt's text itself, which is written here, not copied: the first marker word
of the corpus found in the prompt chooses the verdict (yes / no, a number on the 0-10 scale, a verbal degree), so each
template's post-processors (take_first_word, lower_case, yes -> 1, a float or 0, scale 0-10, verbal judgement) get a
mix of verdicts. The original must ask the server once per row; then every instance score (the judge's raw input, the
prompt, only present: its wording is ours), global score and CI bound it reports is reported here with its value
(1e-6). A name that differs is listed in DIFFERS with the reason (checked: it must still differ).
"""

import json
import os
from pathlib import Path

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer
from unitxt.catalog import fetch_artifact

from . import test_same_numbers_hard_inputs as hard
from .test_catalog_loads import oracle_catalog_folder

ENGINE = "engines.loopback_judge"
# the first of these found in the prompt (the row's texts) decides the answer; no marker is a word or part of a word a
# judge's instructions may use (as "cat" in "indicate" or "e.g." would be)
# (each with an arena-hard preference after its first word, read by the pairwise judges only)
VERDICTS = [("café", "Yes [[A>>B]]"), ("São", "8 [[B>A]]"), ("Mr.", "Completely. [[A=B]]"),
            ("U.N.", "somewhat so [[A>B]]"), ("😀", "yes, partly [[B>>A]]"), ("Dr. Who", "3 out of 10 [[A>B]]"),
            ("Inc.", "mostly [[B>A]]")]
# every answer carries one of Arena-Hard's five verdicts: an answer without one is deliberately unreadable (NaN) for
# our pairwise judges, where the original scores it 0, a tie (README "LLM as judge"; tests/tiers/compat/exceptions.md)
DEFAULT_VERDICT = "No. [[B>>A]]"


def verdict(request):
    """The judge's answer: by the markers of the row's texts in the prompt."""
    text = json.dumps(request.get("messages", request.get("prompt")), ensure_ascii=False)
    return next((answer for marker, answer in VERDICTS if marker in text), DEFAULT_VERDICT)


def judge_names():
    """The original's catalog metrics judged by a generic_inference_engine: through a task (task_based_ll_mas_judge;
    with the field the prediction fills) or on the generator's prompt (llm_as_judge; field "pairwise")."""
    folder = oracle_catalog_folder() / "metrics"
    names = []
    for path in sorted(folder.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        engine = data.get("inference_model")
        if data.get("__type__") in ("task_based_ll_mas_judge", "llm_as_judge") and isinstance(engine, dict) and \
                engine.get("__type__") == "generic_inference_engine":
            names.append(("metrics." + ".".join(path.relative_to(folder).with_suffix("").parts),
                          data.get("prediction_field", "pairwise")))
    return names


NAMES = judge_names()


def rows(name, prediction_field):
    """Hard rows for a judge: answers (or the contexts, when the judge judges them), questions, contexts, ground
    truths (under both names a generator's task may give them); a pairwise judge: the answer against the first
    ground truth, on the question as templates.qa.open renders it for the generator."""
    rng = hard.rng_for(name)
    answers, references, extra = hard.texts(rng)
    if prediction_field == "pairwise":
        return answers, [refs[:1] for refs in references], [
            {"question": more["context"], "answers": refs, "metadata": {"template": "templates.qa.open"}}
            for more, refs in zip(extra, references)]
    contexts = [[hard.paragraph(rng) for _ in range(rng.randint(1, 2))] for _ in range(hard.N)]
    task_data = [{"question": more["context"], "contexts": context, "ground_truths": refs, "reference_answers": refs,
                  "answer": answer} for more, context, refs, answer in zip(extra, contexts, references, answers)]
    predictions = contexts if prediction_field == "contexts" else answers
    for row in task_data:
        row.pop(prediction_field)
    return predictions, [["-"] for _ in predictions], task_data


# names that differ here, with the reason (checked: each must still differ)
DIFFERS = {}
RAW_INPUT = "_judge_raw_input"  # the judge's prompt: worded here, not copied (present, not compared)


@pytest.fixture(scope="module")
def judge_server(tmp_path_factory):
    """The scripted judge and a local catalog naming it as engines.loopback_judge."""
    catalog = tmp_path_factory.mktemp("loopback_catalog")
    with OpenAIProtocolServer(answer=verdict) as server:
        (catalog / "engines").mkdir()
        (catalog / "engines" / "loopback_judge.json").write_text(json.dumps(
            {"__type__": "open_ai_inference_engine", "model_name": "judge", "use_cache": False,
             "credentials": {"api_key": "test-key", "api_url": server.base_url},
             "data_classification_policy": ["public", "proprietary"]}), encoding="utf-8")
        yield server, str(catalog)


@pytest.fixture(scope="module")
def oracle_results(oracle, judge_server, tmp_path_factory):
    """The original's results of every judge (one oracle run), and the requests it made (kept in the JSON file named
    by UNITXT_LOOPBACK_JUDGES_ORACLE_FILE when set, and read from it when it exists)."""
    keep = os.environ.get("UNITXT_LOOPBACK_JUDGES_ORACLE_FILE")
    if keep and Path(keep).exists():
        return tuple(json.loads(Path(keep).read_text(encoding="utf-8")))
    server, catalog = judge_server
    # the original's GenericInferenceEngine caches answers (under ./inference_engine_cache/ by default): a fresh cache
    # each run, so that every answer is asked of the server
    cache = str(tmp_path_factory.mktemp("oracle_inference_cache"))
    jobs = []
    for name, field in NAMES:
        predictions, references, task_data = rows(name, field)
        jobs.append({"kind": "metric", "name": name, "predictions": predictions, "references": references,
                     "task_data": task_data, "catalogs": [catalog],
                     "environ": {"UNITXT_MOCK_INFERENCE_MODE": "False", "UNITXT_INFERENCE_ENGINE": ENGINE,
                                 "UNITXT_INFERENCE_ENGINE_CACHE_PATH": cache}})
    before = server.count
    results = dict(zip([name for name, _ in NAMES], oracle(jobs))), server.count - before
    if keep:
        Path(keep).write_text(json.dumps(results), encoding="utf-8")
    return results


@pytest.fixture
def ours_with_the_judge(judge_server, monkeypatch):
    """Our side: the same local catalog registered, the same engine chosen, not in mock mode."""
    from unitxt.catalog_store import register_local_catalog, unregister_local_catalog

    server, catalog = judge_server
    monkeypatch.setenv("UNITXT_INFERENCE_ENGINE", ENGINE)
    monkeypatch.setenv("UNITXT_MOCK_INFERENCE_MODE", "False")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    register_local_catalog(catalog)
    try:
        yield server
    finally:
        unregister_local_catalog(catalog)


def compare(name, field, theirs):
    predictions, references, task_data = rows(name, field)
    metric = fetch_artifact(name)[0]
    scores = metric.evaluate(predictions, references, task_data)
    instances, global_scores = metric.instance_results(scores), scores.global_scores(with_ci=True)
    for key, value in theirs["global"].items():
        if key != "num_of_instances":
            assert key in global_scores, f"{name}: global {key} missing here"
            hard.close(global_scores[key], value, f"{name} global {key}")
    assert len(instances) == len(theirs["instances"])
    for index, (row, original) in enumerate(zip(instances, theirs["instances"])):
        for key, value in original.items():
            assert key in row, f"{name}: instance {index} {key} missing here"
            if not key.endswith(RAW_INPUT):
                hard.close(row[key], value, f"{name} instance {index} {key}")


@pytest.mark.parametrize("name,field", NAMES, ids=[name for name, _ in NAMES])
def test_loopback_judges_give_the_original_numbers(name, field, oracle_results, ours_with_the_judge):
    theirs = oracle_results[0][name]
    assert "error" not in theirs, f"{name}: the original fails: {theirs['error']}"
    main = theirs["global"]["score_name"]
    verdicts = {row[main] for row in theirs["instances"]}
    assert len(verdicts) >= 2, f"{name}: the rows give one verdict only ({verdicts})"
    if field == "pairwise":
        assert theirs["global"]["score"] != 0 and any(row[main] < 0 for row in theirs["instances"])
    server = ours_with_the_judge
    before = server.count
    if name in DIFFERS:
        with pytest.raises(AssertionError):
            compare(name, field, theirs)
        return
    compare(name, field, theirs)
    assert server.count - before == hard.N  # ours asked the server too, once per row


def test_enough_judges_are_compared(oracle_results):
    """Every selected judge is computed by the original through the server (one request per row) and equal here."""
    results, requests = oracle_results
    computed = [name for name, _ in NAMES if "error" not in results[name]]
    assert requests == hard.N * len(computed)
    print(f"loopback judges: {len(computed)} of {len(NAMES)} computed by the original through the server "
          f"({requests} requests); {len(computed) - len(DIFFERS)} equal here, {len(DIFFERS)} listed as different")
    assert len(computed) - len(DIFFERS) >= MIN_EQUAL


MIN_EQUAL = 33  # issue 50: with the hard-inputs differential's 123, 156 catalog metrics compared and equal
