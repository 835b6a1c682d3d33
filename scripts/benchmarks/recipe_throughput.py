"""Recipe throughput: 20,000 test + 2,000 train rows from local JSONL, relation template, 5 demos from a pool of 100.

Prints, with the N used: the pipeline alone (rows one at a time, rows/s), the columnar render (batches of columns,
what the builder writes), `unitxt.load_dataset(...)` end to end (rows in an in-memory Dataset), each best of 3, and -
when the compat oracle venv exists (.venv-compat-oracle, made by `scripts/run_tests --compat`) - the ORIGINAL
system's load_dataset on the same files in a subprocess, and the speed-up.
Targets (issue 17, item 2): end to end <= 1.0 s and >= 50x the original system; pipeline >= 50,000 rows/s.
Run: PYTHONPATH=core python scripts/benchmarks/recipe_throughput.py [--no-original] [--oracle PATH/bin/python]
"""

import argparse
import json
import os
import random
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Optional

from unitxt import load_dataset
from unitxt.card import TaskCard
from unitxt.loaders import LoadJsonFile
from unitxt.operators import Set
from unitxt.rendering.recipe import DatasetRecipe
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate

WORDS = "the a cat dog sat on mat while sun shines over green hills and river flows quietly near old town".split()


def write_rows(path: Path, count: int, seed: int) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as handle:
        for index in range(count):
            premise = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20)))
            hypothesis = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 10)))
            label = rng.choice(["entailment", "not entailment"])
            handle.write(json.dumps({"id": index, "premise": premise, "hypothesis": hypothesis, "label": label}) + "\n")


def make_recipe(folder: Path) -> DatasetRecipe:
    task = Task(
        input_fields={"text_a": str, "text_a_type": str, "text_b": str, "text_b_type": str, "classes": "List[str]",
                      "type_of_relation": str},
        reference_fields={"label": str},
        prediction_type=str,
        metrics=["metrics.f1_micro", "metrics.accuracy", "metrics.f1_macro"],
    )
    template = InputOutputTemplate(
        instruction="Given a {text_a_type} and {text_b_type} classify the {type_of_relation} of the {text_b_type} to "
                    "one of {classes}.",
        input_format="{text_a_type}: {text_a}\n{text_b_type}: {text_b}",
        target_prefix="The {type_of_relation} class is ",
        output_format="{label}",
    )
    from unitxt.operators import Rename

    card = TaskCard(
        loader=LoadJsonFile(files={"train": str(folder / "train.jsonl"), "test": str(folder / "test.jsonl")}),
        preprocess_steps=[
            Rename(field_to_field={"premise": "text_a", "hypothesis": "text_b"}),
            Set(fields={"text_a_type": "premise", "text_b_type": "hypothesis", "type_of_relation": "entailment",
                        "classes": ["entailment", "not entailment"]}),
        ],
        task=task,
        templates=[template],
    )
    return DatasetRecipe(card=card, num_demos=5, demos_pool_size=100)


def best_of(runs: int, function) -> tuple:
    """(best seconds, last result) over `runs` calls: the machine is shared, single runs wobble."""
    timings, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = function()
        timings.append(time.perf_counter() - start)
    return min(timings), result


def original_seconds(oracle_python: str, folder: Path) -> Optional[dict]:
    """The original system's load_dataset on the same files (None when its venv is absent or the run fails)."""
    if not Path(oracle_python).exists():
        return None
    script = Path(__file__).resolve().parent / "original_recipe_run.py"
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}  # its own unitxt, not ours
    env.update(HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", TQDM_DISABLE="1")
    done = subprocess.run([oracle_python, str(script), str(folder)], capture_output=True, text=True, env=env,
                          cwd=str(folder))
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        print(f"original system: run failed ({done.stderr.strip().splitlines()[-1:]})")
        return None
    return json.loads(lines[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = Path(__file__).resolve().parents[2]
    parser.add_argument("--oracle", default=str(root / ".venv-compat-oracle" / "bin" / "python"),
                        help="python of the venv holding the original unitxt (default: the compat oracle venv)")
    parser.add_argument("--no-original", action="store_true", help="skip the original system's run (~20 s)")
    arguments = parser.parse_args()
    import datasets

    datasets.disable_progress_bars()
    folder = Path(tempfile.mkdtemp(prefix="unitxt-bench-"))
    write_rows(folder / "train.jsonl", 2000, seed=1)
    write_rows(folder / "test.jsonl", 20000, seed=2)
    n = "N = 20,000 test + 2,000 train rows (pool 100 -> 21,900 rows out), 5 demos"
    print(f"recipe throughput, {n}")

    def rows_one_at_a_time() -> int:
        streams = make_recipe(folder)()
        return sum(1 for name in streams for _ in streams[name])

    def column_batches() -> int:
        streams = make_recipe(folder)()
        return sum(len(batch["source"]) for name in streams for batch in streams[name].iter_columns(1000))

    def end_to_end() -> int:
        dataset = load_dataset(make_recipe(folder))
        return sum(len(split) for split in dataset.values())

    seconds, count = best_of(3, rows_one_at_a_time)
    print(f"pipeline alone, rows one at a time (best of 3): {count} rows in {seconds:.3f} s = "
          f"{count / seconds:,.0f} rows/s (target >= 50,000 rows/s)")
    seconds, count = best_of(3, column_batches)
    print(f"columnar render, batches of 1,000 (best of 3): {count} rows in {seconds:.3f} s = "
          f"{count / seconds:,.0f} rows/s")
    end_to_end()  # warm-up: first use of the datasets/pyarrow code paths
    seconds, count = best_of(3, end_to_end)
    print(f"load_dataset end to end (best of 3): {count} rows in {seconds:.3f} s (target <= 1.0 s)")
    if arguments.no_original:
        return
    original = original_seconds(arguments.oracle, folder)
    if original is None:
        print(f"original system: not measured (no oracle venv at {arguments.oracle})")
        return
    print(f"original system (unitxt 1.26.10) load_dataset, same files: {original['rows']} rows in "
          f"{original['seconds']:.2f} s -> this system is {original['seconds'] / seconds:.0f}x faster (target >= 50x)")


if __name__ == "__main__":
    main()
