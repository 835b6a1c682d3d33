"""Helpers for release tests: build the release once per session and run code in a zero-install subprocess."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

BLOCK_INSTALLED_UNITXT = '''
import importlib.abc, sys
class _Block(importlib.abc.MetaPathFinder):
    """Simulates a machine where unitxt is not installed."""
    def find_spec(self, name, path=None, target=None):
        if name == "unitxt":
            raise ModuleNotFoundError("No module named 'unitxt'")
        return None
sys.meta_path.insert(0, _Block())
'''


def build_release(output: Path) -> Path:
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_release"), "--output", str(output)], check=True,
                   capture_output=True)
    return output


def run_zero_install(code: str, cwd: Path, env_extra=None, block_unitxt: bool = True) -> subprocess.CompletedProcess:
    """Run code in a fresh interpreter (unitxt blocked unless asked), offline, with private HF caches under cwd."""
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH",)}
    env.update({"HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "HF_HOME": str(cwd / ".hf_home"),
                "HF_DATASETS_CACHE": str(cwd / ".hf_home" / "datasets"), "PYTHONHASHSEED": "0"})
    env.pop("HF_MODULES_CACHE", None)
    env.update(env_extra or {})
    script = (BLOCK_INSTALLED_UNITXT if block_unitxt else "") + code
    return subprocess.run([sys.executable, "-c", script], cwd=str(cwd), env=env, capture_output=True, text=True)


def last_json(completed: subprocess.CompletedProcess):
    if completed.returncode != 0:
        raise AssertionError(f"subprocess failed:\n{completed.stderr[-4000:]}")
    return json.loads(completed.stdout.strip().splitlines()[-1])
