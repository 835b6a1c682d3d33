"""Runs jobs through the ORIGINAL unitxt package (executed by the oracle venv's python, never imported by tests).

stdin: a JSON list of jobs {"kind": "metric"|"processor", "name", "predictions", "references", "task_data"} (a metric
job may add "overrides": {field: value} set on the metric, and "seed": the global seed for its run), or
{"kind": "metric_stream", "name", "instances": [...]} (the metric run as a stream operator over whole instances, as
eval_utils.evaluate runs it: fields besides prediction / references / task_data reach its preprocess steps), or
{"kind": "operator", "artifact": {...JSON...}, "instances": [...]} / {..., "per_instance": false, "streams": {...}}, or
{"kind": "card", "card": <catalog name>, "sources": [{"path", "name", "data_dir", "splits": {split: rows}}]} (a source
may instead give "iob_files" / "local_files", or add "intercept": stand-in downloads, see card_interceptions.py; an
image source adds "image_columns": {column: "image" | "images"}, its cells base64 {"bytes", "path"}), or
{"kind": "eval_utils", "records": [...], "metric_names": [...], "compute_conf_intervals": bool};
argv[1]: the file that receives a JSON list of results {"instances": [...], "global": {...}} or {"error": "..."}
per job (not stdout: the original package prints there).
"""

import json
import sys

from image_sources import image_facts, typed_split  # next to this script: shared with ours, imports no unitxt


def run_metric(job):
    from unitxt.artifact import fetch_artifact
    from unitxt.test_utils.metrics import apply_metric

    from unitxt.metrics import MetricPipeline

    _environ_and_catalogs(job)
    metric, _ = fetch_artifact(job["name"])
    # a MetricPipeline's inner metric holds the CI settings; other metrics' `metric` attribute is a name (F1's "f1")
    # or an HF evaluate module (HuggingfaceMetric), never where the CI settings live
    target = metric.metric if isinstance(metric, MetricPipeline) else metric
    for field, value in (job.get("overrides") or {}).items():
        setattr(target, field, value)
    if job.get("seed") is not None:
        from unitxt.settings_utils import get_settings

        get_settings().seed = job["seed"]
    predictions, references = job["predictions"], job["references"]
    if job.get("pairs_as_tuples"):  # JSON has no tuples; span-label metrics type-check for them
        predictions = [[tuple(pair) for pair in pairs] for pairs in predictions]
        references = [[[tuple(pair) for pair in pairs] for pairs in refs] for refs in references]
    try:
        outputs = apply_metric(metric=metric, predictions=predictions, references=references,
                               task_data=job.get("task_data"))
    finally:
        if job.get("seed") is not None:
            get_settings().seed = 42
    return {"instances": [output["score"]["instance"] for output in outputs], "global": outputs[0]["score"]["global"]}


def _environ_and_catalogs(job):
    """A job's environment variables (the original's GenericInferenceEngine reads UNITXT_INFERENCE_ENGINE there)
    and local catalogs."""
    import os

    os.environ.update(job.get("environ") or {})
    if job.get("catalogs"):
        from unitxt import register_local_catalog

        for folder in job["catalogs"]:
            register_local_catalog(folder)


def run_metric_stream(job):
    from unitxt.artifact import fetch_artifact
    from unitxt.stream import MultiStream

    metric, _ = fetch_artifact(job["name"])
    outputs = list(metric(MultiStream.from_iterables({"test": job["instances"]}, copying=True))["test"])
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


def run_operator(job):
    """An artifact given as JSON run over instances: one by one (`per_instance`), or as one stream."""
    from unitxt.artifact import Artifact
    from unitxt.stream import MultiStream

    operator = Artifact.from_dict(job["artifact"])
    if job.get("per_instance", True):
        outputs = []
        for instance in job["instances"]:
            for field in job.get("pairs_as_tuples", []):  # JSON has no tuples; e.g. dialogs typed List[Tuple[str, str]]
                instance["input_fields"][field] = [tuple(pair) for pair in instance["input_fields"][field]]
            try:
                outputs.append(operator.process_instance(instance))
            except Exception as error:  # noqa: BLE001 - the oracle's refusal is part of its behaviour
                outputs.append({"error": type(error).__name__})
        return {"instances": outputs, "global": {}}
    result = operator(MultiStream.from_iterables({name: rows for name, rows in job["streams"].items()}))
    return {"streams": {name: list(stream) for name, stream in result.items()}, "global": {}}


def _listed(value):
    return list(value) if isinstance(value, tuple) else value


