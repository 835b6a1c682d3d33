"""The time Inspect's machinery adds per sample over unitxt.evaluate, on 1,000 rows of the demo recipe.

Run from the repository root, in the inspect tier's venv (scripts/run_tests --inspect builds it):
    .venv-inspect/bin/python scripts/benchmarks/inspect_overhead.py [--rows 1000] [--repeats 3]

Both sides score the same model outputs (a zero-latency stand-in model: right most of the time, chatty as real models
are) of the same rendered rows; building the rows is left out of both. Timed:
  evaluate   unitxt.evaluate(outputs, rows): the global scores with their confidence intervals
  per-row    unitxt.evaluate of each row alone (what the scorer computes for each sample's own Score)
  inspect    inspect_ai.eval(recipe_task(...), mockllm/model): samples, solver, scorer, metrics, the log written
The overhead per sample is (inspect - evaluate) / rows; the per-row part of it is the scorer's own instance scoring,
the rest is Inspect's (its sample loop, transcripts, events, the log file). Reported in wall and in CPU seconds (on a
loaded machine the wall figure mostly measures waiting for a core).
"""

import argparse
import hashlib
import json
import random
import sys
import tempfile
import time
from typing import Any, Dict, List

RECIPE = ("card=cards.demo.sentiment,template=[templates.classification.multi_class.default,templates.key_val],"
          "num_demos=3,demos_pool_size=50,group_by=[template]")
CLASSES = ["negative", "neutral", "positive"]


def last_text(source: Any) -> str:
    if isinstance(source, str):
        return source
    last = source[-1]
    return last["content"] if isinstance(last, dict) else last.text


def simulated_answer(target: str, prompt: str) -> str:
    """Right 80% of the time, with the chattiness real models have (a stable function of the prompt)."""
    rng = random.Random(int(hashlib.sha256(prompt.encode()).hexdigest(), 16))
    answer = target if rng.random() < 0.8 else rng.choice(CLASSES)
    return rng.choice([answer, answer.capitalize() + ".", f"{answer}\nBecause the review says so."])


def timed(function: Any) -> Dict[str, float]:
    """Wall and CPU seconds of a call (CPU: this process, all its threads; on a shared machine the fairer figure)."""
    wall, cpu = time.perf_counter(), time.process_time()
    function()
    return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    import unitxt
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from unitxt.inspect import recipe_task

    task_rows: List[Dict[str, Any]] = [dict(row) for row in unitxt.load_dataset(RECIPE, split="test")][:args.rows]
    answers = {last_text(row["source"]): simulated_answer(row["target"], last_text(row["source"])) for row in task_rows}
    outputs = [answers[last_text(row["source"])] for row in task_rows]

    def respond(messages, tools, tool_choice, config):
        output = ModelOutput.from_content(model="mockllm/model", content=answers[last_text(messages)])
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tiktoken count
        return output

    unitxt.evaluate(outputs[:10], task_rows[:10])  # warm: imports, catalog reads
    results: Dict[str, List[Dict[str, float]]] = {"evaluate": [], "per-row": [], "inspect": []}
    log = None
    for _ in range(args.repeats):
        results["evaluate"].append(timed(lambda: unitxt.evaluate(outputs, task_rows)))
        results["per-row"].append(timed(lambda: [unitxt.evaluate([output], [row], calc_confidence_intervals=False)
                                                 for output, row in zip(outputs, task_rows)]))
        task = recipe_task(RECIPE, limit=args.rows)  # builds the rows again (not timed, as above)
        with tempfile.TemporaryDirectory() as logs:
            def run() -> None:
                nonlocal log
                (log,) = inspect_eval(task, model=get_model("mockllm/model", custom_outputs=respond), log_dir=logs,
                                      display="none", max_connections=100)
            results["inspect"].append(timed(run))
    in_log = log.results.scores[0].metrics["f1_micro"].value
    expected = unitxt.evaluate(outputs, task_rows).global_scores["f1_micro"]
    report: Dict[str, Any] = {"rows": args.rows, "repeats": args.repeats, "python": sys.version.split()[0],
                              "f1_micro in the log == unitxt.evaluate": abs(in_log - expected) < 1e-9}
    for clock in ("wall", "cpu"):
        best = {name: min(times[clock] for times in runs) for name, runs in results.items()}
        overhead = (best["inspect"] - best["evaluate"]) / args.rows
        report[clock] = {
            "seconds (best of repeats)": {name: round(value, 3) for name, value in best.items()},
            "overhead per sample (ms)": round(overhead * 1000, 2),
            "of which the scorer's per-row unitxt scoring (ms)": round(best["per-row"] / args.rows * 1000, 2),
            "of which Inspect's own machinery (ms)": round((overhead - best["per-row"] / args.rows) * 1000, 2),
        }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
