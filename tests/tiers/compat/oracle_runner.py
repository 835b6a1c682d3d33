"""Runs jobs through the ORIGINAL unitxt package (executed by the oracle venv's python, never imported by tests).

stdin: a JSON list of jobs {"kind": "metric"|"processor", "name", "predictions", "references", "task_data"};
argv[1]: the file that receives a JSON list of results {"instances": [...], "global": {...}} or {"error": "..."}
per job (not stdout: the original package prints there).
"""

import json
import sys


def run_metric(job):
    from unitxt.artifact import fetch_artifact
    from unitxt.test_utils.metrics import apply_metric

    metric, _ = fetch_artifact(job["name"])
    outputs = apply_metric(metric=metric, predictions=job["predictions"], references=job["references"],
                           task_data=job.get("task_data"))
    return {"instances": [output["score"]["instance"] for output in outputs], "global": outputs[0]["score"]["global"]}


def run_processor(job):
    from unitxt.artifact import fetch_artifact

    operator, _ = fetch_artifact(job["name"])
    instances = []
    for prediction, references in zip(job["predictions"], job["references"]):
        try:
            out = operator.process_instance({"prediction": prediction, "references": list(references)})
            instances.append({"prediction": out["prediction"], "references": out["references"]})
        except Exception as error:  # noqa: BLE001 - the oracle's refusal is part of its behaviour
            instances.append({"error": type(error).__name__})
    return {"instances": instances, "global": {}}


def main():
    results = []
    for job in json.load(sys.stdin):
        try:
            results.append(run_metric(job) if job["kind"] == "metric" else run_processor(job))
        except Exception as error:  # noqa: BLE001
            results.append({"error": f"{type(error).__name__}: {str(error)[-300:]}"})
    with open(sys.argv[1], "w", encoding="utf-8") as handle:
        json.dump(results, handle, default=lambda value: value.item() if hasattr(value, "item") else list(value))


if __name__ == "__main__":
    main()