def run_results(job):
    """create_dataset + evaluate with group_by: the shapes of rows, scores, groups and instance_scores."""
    from unitxt import create_dataset, evaluate
    from unitxt.blocks import InputOutputTemplate, Task

    task = Task(input_fields={"text": str, "kind": str}, reference_fields={"label": str}, prediction_type=str,
                metrics=["metrics.accuracy"])
    template = InputOutputTemplate(input_format="{text}", output_format="{label}")
    dataset = create_dataset(task=task, test_set=job["rows"], template=template, split="test",
                             group_by=job["group_by"])
    results = evaluate(job["predictions"], dataset)
    return {
        "groups_field": [row["groups"] for row in results],
        "score_keys": list(results[0]["score"]),
        "groups_scores": [[_listed(key), [[_listed(value), scores] for value, scores in groups.items()]]
                          for key, groups in results.groups_scores.items()],
        "instance_scores": [dict(row) for row in results.instance_scores],
        "task_data": [json.loads(row["task_data"]) for row in dataset],  # as the dataset serves it
    }


def run_eval_utils(job):
    """unitxt.eval_utils.evaluate on a DataFrame of the job's records: both tables' columns, index and cells."""
    import pandas

    from unitxt.eval_utils import evaluate

    results, global_scores = evaluate(pandas.DataFrame(job["records"]), job["metric_names"],
                                      compute_conf_intervals=job.get("compute_conf_intervals", False))
    return {"results_columns": list(results.columns), "global_columns": list(global_scores.columns),
            "global_index": list(global_scores.index),
            "global": {column: {row: _cell(global_scores.at[row, column]) for row in global_scores.index}
                       for column in global_scores.columns},
            "results": {column: [_cell(value) for value in results[column]] for column in results.columns
                        if column in job["metric_names"]}}


def _cell(value):
    """A table cell as JSON (NaN as None)."""
    if hasattr(value, "item"):
        value = value.item()
    return None if isinstance(value, float) and value != value else value


def _in_memory_hub(sources):
    """Replace the original's Hub access by the given synthetic sources: {"path", "name", "data_dir", "splits"}."""
    import datasets
    import unitxt.loaders as loaders

    def find(path, name=None, data_dir=None, **_):
        for source in sources:
            if (source.get("path"), source.get("name"), source.get("data_dir")) == (path, name, data_dir):
                return source["splits"]
        raise FileNotFoundError(f"no synthetic source for {path} {name} {data_dir}")

    def load(path, *args, name=None, data_dir=None, split=None, streaming=False, **kwargs):
        source = next((source for source in sources if (source["path"], source.get("name"), source.get("data_dir"))
                       == (path, name, data_dir)), {})
        splits = {key: typed_split(rows, source.get("image_columns") or {})
                  for key, rows in find(path, name, data_dir).items()}
        if streaming:
            splits = {key: value.to_iterable_dataset() for key, value in splits.items()}
        if split is not None:
            return splits[split]
        return (datasets.IterableDatasetDict if streaming else datasets.DatasetDict)(splits)

    loaders.LoadHF._loader_cache.clear()  # a card's rows, not those of an earlier job with the same loader
    loaders.hf_load_dataset = load
    loaders.hf_get_dataset_splits = lambda path, name, revision=None: list(find(path, name))


def _local_files(loader, sources):
    """A file loader (LoadIOB, LoadJsonFile) reads the given texts from local files instead of its URLs."""
    import tempfile

    for source in sources:
        if "iob_files" in source or "local_files" in source:
            given = source.get("local_files") or {split: {"name": f"{split}.iob2", "text": text}
                                                  for split, text in source["iob_files"].items()}
            folder = tempfile.mkdtemp()
            files = {}
            for split, file in given.items():
                files[split] = f"{folder}/{file['name']}"
                with open(files[split], "w", encoding="utf-8") as handle:
                    handle.write(file["text"])
            loader.files = files
            if getattr(loader, "indirect_read", False):  # how a URL is opened (urllib first); local files: directly
                loader.indirect_read = False
            if getattr(loader, "compression", None):  # the synthetic files are given uncompressed
                loader.compression = None


def _served_urls(sources):
    """The sources' "url_files" ({url: text}) answer the downloads a card's steps make (the original's ReadFile
    fetches with requests.get); other URLs fail as offline."""
    served = {url: text for source in sources for url, text in source.get("url_files", {}).items()}
    if not served:
        return
    import requests

    class Served:
        def __init__(self, text):
            self.text, self.content, self.status_code = text, text.encode("utf-8"), 200

        def raise_for_status(self):
            return None

    def get(url, *args, **kwargs):
        if url in served:
            return Served(served[url])
        raise requests.ConnectionError(f"offline: no served file for {url}")

    requests.get = get


