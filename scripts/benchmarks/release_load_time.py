"""Time datasets.load_dataset(<release>/data, recipe) for a 1,000-row embedded recipe: first run and cached run.

Runs zero-install (unitxt blocked) in fresh interpreters with a private HF cache; needs datasets < 4 (script mode).
Run: python scripts/benchmarks/release_load_time.py   (uses the interpreter it is run with; builds the release first)
"""

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from release_helpers import build_release, last_json, run_zero_install  # noqa: E402

CODE = """
import json, time
start = time.perf_counter()
import datasets
dataset = datasets.load_dataset({data!r}, {recipe!r}, trust_remote_code=True)
elapsed = time.perf_counter() - start
print(json.dumps({{"seconds": elapsed, "rows": {{name: len(split) for name, split in dataset.items()}}}}))
"""


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="unitxt-release-time-"))
    release = build_release(work / "hub")
    recipe = "card=cards.demo.sentiment,template=templates.classification.multi_class.default"
    code = CODE.format(data=str(release / "data"), recipe=recipe)
    first = last_json(run_zero_install(code, work))
    cached = last_json(run_zero_install(code, work))
    print(f"recipe: {recipe}  rows: {first['rows']}")
    print(f"first run (generate + write Arrow, incl. importing datasets): {first['seconds']:.2f} s")
    print(f"cached run (same HF cache): {cached['seconds']:.2f} s")


if __name__ == "__main__":
    main()
