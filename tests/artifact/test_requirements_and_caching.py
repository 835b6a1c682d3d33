"""Declared package requirements (MissingRequirementsError with the unmet packages) and operators' `caching` flag."""

import time

import pytest
from unitxt.errors import MissingRequirementError, UnitxtError
from unitxt.operator import MissingRequirementsError, PackageRequirementsMixin
from unitxt.operators import Apply, Rename
from unitxt.stream import MultiStream


class _NeedsThings(PackageRequirementsMixin):
    pass


def test_absent_package_is_listed_with_an_install_hint():
    component = _NeedsThings()
    component._requirements_list = ["surely_absent_pkg_4711", "numpy"]
    with pytest.raises(MissingRequirementsError) as caught:
        component.check_missing_requirements()
    error = caught.value
    assert error.missing_packages == ["surely_absent_pkg_4711"]
    assert error.version_mismatched_packages == []
    assert "surely_absent_pkg_4711" in error.message and "_NeedsThings" in str(error)
    assert "pip install surely_absent_pkg_4711" in error.installation_instructions[0]
    assert isinstance(error, (MissingRequirementError, ImportError, UnitxtError))


def test_version_specifier_is_checked_against_the_installed_distribution():
    component = _NeedsThings()
    component._requirements_list = ["numpy>=9999.1", "numpy>=1.0"]
    with pytest.raises(MissingRequirementsError) as caught:
        component.check_missing_requirements()
    (mismatch,) = caught.value.version_mismatched_packages
    assert mismatch.startswith("numpy>=9999.1 (installed: ")
    assert caught.value.missing_packages == []
    assert "pip install 'numpy>=9999.1'" in caught.value.message


def test_custom_instructions_and_explicit_requirements():
    component = _NeedsThings()
    component._requirements_list = {"surely_absent_pkg_4711": "ask the lab admin for the wheel"}
    with pytest.raises(MissingRequirementsError) as caught:
        component.check_missing_requirements()
    assert caught.value.installation_instructions == ["ask the lab admin for the wheel"]
    component.check_missing_requirements(["numpy", "scipy>=0.1"])  # met: no error


def test_caching_true_replays_the_first_pass_and_default_recomputes():
    data = MultiStream.from_iterables({"test": [{"n": 1}, {"n": 2}]})
    cached = Apply(function=time.time, to_field="stamp", caching=True)(data)["test"]
    first = [row["stamp"] for row in cached]
    time.sleep(0.002)
    assert [row["stamp"] for row in cached] == first
    fresh = Apply(function=time.time, to_field="stamp")(data)["test"]
    once = [row["stamp"] for row in fresh]
    time.sleep(0.002)
    assert [row["stamp"] for row in fresh] != once


def test_caching_is_a_named_only_field_kept_in_the_dict_when_set():
    assert Rename(field_to_field={"a": "b"}, caching=True).to_dict()["caching"] is True
    assert "caching" not in Rename(field_to_field={"a": "b"}).to_dict()
    assert "caching" not in Rename.positional_fields()
