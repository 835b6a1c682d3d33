"""The original's parameters and helpers of issue 36 (checked against unitxt 1.26.10 on the same inputs):
api.evaluate/load_dataset/produce keywords, fetch_artifact(overwrite_kwargs), dict_get(default), print_dict options,
the evaluate_cli helpers, utils.safe_eval over the sandbox, and eval_utils.as_remote_metric through a metrics
service on 127.0.0.1."""

import argparse
import json
import math
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from unitxt.api import evaluate, load_dataset, produce
from unitxt.artifact import fetch_artifact
from unitxt.dict_utils import dict_get
from unitxt.errors import SandboxError, UnitxtError
from unitxt.evaluate_cli import extract_overwrite_args, extract_scores, summarize_cli
from unitxt.metric_utils import MetricRequest, MetricResponse
from unitxt.settings_utils import settings
from unitxt.text_utils import print_dict
from unitxt.utils import safe_eval

RECIPE = "card=cards.demo.sentiment,template=templates.key_val,loader_limit=4"


def test_evaluate_takes_dataset_or_data_and_needs_the_rows():
    rows = load_dataset(RECIPE, split="test")
    predictions = list(rows["target"])
    by_dataset = evaluate(predictions, rows).global_scores["score"]
    assert evaluate(predictions=predictions, dataset=rows).global_scores["score"] == by_dataset == 1.0
    assert evaluate(predictions=["x"] * len(rows), data=rows, dataset=[]).global_scores["score"] == 0.0  # data wins
    with pytest.raises(UnitxtError, match="Specify 'dataset' in evaluate"):
        evaluate(predictions=predictions)


def test_load_dataset_and_produce_take_dataset_query():
    by_keyword = load_dataset(dataset_query=RECIPE, split="test")
    assert list(by_keyword["source"]) == list(load_dataset(RECIPE, split="test")["source"])
    instance = {"text": "Great phone.", "text_type": "review", "classes": ["negative", "positive"],
                "type_of_class": "sentiment", "label": "positive"}
    rendered = produce(instance, dataset_query="card=cards.demo.sentiment,template=templates.key_val")
    assert rendered["source"] == ("text: Great phone., text_type: review, classes: negative, positive, "
                                  "type_of_class: sentiment\n")
    assert produce([instance], card="cards.demo.sentiment", template="templates.key_val")[0]["source"] == \
        rendered["source"]
    assert produce(instance, recipe="card=cards.demo.sentiment,template=templates.key_val") == rendered


def test_load_dataset_use_cache_none_reads_the_setting(monkeypatch):
    import unitxt.api as api

    seen = []
    original = api._cache_disabled
    monkeypatch.setattr(api, "_cache_disabled", lambda use_cache, disable_cache: seen.append(use_cache) or
                        original(use_cache, disable_cache))
    load_dataset(RECIPE, split="test")
    with settings.context(dataset_cache_default=True):
        load_dataset(RECIPE, split="test", cache_dir=str(__import__("tempfile").mkdtemp()))
    assert seen == [False, True]


def test_fetch_artifact_overwrite_kwargs_win_over_the_query():
    metric, catalog = fetch_artifact("metrics.accuracy[n_resamples=3]", overwrite_kwargs={"n_resamples": 7})
    assert metric.n_resamples == 7 and catalog is not None
    assert fetch_artifact("metrics.accuracy", {"n_resamples": 5})[0].n_resamples == 5
    assert fetch_artifact("metrics.accuracy[n_resamples=3]")[0].n_resamples == 3


def test_dict_get_default_needs_not_exist_ok_as_the_original():
    with pytest.raises(ValueError, match='query "b" did not match'):
        dict_get({"a": 1}, "b", default=5)
    with pytest.raises(ValueError):
        dict_get({"a": {"b": 1}}, "a/c", default=5)
    assert dict_get({"a": 1}, "b", not_exist_ok=True, default=5) == 5


def test_print_dict_options_as_the_original(capsys):
    print_dict({"a": "x" * 30, "b": {"c": "line1\nline2"}}, indent=2, indent_delta=3, max_chars=20)
    assert capsys.readouterr().out == ("  a (str):\n     xxxxxxxxxxxxxxx\n     xxxxxxxxxxxxxxx\n  b (dict):\n"
                                       "     c (str):\n        line1\n        line2\n")
    print_dict({"a": 1, "b": 2}, keys_to_print=["b"], log_level="debug")  # to the logger, hidden at info
    assert capsys.readouterr().out == ""
    with pytest.raises(ValueError, match="log_level"):
        print_dict({"a": 1}, log_level="loud")


def _results_folder(tmp_path):
    def write(name, model, timestamp, results):
        info = {"timestamp_utc": timestamp, "parsed_arguments": {"model": model}}
        (tmp_path / name).write_text(json.dumps({"environment_info": info, "results": results}))

    write("2024-01-02T00:00:00_evaluation_results.json", "m2", "2024-01-02T00:00:00",
          {"score": 0.5, "score_name": "subsets_mean", "card=a": {"score": 0.4, "score_name": "f1"},
           "card=b": {"score": 0.6}})
    write("2024-01-01T00:00:00_evaluation_results.json", "m1", "2024-01-01T00:00:00",
          {"score": 0.7, "card=a": {"score": 0.7}})
    write("x_samples.json", "m1", "2024", {})
    (tmp_path / "bad_evaluation_results.json").write_text("{no")
    return tmp_path


