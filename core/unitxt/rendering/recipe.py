"""DatasetRecipe: the full data-preparation pipeline (card -> task -> demos -> template -> format -> rows).

Per instance, everything random (template, number of demos, demos) is drawn from a generator seeded by the
instance's content, so output rows are identical across runs, processes and data orderings.
"""

import math
from typing import Any, Dict, List, Optional, Tuple, Union

from ..artifact import Artifact, NonPositionalField
from ..artifact_registry import register_type_names
from ..card import TaskCard
from ..catalog_store import peek_in_catalogs
from ..errors import CatalogError, RecipeArgumentConflictError, RecipeError
from ..formats.base import Format
from ..formats.system_prompts import SystemPrompt
from ..module_aliases import moved_classes
from ..operator import SequentialOperator, SourceOperator
from ..query_parser import is_assignment_string, parse_assignments
from ..samplers import Sampler
from ..settings_utils import get_constants
from ..stream import MultiStream
from ..task import Task, check_names_or_artifacts
from ..templates.base import Template
from ..templates.collections import TemplatesDict, TemplatesList, keyed_templates
from .instance_renderer import InstanceRenderer
from .media_and_policy import recipe_produces_media
from .prompt_assembly import default_format  # noqa: F401  (part of this module's API)
from .row_json import ROW_KEYS  # noqa: F401  (the row keys, in order; imported from here by callers)
from ..artifact import InertField

TemplateSpec = Union[Template, TemplatesList, TemplatesDict, List[Template]]


class Recipe:
    """The original's marker base of recipe classes (`unitxt.recipe.Recipe`), for isinstance checks."""


