"""Bootstrap statistics scored from code counts: when a metric's scores depend only on how often each of a few
per-instance codes occurs (the label pair of classification, the 0/1 of accuracy), a resample is scored from its code
counts. Metrics over the same instances share one joint code, so a resample costs one gather and one count however
many metrics are scored, and the jackknife of BCa is one leave-one-out count row per distinct code. The counts are
the exact integers the index-based statistic would count, so every score is the same number."""

from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from .bootstrap import sums_are_exact

Scores = Dict[str, np.ndarray]


class CountedStatistic(NamedTuple):
    """A statistic given by code counts. `codes[a]` holds one code in [0, widths[a]) per instance; `scores(counts)`
    maps the per-resample counts of each code array ((r, widths[a]) int64 each) to {score name: r values}: the values
    the metric's statistic gives on those resamples."""

    codes: List[np.ndarray]
    widths: List[int]
    scores: Callable[[List[np.ndarray]], Scores]


# more distinct joint codes than this: the index-based statistic is used (the jackknife holds a size**2 matrix)
MAX_JOINT_CODES = 1 << 11
# from this many instances per resample on, each resample row is gathered and counted alone (stays in the CPU cache)
_ROW_WISE_FROM = 1 << 16


def _compact(codes: np.ndarray, bound: int) -> np.ndarray:
    """Codes in the smallest unsigned dtype holding values < bound (gathers from 1-byte arrays stay in cache)."""
    for dtype in (np.uint8, np.uint16, np.uint32):
        if bound <= np.iinfo(dtype).max + 1:
            return codes.astype(dtype)
    return codes.astype(np.int64)


def _densify(combined: np.ndarray, bound: int) -> Tuple[np.ndarray, np.ndarray]:
    """(distinct values in increasing order, dense code of each entry) of int codes in [0, bound)."""
    if bound <= 1 << 22:
        present = np.bincount(combined, minlength=bound) > 0
        values = np.flatnonzero(present)
        mapping = np.cumsum(present) - 1
        return values, mapping[combined]
    values, dense = np.unique(combined, return_inverse=True)
    return values, dense.reshape(-1)


