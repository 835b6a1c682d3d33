"""The documented import location `unitxt.blocks`: the common building blocks of cards and recipes in one place."""

from .card import TaskCard
from .formats import ChatAPIFormat, SystemFormat
from .loaders.base import LoadFromDictionary
from .loaders.hub_and_files import LoadCSV, LoadHF, LoadJsonFile
from .operators.fields import AddFields, Copy, MapInstanceValues, Rename, RenameFields, Set
from .recipe import DatasetRecipe, StandardRecipe
from .splitters import RenameSplits, SplitRandomMix
from .task import FormTask, Task
from .templates.base import InputOutputTemplate, MultiReferenceTemplate, Template
from .templates.collections import TemplatesDict, TemplatesList

__all__ = [
    "TaskCard", "Task", "FormTask", "LoadHF", "LoadCSV", "LoadJsonFile", "LoadFromDictionary", "Set", "AddFields",
    "Copy", "Rename", "RenameFields", "MapInstanceValues", "SplitRandomMix", "RenameSplits", "Template",
    "InputOutputTemplate", "MultiReferenceTemplate", "TemplatesList", "TemplatesDict", "SystemFormat",
    "ChatAPIFormat", "DatasetRecipe", "StandardRecipe",
]