class DatasetRecipe(SourceOperator):
    """A complete specification of a dataset: card (or task), template(s), format, demos and limits."""

    demos_field: Any = InertField(default='demos', reason="demos are drawn by this library's own demo pool here")
    demos_pool: Any = InertField(default=None, reason="demos are drawn by this library's own demo pool here")
    demos_pool_field_name: Any = InertField(
        default='_demos_pool_', reason="demos are drawn by this library's own demo pool here")
    max_steps: Any = InertField(default=None, reason="demos are drawn by this library's own demo pool here")
    skip_demoed_instances: Any = InertField(
        default=False, reason="demos are drawn by this library's own demo pool here")
    test_refiner: Any = InertField(default=None, reason="demos are drawn by this library's own demo pool here")
    validation_refiner: Any = InertField(default=None, reason="demos are drawn by this library's own demo pool here")

    card: Optional[TaskCard] = None
    task: Optional[Task] = None
    template: Optional[TemplateSpec] = None
    template_card_index: Optional[Union[int, str, List[Union[int, str]]]] = NonPositionalField(default=None)
    format: Optional[Format] = None
    system_prompt: Optional[SystemPrompt] = None
    num_demos: Union[int, List[int]] = 0
    demos_pool_size: Optional[int] = None
    demos_taken_from: str = "train"
    demos_removed_from_data: bool = True
    sampler: Optional[Sampler] = None
    loader_limit: Optional[Union[int, float]] = None
    max_train_instances: Optional[Union[int, float]] = None
    train_refiner: Optional[Artifact] = None  # a StreamRefiner-like operator applied to the train split (before limits)
    max_validation_instances: Optional[Union[int, float]] = None
    max_test_instances: Optional[Union[int, float]] = None
    metrics: Optional[List[Any]] = NonPositionalField(default=None)  # catalog names or artifacts, mixed as the user likes
    postprocessors: Optional[List[Any]] = NonPositionalField(default=None)
    group_by: List[Union[str, List[str]]] = []
    split: Optional[str] = None
    serializer: Optional[Union[Artifact, List[Artifact]]] = None
    augmentor: Optional[Union[Artifact, List[Artifact]]] = None
    seed: Optional[int] = None
    demos_sampling_seed: Optional[int] = None  # the original system's name of `seed`; either may be given

    # ------------------------------------------------------------------ validation
    def verify(self) -> None:
        super().verify()
        for field in ("metrics", "postprocessors"):
            check_names_or_artifacts(self.__dict__[field], field, self.artifact_name)
        for field in ("loader_limit", "max_train_instances", "max_validation_instances", "max_test_instances"):
            value = self.__dict__[field]
            if isinstance(value, float):  # e.g. 200 / batch_size: the original keeps the instances before it
                if value != value or value in (float("inf"), float("-inf")):
                    raise RecipeError(f"{field} must be a number of instances, got {value}.",
                                      artifact=self.artifact_name, field=field)
                self.__dict__[field] = math.ceil(value)
        if self.loader_limit:  # the original refuses asking for more instances than are loaded
            for field in ("max_test_instances", "max_validation_instances", "max_train_instances", "demos_pool_size"):
                value = self.__dict__[field]
                if value is not None and value > self.loader_limit:
                    raise RecipeError(f"{field} should not exceed loader_limit ({self.loader_limit}), Got "
                                      f"{field}={value}", artifact=self.artifact_name, field=field)
        if self.demos_sampling_seed is not None:
            if self.seed is not None and self.seed != self.demos_sampling_seed:
                raise RecipeError(f"seed={self.seed} and demos_sampling_seed={self.demos_sampling_seed} disagree; "
                                  "they name the same setting, give one.", artifact=self.artifact_name, field="seed")
            self.__dict__["seed"] = self.demos_sampling_seed
        counts = self.num_demos if isinstance(self.num_demos, list) else [self.num_demos]
        if not counts or any(count < 0 for count in counts):
            raise RecipeError("num_demos must be a non-negative int or a non-empty list of them.",
                              artifact=self.artifact_name, field="num_demos")
        if self.demos_pool_size is not None and self.demos_pool_size < 0 and self.demos_pool_size != -1:
            raise RecipeError("demos_pool_size must be >= 0 (or -1: the whole demos_taken_from split).",
                              artifact=self.artifact_name, field="demos_pool_size")
        if self.whole_split_pool():
            pass  # the whole demos_taken_from split is the pool: its size is only known when loading
        elif max(counts) > 0:
            if self.demos_pool_size is None:
                raise RecipeError(
                    "num_demos > 0 needs demos_pool_size (the number of instances set aside as demos).",
                    artifact=self.artifact_name,
                    field="demos_pool_size",
                )
            if max(counts) > self.demos_pool_size:
                raise RecipeError(
                    f"num_demos ({max(counts)}) is larger than demos_pool_size ({self.demos_pool_size}).",
                    artifact=self.artifact_name,
                    field="num_demos",
                )
        raw = self.__dict__  # raw values: catalog names are not fetched at construction (benchmarks list many)
        if raw["card"] is None and raw["task"] is None:
            raise RecipeError("A recipe needs a card or a task.", artifact=self.artifact_name, field="card")
        if raw["template"] is not None and self.template_card_index is not None:
            raise RecipeArgumentConflictError(
                f"Specify either template ({raw['template']}) or template_card_index ({self.template_card_index}) "
                "but not both.", artifact=self.artifact_name, field="template_card_index")
        if isinstance(raw["card"], TaskCard):
            self.demo_sampler()  # a card given as an object: refuse demos it can not sample now
        if raw["template"] is None and self.template_card_index is not None and raw["card"] is not None \
                and not self._card_check_settled(raw["card"]):
            try:
                self.card  # noqa: B018 - resolves the card name (a missing card is reported when the recipe runs)
            except CatalogError:
                pass
            else:
                self.get_templates()  # an index the card does not define is refused now, as the original does

    def whole_split_pool(self) -> bool:
        """Whether the demo pool is the whole demos_taken_from split: demos_pool_size=-1, or demos wanted from an
        explicitly named split with no demos_pool_size."""
        counts = self.num_demos if isinstance(self.num_demos, list) else [self.num_demos]
        if self.demos_pool_size == -1:
            return True
        return (self.demos_pool_size is None and bool(counts) and max(counts) > 0
                and "demos_taken_from" in self._given_fields)

    @property
    def max_demos_size(self) -> int:
        """The largest number of demos an instance may get."""
        return max(self._counts())

    @property
    def use_demos(self) -> bool:
        """Whether instances get demos."""
        return self.num_demos is not None and self.max_demos_size > 0

    @property
    def has_custom_demos_pool(self) -> bool:
        """Whether a demo pool is set aside (demos_pool_size > 0, or -1: the whole split)."""
        return self.demos_pool_size is not None and (self.demos_pool_size > 0 or self.demos_pool_size == -1)

    @property
    def has_no_templates(self) -> bool:
        """Whether the recipe names no template (nor a card template index)."""
        return self.template_card_index is None and self.template is None

    @property
    def has_card_templates(self) -> bool:
        """Whether the card lists templates."""
        return bool(self._card_templates()[0])

    def verify_template(self, template: Any) -> None:
        """Hook: refuse a chosen template that is not a Template."""
        if not isinstance(template, Template):
            raise RecipeError(f"{template!r} is not a template.", artifact=self.artifact_name, field="template")

    def reset(self) -> None:
        """Forget what was derived from the fields, so fields changed since are used by the next run."""
        self.reset_pipeline()

    def reset_pipeline(self) -> None:
        """Hook: drop the derived state (rows are rendered by a pipeline built per run from the fields)."""
        self.__dict__.pop("_produces_media", None)

    def _pool_size(self) -> Optional[int]:
        """demos_pool_size as the renderer uses it (None: the whole split)."""
        return None if self.whole_split_pool() else self.demos_pool_size

    # ------------------------------------------------------------------ resolution
    def get_task(self) -> Task:
        if self.task is not None:
            return self.task
        if self.card is None or self.card.task is None:
            raise RecipeError("The card has no task.", artifact=self.artifact_name, field="task")
        return self.card.task

    def _card_check_settled(self, card: Any) -> bool:
        """For a card given by catalog name, settle the template_card_index check from its catalog entry without
        building it (a benchmark builds a hundred recipes): a name no catalog holds is reported when the recipe runs;
        a held card passes when its stored templates have every index. False: build the card and check."""
        if not isinstance(card, str) or "[" in card or card.lstrip().startswith("{"):
            return False
        try:
            data = peek_in_catalogs(card.strip())
        except CatalogError:  # not a valid catalog name: reported when the recipe runs
            return True
        if data is None:
            return True
        keys = _catalog_template_keys(data)
        indices = self.template_card_index if isinstance(self.template_card_index, list) else [self.template_card_index]
        return keys is not None and all(str(index) in keys for index in indices)

    def demo_sampler(self) -> Optional[Sampler]:
        """The sampler choosing demos: the recipe's, else the card's (None when no demos are asked for or there is no
        card). A card whose sampler was set to None can not give demos."""
        if self.sampler is not None or not self.use_demos or self.card is None:
            return self.sampler
        if self.card.sampler is None:
            raise RecipeError("Unexpected None value for card.sampler. To use num_demos > 0, please set a sampler on "
                              "the TaskCard.", artifact=self.artifact_name, field="sampler")
        return self.card.sampler

    def _card_templates(self) -> Tuple[List[Template], List[str]]:
        pairs = keyed_templates(self.card.templates if self.card is not None else None)
        return [template for _, template in pairs], [key for key, _ in pairs]

    def get_templates(self) -> List[Template]:
        """The templates instances are rendered with (one is sampled per instance when there are several)."""
        spec = self.template
        if spec is None and self.template_card_index is not None:
            card_templates, keys = self._card_templates()
            indices = self.template_card_index if isinstance(self.template_card_index, list) else [self.template_card_index]
            chosen = []
            for index in indices:
                key = str(index)
                if key not in keys:
                    raise RecipeError(
                        f"template_card_index {index!r} is not defined in card. Its templates: {keys}.",
                        artifact=self.artifact_name,
                        field="template_card_index",
                    )
                chosen.append(card_templates[keys.index(key)])
            return self._verified(chosen)
        if spec is None:
            if self.has_card_templates:
                return self._verified([self._card_templates()[0][0]])
            default = self.get_task().default_template
            if default is None and self.card is not None and self.card.default_template is not None:
                default = self.card.default_template
            if default is None:
                raise RecipeError(
                    "Missing argument 'template': the recipe names no template, the card lists no templates and "
                    "its task has no default_template. Pass template=<a template or catalog name> (e.g. "
                    "'card=...,template=templates...'), or give the task a default_template.",
                    artifact=self.artifact_name,
                    field="template",
                )
            spec = default
        return self._verified([template for _, template in keyed_templates(spec)])

    def _verified(self, templates: List[Template]) -> List[Template]:
        for template in templates:
            self.verify_template(template)
        return templates

    def produces_chat_source(self) -> bool:
        """Whether the rows' `source` is a list of chat messages (chat API formats) rather than text."""
        return bool(getattr(self.format, "produces_chat_messages", False))

    def produces_media(self) -> bool:
        """Whether rows may carry images/audio (chat rows then use content parts; see image_utils)."""
        return recipe_produces_media(self)

    # ------------------------------------------------------------------ pipeline
    def _counts(self) -> List[int]:
        return self.num_demos if isinstance(self.num_demos, list) else [self.num_demos]

    def standardized(self) -> MultiStream:
        """Loader -> preprocess steps -> task: instances in the task schema, per split."""
        if self.card is None or self.card.loader is None:
            raise RecipeError("This recipe has no card with a loader to read data from.", artifact=self.artifact_name,
                              field="card")
        import copy

        loader = copy.copy(self.card.loader)
        if self.loader_limit is not None:
            loader.loader_limit = self.loader_limit
        multi_stream = loader()
        task = self.get_task()
        # one SequentialOperator, so the preprocess steps and the task run fused over each instance
        return SequentialOperator(steps=[*(self.card.preprocess_steps or []), task])(multi_stream)

    def process(self) -> MultiStream:
        from .batch_render import RenderedStream

        multi_stream = self.standardized()
        renderer = InstanceRenderer(self)
        limits = {
            "train": self.max_train_instances,
            "validation": self.max_validation_instances,
            "test": self.max_test_instances,
        }
        needs_pool = self.use_demos or self.has_custom_demos_pool or self.whole_split_pool()
        if needs_pool and self.demos_taken_from not in multi_stream:
            raise RecipeError(
                f"demos_taken_from='{self.demos_taken_from}' but the data has splits {sorted(multi_stream)}.",
                artifact=self.artifact_name,
                field="demos_taken_from",
            )
        if needs_pool:
            renderer.demos.set_source(multi_stream[self.demos_taken_from], self._pool_size())
        if self.train_refiner is not None and "train" in multi_stream:
            refined = self.train_refiner(MultiStream({"train": multi_stream["train"]}))
            multi_stream = MultiStream({**multi_stream, "train": refined["train"]})
        result = MultiStream()
        for name, stream in multi_stream.items():
            if needs_pool and self.whole_split_pool() and self.demos_removed_from_data and name == self.demos_taken_from:
                continue  # the whole split went to the demo pool
            takes_pool = needs_pool and self.demos_removed_from_data and name == self.demos_taken_from
            skip = self.demos_pool_size if takes_pool and not self.whole_split_pool() else 0
            result[name] = RenderedStream(renderer, stream, name, skip, limits.get(name))  # rows, or column batches
        if self.split is not None:
            if self.split not in result:
                raise RecipeError(f"Split '{self.split}' not in {sorted(result)}.", artifact=self.artifact_name, field="split")
            result = MultiStream({self.split: result[self.split]})
        return result

    def produce_rows(self, instances: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """Render task-schema instances given directly (production): demos come from the card when it has one."""
        renderer = InstanceRenderer(self, production=True)
        if self.use_demos:
            standardized = self.standardized()
            if self.demos_taken_from not in standardized:
                raise RecipeError(f"demos_taken_from='{self.demos_taken_from}' is not a split of the card's data.",
                                  artifact=self.artifact_name, field="demos_taken_from")
            renderer.demos.set_source(standardized[self.demos_taken_from], self._pool_size())
        checked = self.production_preprocess(instances)
        return list(renderer.render_stream(checked, get_constants().inference_stream, 0, None))

    def production_preprocess(self, task_instances: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """Hook: task-schema instances given in production, checked by the task (defaults filled) before rendering."""
        return self.get_task().process_instances([dict(instance) for instance in task_instances],
                                                 get_constants().inference_stream)

    def produce(self, task_instances: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """The original's name of `produce_rows`: model-ready rows of task-schema instances (no references)."""
        return self.produce_rows(task_instances)


StandardRecipe = StandardRecipeWithIndexes = BaseRecipe = DatasetRecipe  # the original's deprecated names of DatasetRecipe
register_type_names(DatasetRecipe, "StandardRecipe", "StandardRecipeWithIndexes", "BaseRecipe")  # and their __type__s


def recipe_from_string(text: str) -> SourceOperator:
    """A recipe from `card=...,template=...` or a catalog name of a saved recipe/benchmark (`benchmarks.glue[...]`)."""
    from ..catalog import fetch_artifact

    text = text.strip()
    if is_assignment_string(text):
        arguments = DatasetRecipe.coerce_overrides(parse_assignments(text), artifact_name="recipe")
        return DatasetRecipe(**arguments)
    artifact, _ = fetch_artifact(text)
    if not isinstance(artifact, SourceOperator):
        raise RecipeError(
            f"'{text}' is a {type(artifact).__name__}, not a recipe or benchmark. "
            "Pass a recipe string such as 'card=cards.x,template=templates.y'.",
            artifact=text,
        )
    return artifact


def _warn_about_conflicts(text: str, kwargs: Dict[str, Any]) -> None:
    """Keyword arguments given next to a recipe string win; say so where they contradict the string."""
    text = text.strip()
    if not is_assignment_string(text):
        return
    given = parse_assignments(text)
    conflicts = []
    for key, value in kwargs.items():
        if key in given and given[key] != value and str(given[key]) != str(getattr(value, "__id__", value)):
            conflicts.append(f"{key}: {given[key]} -> {getattr(value, '__id__', value)}"[:160])
    if conflicts:
        from ..logging_utils import get_logger

        get_logger().warning("Recipe arguments given both in the recipe string and as keyword arguments; the keyword "
                             "arguments win: " + "; ".join(conflicts))


def build_recipe(recipe_or_name: Any = None, **kwargs: Any) -> SourceOperator:
    """Accept a recipe object, a recipe string / catalog name, or keyword arguments (optionally both)."""
    if isinstance(recipe_or_name, SourceOperator):
        if kwargs:
            return recipe_or_name.copy(**kwargs)
        return recipe_or_name
    if isinstance(recipe_or_name, str):
        recipe = recipe_from_string(recipe_or_name)
        if not kwargs:
            return recipe
        _warn_about_conflicts(recipe_or_name, kwargs)
        return recipe.copy(**kwargs)
    if recipe_or_name is not None:
        raise RecipeError(f"Expected a recipe string or object, got {type(recipe_or_name).__name__}.")
    if not kwargs:
        raise RecipeError("No recipe given: pass a recipe string or keyword arguments such as card=...")
    unknown = [key for key in kwargs if key not in DatasetRecipe.get_fields()]
    if unknown:
        DatasetRecipe.coerce_overrides({key: None for key in unknown}, artifact_name="recipe")
    return DatasetRecipe(**kwargs)


def _catalog_template_keys(data: Any) -> Optional[List[str]]:
    """The template keys of a card's stored data as keyed_templates gives them (links and catalog names followed);
    None for a layout this does not read (the card is then built)."""
    for _ in range(10):  # catalog names (the card's, a link's target, a templates entry's) and link entries
        if isinstance(data, str):
            data = peek_in_catalogs(data)
        elif isinstance(data, dict) and data.get("__type__") == "artifact_link":
            data = data.get("to")
        else:
            break
    templates = data.get("templates") if isinstance(data, dict) and data.get("__type__") == "task_card" else None
    for _ in range(10):
        if isinstance(templates, str):
            templates = peek_in_catalogs(templates)
        elif isinstance(templates, dict) and templates.get("__type__") in ("templates_list", "templates_dict"):
            templates = templates.get("items")
        else:
            break
    if isinstance(templates, dict) and "__type__" not in templates:
        return [str(key) for key in templates]
    if isinstance(templates, list):
        return [str(index) for index in range(len(templates))]
    return None


__getattr__ = moved_classes(__name__)  # the original kept more classes in unitxt.standard / unitxt.recipe (rendering/demo_pool_streams.py)
