"""Build the library's wheel for the Hub release, byte for byte the same from the same sources.

A wheel is a zip of the package plus a `.dist-info` folder (PEP 427). The metadata comes from setup.cfg (name,
description, requirements, extras, console scripts) and the version from core/unitxt/version.py; the package is
every file of core/unitxt but caches, plus the catalog as `unitxt/catalog_snapshot` - what `pip wheel .` builds
(setup.py copies the catalog the same way). Written here, with fixed timestamps and sorted entries, because a
setuptools build embeds build times and needs setuptools' wheel support on the building machine.
"""

import base64
import configparser
import hashlib
import zipfile
from pathlib import Path
from typing import Dict, List, Tuple

TIMESTAMP = (1980, 1, 1, 0, 0, 0)
TAG = "py3-none-any"


def _lines(value: str) -> List[str]:
    return [line.strip() for line in value.strip().splitlines() if line.strip()]


def metadata(root: Path, version: str) -> Tuple[str, str]:
    """(METADATA text, entry_points.txt text) from setup.cfg."""
    config = configparser.ConfigParser(interpolation=None)
    config.read(root / "setup.cfg", encoding="utf-8")
    meta = config["metadata"]
    options = config["options"]
    lines = ["Metadata-Version: 2.1", f"Name: {meta['name']}", f"Version: {version}",
             f"Summary: {meta['description']}", f"License: {meta['license']}",
             f"Requires-Python: {options['python_requires']}"]
    lines += [f"Requires-Dist: {requirement}" for requirement in _lines(options["install_requires"])]
    extras = config["options.extras_require"] if config.has_section("options.extras_require") else {}
    for extra in extras:
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {requirement}; extra == "{extra}"' for requirement in _lines(extras[extra])]
    lines.append(f"Description-Content-Type: {meta.get('long_description_content_type', 'text/markdown')}")
    text = "\n".join(lines) + "\n\n" + (root / "README.md").read_text(encoding="utf-8")
    entry_points = ""
    if config.has_section("options.entry_points"):
        for group, value in config["options.entry_points"].items():
            entry_points += f"[{group}]\n" + "".join(f"{line.replace(' = ', '=')}\n" for line in _lines(value)) + "\n"
    return text, entry_points


def package_files(root: Path) -> Dict[str, bytes]:
    """{path in the wheel: bytes} of the package and its catalog."""
    files: Dict[str, bytes] = {}
    core = root / "core" / "unitxt"
    for path in sorted(core.rglob("*")):
        relative = path.relative_to(core)
        if path.is_dir() or "__pycache__" in relative.parts or path.suffix in (".pyc", ".pyo"):
            continue
        files["unitxt/" + relative.as_posix()] = path.read_bytes()
    catalog = root / "catalog_snapshot"
    for path in sorted(catalog.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            files["unitxt/catalog_snapshot/" + path.relative_to(catalog).as_posix()] = path.read_bytes()
    return files


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


def build_wheel(root: Path, version: str, folder: Path) -> Path:
    """Write unitxt-<version>-py3-none-any.whl into `folder`; return its path."""
    info = f"unitxt-{version}.dist-info"
    text, entry_points = metadata(root, version)
    files = package_files(root)
    files[f"{info}/METADATA"] = text.encode("utf-8")
    files[f"{info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: unitxt build_release\nRoot-Is-Purelib: true\n"
                              f"Tag: {TAG}\n").encode("utf-8")
    if entry_points:
        files[f"{info}/entry_points.txt"] = entry_points.encode("utf-8")
    files[f"{info}/top_level.txt"] = b"unitxt\n"
    if (root / "LICENSE").exists():
        files[f"{info}/LICENSE"] = (root / "LICENSE").read_bytes()
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in files.items())
    files[f"{info}/RECORD"] = (record + f"{info}/RECORD,,\n").encode("utf-8")
    target = folder / f"unitxt-{version}-{TAG}.whl"
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            entry = zipfile.ZipInfo(name, date_time=TIMESTAMP)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    return target
