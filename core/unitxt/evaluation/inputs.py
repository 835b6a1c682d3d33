"""The columns evaluate() reads, taken column-wise from a `datasets.Dataset` or a `pyarrow.Table` (Arrow; only the
columns needed, when needed) or from a list of row dicts, so a million rows are never turned into a million dicts.

Columns whose values repeat across rows (metric lists, post-processor lists, subsets, group specs) are read as codes
into their few distinct values: one pass, and the rest of the evaluation works per distinct value.
"""

from collections.abc import Sequence as SequenceABC
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..errors import UnitxtError


def _is_dataset(data: Any) -> bool:
    return hasattr(data, "to_dict") and hasattr(data, "column_names") and hasattr(data, "__len__")


def _key(value: Any) -> Any:
    """A hashable stand-in for a cell value (lists become tuples; dicts their sorted JSON)."""
    if type(value) is list or type(value) is tuple:
        return tuple(_key(item) for item in value)
    if isinstance(value, dict):
        import json

        return ("__dict__", json.dumps(value, sort_keys=True, default=repr))
    try:
        hash(value)
    except TypeError:
        return ("__repr__", type(value).__name__, repr(value))
    return value


def _codes_of(cells: Any) -> Tuple[List[int], List[Any]]:
    """Codes of cells into their distinct values (lists compared by content), in one tight pass."""
    index: Dict[Any, int] = {}
    values: List[Any] = []
    codes: List[int] = []
    append = codes.append
    last, last_code = index, -1  # rows often hold the very same list object (one metric list for all rows)
    for value in cells:
        if value is last:
            append(last_code)
            continue
        try:
            key = tuple(value) if type(value) is list else value
            code = index[key]
        except KeyError:
            code = index[key] = len(values)
            values.append(value)
        except TypeError:  # nested lists, dicts: a canonical hashable form
            key = _key(value)
            code = index.get(key)
            if code is None:
                code = index[key] = len(values)
                values.append(value)
        append(code)
        last, last_code = value, code
    return codes, values


_REPEATING = frozenset({"metrics", "postprocessors", "subset", "groups", "data_classification_policy"})


def _is_arrow_table(data: Any) -> bool:
    """A pyarrow Table (a Ray block): read straight from Arrow, without a Dataset's fingerprinting per column."""
    return type(data).__module__.startswith("pyarrow") and hasattr(data, "schema") and hasattr(data, "num_rows")


def refuse_dataset_dict(data: Any) -> None:
    """evaluate() scores one split: a DatasetDict (or a dict of splits) is a clear error."""
    if isinstance(data, dict) and "test" in data and not isinstance(data.get("test"), (str, list, int)):
        raise UnitxtError("Pass one split (e.g. dataset['test']), not the whole DatasetDict, to evaluate().")