class JointCodes:
    """Code arrays over the same positions as one dense code (one value per distinct combination of their codes),
    and the way back from counts of the dense code to counts of each array."""

    def __init__(self, dense: np.ndarray, table: np.ndarray, widths: Sequence[int]):
        self.size = int(table.shape[0])
        self.dense = _compact(dense, self.size)
        self.one_hot = []  # (size, width) 0/1 matrices: counts @ one_hot = the counts of one array's codes
        for column, width in enumerate(widths):
            one_hot = np.zeros((self.size, int(width)), dtype=np.int64)
            one_hot[np.arange(self.size), table[:, column]] = 1
            self.one_hot.append(one_hot)

    @classmethod
    def build(cls, arrays: Sequence[np.ndarray], widths: Sequence[int], positions: np.ndarray) -> Optional["JointCodes"]:
        """The joint code of `arrays` at `positions`; None when the combinations are too many to count."""
        dense = np.zeros(len(positions), dtype=np.int64)
        table = np.zeros((1, 0), dtype=np.int64)  # row d: each array's code of dense value d
        for array, width in zip(arrays, widths):
            width = int(width)
            combined = dense * width + np.asarray(array, dtype=np.int64)[positions]
            values, dense = _densify(combined, table.shape[0] * width)
            if len(values) > MAX_JOINT_CODES:
                return None
            table = np.column_stack([table[values // width], values % width])
        return cls(dense, table, widths)

    def marginals(self, counts: np.ndarray) -> List[np.ndarray]:
        """Counts (r, size) of the joint code -> the counts (r, width) of each array's codes."""
        return [counts @ one_hot for one_hot in self.one_hot]

    def counts(self, idx: np.ndarray) -> np.ndarray:
        """(r, size) counts of the joint code over each resample row of the index matrix `idx` (r, m)."""
        rows, m = idx.shape
        if m >= _ROW_WISE_FROM:
            result = np.empty((rows, self.size), dtype=np.int64)
            for row in range(rows):
                result[row] = _count(np.take(self.dense, idx[row]), self.size)
            return result
        flat = np.take(self.dense, idx).astype(np.intp)
        flat += (np.arange(rows, dtype=np.intp) * self.size)[:, None]
        return np.bincount(flat.ravel(), minlength=rows * self.size).reshape(rows, self.size)

    def leave_one_out_counts(self) -> np.ndarray:
        """(size, size): row d holds the counts of all positions but one whose code is d."""
        total = np.bincount(self.dense, minlength=self.size).astype(np.int64)
        return total[None, :] - np.eye(self.size, dtype=np.int64)


def _count(codes: np.ndarray, size: int) -> np.ndarray:
    """Counts of 1-byte codes in [0, size): two halves are paired into codes of size**2 values, which one bincount
    of half the length counts (bincount's cost is per element); the pair counts sum back to exact counts."""
    m = codes.shape[0]
    if codes.dtype != np.uint8 or m < 2:
        return np.bincount(codes, minlength=size)
    half = m // 2
    pairs = codes[:half].astype(np.uint16)
    pairs *= size
    pairs += codes[half:2 * half]
    table = np.bincount(pairs, minlength=size * size).reshape(size, size)
    result = table.sum(axis=1) + table.sum(axis=0)
    if m % 2:
        result[codes[-1]] += 1
    return result


def drawn_ahead(chunks: Iterator[np.ndarray], depth: int = 2) -> Iterator[np.ndarray]:
    """The chunks of `chunks`, drawn by a helper thread up to `depth` ahead: numpy draws without the GIL, so on a
    second core the drawing overlaps the counting (the stream, hence every index, is unchanged)."""
    import queue
    import threading

    handoff: "queue.Queue[Any]" = queue.Queue(maxsize=depth)
    stop = threading.Event()
    end = object()

    def draw() -> None:
        try:
            for chunk in chunks:
                if stop.is_set():
                    return
                handoff.put(chunk)
            handoff.put(end)
        except BaseException as error:  # noqa: BLE001 - handed to the consumer, raised there
            handoff.put(error)

    worker = threading.Thread(target=draw, name="unitxt-resample-draws", daemon=True)
    worker.start()
    try:
        while True:
            item = handoff.get()
            if item is end:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        while worker.is_alive():  # let a blocked put finish so the thread ends
            try:
                handoff.get_nowait()
            except queue.Empty:
                worker.join(timeout=0.01)


def resampled_distributions(members: Sequence[Tuple[Callable[[Any], Scores], List[str], Optional[CountedStatistic]]],
                            positions: np.ndarray, index_chunks: Callable[[Any], Iterator[np.ndarray]]) -> List[Scores]:
    """{name: value per resample} of each member (statistic over index matrices, score names, counted form or None)
    on the resamples `index_chunks(dtype)` yields; counted members share one joint code of `positions`."""
    counted = [(number, spec) for number, (_, _, spec) in enumerate(members) if spec is not None]
    joint, slots = None, {}
    if counted:
        arrays: List[np.ndarray] = []
        widths: List[int] = []
        index_of: Dict[int, int] = {}
        for number, spec in counted:
            slot = []
            for array, width in zip(spec.codes, spec.widths):
                if id(array) not in index_of:
                    index_of[id(array)] = len(arrays)
                    arrays.append(array)
                    widths.append(int(width))
                slot.append(index_of[id(array)])
            slots[number] = slot
        joint = JointCodes.build(arrays, widths, positions)
    collected: List[Dict[str, List[np.ndarray]]] = [{} for _ in members]
    chunks = index_chunks(np.int64 if joint is not None else np.int32)
    if joint is not None and len(positions) >= _ROW_WISE_FROM:
        chunks = drawn_ahead(chunks)
    for idx in chunks:
        marginals = joint.marginals(joint.counts(idx)) if joint is not None else None
        for number, (statistic, names, spec) in enumerate(members):
            if marginals is not None and spec is not None:
                computed = spec.scores([marginals[slot] for slot in slots[number]])
            else:
                computed = statistic(idx)
            for name in names:
                collected[number].setdefault(name, []).append(np.asarray(computed[name], dtype=np.float64))
    return [{name: np.concatenate(parts) for name, parts in parts_of.items()} for parts_of in collected]


def counted_jackknife(spec: CountedStatistic, positions: np.ndarray, names: List[str]) -> Optional[Scores]:
    """{name: the statistic on each leave-one-out subset of `positions`} from one count row per distinct code, or
    None when the codes are too many."""
    joint = JointCodes.build(spec.codes, spec.widths, positions)
    if joint is None:
        return None
    computed = spec.scores(joint.marginals(joint.leave_one_out_counts()))
    return {name: np.asarray(computed[name], dtype=np.float64)[joint.dense] for name in names}


def two_valued_means(columns: Dict[str, Any]) -> Optional[CountedStatistic]:
    """The counted form of NaN-free means of columns holding at most two distinct values each (0/1 accuracy, 0/100
    exact match), scored as `bootstrap.resampled_mean` scores them; None for other columns."""
    lows, highs, codes = [], [], []
    for values in columns.values():
        values = np.asarray(values, dtype=np.float64)
        if values.size == 0 or np.isnan(values).any():
            return None
        low, high = values.min(), values.max()
        bits = values == high
        if not np.all(bits | (values == low)) or not (low == high or sums_are_exact(low, high, values.size)):
            return None  # other values' sums round by order: bootstrap.resampled_mean gathers them
        if low == high:  # a constant: every resample is the column itself, its mean as numpy sums it
            low = high = float(values.mean())
        lows.append(low)
        highs.append(high)
        codes.append(bits.view(np.uint8))
    names = list(columns)

    def scores(counts: List[np.ndarray]) -> Scores:
        return {name: np.full(len(count), low) if low == high else
                (low * count[:, 0] + high * count[:, 1]) / int(count[0].sum())
                for name, low, high, count in zip(names, lows, highs, counts)}

    return CountedStatistic(codes, [2] * len(codes), scores) if names else None
