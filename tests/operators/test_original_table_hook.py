"""A table operator subclassed the original's way (overriding `process_value(table)`) runs here: its table comes
out of the operator, and the base classes' own process_value gives what their augment_table gives."""

from unitxt.random_utils import InstanceRandom
from unitxt.table_augmentors import MaskColumnsNames, ShuffleTableRows, TransposeTable


class ReversedUpperHeader(ShuffleTableRows):
    """Written against the original's hook: upper-case header, rows reversed."""

    def process_value(self, table):
        return {"header": [name.upper() for name in table["header"]], "rows": table["rows"][::-1]}


def test_a_subclass_overriding_process_value_changes_the_table():
    instance = {"input_fields": {"table": {"header": ["city", "n"], "rows": [["Rome", 1], ["Oslo", 2]]}}}
    out = ReversedUpperHeader(field="input_fields/table").process_instance(instance)
    assert out["input_fields"]["table"] == {"header": ["CITY", "N"], "rows": [["Oslo", 2], ["Rome", 1]]}
    assert instance["input_fields"]["table"]["header"] == ["city", "n"]  # the input is not changed in place


def test_the_base_process_value_is_the_operator_itself():
    table = {"header": ["a", "b"], "rows": [[1, 2], [3, 4]]}
    assert MaskColumnsNames().process_value(dict(table)) == {"header": ["Col1", "Col2"], "rows": [[1, 2], [3, 4]]}
    assert TransposeTable().process_value(dict(table)) == TransposeTable().augment_table(dict(table),
                                                                                        InstanceRandom("x"))
