"""Time `python -c "import unitxt"` in fresh interpreters (target < 0.3 s; datasets and scipy are imported lazily).

Run: PYTHONPATH=core python scripts/benchmarks/import_time.py
"""

import os
import subprocess
import sys
import time


def main(repeats: int = 5) -> None:
    environment = dict(os.environ)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import unitxt"], check=True, env=environment)
        times.append(time.perf_counter() - start)
    baseline = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True, env=environment)
        baseline.append(time.perf_counter() - start)
    check = subprocess.run(
        [sys.executable, "-c", "import sys, unitxt; print(sorted(m for m in ('datasets', 'scipy', 'numpy', 'evaluate') if m in sys.modules))"],
        check=True, env=environment, capture_output=True, text=True,
    ).stdout.strip()
    print(f"python -c 'import unitxt': best {min(times):.3f} s, median {sorted(times)[len(times) // 2]:.3f} s "
          f"(bare interpreter {min(baseline):.3f} s; target < 0.3 s)")
    print(f"heavy modules imported by 'import unitxt': {check}")


if __name__ == "__main__":
    main()
