"""A Ray Dataset's blocks: their object references in row order and their row counts, and a block as Arrow."""

from typing import Any, List, Tuple


def arrow_block(block: Any) -> Any:
    """A block as an Arrow table (a pandas-format step leaves pandas blocks)."""
    import pyarrow as pa

    if isinstance(block, pa.Table):
        return block
    from ray.data.block import BlockAccessor

    return BlockAccessor.for_block(block).to_arrow()


def _block_rows(block: Any) -> int:
    return arrow_block(block).num_rows


def blocks(dataset: Any) -> Tuple[List[Any], List[int]]:
    """The dataset's blocks in row order (executed once, kept in the object store) and their row counts, read from
    the blocks' metadata (counted by tiny tasks only where it lacks them)."""
    import ray

    bundles = list(dataset.materialize().iter_internal_ref_bundles())
    refs = [ref for bundle in bundles for ref in bundle.block_refs]
    counts = [meta.num_rows for bundle in bundles for meta in bundle.metadata]
    unknown = [position for position, count in enumerate(counts) if count is None]
    if unknown:
        count_rows = ray.remote(num_cpus=0)(_block_rows)
        for position, count in zip(unknown, ray.get([count_rows.remote(refs[p]) for p in unknown])):
            counts[position] = count
    return refs, counts
