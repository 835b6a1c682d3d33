"""A recipe's rows as a Ray Dataset: produced once, in the recipe's order, into blocks of whole scoring chunks."""

from typing import Any, Dict, Iterable, List, Optional

from ..errors import UnitxtError
from ..evaluation.streamed import DEFAULT_CHUNK_SIZE
from .runtime import connect


def load_dataset(dataset_query: Optional[str] = None, split: str = "test", rows_per_block: int = DEFAULT_CHUNK_SIZE,
                 **kwargs: Any) -> Any:
    """The rows of `split` of a recipe (the same catalog and recipe strings as unitxt.load_dataset) as a Ray Dataset.

    The recipe runs once, in this process; its Arrow table goes to the object store in blocks of `rows_per_block`
    rows: each row is in the Dataset exactly once, in the recipe's order."""
    from ..api import load_dataset as load_rows

    args = (dataset_query,) if dataset_query is not None else ()
    dataset = load_rows(*args, split=split, **kwargs)
    if getattr(dataset, "_indices", None) is not None:
        dataset = dataset.flatten_indices()
    return from_table(dataset.data.table, rows_per_block)


def from_rows(rows: Iterable[Dict[str, Any]], rows_per_block: int = DEFAULT_CHUNK_SIZE) -> Any:
    """A Ray Dataset of row dicts (a list or any iterable of them), `rows_per_block` rows per block, in order."""
    return from_table(rows_table(list(rows)), rows_per_block)


def rows_table(rows: List[Dict[str, Any]]) -> Any:
    """The rows as an Arrow table, or a UnitxtError naming the column and the row Arrow (so Ray) can not hold."""
    import pyarrow as pa

    try:
        return pa.Table.from_pylist(rows)
    except (pa.ArrowException, TypeError, ValueError, OverflowError) as error:
        reason = f"{type(error).__name__}: {' '.join(str(error).split())[:300]}"
    if not all(isinstance(row, dict) for row in rows):
        position = next(i for i, row in enumerate(rows) if not isinstance(row, dict))
        raise UnitxtError(f"Row {position} is a {type(rows[position]).__name__}, not a dict of column values, so it "
                          f"can not go to Ray ({reason}).", field="rows")
    for column in dict.fromkeys(key for row in rows for key in row):
        values = [row.get(column) for row in rows]
        try:
            pa.array(values)
        except (pa.ArrowException, TypeError, ValueError, OverflowError):
            raise UnitxtError(f"Column '{column}' can not go to Ray (as an Arrow column): {_first_odd(values)} "
                              f"({reason}). Give every row a value of one JSON-like type there (text, number, "
                              f"bool, list, dict), or convert the column first.", field=column) from None
    raise UnitxtError(f"The rows can not go to Ray as an Arrow table ({reason}).", field="rows")


def _first_odd(values: List[Any]) -> str:
    """Which row of a column Arrow refused: the first one Arrow can not convert alone, else the first whose type
    differs from the column's first value's."""
    import pyarrow as pa

    for position, value in enumerate(values):
        try:
            pa.array([value])
        except (pa.ArrowException, TypeError, ValueError, OverflowError):
            return f"row {position} holds a {type(value).__name__} ({str(value)[:60]!r}) Arrow can not store"
    first = next(((i, v) for i, v in enumerate(values) if v is not None), (0, None))
    for position, value in enumerate(values):
        if value is not None and type(value) is not type(first[1]):
            return (f"row {position} holds a {type(value).__name__} where row {first[0]} holds a "
                    f"{type(first[1]).__name__}")
    return "its values do not share one Arrow type"


def from_table(table: Any, rows_per_block: int = DEFAULT_CHUNK_SIZE) -> Any:
    """A Ray Dataset of an Arrow table's rows, in blocks of `rows_per_block` (whole scoring chunks by default)."""
    ray = connect()
    if not table.num_rows:
        return ray.data.from_arrow(table)
    refs = [ray.put(table.slice(start, rows_per_block)) for start in range(0, table.num_rows, rows_per_block)]
    return ray.data.from_arrow_refs(refs)
