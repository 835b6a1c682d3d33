"""Operators that build a judge's criteria from the data, so each instance can carry its own criteria
(read by `LLMJudgeDirect(criteria_field=...)` / `LLMJudgePairwise(criteria_field=...)`).

The criteria are stored in the field as a plain dict ({name, description, options, option_map, ...}), which
serialises into task_data and is turned back into a Criteria by the judge.
"""

from typing import Any, Dict, List, Optional

from ..errors import UnitxtError
from ..operator import FieldOperator
from .constants import Criteria, CriteriaWithOptions
from ..module_aliases import moved_classes


def criteria_to_dict(criteria: Criteria) -> Dict[str, Any]:
    """A JSON-friendly dict of a criteria (what the judge reads back from task_data), typed by `__type__` as the
    original's task_data holds the criteria artifact."""
    data: Dict[str, Any] = {"__type__": criteria._type_name, "name": criteria.name, "description": criteria.description}
    if criteria.prediction_field is not None:
        data["prediction_field"] = criteria.prediction_field
    if criteria.context_fields is not None:
        data["context_fields"] = criteria.context_fields
    if isinstance(criteria, CriteriaWithOptions):
        data["options"] = [{"__type__": option._type_name, "name": option.name, "description": option.description}
                           for option in criteria.options]
        data["option_map"] = criteria.option_map
    return data


def criteria_from_value(value: Any, where: str = "criteria") -> Criteria:
    """A Criteria from what a criteria field may hold: a Criteria, a dict, a catalog name, or JSON text."""
    if isinstance(value, Criteria):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("{"):
            return Criteria.from_jsons(text)
        else:
            from ..catalog import fetch_artifact

            artifact, _ = fetch_artifact(text)
            if not isinstance(artifact, Criteria):
                raise UnitxtError(f"'{text}' is a {type(artifact).__name__}, not a criteria.", field=where)
            return artifact
    if isinstance(value, dict):
        return Criteria.from_obj({key: item for key, item in value.items() if key != "__type__"})
    raise UnitxtError(f"Expected a criteria (dict, catalog name or Criteria) in '{where}', got "
                      f"{type(value).__name__}.", field=where)


class CreateCriteriaFromDict(FieldOperator):
    """A dict {name, description[, options, option_map]} in the field -> a criteria (stored as its dict)."""

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, dict):
            raise UnitxtError(f"{type(self).__name__} expects a dict in field '{self.field}', got "
                              f"{type(value).__name__}.", artifact=self.artifact_name, field=self.field)
        return criteria_to_dict(Criteria.from_obj(value))


class CreateCriteriaWithOptionsFromDict(CreateCriteriaFromDict):
    """Like CreateCriteriaFromDict, but the dict must define options."""

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, dict) or not value.get("options"):
            raise UnitxtError(f"{type(self).__name__} expects a dict with 'options' in field '{self.field}'.",
                              artifact=self.artifact_name, field=self.field)
        return criteria_to_dict(CriteriaWithOptions.from_obj(value))


class CreateCriteriaFromString(FieldOperator):
    """A text in the field becomes the description of a criteria named `criteria_name` (pairwise judges)."""

    criteria_name: str = "criteria"

    def process_value(self, value: Any) -> Any:
        return criteria_to_dict(Criteria(name=self.criteria_name, description=str(value)))


class CreateYesNoCriteriaFromString(FieldOperator):
    """A question in the field becomes a Yes/No criteria (Yes scores `yes_score`, No `no_score`)."""

    criteria_name: str = "criteria"
    yes_score: float = 1.0
    no_score: float = 0.0

    def process_value(self, value: Any) -> Any:
        criteria = CriteriaWithOptions.from_obj({
            "name": self.criteria_name, "description": str(value),
            "options": [{"name": "Yes", "description": ""}, {"name": "No", "description": ""}],
            "option_map": {"Yes": self.yes_score, "No": self.no_score}})
        return criteria_to_dict(criteria)


class CreateYesNoPartiallyCriteriaFromString(FieldOperator):
    """A question in the field becomes a Yes/Partially/No criteria (scores 1, 0.5 and 0 by default)."""

    criteria_name: str = "criteria"
    yes_score: float = 1.0
    partially_score: float = 0.5
    no_score: float = 0.0

    def process_value(self, value: Any) -> Any:
        criteria = CriteriaWithOptions.from_obj({
            "name": self.criteria_name, "description": str(value),
            "options": [{"name": "Yes", "description": ""}, {"name": "Partially", "description": ""},
                        {"name": "No", "description": ""}],
            "option_map": {"Yes": self.yes_score, "Partially": self.partially_score, "No": self.no_score}})
        return criteria_to_dict(criteria)


def _json_object(operator: FieldOperator, value: Any) -> Dict[str, Any]:
    import json

    try:
        data = json.loads(value) if isinstance(value, str) else None
    except ValueError as error:
        raise UnitxtError(f"{type(operator).__name__} expects JSON text of a criteria in field '{operator.field}': "
                          f"{error}", artifact=operator.artifact_name, field=operator.field) from None
    if not isinstance(data, dict):
        raise UnitxtError(f"{type(operator).__name__} expects JSON text of a criteria object in field "
                          f"'{operator.field}', got {str(value)[:80]!r}.", artifact=operator.artifact_name,
                          field=operator.field)
    return data


class CreateCriteriaFromJson(CreateCriteriaFromDict):
    """JSON text of a criteria object in the field -> that criteria (as CreateCriteriaFromDict)."""

    def process_value(self, value: Any) -> Any:
        return super().process_value(_json_object(self, value))


class CreateCriteriaWithOptionsFromJson(CreateCriteriaWithOptionsFromDict):
    """JSON text of a criteria object with options in the field -> that criteria."""

    def process_value(self, value: Any) -> Any:
        return super().process_value(_json_object(self, value))


class LoadCriteria(FieldOperator):
    """A catalog name in the field (e.g. "metrics.llm_as_judge.pairwise.criteria.conciseness") -> that criteria."""

    def process_value(self, value: Any) -> Any:
        return criteria_to_dict(criteria_from_value(value, self.field or "criteria"))


class LoadCriteriaWithOptions(LoadCriteria):
    """Like LoadCriteria, for criteria with options (direct judges)."""

    def process_value(self, value: Any) -> Any:
        criteria = criteria_from_value(value, self.field or "criteria")
        if not isinstance(criteria, CriteriaWithOptions):
            raise UnitxtError(f"'{value}' has no options; direct judges need a CriteriaWithOptions.",
                              artifact=self.artifact_name, field=self.field)
        return criteria_to_dict(criteria)


def criteria_list(values: Optional[List[Any]]) -> List[Criteria]:
    return [criteria_from_value(value) for value in values or []]


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