class EvaluationInputs:
    """Read-only column access to the rows being evaluated."""

    def __init__(self, data: Any):
        self.dataset = self.table = self.rows = None
        if _is_dataset(data):
            self.dataset = data
            self.n = len(data)
            self.names = set(data.column_names)
        elif _is_arrow_table(data):
            self.table = data
            self.n = data.num_rows
            self.names = set(data.column_names)
        else:
            refuse_dataset_dict(data)
            rows = data if isinstance(data, list) else list(data)
            for index, row in enumerate(rows):
                if type(row) is not dict and not isinstance(row, dict):
                    raise UnitxtError(f"Row {index} of the data is a {type(row).__name__}, expected a dict (a unitxt "
                                      "row).")
            self.rows = rows
            self.n = len(rows)
            self.names = None
        self._columns: Dict[str, List[Any]] = {}
        self._codes: Dict[str, Tuple[List[int], List[Any]]] = {}

    def __len__(self) -> int:
        return self.n

    def has(self, name: str) -> bool:
        return name in self.names if self.names is not None else True

    def column(self, name: str) -> List[Any]:
        """The values of one column (None where a row lacks it), read once."""
        cached = self._columns.get(name)
        if cached is None:
            if self.rows is not None:
                cached = [row.get(name) for row in self.rows]
            elif name in self.names and self.table is not None:
                cached = self._table_column(name)
            elif name in self.names:  # through the Dataset's features (which decode e.g. images)
                cached = self.dataset.select_columns([name]).to_dict()[name]
            else:
                cached = [None] * self.n
            self._columns[name] = cached
        return cached

    def codes(self, name: str) -> Tuple[List[int], List[Any]]:
        """(code per row, distinct values): rows whose values are equal share a code; values are the first seen.
        Read once per column (the caller must not change them)."""
        cached = self._codes.get(name)
        if cached is None:
            cached = self._codes[name] = self._read_codes(name)
        return cached

    def _read_codes(self, name: str) -> Tuple[List[int], List[Any]]:
        if self.rows is None and name in self.names:
            encoded = _arrow_codes(self._arrow_column(name))
            if encoded is not None:
                return encoded
        if self.rows is not None:
            return _codes_of(row.get(name) for row in self.rows)
        return _codes_of(self.column(name))

    def _table_column(self, name: str) -> List[Any]:
        """A column of the Arrow table as Python values; a column of repeating lists (metric lists...) is made from
        its codes: one list per distinct value, shared by its rows (read-only, as every column here)."""
        if name in _REPEATING:
            encoded = self._codes.get(name) or _arrow_codes(self.table.column(name))
            if encoded is not None:
                self._codes[name] = encoded
                codes, distinct = encoded
                return [distinct[code] for code in codes]
        return self.table.column(name).to_pylist()

    def _arrow_column(self, name: str) -> Any:
        """One column as Arrow data (a Dataset's through its arrow format, which applies its indices)."""
        if self.table is not None:
            return self.table.column(name)
        return self.dataset.select_columns([name]).with_format("arrow")[:].column(0)

    def row(self, index: int) -> Dict[str, Any]:
        """The input row at `index` (a new dict for a Dataset or table; the caller's own dict for a list of rows)."""
        if self.rows is not None:
            return self.rows[index]
        if self.table is not None:
            return self.table.slice(int(index), 1).to_pylist()[0]
        return self.dataset[int(index)]

    def head(self, count: int) -> "EvaluationInputs":
        """The inputs of the first `count` rows."""
        if self.dataset is not None:
            return EvaluationInputs(self.dataset.select(range(count)))
        if self.table is not None:
            return EvaluationInputs(self.table.slice(0, count))
        return EvaluationInputs(self.rows[:count])

    def iter_rows(self):
        if self.rows is not None:
            yield from self.rows
            return
        if self.table is not None:
            for batch in self.table.to_batches(max_chunksize=10_000):
                yield from batch.to_pylist()
            return
        for start in range(0, self.n, 10_000):
            batch = self.dataset[start:start + 10_000]
            names = list(batch)
            yield from (dict(zip(names, values)) for values in zip(*(batch[name] for name in names)))


def _arrow_codes(column: Any) -> Optional[Tuple[List[int], List[Any]]]:
    """Codes of a list-of-strings or string column via Arrow dictionary encoding (no per-row Python objects)."""
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:  # pragma: no cover - pyarrow is a dependency of datasets
        return None
    kind = column.type
    is_list_type = pa.types.is_list(kind) or pa.types.is_large_list(kind)
    if is_list_type and pa.types.is_null(kind.value_type):  # Arrow's type of a column of empty lists only
        if column.null_count or len(pc.list_flatten(column)):
            return None
        return [0] * len(column), [[]]
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        joined, is_list = column, False
    elif is_list_type and (pa.types.is_string(kind.value_type) or pa.types.is_large_string(kind.value_type)):
        items = pc.list_flatten(column)
        if column.null_count or items.null_count:
            return None
        # \x1f (unit separator) joins the items; a value holding it falls back to the row-wise path
        if pc.any(pc.match_substring(items, "\x1f")).as_py():
            return None
        joined = pc.fill_null(pc.binary_join(column, "\x1f"), "")  # an empty list joins to null
        # empty lists join to "" like [""] would: tell them apart by length
        lengths = pc.list_value_length(column)
        if pc.any(pc.and_(pc.equal(lengths, 1), pc.equal(joined, ""))).as_py():
            return None
        is_list = True
    else:
        return None
    encoded = pc.dictionary_encode(joined).combine_chunks() if isinstance(joined, pa.ChunkedArray) else \
        pc.dictionary_encode(joined)
    if encoded.null_count:
        return None
    codes = encoded.indices.to_numpy(zero_copy_only=False).tolist()
    distinct = encoded.dictionary.to_pylist()
    if is_list:
        distinct = [value.split("\x1f") if value else [] for value in distinct]
    return codes, distinct


class LazyColumn(SequenceABC):
    """One column of the inputs, read on first access (e.g. task_data, which most metrics never read)."""

    def __init__(self, inputs: EvaluationInputs, name: str):
        self.inputs, self.name = inputs, name

    def __len__(self) -> int:
        return len(self.inputs)

    def __getitem__(self, index):
        return self.inputs.column(self.name)[index]


def positions_by_code(codes: Sequence[int], count: int) -> List[List[int]]:
    """For each code in [0, count), the row positions having it (in order)."""
    if count == 1:
        return [list(range(len(codes)))]
    import numpy as np

    array = np.asarray(codes, dtype=np.int64)
    order = np.argsort(array, kind="stable")
    bounds = np.searchsorted(array[order], np.arange(count + 1))
    return [order[bounds[code]:bounds[code + 1]].tolist() for code in range(count)]
