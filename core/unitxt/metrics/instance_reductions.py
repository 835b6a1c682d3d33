"""Reductions of per-instance value arrays to global scores over resample index matrices (r, m): the NaN-ignoring
mean, median, max, min and the original's weighted win rate (instance metrics' `reduction_map`)."""

from typing import Any, Dict

from ..errors import MetricError
from ..lazy_imports import numpy_module as _np
from .scores import Statistic


def weighted_win_rate(preferences: Any) -> Any:
    """Win rate of A over B from signed preference strengths (rows: resamples): a preference s > 0 counts s battles
    won, s < 0 |s| battles lost, 0 a tie (one of two battles won) - the original's weighted_win_rate reduction."""
    np = _np()
    wins = np.where(preferences > 0, preferences, np.where(preferences == 0, 1.0, 0.0))
    battles = np.where(preferences == 0, 2.0, np.abs(preferences))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.nansum(wins, axis=-1) / np.nansum(np.where(np.isnan(preferences), np.nan, battles), axis=-1)


def mean_statistic(values: Dict[str, Any], reduction: str = "mean") -> Statistic:
    """Statistic reducing per-instance value arrays (NaN values are ignored; all-NaN gives NaN)."""
    np = _np()
    arrays = {name: np.asarray(array, dtype=np.float64) for name, array in values.items()}
    if reduction == "mean":
        from .kernels.bootstrap import resampled_mean

        return lambda idx: {name: resampled_mean(array, idx) for name, array in arrays.items()}
    if reduction == "weighted_win_rate":
        return lambda idx: {name: weighted_win_rate(array[idx]) for name, array in arrays.items()}
    reducers = {"median": np.nanmedian, "max": np.nanmax, "min": np.nanmin}
    if reduction not in reducers:
        raise MetricError(f"Unknown reduction '{reduction}'; use mean, median, max, min or weighted_win_rate.")
    reducer = reducers[reduction]

    def statistic(idx):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN resample row is NaN, by design
            return {name: reducer(array[idx], axis=1) for name, array in arrays.items()}

    return statistic