def test_extract_scores_and_summarize_cli(tmp_path, monkeypatch, caplog):
    folder = _results_folder(tmp_path)
    frame = extract_scores(str(folder))
    assert list(frame.columns) == ["Model", "Timestamp", "Average", "card=a", "card=b"]
    records = frame.to_dict("records")
    assert [record["Model"] for record in records] == ["m1", "m2"]
    assert records[1] == {"Model": "m2", "Timestamp": "2024-01-02T00:00:00", "Average": 0.5, "card=a": 0.4,
                          "card=b": 0.6}
    assert math.isnan(records[0]["card=b"])
    assert "Error parsing results file bad_evaluation_results.json" in caplog.text
    monkeypatch.setattr(sys, "argv", ["summarize", str(folder)])
    caplog.clear()
    with caplog.at_level("INFO", logger="unitxt"):
        summarize_cli()
    table = caplog.records[-1].getMessage().splitlines()
    assert table[0].split("|")[1:-1] == [" Model ", " Timestamp           ", " Average ", " card=a ", " card=b "]
    assert table[3].split("|")[1].strip() == "m2" and table[3].split("|")[5].strip() == "0.6"
    monkeypatch.setattr(sys, "argv", ["summarize"])
    with pytest.raises(SystemExit) as caught:
        summarize_cli()
    assert caught.value.code == 1


def test_extract_overwrite_args():
    args = argparse.Namespace(limit=5, split="test", num_fewshots=2, apply_chat_template=True)
    assert extract_overwrite_args(args) == {"max_test_instances": 5, "num_demos": 2, "demos_taken_from": "train",
                                            "demos_pool_size": -1, "demos_removed_from_data": True,
                                            "format": "formats.chat_api"}
    args = argparse.Namespace(limit=None, split="train", num_fewshots=0, apply_chat_template=False)
    assert extract_overwrite_args(args) == {}


def test_safe_eval_checks_tokens_then_runs_in_the_sandbox():
    assert safe_eval("a + b * 2", {"a": 1, "b": 3}, ["+", "*", " "]) == 7
    assert safe_eval("x > 2 and y", {"x": 3, "y": True}, [" ", ">", "and"]) is True
    assert safe_eval("'q' + a", {"a": "w"}, [" ", "+"]) == "qw"
    with pytest.raises(ValueError, match="contains tokens outside the allowed list"):
        safe_eval("a - 1", {"a": 5}, ["+"])
    with pytest.raises(SandboxError, match="dunder"):
        safe_eval("__import__('os')", {}, ["__import__", "(", ")"])
    with pytest.raises(SandboxError):
        safe_eval("a.__class__", {"a": 1}, [".", "__class__"])


class _MetricsService(BaseHTTPRequestHandler):
    """POST /compute/<metric>: the metrics service's own request handling (unitxt.service.requests)."""

    requests = []

    def do_POST(self):  # noqa: N802 - http.server's name
        from unitxt.service.requests import answer_bytes, compute_metric

        raw = self.rfile.read(int(self.headers["Content-Length"]))
        self.requests.append((self.path, MetricRequest(**json.loads(raw))))
        answer = answer_bytes(compute_metric(self.path.rsplit("/", 1)[1], json.loads(raw)))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


def test_as_remote_metric_computes_the_inner_metric_on_the_service():
    from unitxt.eval_utils import as_remote_metric
    from unitxt.metrics import MetricPipeline, RemoteMetric

    server = ThreadingHTTPServer(("127.0.0.1", 0), _MetricsService)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        pipeline = MetricPipeline(main_score="accuracy", metric=fetch_artifact("metrics.accuracy")[0])
        endpoint = f"http://127.0.0.1:{server.server_address[1]}/compute"
        with settings.context(remote_metrics_endpoint=endpoint):
            remote = as_remote_metric(pipeline)
        assert isinstance(remote.metric, RemoteMetric) and remote is not pipeline
        assert (remote.metric.metric_name, remote.metric.main_score, remote.metric.endpoint) == (
            "metrics.accuracy", "accuracy", endpoint)
        predictions, references = ["a", "b", "c", "a"], [["a"], ["b"], ["x"], ["y"]]
        remote_scores = remote.evaluate(predictions, references)
        local_scores = pipeline.evaluate(predictions, references)
        assert remote_scores.global_scores(with_ci=False)["accuracy"] == 0.5 == \
            local_scores.global_scores(with_ci=False)["accuracy"]
        path, request = _MetricsService.requests[-1]
        assert path == "/compute/metrics.accuracy"
        assert request.instance_inputs[2] == {"prediction": "c", "references": ["x"], "additional_inputs": {}}
    finally:
        server.shutdown()
        server.server_close()
    with pytest.raises(ValueError, match="Remotely executed metrics should be MetricPipeline objects"):
        as_remote_metric(fetch_artifact("metrics.accuracy")[0])


def test_metric_response_holds_the_service_answer():
    response = MetricResponse(instances_scores=[{"accuracy": 1.0}], global_score={"accuracy": 1.0})
    assert response.to_dict() == {"instances_scores": [{"accuracy": 1.0}], "global_score": {"accuracy": 1.0}}
    with pytest.raises(UnitxtError):
        MetricResponse(instances_scores=[])  # global_score is required
