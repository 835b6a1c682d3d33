"""The results files of `unitxt-evaluate`, in the original's layout, and reading them back for `unitxt-summarize`.

`<output_path>/<local time %Y-%m-%dT%H-%M-%S>_<prefix>.json` = {"environment_info": {...}, "results": <subsets
scores: score, score_name, and per recipe its global scores>}; with --log_samples also `..._<prefix>_samples.json`
= {"environment_info": {...}, "samples": {<recipe>: [instance rows]}}.
"""

import argparse
import importlib.metadata
import json
import math
import os
import platform
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple


def _plain(value: Any) -> Any:
    """A JSON-ready copy (numpy numbers and arrays, tuples, sets; NaN kept as JSON NaN like the original)."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_plain(item) for item in value]
    if hasattr(value, "tolist"):
        return _plain(value.tolist())
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return repr(value)


def commit_hash() -> Optional[str]:
    """The git commit of the package's checkout (an editable install), else None."""
    folder = Path(__file__).resolve().parent
    try:
        completed = subprocess.run(["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True,
                                   timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    value = completed.stdout.strip()
    return value if completed.returncode == 0 and len(value) == 40 else None


def unitxt_version() -> str:
    try:
        return importlib.metadata.version("unitxt")
    except importlib.metadata.PackageNotFoundError:
        from ..version import version

        return version


def installed_packages() -> Dict[str, str]:
    packages: Dict[str, str] = {}
    for distribution in importlib.metadata.distributions():
        name = distribution.metadata.get("Name")
        if name:
            packages[name] = distribution.metadata.get("Version") or "N/A"
    return packages


def environment_info(arguments: argparse.Namespace) -> Dict[str, Any]:
    """What ran, where: the original's `environment_info` fields."""
    return {
        "timestamp_utc": datetime.now(timezone.utc).replace(tzinfo=None).isoformat() + "Z",
        "command_line_invocation": list(sys.argv),
        "parsed_arguments": {key: _plain(value) for key, value in vars(arguments).items()},
        "unitxt_version": unitxt_version(),
        "unitxt_commit_hash": commit_hash() or "N/A",
        "python_version": platform.python_version(),
        "system": platform.system(),
        "system_version": platform.version(),
        "installed_packages": installed_packages(),
    }


def output_paths(output_path: str, prefix: str, now: Optional[datetime] = None) -> Tuple[Path, Path]:
    """(results file, samples file) in `output_path` (created), named after the local time."""
    folder = Path(output_path)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.now()).strftime("%Y-%m-%dT%H-%M-%S")
    return folder / f"{stamp}_{prefix}.json", folder / f"{stamp}_{prefix}_samples.json"


def samples_by_task(instance_scores: List[Dict[str, Any]]) -> Dict[str, List[Dict[str, Any]]]:
    """Instance rows grouped by their recipe (the first part of `subset`), without `postprocessors`."""
    grouped: Dict[str, List[Dict[str, Any]]] = {}
    for row in instance_scores:
        row = {key: value for key, value in dict(row).items() if key != "postprocessors"}
        subset = row.get("subset") or [""]
        grouped.setdefault(subset[0], []).append(_plain(row))
    return grouped


def write_results(arguments: argparse.Namespace, results: Dict[str, Any],
                  samples: Optional[Dict[str, List[Dict[str, Any]]]]) -> Tuple[Path, Optional[Path]]:
    """Write the results file (and the samples file when `samples` is given); return their paths."""
    info = environment_info(arguments)
    results_path, samples_path = output_paths(arguments.output_path, arguments.output_file_prefix)
    _dump({"environment_info": info, "results": _plain(results)}, results_path)
    if samples is None:
        return results_path, None
    _dump({"environment_info": info, "samples": samples}, samples_path)
    return results_path, samples_path


def _dump(content: Dict[str, Any], path: Path) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(json.dumps(content, indent=4, ensure_ascii=False), encoding="utf-8")
    os.replace(temporary, path)


def read_runs(folder: str) -> List[Dict[str, Any]]:
    """The results files in a folder (any prefix; samples files skipped), oldest first: each {file, model,
    timestamp, results}. A file that is not a results file is skipped."""
    runs = []
    for path in sorted(Path(folder).glob("*.json")):
        try:
            content = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(content, dict) or not isinstance(content.get("results"), dict):
            continue
        info = content.get("environment_info") or {}
        runs.append({"file": path.name, "timestamp": info.get("timestamp_utc", "N/A"),
                     "model": (info.get("parsed_arguments") or {}).get("model", "N/A"),
                     "results": content["results"]})
    return sorted(runs, key=lambda run: (str(run["timestamp"]), run["file"]))


def number(value: Any) -> str:
    """A score for a table: 4 decimals, integers as they are, N/A when missing."""
    if value is None:
        return "N/A"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return str(value)
    return "nan" if math.isnan(value) else f"{value:.4f}"
