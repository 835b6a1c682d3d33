"""The Hub metric (zero-install release, evaluate.load) computes a catalog judge when its engine is reachable: the
engine is chosen by UNITXT_INFERENCE_ENGINE and the loopback server stands in for the provider."""

import json
import re

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer
from unitxt import create_dataset, evaluate
from unitxt.settings_utils import settings
from unitxt.task import Task

from tests.support.release_helpers import build_release, last_json, run_zero_install

METRIC_CODE = """
import json, evaluate
rows = json.load(open("rows.json"))
predictions = json.load(open("predictions.json"))
results = evaluate.load({metric!r}).compute(predictions=predictions, references=rows)
print(json.dumps({{"global": dict(results.global_scores), "instances": [r["score"]["instance"] for r in results]}}))
"""
JUDGE = "metrics.llm_as_judge.rating.generic_template_mt_bench_single_turn"


def rate(request):
    text = request["messages"][-1]["content"]
    answer = re.search(r"\[Assistant Response Begins\]\n(.*?)\n\[Assistant Response Ends\]", text, re.DOTALL)
    return f"Fine. Rating: [[{len(answer.group(1).split())}]]"


def test_hub_metric_computes_a_judge(tmp_path):
    release = build_release(tmp_path / "hub")
    task = Task(input_fields={"question": "str"}, reference_fields={"answer": "str"}, prediction_type="str",
                metrics=[JUDGE])
    rows = create_dataset(task=task, test_set=[{"question": "Hi?", "answer": ""}, {"question": "Why?", "answer": ""}],
                          template="templates.key_val", split="test", data_classification_policy=["public"]).to_list()
    predictions = ["hello", "because it is so"]
    (tmp_path / "rows.json").write_text(json.dumps(rows))
    (tmp_path / "predictions.json").write_text(json.dumps(predictions))
    with OpenAIProtocolServer(answer=rate) as server:
        engine = json.dumps({"__type__": "open_ai_inference_engine", "model_name": "judge", "show_progress": False,
                             "credentials": {"api_key": "k", "api_url": server.base_url}})
        env = {"UNITXT_INFERENCE_ENGINE": engine, "UNITXT_INFERENCE_CACHE_DIR": str(tmp_path / "cache")}
        result = last_json(run_zero_install(METRIC_CODE.format(metric=str(release / "metric")), tmp_path, env))
        assert server.count == 2
        with settings.context(inference_engine=engine, inference_cache_dir=str(tmp_path / "cache2")):
            library = evaluate(predictions, rows)
    main = "generic_template_mt_bench_single_turn"
    assert [instance[main] for instance in result["instances"]] == [0.1, 0.4]
    assert result["global"]["score"] == pytest.approx(0.25)
    assert result["global"] == json.loads(json.dumps(dict(library.global_scores)))
