"""Table augmentors: seeded perturbations of the tables among a task's inputs (shuffled rows or columns, shuffled or
masked column names, transposed, duplicated or empty rows and columns), for robustness evaluation.

In a recipe (`augmentor=augmentors.table.shuffle_rows`) every input field holding a table is augmented with the
recipe's per-instance generator; as a plain operator, the top-level (or `input_fields`) tables are.
"""

from typing import Any, Dict, List

from .augmentors import Augmentor
from .random_utils import InstanceRandom
from .operators.struct_data import shuffle_table_columns, shuffle_table_rows


def is_table(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("header"), list) and isinstance(value.get("rows"), list)


class TableAugmentor(Augmentor):
    """Base: `augment_table(table, rng) -> table` on a copy of every table-valued input field."""

    __abstract__ = True

    def augment_table(self, table: Dict[str, Any], rng: InstanceRandom) -> Dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__}.augment_table(table, rng)")

    def _augmented(self, fields: Dict[str, Any], rng: InstanceRandom) -> Dict[str, Any]:
        return {name: self.augment_table({"header": list(value["header"]), "rows": [list(r) for r in value["rows"]],
                                          **{k: v for k, v in value.items() if k not in ("header", "rows")}}, rng)
                if is_table(value) else value for name, value in fields.items()}

    def augment_instance(self, instance, task, rng):
        if isinstance(instance.get("input_fields"), dict):
            return dict(instance, input_fields=self._augmented(instance["input_fields"], rng))
        return self._augmented(instance, rng)


class ShuffleTableRows(TableAugmentor):
    """Rows in a random order."""

    def augment_table(self, table, rng):
        return shuffle_table_rows(table, rng)


class ShuffleTableColumns(TableAugmentor):
    """Columns (names with their cells) in a random order."""

    def augment_table(self, table, rng):
        return shuffle_table_columns(table, rng)


class ShuffleColumnsNames(TableAugmentor):
    """Column names shuffled, cells left in place (so names no longer match their cells)."""

    def augment_table(self, table, rng):
        header = list(table["header"])
        rng.shuffle(header)
        return dict(table, header=header)


class MaskColumnsNames(TableAugmentor):
    """Column names replaced by Col1, Col2, ..."""

    def augment_table(self, table, rng):
        return dict(table, header=[f"Col{index + 1}" for index in range(len(table["header"]))])


class TransposeTable(TableAugmentor):
    """Rows become columns: the header is " ", "0", "1", ...; each row starts with a former column name."""

    def augment_table(self, table, rng):
        header, rows = table["header"], table["rows"]
        return {"header": [" "] + [str(index) for index in range(len(rows))],
                "rows": [[name] + [row[index] for row in rows] for index, name in enumerate(header)]}


class DuplicateTableRows(TableAugmentor):
    """The rows at `row_indices` repeated `times` times in place."""

    row_indices: List[int] = []
    times: int = 1

    def augment_table(self, table, rng):
        rows = []
        for index, row in enumerate(table["rows"]):
            rows.extend([row] * (self.times if index in self.row_indices else 1))
        return dict(table, rows=rows)


class DuplicateTableColumns(TableAugmentor):
    """The columns at `column_indices` repeated `times` times in place."""

    column_indices: List[int] = []
    times: int = 1

    def _expand(self, cells: List[Any]) -> List[Any]:
        result = []
        for index, cell in enumerate(cells):
            result.extend([cell] * (self.times if index in self.column_indices else 1))
        return result

    def augment_table(self, table, rng):
        return dict(table, header=self._expand(table["header"]), rows=[self._expand(row) for row in table["rows"]])


class InsertEmptyTableRows(TableAugmentor):
    """`times` empty rows inserted at random positions."""

    times: int = 0

    def augment_table(self, table, rng):
        rows = list(table["rows"])
        for _ in range(self.times):
            rows.insert(rng.randrange(len(rows) + 1), [""] * len(table["header"]))
        return dict(table, rows=rows)


__all__ = ["TableAugmentor", "ShuffleTableRows", "ShuffleTableColumns", "ShuffleColumnsNames", "MaskColumnsNames",
           "TransposeTable", "DuplicateTableRows", "DuplicateTableColumns", "InsertEmptyTableRows", "is_table"]
