"""TaskCard: how to load a dataset and standardise it for a task, with the templates that suit it."""

from typing import Dict, List, Optional, Union

from .artifact import Artifact
from .general.dataclass_fields import Field
from .loaders.base import Loader
from .operator import Operator
from .samplers import RandomSampler
from .task import Task
from .module_aliases import moved_classes


class TaskCard(Artifact):
    """A data-task card: loader -> preprocess_steps -> task, plus templates and an optional demo sampler."""

    loader: Optional[Loader] = None
    preprocess_steps: Optional[List[Operator]] = None
    task: Optional[Task] = None
    templates: Optional[Union[Artifact, List[Artifact], Dict[str, Artifact]]] = None
    sampler: Optional[Artifact] = Field(default_factory=RandomSampler)  # None: the card can not give demos
    default_template: Optional[Artifact] = None


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
