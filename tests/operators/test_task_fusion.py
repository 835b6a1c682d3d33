"""A task fused with the Rename / Set operators before it (operators.task_fusion, stream._fused_stages) gives what the
operators give one by one: the same task instances (values, key order, copies of constant lists), the same errors
naming the same operator, for rows the fused step declines as well as those it takes."""

import copy
from collections import UserDict

import pytest

from unitxt import stream as stream_module
from unitxt.errors import UnitxtError
from unitxt.operators import Rename, Set
from unitxt.task import Task

INFERENCE = "__INFERENCE_STREAM__"


def _task(**extra):
    return Task(input_fields={"text": str, "kind": str, "classes": "List[str]", "count": int},
                reference_fields={"label": str}, prediction_type=str, metrics=["metrics.accuracy"], **extra)


def _run(operators, rows, stream_name="test", fused=True, monkeypatch=None):
    if not fused:
        monkeypatch.setattr(stream_module, "_fused_stages", lambda stages: stages)
    try:
        return "rows", list(stream_module._run_fused(operators, [copy.deepcopy(row) for row in rows], stream_name))
    except UnitxtError as error:
        return "error", type(error).__name__, str(error)
    finally:
        monkeypatch.undo()


def _same(operators, rows, monkeypatch, stream_name="test"):
    fused = _run(operators, rows, stream_name, True, monkeypatch)
    one_by_one = _run(operators, rows, stream_name, False, monkeypatch)
    assert fused == one_by_one
    if fused[0] == "rows":
        assert [list(row) for row in fused[1]] == [list(row) for row in one_by_one[1]]
        assert [list(row["input_fields"]) for row in fused[1]] == [list(row["input_fields"]) for row in one_by_one[1]]
    return fused


def _rows(count=4):
    return [{"premise": f"row {index}", "answer": "yes" if index % 2 else "no", "n": index,
             "data_classification_policy": ["public"]} for index in range(count)]


CHAIN = [Rename(field_to_field={"premise": "text", "answer": "label"}), Rename(field="n", to_field="count"),
         Set(fields={"kind": "premise", "classes": ["yes", "no"]})]


def test_a_rename_and_set_chain_is_fused_and_gives_the_same_instances(monkeypatch):
    stages = stream_module._fused_stages([(op, op._instance_function(), None, None) for op in [*CHAIN, _task()]])
    assert len(stages) == 1 and stages[0][3] is not None  # one fused step, the four stages kept for declined rows
    nested = Set(fields={"extra/x": 1})  # a path: not a plain constant, so it runs before the fused step
    stages = stream_module._fused_stages([(op, op._instance_function(), None, None)
                                          for op in [nested, *CHAIN, _task()]])
    assert [stage[0] for stage in stages] == [nested, stages[1][0]] and len(stages[1][3]) == 4
    _same([nested, *CHAIN, _task()], _rows(), monkeypatch)
    kind, rows = _same([*CHAIN, _task()], _rows(), monkeypatch)
    assert rows[1] == {"input_fields": {"text": "row 1", "kind": "premise", "classes": ["yes", "no"], "count": 1},
                       "reference_fields": {"label": "yes"}, "metrics": ["metrics.accuracy"],
                       "data_classification_policy": ["public"]}
    assert rows[0]["input_fields"]["classes"] is not rows[1]["input_fields"]["classes"]  # Set's copies, per row


@pytest.mark.parametrize("change", [
    lambda row: row.pop("premise"),  # a Rename source missing
    lambda row: row.update(n="3"),  # a value of another type
    lambda row: row.update(premise=7),
    lambda row: row.update(premise=type("Text", (str,), {})("subclass")),  # valid text of another type
    lambda row: row.pop("data_classification_policy"),
    lambda row: row.update(media={"images": [], "audios": []}, groups=["g"], subset=["s"]),  # carried fields
    lambda row: row.update(text="already there", kind=5),  # overwritten by the Rename and the Set
])
def test_a_row_the_fused_step_declines_gives_the_result_or_the_error_of_the_operators(change, monkeypatch):
    rows = _rows()
    change(rows[2])
    _same([*CHAIN, _task()], rows, monkeypatch)


def test_moves_into_each_other_constants_over_moves_and_production_rows(monkeypatch):
    swap = [Rename(field="premise", to_field="label"), Rename(field="answer", to_field="premise"),
            Rename(field="premise", to_field="text"),
            Rename(field="n", to_field="count"), Set(fields={"kind": "k", "classes": ["a"], "label": "fixed"})]
    kind, rows = _same([*swap, _task()], _rows(), monkeypatch)
    assert kind == "rows" and rows[0]["input_fields"]["text"] == "no"
    assert rows[0]["reference_fields"] == {"label": "fixed"}
    assert _same([*CHAIN, _task()], _rows(), monkeypatch, stream_name=INFERENCE)[0] == "rows"
    _same([*CHAIN, _task()], [UserDict(row) for row in _rows()], monkeypatch)  # not a dict: one by one
    moved_twice = [Rename(field="premise", to_field="text"), Rename(field="premise", to_field="kind")]
    assert _same([*moved_twice, *CHAIN[1:], _task()], _rows(), monkeypatch)[0] == "error"


def test_what_is_not_fused_and_a_constant_the_task_refuses(monkeypatch):
    task = _task(defaults={"count": 0})
    stages = [(op, op._instance_function(), None, None) for op in [*CHAIN, task]]
    assert stream_module._fused_stages(stages) == stages  # a task with defaults: no fused step
    bad = [*CHAIN[:2], Set(fields={"kind": 5, "classes": ["yes"]})]  # a constant of the wrong type
    stages = [(op, op._instance_function(), None, None) for op in [*bad, _task()]]
    assert stream_module._fused_stages(stages) == stages
    kind, name, message = _same([*bad, _task()], _rows(), monkeypatch)
    assert "kind" in message and "instance 0" in message
