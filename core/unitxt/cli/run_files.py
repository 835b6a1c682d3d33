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
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from ..general.new_files import publish_new_file


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


def environment_info(arguments: argparse.Namespace, timestamp: Optional[str] = None,
                     version: Optional[str] = None, commit: Optional[str] = None,
                     packages: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
    """What ran, where: the original's `environment_info` fields (the parts not given are looked up). Credentials
    are redacted (see `general.secrets`); a mock-mode run says so (`mock_inference_mode`, see `mock_mode_note`)."""
    from ..general.secrets import redact, secret_values
    from ..settings_utils import settings

    parsed = {key: _plain(value) for key, value in vars(arguments).items()}
    secrets = secret_values(parsed)
    info = {
        "timestamp_utc": timestamp or datetime.now(timezone.utc).replace(tzinfo=None).isoformat() + "Z",
        "command_line_invocation": redact(list(sys.argv), secrets),
        "parsed_arguments": redact(parsed, secrets),
        "unitxt_version": version or unitxt_version(),
        "unitxt_commit_hash": commit or commit_hash() or "N/A",
        "python_version": platform.python_version(),
        "system": platform.system(),
        "system_version": platform.version(),
        "installed_packages": installed_packages() if packages is None else packages,
    }
    if settings.mock_inference_mode:
        info["mock_inference_mode"] = True
    return info


def mock_mode_note(arguments: argparse.Namespace) -> Optional[str]:
    """Under mock mode (UNITXT_MOCK_INFERENCE_MODE), mark the run as mocked: `arguments.model` becomes
    "mock(<model>)" (the name the results file and unitxt-summarize show) and the warning to print is returned; None
    for a real run. A mock run sends nothing: every answer is the prompt echoed back."""
    from ..settings_utils import settings

    if not settings.mock_inference_mode or str(arguments.model).startswith("mock("):
        return None
    model = arguments.model
    arguments.model = f"mock({model})"
    return (f"UNITXT_MOCK_INFERENCE_MODE is on: {model} is NOT called; every answer is the prompt echoed back, so "
            f"the scores are not the model's. The results file records model 'mock({model})' and "
            f"mock_inference_mode: true. Unset UNITXT_MOCK_INFERENCE_MODE for a real run.")


def output_paths(output_path: str, prefix: str, now: Optional[datetime] = None) -> Tuple[Path, Path]:
    """(results file, samples file) in `output_path` (created), named after the local time (the names tried
    first; `write_results` adds -2, -3... to the time when a file of that name exists)."""
    folder = Path(output_path)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.now()).strftime("%Y-%m-%dT%H-%M-%S")
    return folder / f"{stamp}_{prefix}.json", folder / f"{stamp}_{prefix}_samples.json"


