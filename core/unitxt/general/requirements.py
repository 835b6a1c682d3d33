"""Optional packages of a component: `PackageRequirementsMixin.check_missing_requirements` finds the ones that are
absent or whose installed version does not meet the declared specifier ("torch>=2.1"), and raises one
MissingRequirementsError naming them all with how to install each."""

import importlib.metadata
import importlib.util
import re
import sys
from typing import Dict, List, Optional, Tuple, Union

from ..errors import MissingRequirementsError

Requirements = Union[List[str], Dict[str, str]]

_SPECIFIER = re.compile(r"^\s*([A-Za-z0-9_.\-]+)(\[[^\]]*\])?\s*(.*)$")


def _importable(name: str) -> bool:
    if sys.modules.get(name.replace("-", "_")) is not None:  # already imported (or provided by the caller)
        return True
    try:
        return importlib.util.find_spec(name.replace("-", "_")) is not None
    except (ImportError, ValueError):
        return False


def _installed_version(name: str) -> Optional[str]:
    """The installed distribution's version, "" for an importable module without distribution data, else None."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "" if _importable(name) else None


def _version_tuple(version: str) -> Tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version.split("+")[0])[:4])


def _satisfies(version: str, specifier: str) -> bool:
    """Whether `version` meets a specifier like ">=1.2,<2" (packaging's rules when available)."""
    try:
        from packaging.specifiers import SpecifierSet

        return SpecifierSet(specifier).contains(version, prereleases=True)
    except ImportError:
        pass
    compare = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
               "<": lambda a, b: a < b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}
    for clause in filter(None, (part.strip() for part in specifier.split(","))):
        match = re.match(r"(>=|<=|==|!=|>|<)\s*(.+)", clause)
        if match and not compare[match.group(1)](_version_tuple(version), _version_tuple(match.group(2))):
            return False
    return True


def find_unmet(requirements: Requirements) -> Tuple[List[str], List[str], List[str]]:
    """(missing, version mismatched, installation instructions) for a list of requirement strings or a
    {requirement: instruction} mapping."""
    items = requirements.items() if isinstance(requirements, dict) else [(name, "") for name in requirements]
    missing, mismatched, instructions = [], [], []
    for requirement, instruction in items:
        match = _SPECIFIER.match(requirement)
        name, specifier = (match.group(1), match.group(3).strip()) if match else (requirement, "")
        if not specifier and _importable(name):  # the common case, cheap: no distribution metadata read
            continue
        version = _installed_version(name)
        if version is None:
            missing.append(requirement)
            instructions.append(instruction or f"Install {name} with `pip install {name}`")
        elif specifier and version and not _satisfies(version, specifier):
            mismatched.append(f"{requirement} (installed: {version}, required: {name}{specifier})")
            instructions.append(instruction or f"Update {name} with `pip install '{requirement}'`")
    return missing, mismatched, instructions


class PackageRequirementsMixin:
    """Components that need optional packages list them in `_requirements_list` (["pkg>=1.0", ...] or
    {"pkg": "how to install it"}); `check_missing_requirements()` raises MissingRequirementsError when any is unmet."""

    _requirements_list: Requirements = []

    def check_missing_requirements(self, requirements: Optional[Requirements] = None) -> None:
        missing, mismatched, instructions = find_unmet(
            self._requirements_list if requirements is None else requirements
        )
        if missing or mismatched:
            raise MissingRequirementsError(type(self).__name__, missing, mismatched, instructions)


class DistributionNotFound(Exception):
    """`require`: a required distribution is not installed (as pkg_resources' error of that name)."""

    def __init__(self, requirement: str):
        self.requirement = requirement
        super().__init__(f"Distribution not found for requirement: {requirement}")


class VersionConflict(Exception):
    """`require`: the installed version does not meet the requirement; `dist` has project_name and version."""

    def __init__(self, dist: "DistStub", req: str):
        self.dist = dist
        self.req = req
        super().__init__(f"Version conflict: {dist} does not satisfy {req}")


class DistStub:
    """The name and installed version of a distribution (what pkg_resources' Distribution offered for that)."""

    def __init__(self, project_name: str, version: str):
        self.project_name = project_name
        self.version = version


def require(requirements: Union[str, List[str]]) -> None:
    """Check requirement strings ("pkg>=1.0; python_version>'3.8'") against the installed distributions, as
    pkg_resources.require did: DistributionNotFound or VersionConflict; a requirement whose marker does not apply
    to this environment is skipped."""
    from packaging.requirements import Requirement

    for text in [requirements] if isinstance(requirements, str) else requirements:
        requirement = Requirement(text)
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue
        try:
            version = importlib.metadata.version(requirement.name)
        except importlib.metadata.PackageNotFoundError as error:
            raise DistributionNotFound(text) from error
        if requirement.specifier and not requirement.specifier.contains(version, prereleases=True):
            raise VersionConflict(DistStub(requirement.name, version), text)
