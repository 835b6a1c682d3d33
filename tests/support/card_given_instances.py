"""Instances for cards without a loader (cards.dynamic_cards_for_llm_judges.*): such a card's data is given at use
(the original's `produce(instances, recipe)`), so the compat tier gives both sides the same instances, one value per
field of the card's task in the field's type, and compares what the card's steps and task make of them."""

from typing import Any, Dict, List, Optional

N = 6


def _value(type_name: str, field: str, index: int) -> Any:
    """A value of the named type: floats and ints vary over the index (a preference over -3..3), texts name the
    field and the index."""
    if "float" in type_name:
        return float(index % 10 + 1)
    if "int" in type_name:
        return [3, 1, 0, -1, -3][index % 5]
    return f"{field} {index}: text of the {field.replace('_', ' ')}."


def given_instances(card) -> Optional[Dict[str, List[Dict[str, Any]]]]:
    """{"test": rows} for a card whose loader is None, else None."""
    if card.loader is not None:
        return None
    task = card.task
    if isinstance(task, str):
        from unitxt.artifact import fetch_artifact

        task = fetch_artifact(task)[0]
    fields = {**task.input_fields, **task.reference_fields}
    return {"test": [{name: _value(str(type_name), name, index) for name, type_name in fields.items()}
                     for index in range(N)]}
