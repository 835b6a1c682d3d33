"""A judge (an LLM-as-judge metric over an engine) scored on the cluster: its engine calls run in the chunk tasks on
the cluster's workers, against the loopback OpenAI-protocol server, and its scores equal the in-process evaluate()
of the same rows; one log line says where it was scored."""

import json
import logging
import re

import pytest

import unitxt.ray as uray
from unitxt import evaluate
from unitxt.evaluation.streamed import evaluate_in_chunks
from unitxt.inference import OpenAiInferenceEngine
from unitxt.llm_as_judge import LLMJudgeDirect
from unitxt.llm_as_judge_constants import direct_criteria

from tests.support.openai_protocol_server import OpenAIProtocolServer

VERDICT = "nothing else:"


def conciseness(request):
    """A consistent judge: 'Yes' for a response of at most two words, whatever the order of the options."""
    if VERDICT not in request["messages"][-1]["content"]:
        return "The response is judged on its length."
    # the verdict request continues the conversation whose first (user) turn holds the response
    response = re.search(r"to judge:\n<<<\n(.*?)\n>>>", request["messages"][0]["content"], flags=re.DOTALL).group(1)
    return "Yes" if len(response.split()) <= 2 else "No."


def judge_metric(server, cache_dir):
    """The judge as an inline metric of the rows (JSON with its __type__), its engine at the loopback server."""
    engine = OpenAiInferenceEngine(model_name="judge", credentials={"api_key": "k", "api_url": server.base_url},
                                   num_parallel_requests=8, show_progress=False, cache_dir=str(cache_dir))
    judge = LLMJudgeDirect(inference_engine=engine, criteria=direct_criteria()["conciseness"])
    return json.dumps(judge.to_dict())


def judged_rows(metric, count):
    predictions = [" ".join([f"word{index}"] * (1 + index % 4)) for index in range(count)]  # each prompt unique
    rows = [{"source": f"question {index}", "target": "", "references": [], "metrics": [metric],
             "postprocessors": [],  # conciseness reads the question as its context field, as the original's criteria
             "task_data": json.dumps({"question": f"question {index}", "metadata": {"template": "t"}}),
             "groups": [], "subset": [], "media": {"images": [], "audios": []},
             "data_classification_policy": ["public"]} for index in range(count)]
    return predictions, rows


def test_a_judge_scored_on_the_cluster_gives_the_in_process_scores(cluster, tmp_path, caplog):
    count = 40
    with OpenAIProtocolServer(answer=conciseness) as server:
        predictions, rows = judged_rows(judge_metric(server, tmp_path / "here"), count)
        in_process = evaluate(predictions, rows)
        asked_here = server.count
        assert asked_here == count * 2 * 2  # rows x option orders x (assessment, verdict)
        # the same judge with a cache of its own: every call is made again, by the cluster's workers
        predictions, rows = judged_rows(judge_metric(server, tmp_path / "cluster"), count)
        dataset = uray.from_rows([dict(row, prediction=prediction) for row, prediction in zip(rows, predictions)],
                                 rows_per_block=15)
        with caplog.at_level(logging.INFO, logger="unitxt"):
            on_ray = evaluate(predictions="prediction", data=dataset, chunk_size=10)
        assert server.count == 2 * asked_here
        # the streamed evaluation of the very rows (the metric's JSON is part of its resampling seed), from the cache
        streamed = evaluate_in_chunks(predictions, rows, chunk_size=10)
        assert server.count == 2 * asked_here
    assert in_process.global_scores["conciseness"] == pytest.approx(0.5)  # 1 and 2 words: Yes; 3 and 4: No
    for name, value in in_process.global_scores.items():
        if isinstance(value, float) and "ci_" not in name:
            assert on_ray.global_scores[name] == pytest.approx(value, abs=1e-12), name
    # the confidence interval is the streamed evaluation's of the same chunks (seeded by the chunk's index)
    assert on_ray.global_scores["conciseness_ci_low"] == streamed.global_scores["conciseness_ci_low"]
    assert on_ray.global_scores["conciseness_ci_high"] == streamed.global_scores["conciseness_ci_high"]
    # each instance's answers were asked from the cluster's worker processes: the cluster's cache holds them all
    assert len(OpenAiInferenceEngine(cache_dir=str(tmp_path / "cluster"))._cache()) == count * 2 * 2
    lines = [record.getMessage() for record in caplog.records if record.getMessage().startswith("Ray evaluation")]
    assert len(lines) == 1, lines  # one line says where the judge was scored
    assert f"Ray evaluation of {count} rows in " in lines[0]
    assert "engine calls on the cluster (inside the chunk tasks): " in lines[0]
    assert re.search(r"engine calls on the cluster \(inside the chunk tasks\): [^;.]*LLMJudgeDirect", lines[0]), \
        lines[0]

