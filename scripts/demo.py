"""The zero-install flow on the embedded demo dataset: only `datasets` (< 4) and `evaluate` are installed.

Loads a recipe through the release's `data` script, prints a prompt with demos, scores simulated model outputs
through the release's `metric` script, prints the global and per-template score tables with CIs, and writes an
HTML report next to the release.
Usage: python scripts/demo.py dist/hub
"""

import random
import sys
from pathlib import Path

import datasets
import evaluate

RECIPE = (
    "card=cards.demo.sentiment,"
    "template=[templates.classification.multi_class.default,templates.key_val],"
    "num_demos=3,demos_pool_size=50,group_by=[template]"
)


def simulated_model(rows, accuracy: float = 0.8, seed: int = 7):
    """A stand-in for inference: right 80% of the time, with the chattiness real models have."""
    rng = random.Random(seed)
    classes = ["negative", "neutral", "positive"]
    outputs = []
    for row in rows:
        answer = row["target"] if rng.random() < accuracy else rng.choice(classes)
        outputs.append(rng.choice([answer, answer.capitalize() + ".", f"{answer}\nBecause the review says so."]))
    return outputs


def main(release: str) -> None:
    release_path = Path(release).resolve()
    print(f"datasets {datasets.__version__}, evaluate {evaluate.__version__}; unitxt is not installed.\n")
    dataset = datasets.load_dataset(str(release_path / "data"), RECIPE, trust_remote_code=True, split="test")
    print(f"Loaded {len(dataset)} test rows of recipe:\n  {RECIPE}\n")
    shown = next(row for row in dataset if '"templates.classification.multi_class.default"' in row["task_data"])
    print("A model-ready prompt with 3 demos:\n" + "-" * 60)
    print(shown["source"])
    print("-" * 60 + f"\nGold answer: {shown['target']!r}\n")

    predictions = simulated_model(dataset)
    metric = evaluate.load(str(release_path / "metric"))
    results = metric.compute(predictions=predictions, references=dataset)
    print("Global scores (95% bootstrap confidence intervals):")
    print(results.global_scores.summary)
    print("\nScores per template:")
    print(results.groups_scores.summary)
    report = release_path.parent / "report.html"
    results.to_html(str(report), title="unitxt demo: sentiment, two templates")
    print(f"\nHTML report (scores with CI bars, per-template groups, confusion matrix, instances): {report}")
    first = results[0]
    print(f"\nFirst instance: prediction {first['prediction']!r} -> processed {first['processed_prediction']!r}, "
          f"score {first['score']['instance']['score']}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "dist/hub")
