"""Runs one of the original's documented examples, its file as published (read from the original's repository
checkout at test time, never copied here), with its engines replaced by offline stand-ins, and writes its results.

Usage: run_documented_example.py <example.py> <output.json>. The judge engine the example builds
(CrossProviderInferenceEngine) becomes an OpenAI-protocol engine at JUDGE_API_URL when that is set (else the
example runs in mock inference mode, as given by the environment); a local model (HFPipelineBasedInferenceEngine)
answers PREDICTIONS (a JSON list). The example's `results` (or its `global_scores` and per-instance scores) are
written as JSON.
"""

import json
import os
import runpy
import sys

import unitxt.inference as inference


def judge_engine(**settings):
    return inference.OpenAiInferenceEngine(model_name="judge", use_cache=False,
                                           data_classification_policy=["public", "proprietary"],
                                           credentials={"api_key": "none", "api_url": os.environ["JUDGE_API_URL"]})


def local_model(**settings):
    return lambda dataset, **_: json.loads(os.environ["PREDICTIONS"])


if os.environ.get("JUDGE_API_URL"):
    inference.CrossProviderInferenceEngine = judge_engine
if os.environ.get("PREDICTIONS"):
    inference.HFPipelineBasedInferenceEngine = local_model

names = runpy.run_path(sys.argv[1], run_name="__main__")
if "results" in names and hasattr(names["results"], "instance_scores"):
    results = names["results"]
    report = {"global": {key: value for key, value in results.global_scores.items() if isinstance(value, float)
                         and not key.endswith(("_ci_low", "_ci_high"))},
              "instances": [row["score"] for row in results.instance_scores]}
else:  # an example that scores rows itself: its global scores and the score columns it adds to the rows
    report = {"global": names["global_scores"],
              "columns": sorted({key for row in names["results"] for key in row if key.endswith("_judge")})}
with open(sys.argv[2], "w", encoding="utf-8") as out:
    json.dump(report, out, indent=1, sort_keys=True, default=str)