def _space_cache(sources):
    """Space sources ({"space_files": {"space", "revision", "files"}}) written as the Hub cache's snapshot of each
    Space (tests/support/space_mirrors.py) in a temporary cache that huggingface_hub reads offline; the Space's file list
    (the original asks the Hub for it to match glob patterns) is the snapshot's files."""
    import importlib.util
    import pathlib
    import tempfile

    from huggingface_hub import constants
    import unitxt.loaders as loaders

    if not any("space_files" in source for source in sources):
        return
    path = pathlib.Path(__file__).resolve().parents[2] / "support" / "space_mirrors.py"
    spec = importlib.util.spec_from_file_location("space_mirrors", path)
    mirrors = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mirrors)
    cache = pathlib.Path(tempfile.mkdtemp())
    if mirrors.write_space_sources(sources, cache):
        constants.HF_HUB_CACHE, constants.HF_HUB_OFFLINE = str(cache), True
        loaders.LoadFromHFSpace._get_repo_files = lambda self: mirrors.space_file_names(cache, self.space_name)


def run_card(job):
    """A catalog card's loader (over in-memory sources), preprocess steps and task: the task fields per split."""
    from unitxt.settings_utils import get_settings

    get_settings().allow_unverified_code = True  # the cards' filtering_lambda
    _in_memory_hub([source for source in job["sources"] if not {"iob_files", "local_files"} & set(source)])
    from card_interceptions import intercepted  # next to this script: stand-ins for sklearn, Kaggle, Hub files, ...

    with intercepted(job["sources"]):
        return _card_fields(job)


def _card_fields(job):
    """run_card's work once the sources are in place: the card fetched, loaded, its steps and task applied."""
    from unitxt.artifact import fetch_artifact
    from unitxt.operators import Set

    card, _ = fetch_artifact(job["card"])
    _local_files(card.loader, job["sources"])
    _served_urls(job["sources"])
    _space_cache(job["sources"])
    given = [source["given_instances"] for source in job["sources"] if "given_instances" in source]
    if given:  # a card without a loader: its data is given at use (as produce(instances, recipe) gives it)
        from unitxt.stream import MultiStream

        multi_stream = MultiStream.from_iterables(given[0], copying=True)
    else:
        multi_stream = card.loader()
    # as the original's recipe does before a card's steps (JoinStreams requires this field on both sides;
    # SerializeDialog lays turns out by the recipe's format): no system prompt, formats.user_agent (a plain layout)
    multi_stream = Set(fields={"recipe_metadata/system_prompt": None,
                               "recipe_metadata/format": fetch_artifact("formats.user_agent")[0]})(multi_stream)
    for step in card.preprocess_steps or []:
        multi_stream = step(multi_stream)
    multi_stream = card.task(multi_stream)
    return {"streams": {name: _task_fields(stream) for name, stream in multi_stream.items()}}


def _task_fields(stream):
    """A stream's task fields per instance; a stream that fails (a card's helper stream, such as the unjoined sides of
    a JoinStreams, that a recipe never reads) gives {"error": <exception type>}. Each instance is taken as JSON when it
    streams out, as a recipe renders it then (a later step may still change lists it shares with later instances)."""
    try:
        return [json.loads(json.dumps({"input_fields": row["input_fields"], "reference_fields": row["reference_fields"]},
                                      default=_plain)) for row in stream]
    except Exception as error:  # noqa: BLE001 - compared with our card's outcome on the same stream
        return {"error": type(error).__name__}


def _plain(value):
    """JSON for numpy scalars, artifacts (their dict) and other iterables."""
    if hasattr(value, "item"):
        return value.item()
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if hasattr(value, "tobytes") and hasattr(value, "mode"):  # a PIL image (an image card's task field)
        return image_facts(value)
    return list(value)


def main():
    results = []
    for job in json.load(sys.stdin):
        try:
            runner = {"metric": run_metric, "metric_stream": run_metric_stream, "processor": run_processor,
                      "results": run_results, "eval_utils": run_eval_utils,
                      "operator": run_operator, "card": run_card}[job["kind"]]
            results.append(runner(job))
        except Exception as error:  # noqa: BLE001
            results.append({"error": f"{type(error).__name__}: {str(error)[-300:]}"})
    with open(sys.argv[1], "w", encoding="utf-8") as handle:
        json.dump(results, handle, default=_plain)


if __name__ == "__main__":
    main()
