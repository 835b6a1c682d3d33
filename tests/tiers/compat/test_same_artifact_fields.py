"""The original's artifact classes exist here and take its fields: every class the original registers
(Artifact._class_register of 1.26.10) is a class at the original's module path here and its `__type__` resolves; every
public field it declares is a field of our class of that name, with the same default where the default is a plain
value (str, number, bool, None).

Listed from the original at test time (oracle_surface.py, "artifact_classes"). Exceptions are listed below with their
reason; nothing listed may resolve (the lists only shrink).
"""

import importlib
import math
import sys
import warnings

import pytest

from unitxt.artifact import UnknownArtifactTypeError, get_artifact_class

REQUIRED_SHARE = 0.99
# `__type__` of the original that does not resolve here -> why
TYPES_NOT_REGISTERED = {
    "package_requirements_mixin": "a plain mixin here (unitxt.operator.PackageRequirementsMixin), not an artifact: "
                                  "the original's data never names it (a bare mixin builds nothing)",
    "pillow_mixin": "a plain mixin here (unitxt.image_operators.PillowMixin), not an artifact: the original's data "
                    "never names it (a bare mixin builds nothing)",
}
# `type.field` of the original that our class of that name does not take -> why
FIELDS_NOT_TAKEN = {
    **{f"{type_name}.{field}": "LocalCatalog here is the catalog store itself, not an artifact: it takes location, "
                               "name, is_local and data_classification_policy as arguments, not as declared fields"
       for type_name in ("local_catalog",) for field in ("data_classification_policy", "is_local", "location", "name")},
    **{f"{type_name}.{field}": "a plain mixin here, not an artifact (see TYPES_NOT_REGISTERED)"
       for type_name in ("package_requirements_mixin", "pillow_mixin") for field in ("data_classification_policy",
                                                                                      "requirements")},
}


@pytest.fixture(scope="module")
def classes(original_surface):
    return original_surface["artifact_classes"]


def ours(type_name, entry):
    """Our class of that type: by `__type__`, else the class at the original's module path."""
    try:
        return get_artifact_class(type_name)
    except UnknownArtifactTypeError:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return getattr(importlib.import_module(entry["module"]), entry["class"], None)


def fields_not_taken(classes):
    missing = []
    for type_name, entry in sorted(classes.items()):
        cls = ours(type_name, entry)
        fields = cls.get_fields() if hasattr(cls, "get_fields") else {}
        missing.extend(f"{type_name}.{field}" for field in sorted(entry["fields"]) if field not in fields)
    return missing


def test_the_oracle_lists_the_registered_classes(classes):
    assert len(classes) > 500
    assert classes["copy"]["fields"]["requirements"] == {"factory": True}
    assert classes["standard_recipe"]["class"] == "StandardRecipe"


def test_every_registered_class_exists_under_its_name(classes):
    absent, unregistered = [], []
    for type_name, entry in sorted(classes.items()):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if not isinstance(getattr(importlib.import_module(entry["module"]), entry["class"], None), type):
                absent.append(f"{entry['module']}.{entry['class']}")
        try:
            get_artifact_class(type_name)
        except UnknownArtifactTypeError:
            unregistered.append(type_name)
    print(f"\n{len(classes) - len(unregistered)} of {len(classes)} registered classes of the original resolve by "
          f"__type__ here; {len(classes) - len(absent)} exist at the original's module path")
    assert absent == []
    assert [name for name in unregistered if name not in TYPES_NOT_REGISTERED] == []
    assert sorted(name for name in TYPES_NOT_REGISTERED if name not in unregistered) == []


def test_every_field_is_taken_or_listed(classes):
    missing = fields_not_taken(classes)
    total = sum(len(entry["fields"]) for entry in classes.values())
    print(f"\n{total - len(missing)} of {total} fields of the original's artifact classes are fields of ours "
          f"({len(missing)} listed)")
    assert [entry for entry in missing if entry not in FIELDS_NOT_TAKEN] == []
    assert (total - len(missing)) / total >= REQUIRED_SHARE


def test_listed_fields_are_still_not_taken(classes):
    missing = set(fields_not_taken(classes))
    assert sorted(entry for entry in FIELDS_NOT_TAKEN if entry not in missing) == []


def test_plain_defaults_are_the_original_defaults(classes):
    """Where the original's default is a plain value, ours is the same value (a path default is machine-specific)."""
    different, compared = [], 0
    for type_name, entry in sorted(classes.items()):
        cls = ours(type_name, entry)
        fields = cls.get_fields() if hasattr(cls, "get_fields") else {}
        for name, default in sorted(entry["fields"].items()):
            if name not in fields or isinstance(default, dict) or fields[name].required:
                continue
            if isinstance(default, str) and default.startswith("/"):
                continue
            compared += 1
            here = fields[name].default()
            same = here == default or (isinstance(here, float) and isinstance(default, float)
                                       and math.isnan(here) and math.isnan(default))
            if not same:
                different.append(f"{type_name}.{name}: original {default!r}, here {here!r}")
    print(f"\n{compared - len(different)} of {compared} plain defaults are the original's")
    assert len(different) <= MAX_DIFFERENT_DEFAULTS, "\n".join(different)


# plain defaults that differ from the original's (measured: 105 of 5600 - n_resamples, single_reference_per_prediction,
# main_score, ci_scores, engine batch sizes, vLLM's sampling defaults under the one shared parameter set...); may only
# go down
MAX_DIFFERENT_DEFAULTS = 105


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-s"]))