def check_output_folder(output_path: str) -> None:
    """Fail before any model call when the results cannot be written: `output_path` must be (or become) a folder
    this process can create files in."""
    from ..errors import UnitxtError

    folder = Path(output_path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not folder.is_dir():
            raise NotADirectoryError(f"{output_path} is not a folder")
        handle, probe = tempfile.mkstemp(prefix=".unitxt-write-check-", dir=folder)
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        raise UnitxtError(f"Cannot write results to {output_path!r} ({error.strerror or error}); give a folder you "
                          f"can write to.", field="--output_path") from None


def samples_by_task(instance_scores: List[Dict[str, Any]]) -> Dict[str, List[Dict[str, Any]]]:
    """Instance rows grouped by their recipe (the first part of `subset`), without `postprocessors`."""
    grouped: Dict[str, List[Dict[str, Any]]] = {}
    for row in instance_scores:
        row = {key: value for key, value in dict(row).items() if key != "postprocessors"}
        subset = row.get("subset") or [""]
        grouped.setdefault(subset[0], []).append(_plain(row))
    return grouped


def write_results(arguments: argparse.Namespace, results: Dict[str, Any],
                  samples: Optional[Dict[str, List[Any]]], info: Optional[Dict[str, Any]] = None,
                  folder: Optional[str] = None, prefix: Optional[str] = None) -> Tuple[Path, Optional[Path]]:
    """Write the results file (and the samples file when `samples` is given) as <folder>/<time>_<prefix>.json
    (default: --output_path, --output_file_prefix); return their paths. Files are never overwritten and never
    written through a link: runs finishing in the same second get -2, -3... after the time. A file that can not be
    written is a UnitxtError naming it."""
    from ..errors import UnitxtError

    folder = arguments.output_path if folder is None else folder
    prefix = arguments.output_file_prefix if prefix is None else prefix
    info = environment_info(arguments) if info is None else info
    try:
        first_results, first_samples = output_paths(folder, prefix)
        results_text = json.dumps({"environment_info": info, "results": _plain(results)}, indent=4,
                                  ensure_ascii=False)
        samples_text = None if samples is None else \
            json.dumps({"environment_info": info, "samples": _plain(samples)}, indent=4, ensure_ascii=False)
        stamp = first_results.name.split("_", 1)[0]
        for attempt in range(1, 10_000):
            tag = stamp if attempt == 1 else f"{stamp}-{attempt}"
            results_path = first_results.with_name(f"{tag}_{prefix}.json")
            samples_path = first_samples.with_name(f"{tag}_{prefix}_samples.json")
            if samples_text is not None and os.path.lexists(samples_path):
                continue
            if not publish_new_file(results_text, results_path):
                continue
            if samples_text is None:
                return results_path, None
            if publish_new_file(samples_text, samples_path):
                return results_path, samples_path
            os.unlink(results_path)  # another writer took the samples name: try the next time tag for both
    except OSError as error:
        where = error.filename or folder
        raise UnitxtError(f"Cannot write the results to {where} ({error.strerror or error}); nothing was saved. "
                          f"Give --output_path a folder you can write to.", field="--output_path") from None
    raise UnitxtError(f"No free results file name in {folder} for {first_results.name}.", field="--output_path")


def read_runs(folder: str) -> List[Dict[str, Any]]:
    """The results files in a folder (any prefix; samples files skipped), oldest first: each {file, model,
    timestamp, results}. A file that cannot be read as a results file is skipped with a warning on stderr."""
    runs = []
    for path in sorted(Path(folder).glob("*.json")):
        if path.name.endswith("_samples.json"):
            continue
        try:
            runs.append(_read_run(path))
        except (OSError, ValueError, TypeError, RecursionError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error) or \
                type(error).__name__
            print(f"unitxt-summarize: warning: skipping {path}: {' '.join(reason.split())[:200]}", file=sys.stderr)
    return sorted(runs, key=lambda run: (str(run["timestamp"]), run["file"]))


def _read_run(path: Path) -> Dict[str, Any]:
    try:
        content = json.loads(path.read_text(encoding="utf-8"))
    except RecursionError:
        raise ValueError("the JSON nests too deeply") from None
    except ValueError as error:
        raise ValueError(f"not JSON ({type(error).__name__})") from None
    if not isinstance(content, dict) or not isinstance(content.get("results"), dict):
        raise ValueError("not a unitxt-evaluate results file (no 'results' object)")
    info = content.get("environment_info")
    info = info if isinstance(info, dict) else {}
    arguments = info.get("parsed_arguments")
    arguments = arguments if isinstance(arguments, dict) else {}
    results = {name: scores for name, scores in content["results"].items()
               if not isinstance(scores, (list, tuple))}
    return {"file": path.name, "timestamp": info.get("timestamp_utc", "N/A"), "model": arguments.get("model", "N/A"),
            "results": results}


def number(value: Any) -> str:
    """A score for a table: 4 decimals, integers as they are, N/A when missing."""
    if value is None:
        return "N/A"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return str(value)
    return "nan" if math.isnan(value) else f"{value:.4f}"
