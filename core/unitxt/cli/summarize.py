"""`unitxt-summarize DIR`: one table of every `unitxt-evaluate` results file in a folder - run, model, recipe, main
score and its confidence interval - oldest run first, as Markdown."""

import argparse
import sys
from typing import Any, Dict, List, Optional

from .run_files import number, read_runs


def rows(folder: str) -> List[Dict[str, str]]:
    """One row per (results file, recipe), then the file's mean over recipes ("subsets mean")."""
    table = []
    for run in read_runs(folder):
        results = run["results"]
        base = {"run": run["file"], "model": str(run["model"]), "timestamp": str(run["timestamp"])}
        for task, scores in results.items():
            if isinstance(scores, dict) and "score" in scores:
                table.append({**base, "task": task, "score_name": str(scores.get("score_name", "score")),
                              "score": number(scores.get("score")), "ci": _interval(scores)})
        if "score" in results:
            table.append({**base, "task": "(mean over tasks)", "score_name": str(results.get("score_name", "")),
                          "score": number(results.get("score")), "ci": _interval(results)})
    return table


def _interval(scores: Dict[str, Any]) -> str:
    low, high = scores.get("score_ci_low"), scores.get("score_ci_high")
    return f"[{number(low)}, {number(high)}]" if low is not None and high is not None else ""


def markdown(table: List[Dict[str, str]]) -> str:
    columns = ["run", "model", "task", "score_name", "score", "ci"]
    widths = {column: max([len(column)] + [len(row[column]) for row in table]) for column in columns}
    lines = ["| " + " | ".join(column.ljust(widths[column]) for column in columns) + " |",
             "|" + "|".join("-" * (widths[column] + 2) for column in columns) + "|"]
    for row in table:
        lines.append("| " + " | ".join(row[column].ljust(widths[column]) for column in columns) + " |")
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="unitxt-summarize", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Print a table of every unitxt-evaluate results file in a folder (run, model, task, main score, "
                    "confidence interval).",
        epilog="example:\n  unitxt-evaluate -t card=cards.demo.sentiment -m cross_provider "
               "-a model_name=m,base_url=http://127.0.0.1:8000/v1 -o runs\n  unitxt-summarize runs")
    parser.add_argument("directory", help="the folder unitxt-evaluate wrote to (--output_path)")
    arguments = parser.parse_args(argv)
    import os

    if not os.path.isdir(arguments.directory):
        print(f"unitxt-summarize: error: no such folder: {arguments.directory}", file=sys.stderr)
        return 1
    table = rows(arguments.directory)
    if not table:
        print(f"unitxt-summarize: error: no unitxt-evaluate results files in {arguments.directory}", file=sys.stderr)
        return 1
    print(markdown(table))
    return 0


def console_main() -> None:
    sys.exit(main())


if __name__ == "__main__":
    console_main()
