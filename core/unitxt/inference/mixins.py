"""The original's small engine mixins: a torch device choice, lazy model loading, a mock-mode flag, and the log-probs
contract (`LogProbInferenceEngine`). torch is imported only when a device must be detected or built."""

import abc
from typing import Any, Dict, List, Optional

from ..artifact import Artifact, NonPositionalField
from ..errors import MissingRequirementError
from ..general.dataclass_fields import AbstractMethodsGuard


def _torch() -> Any:
    try:
        import torch
    except ImportError:
        raise MissingRequirementError("Detecting a torch device needs torch: pip install torch "
                                      "(or set the engine's device).") from None
    return torch


class TorchDeviceMixin(Artifact):
    """`device` when given, else the best torch device of this machine (mps, then cuda:0, then cpu)."""

    device: Optional[str] = None

    def get_device_id(self) -> str:
        """The device name; torch is only imported when no device was given."""
        if self.device is not None:
            return self.device
        torch = _torch()
        if torch.backends.mps.is_available():
            return "mps"
        if torch.cuda.is_available():
            return "cuda:0"
        return "cpu"

    def get_device(self) -> Any:
        """The torch.device of get_device_id()."""
        return _torch().device(self.get_device_id())


class LazyLoadMixin(AbstractMethodsGuard, Artifact):
    """`lazy_load=True` defers loading the model until the first request; subclasses say whether it is loaded."""

    __abstract__ = True  # implemented by subclasses; refused as a __type__ in data

    lazy_load: bool = NonPositionalField(default=False)

    @abc.abstractmethod
    def _is_loaded(self) -> bool:
        """Whether the model is in memory."""


class MockModeMixin(Artifact):
    """A `mock_mode` flag: the engine answers without its model or service."""

    mock_mode: bool = False


class LogProbInferenceEngine(AbstractMethodsGuard, Artifact):
    """Engines that return the log-probabilities of the generated tokens: `infer_log_probs(dataset)` gives, per row,
    `[{"text", "logprob", "top_tokens": [{"text", "logprob"}, ...]}, ...]`; in mock mode one "[[10]]" token."""

    __abstract__ = True

    def infer_log_probs(self, dataset: Any, return_meta_data: bool = False) -> List[Any]:
        """Log-probs of each row's answer (the engine's own machinery when it is an InferenceEngine: policy, cache)."""
        from .base import InferenceEngine, mock_answers, mock_mode, rows_of

        if isinstance(self, InferenceEngine):
            return InferenceEngine.infer_log_probs(self, dataset, return_meta_data)
        rows = rows_of(dataset)
        if mock_mode():
            return mock_answers(rows, False, "log_probs")
        return self._infer_log_probs(rows, return_meta_data)

    @abc.abstractmethod
    def _infer_log_probs(self, dataset: List[Dict[str, Any]], return_meta_data: bool = False) -> List[Any]:
        """Per row, the generated tokens with their log-probs."""
