"""A recipe's rows as a Ray Dataset: produced once, in the recipe's order, into blocks of whole scoring chunks."""

from typing import Any, Dict, Iterable, Optional

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
    import pyarrow as pa

    return from_table(pa.Table.from_pylist(list(rows)), rows_per_block)


def from_table(table: Any, rows_per_block: int = DEFAULT_CHUNK_SIZE) -> Any:
    """A Ray Dataset of an Arrow table's rows, in blocks of `rows_per_block` (whole scoring chunks by default)."""
    ray = connect()
    if not table.num_rows:
        return ray.data.from_arrow(table)
    refs = [ray.put(table.slice(start, rows_per_block)) for start in range(0, table.num_rows, rows_per_block)]
    return ray.data.from_arrow_refs(refs)
