"""Loads recipes and reports what a user sees of the rows (run unchanged by the original's interpreter and by ours,
from a folder of Hub-layout mirrors; imports only the public `unitxt` API).

stdin: a JSON list of recipes {"query": "<recipe string>"} or {"kwargs": {...load_dataset keywords...}}, each with an
optional "split" and "hub_script": true (loaded through the Hub entry `datasets.load_dataset(<script>, <query>)`
instead, the script path given in argv[2]). argv[1]: the file receiving a JSON list, per recipe, of
{"features": {column: Arrow type}, "stored": {column: Python type of to_dict() values}, "read": {column: type of
ds[0] values}, "parquet_source": Arrow type, "rows": to_dict() rows with task_data and chat sources parsed} or
{"error": "..."}.
"""

import json
import os
import sys
import tempfile


def _types(value):
    return type(value).__name__


def _row(row):
    row = dict(row)
    row["task_data"] = json.loads(row["task_data"])
    if isinstance(row["source"], str) and row["source"].startswith("[{"):
        row["source"] = json.loads(row["source"])
    return row


def _report(dataset):
    import pyarrow.parquet

    stored = dataset.to_dict()
    first = dataset[0]
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "rows.parquet")
        dataset.to_parquet(path)
        parquet_source = str(pyarrow.parquet.read_schema(path).field("source").type)
    columns = list(stored)
    rows = [_row({name: stored[name][index] for name in columns}) for index in range(len(dataset))]
    return {
        "features": {name: str(dataset.features.arrow_schema.field(name).type) for name in dataset.features},
        "stored": {name: _types(stored[name][0]) for name in columns},
        "read": {name: _types(first[name]) for name in columns},
        "iterated_source": _types(next(iter(dataset))["source"]),
        "parquet_source": parquet_source,
        "rows": rows,
    }


def _load(recipe, script):
    kwargs = dict(recipe.get("kwargs") or {})
    split = kwargs.pop("split", None) or recipe.get("split", "test")
    if recipe.get("hub_script"):
        import datasets

        return datasets.load_dataset(script, recipe["query"], split=split, trust_remote_code=True)
    from unitxt import load_dataset

    if "query" in recipe:
        return load_dataset(recipe["query"], split=split)
    return load_dataset(split=split, **kwargs)


def main():
    recipes = json.load(sys.stdin)
    script = sys.argv[2] if len(sys.argv) > 2 else None
    results = []
    for recipe in recipes:
        try:
            results.append(_report(_load(recipe, script)))
        except Exception as error:  # noqa: BLE001 - reported, compared with the other library's outcome
            results.append({"error": f"{type(error).__name__}: {str(error)[-300:]}"})
    with open(sys.argv[1], "w", encoding="utf-8") as handle:
        json.dump(results, handle, default=str)


if __name__ == "__main__":
    main()
