"""DatasetRecipe: the full data-preparation pipeline (card -> task -> demos -> template -> format -> rows).

Per instance, everything random (template, number of demos, demos) is drawn from a generator seeded by the
instance's content, so output rows are identical across runs, processes and data orderings.
"""

import itertools
import json
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from .artifact import Artifact
from .card import TaskCard
from .errors import RecipeError, UnitxtError
from .formats import Format, SystemFormat
from .image_utils import merge_media, normalize_media, to_content_parts
from .logging_utils import get_logger
from .recipe_extensions import (
    encode_media_fields,
    media_field_names,
    policy_checks,
    recipe_produces_media,
    with_serializers,
)
from .operator import SequentialOperator, SourceOperator
from .query_parser import is_assignment_string, parse_assignments
from .random_utils import InstanceRandom
from .samplers import RandomSampler, Sampler
from .settings_utils import settings
from .stream import MultiStream
from .system_prompts import SystemPrompt
from .task import Task
from .templates import Template, TemplatesDict, TemplatesList, keyed_templates

ROW_KEYS = (
    "source",
    "target",
    "references",
    "metrics",
    "postprocessors",
    "task_data",
    "groups",
    "subset",
    "media",
    "data_classification_policy",
)
TemplateSpec = Union[Template, TemplatesList, TemplatesDict, List[Template]]


def default_format() -> SystemFormat:
    """The format used when a recipe names none: instruction, demos, source and target prefix on their own lines."""
    return SystemFormat(model_input_format="{system_prompt}\\N{instruction}\\N{demos}{source}\\N{target_prefix}")


def _template_label(template: Template) -> Union[str, Dict[str, Any]]:
    """Catalog name of a template, else the serialised template (task_data.metadata.template, as in the original
    system; also the value of a group_by on "template")."""
    return template.__id__ or template.to_dict()


def _encode_json(value: Any) -> str:
    """`value` as compact-separator JSON (", " / ": "), non-ASCII kept, sets and tuples as lists.

    Same text as `_JSON_ENCODER.encode(value)`, faster: one C encoder is reused and called directly (no per-call
    `encode`/`iterencode` wrappers), without circular-reference bookkeeping. Circular data then exhausts the
    recursion limit, and is re-encoded by `_JSON_ENCODER` to raise its usual "Circular reference detected"."""
    if _C_ENCODER is None:
        return _JSON_ENCODER.encode(value)
    if isinstance(value, str):
        return _encode_basestring(value)
    try:
        return "".join(_C_ENCODER(value, 0))
    except RecursionError:
        return _JSON_ENCODER.encode(value)


def _fields_json(input_fields: Dict[str, Any], reference_fields: Dict[str, Any]) -> str:
    """The task fields as JSON: the body of task_data, and the instance's identity for seeding and demo exclusion.

    The merged dict encoded (input then reference fields). Should the two ever share a name (the task forbids it),
    both are kept, as two concatenated objects' members, so the identity still reflects every field."""
    merged = {**input_fields, **reference_fields}
    if len(merged) == len(input_fields) + len(reference_fields):
        return _encode_json(merged)
    inputs = _encode_json(input_fields)
    if not reference_fields:
        return inputs
    references = _encode_json(reference_fields)
    if not input_fields:
        return references
    return f"{inputs[:-1]}, {references[1:]}"


def _instance_key(instance: Dict[str, Any]) -> str:
    return _fields_json(instance["input_fields"], instance["reference_fields"])


class DatasetRecipe(SourceOperator):
    """A complete specification of a dataset: card (or task), template(s), format, demos and limits."""

    card: Optional[TaskCard] = None
    task: Optional[Task] = None
    template: Optional[TemplateSpec] = None
    template_card_index: Optional[Union[int, str, List[Union[int, str]]]] = None
    format: Optional[Format] = None
    system_prompt: Optional[SystemPrompt] = None
    num_demos: Union[int, List[int]] = 0
    demos_pool_size: Optional[int] = None
    demos_taken_from: str = "train"
    demos_removed_from_data: bool = True
    sampler: Optional[Sampler] = None
    loader_limit: Optional[int] = None
    max_train_instances: Optional[int] = None
    train_refiner: Optional[Artifact] = None  # a StreamRefiner-like operator applied to the train split (before limits)
    max_validation_instances: Optional[int] = None
    max_test_instances: Optional[int] = None
    metrics: Optional[List[str]] = None
    postprocessors: Optional[List[str]] = None
    group_by: List[Union[str, List[str]]] = []
    split: Optional[str] = None
    serializer: Optional[Union[Artifact, List[Artifact]]] = None
    augmentor: Optional[Union[Artifact, List[Artifact]]] = None
    seed: Optional[int] = None
    demos_sampling_seed: Optional[int] = None  # the original system's name of `seed`; either may be given

    # ------------------------------------------------------------------ validation
    def verify(self) -> None:
        super().verify()
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
            raise RecipeError("Set template or template_card_index, not both.", artifact=self.artifact_name)

    def whole_split_pool(self) -> bool:
        """Whether the demo pool is the whole demos_taken_from split: demos_pool_size=-1, or demos wanted from an
        explicitly named split with no demos_pool_size."""
        counts = self.num_demos if isinstance(self.num_demos, list) else [self.num_demos]
        if self.demos_pool_size == -1:
            return True
        return (self.demos_pool_size is None and bool(counts) and max(counts) > 0
                and "demos_taken_from" in self._given_fields)

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
                        f"template_card_index {index!r} is not in the card's templates (available: {keys}).",
                        artifact=self.artifact_name,
                        field="template_card_index",
                    )
                chosen.append(card_templates[keys.index(key)])
            return chosen
        if spec is None:
            card_templates, _ = self._card_templates()
            if card_templates:
                return [card_templates[0]]
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
        templates = [template for _, template in keyed_templates(spec)]
        for template in templates:
            if not isinstance(template, Template):
                raise RecipeError(f"{template!r} is not a template.", artifact=self.artifact_name, field="template")
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
        needs_pool = max(self._counts()) > 0 or (self.demos_pool_size or 0) > 0 or self.whole_split_pool()
        if needs_pool and self.demos_taken_from not in multi_stream:
            raise RecipeError(
                f"demos_taken_from='{self.demos_taken_from}' but the data has splits {sorted(multi_stream)}.",
                artifact=self.artifact_name,
                field="demos_taken_from",
            )
        if needs_pool:
            renderer.set_pool_source(multi_stream[self.demos_taken_from], self._pool_size())
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
        renderer = InstanceRenderer(self)
        if max(self._counts()) > 0:
            standardized = self.standardized()
            if self.demos_taken_from not in standardized:
                raise RecipeError(f"demos_taken_from='{self.demos_taken_from}' is not a split of the card's data.",
                                  artifact=self.artifact_name, field="demos_taken_from")
            renderer.set_pool_source(standardized[self.demos_taken_from], self._pool_size())
        task = self.get_task()
        checked = task.process_instances([dict(instance) for instance in instances])
        return list(renderer.render_stream(checked, "test", 0, None))


StandardRecipe = DatasetRecipe


class InstanceRenderer:
    """Turns task-schema instances into output rows (sampling, template, system prompt, format, row assembly)."""

    def __init__(self, recipe: DatasetRecipe):
        self.recipe = recipe
        self.task = recipe.get_task()
        self.media_fields = media_field_names(self.task)
        templates = recipe.get_templates()
        self.labels = [_template_label(template) for template in templates]  # names of the templates as given
        self.templates = [with_serializers(template, recipe.serializer, bool(self.media_fields)) for template in templates]
        self.chat_parts = recipe.produces_chat_source() and recipe.produces_media()
        self._format_gets_media = self.chat_parts or not recipe.produces_chat_source()
        self.format = recipe.format if recipe.format is not None else default_format()
        self.system_prompt = recipe.system_prompt
        self.counts = recipe._counts()
        self.sampler = recipe.sampler or (recipe.card.sampler if recipe.card is not None and recipe.card.sampler else None)
        self.sampler = self.sampler or RandomSampler()
        self.base_seed = settings.seed if recipe.seed is None else recipe.seed
        self.metrics = list(recipe.metrics) if recipe.metrics is not None else list(self.task.metrics)
        self.group_keys = [list(spec) if isinstance(spec, list) else [spec] for spec in recipe.group_by]
        augmentors = recipe.augmentor if isinstance(recipe.augmentor, list) else [recipe.augmentor] if recipe.augmentor else []
        self.augmentors = augmentors
        self._pool: Optional[List[Dict[str, Any]]] = None
        self._pool_source = None
        self._demo_cache: Dict[Tuple[int, int], Dict[str, Any]] = {}
        self._demo_texts: Dict[int, List[Optional[str]]] = {}  # template index -> formatted demo per pool position
        self._metadata_cache: Dict[Tuple[int, int, Tuple[str, ...]], str] = {}
        self.n_templates = len(self.templates)
        self.seed_prefix = f"{self.base_seed}:"
        self.pool_size = recipe.demos_pool_size or 0
        self.postprocessors = [
            [p if isinstance(p, str) else _postprocessor_reference(p) for p in template.postprocessors]
            for template in self.templates
        ]
        if recipe.postprocessors is not None:
            self.postprocessors = [list(recipe.postprocessors) for _ in self.templates]
        self.demo_augmentors = any(_augments_demos(augmentor) for augmentor in self.augmentors)
        self._policy_checks = policy_checks([*self.templates, self.format, self.system_prompt, *self.augmentors,
                                             *[getattr(t, "serializer", None) for t in self.templates]])
        self._warned_chat_media = False
        self._pool_media = False  # set when the pool is read: demos may carry their own media
        self.static_system_prompt = _static_system_prompt(self.system_prompt) if isinstance(self.format, SystemFormat) else None
        self._pool_keys: Dict[str, Any] = {}
        self._format_process = self.format._raw_process()
        self._system_prompt_process = self.system_prompt._raw_process() if self.system_prompt is not None else None

    def set_pool_source(self, stream: Iterable[Dict[str, Any]], size: Optional[int]) -> None:
        """`size` None: every instance of the stream is in the pool."""
        self._pool_source = (stream, size)

    def pool(self) -> List[Dict[str, Any]]:
        """The demo pool: the first demos_pool_size instances of the demos split (materialised once)."""
        if self._pool is None:
            if self._pool_source is None:
                self._pool = []
            else:
                stream, size = self._pool_source
                self._pool = list(stream) if size is None else list(itertools.islice(stream, size))
                if size is None:
                    size = len(self._pool)
                    self.pool_size = size
                if self.media_fields:  # images as data URLs: JSON-able keys, renderable demos
                    self._pool = [encode_media_fields(item, self.media_fields) for item in self._pool]
                if len(self._pool) < size:
                    raise RecipeError(
                        f"demos_pool_size={size} but split '{self.recipe.demos_taken_from}' has only "
                        f"{len(self._pool)} instances.",
                        artifact=self.recipe.artifact_name,
                        field="demos_pool_size",
                    )
                self.sampler.set_pool(self._pool)
                self._pool_media = bool(self.media_fields) or any(item.get("media") for item in self._pool)
                keys: Dict[str, set] = {}
                for index, item in enumerate(self._pool):
                    keys.setdefault(_instance_key(item), set()).add(index)
                self._pool_keys = keys
        return self._pool

    def _rendered_demo(self, template_index: int, pool_index: int) -> Dict[str, Any]:
        key = (template_index, pool_index)
        cached = self._demo_cache.get(key)
        if cached is None:
            cached = self._render_demo(self.templates[template_index], self._pool[pool_index])
            self._demo_cache[key] = cached
        return cached

    def _render_demo(self, template: Template, item: Dict[str, Any]) -> Dict[str, Any]:
        """A demo's {source, target, target_prefix, instruction} (+ "media" when it has its own media)."""
        holder = {"media": normalize_media(item["media"])} if item.get("media") else {}
        rendered = template.render(item["input_fields"], item["reference_fields"], holder)
        demo = {
            "source": rendered["source"],
            "target": rendered["target"],
            "target_prefix": rendered["target_prefix"],
            "instruction": rendered["instruction"],
        }
        media = holder.get("media")
        if media and (media["images"] or media["audios"]):
            demo["media"] = media
        if "options" in rendered:
            demo["options"] = rendered["options"]
        return demo

    def render_stream(self, stream, stream_name: str, skip: int, limit: Optional[int]) -> Iterator[Dict[str, Any]]:
        if skip:
            stream = itertools.islice(stream, skip, None)
        if limit is not None:
            stream = itertools.islice(stream, limit)
        needs_pool = self._pool_source is not None
        if needs_pool:
            self.pool()
        render = self.render
        for instance in stream:
            yield render(instance)

    def _demos_text(self, template_index: int, indices: List[int]) -> str:
        """The chosen demos formatted by the (SystemFormat) format's demo_format and concatenated.

        Each demo's text is computed once per template and pool entry (a list per template, indexed by pool position:
        cheaper per row than a dict keyed by tuples)."""
        texts = self._demo_texts.get(template_index)
        if texts is None:
            texts = self._demo_texts[template_index] = [None] * len(self._pool)
        chosen = [texts[index] for index in indices]
        if None in chosen:
            for index in indices:
                if texts[index] is None:
                    texts[index] = self.format.format_demos([self._rendered_demo(template_index, index)])
            chosen = [texts[index] for index in indices]
        return "".join(chosen)

    def _demo_task_data(self, template_index: int, pool_index: int) -> str:
        """A demo's task_data (its fields, options for multiple choice, its classification policy) as JSON."""
        key = (template_index, pool_index, "task_data")
        text = self._demo_cache.get(key)
        if text is None:
            item = self._pool[pool_index]
            fields_json = _fields_json(item["input_fields"], item["reference_fields"])
            rendered = self._rendered_demo(template_index, pool_index)
            extra = f'"options": {_encode_json(rendered["options"])}, ' if "options" in rendered else ""
            separator = ", " if len(fields_json) > 2 else ""
            policy = _encode_json({"data_classification_policy": list(item.get("data_classification_policy") or [])})
            text = self._demo_cache[key] = f'{fields_json[:-1]}{separator}{extra}"metadata": {policy}}}'
        return text

    def _metadata_json(self, template_index: int, num_demos: int, policy: List[str]) -> str:
        key = (template_index, num_demos, tuple(policy))
        text = self._metadata_cache.get(key)
        if text is None:
            text = _encode_json({
                "data_classification_policy": list(policy),
                "template": self.labels[template_index],
                "num_demos": num_demos,
                "demos_pool_size": self.pool_size,
            })
            self._metadata_cache[key] = text
        return text

    def _groups(self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any], template_index: int,
                num_demos: int) -> List[str]:
        """The instance's value of each group_by key list, as JSON objects ('{"label": "pos"}', as the original
        system writes them): keys are task fields or metadata (template, num_demos, demos_pool_size)."""
        metadata = {"template": self.labels[template_index], "num_demos": num_demos, "demos_pool_size": self.pool_size}
        groups = []
        for keys in self.group_keys:
            values = {}
            for key in keys:
                if key in input_fields:
                    values[key] = input_fields[key]
                elif key in reference_fields:
                    values[key] = reference_fields[key]
                elif key in metadata:
                    values[key] = metadata[key]
                else:
                    raise UnitxtError(
                        f"group_by key '{key}' is neither a task field nor metadata of the instances (available: "
                        f"{sorted(set(input_fields) | set(reference_fields) | set(metadata))}).", field="group_by")
            groups.append(json.dumps(values, ensure_ascii=False))
        return groups

    def render(self, instance: Dict[str, Any]) -> Dict[str, Any]:
        """One output row. The common case (text format, static system prompt, no media, no demo augmentation)
        stays inline; the rest is in `_augment` and `_general_source`."""
        if self._policy_checks:
            for component, allowed in self._policy_checks:
                component.check_instance_policy(instance, allowed)
        if self.media_fields:
            instance = encode_media_fields(instance, self.media_fields)
        input_fields = instance["input_fields"]
        reference_fields = instance["reference_fields"]
        fields_json = _fields_json(input_fields, reference_fields)
        rng = InstanceRandom(self.seed_prefix + fields_json)
        template_index = rng.randrange(self.n_templates) if self.n_templates > 1 else 0
        num_demos = rng.choice(self.counts) if len(self.counts) > 1 else self.counts[0]
        augmentor = aug_rng = None
        if self.augmentors:
            instance, fields_json, augmentor, aug_rng = self._augment(instance, fields_json, reference_fields)
            input_fields = instance["input_fields"]
        holder = {"media": normalize_media(instance["media"])} if instance.get("media") else {}
        rendered = self.templates[template_index].render(input_fields, reference_fields, holder)
        media = holder.get("media")
        if media is not None and not (media["images"] or media["audios"]):
            media = None
        indices = ()
        if num_demos:
            indices = self.sampler.sample_indices(instance, num_demos, rng, self._pool_keys.get(fields_json, _NO_EXCLUSIONS))
        demo_augmentor = augmentor if self.demo_augmentors and _augments_demos(augmentor) else None
        demo_media = demo_augmentor is None and self._pool_media and bool(indices) and self._demos_have_media(
            template_index, indices)
        if self.static_system_prompt is not None and not media and not demo_augmentor and not demo_media:
            source = self.format.render_prompt(
                rendered["source"], rendered["instruction"], rendered["target_prefix"], self.static_system_prompt,
                self._demos_text(template_index, indices) if indices else "",
            )
        else:
            source, media = self._general_source(instance, rendered, template_index, indices, media, demo_augmentor,
                                                 aug_rng)
        policy = instance.get("data_classification_policy") or []
        separator = ", " if len(fields_json) > 2 else ""
        options = rendered.get("options")
        if options is not None or indices:  # as the original system: choices' answers and the demos' task data
            separator += (f'"options": {_encode_json(options)}, ' if options is not None else "") + (
                f'"demos": [{", ".join(self._demo_task_data(template_index, index) for index in indices)}], '
                if indices else "")
        return {
            "source": source,
            "target": rendered["target"],
            "references": rendered["references"],
            "metrics": self.metrics,
            "postprocessors": self.postprocessors[template_index],
            "task_data": f'{fields_json[:-1]}{separator}"metadata": {self._metadata_json(template_index, num_demos, policy)}}}',
            "groups": self._groups(input_fields, reference_fields, template_index, num_demos) if self.group_keys else [],
            "subset": list(instance.get("subset") or ()),
            "media": media or {"images": [], "audios": []},  # = normalize_media(None)
            "data_classification_policy": policy,
        }

    def _augment(
        self, instance: Dict[str, Any], fields_json: str, reference_fields: Dict[str, Any]
    ) -> Tuple[Dict[str, Any], str, Any, InstanceRandom]:
        """(instance, fields_json, augmentor, its generator) after applying the augmentor chosen for the instance.

        The augmentor has its own generator: adding augmentation does not change the template or the demos drawn."""
        aug_rng = InstanceRandom(self.seed_prefix + "augment|" + fields_json)
        augmentors = self.augmentors
        augmentor = augmentors[aug_rng.randrange(len(augmentors))] if len(augmentors) > 1 else augmentors[0]
        input_fields = instance["input_fields"]
        instance = augmentor.augment_instance(instance, self.task, aug_rng)
        if instance["input_fields"] is not input_fields:
            fields_json = _fields_json(instance["input_fields"], reference_fields)
        return instance, fields_json, augmentor, aug_rng

    def _demos_have_media(self, template_index: int, indices: List[int]) -> bool:
        return any("media" in self._rendered_demo(template_index, index) for index in indices)

    def _general_source(
        self,
        instance: Dict[str, Any],
        rendered: Dict[str, Any],
        template_index: int,
        indices: List[int],
        media: Optional[Dict[str, Any]],
        demo_augmentor: Any,
        aug_rng: Optional[InstanceRandom],
    ) -> Tuple[Any, Optional[Dict[str, Any]]]:
        """(source, media) when demos are augmented or carry media, or the format/system prompt must run as
        operators: the demos are rendered as dicts and merged with the instance's media first."""
        if demo_augmentor is not None:
            items = demo_augmentor.augment_demos([self._pool[index] for index in indices], instance, aug_rng)
            template = self.templates[template_index]
            demos = [self._render_demo(template, item) for item in items]
        else:
            demos = [self._rendered_demo(template_index, index) for index in indices]
        if media is None and any("media" in demo for demo in demos):
            media = normalize_media(None)
        if media is not None:
            demos = [merge_media(media, demo.get("media"), {k: demo[k] for k in _DEMO_KEYS}) for demo in demos]
        return self._general_prompt(rendered, demos, media), media

    def _general_prompt(self, rendered: Dict[str, Any], demos: List[Dict[str, Any]], media: Optional[Dict[str, Any]]) -> Any:
        """System prompt and format applied as operators (chat formats, media, custom system prompts)."""
        prompt = {
            "source": rendered["source"],
            "instruction": rendered["instruction"],
            "target_prefix": rendered["target_prefix"],
            "system_prompt": "",
            "demos": demos,
        }
        if media is not None and self._format_gets_media:
            prompt["media"] = media  # chat formats turn placeholders into content parts (only if the schema has them)
        if self.system_prompt is not None:
            prompt = self._system_prompt_process(prompt, None)
        prompt = self._format_process(prompt, None)
        source = prompt["source"]
        if isinstance(source, list):
            if self.chat_parts:
                source = to_content_parts(source, media)
            elif media is not None and not self._warned_chat_media:
                self._warned_chat_media = True
                get_logger().warning(
                    "Rows carry media but the recipe was not detected as multimodal, so chat contents stay text with "
                    "<img src=...> placeholders. Declare Image/Audio task fields or use ImageToText in the card."
                )
        return source


_NO_EXCLUSIONS: frozenset = frozenset()
_DEMO_KEYS = ("source", "target", "target_prefix", "instruction")


def _augments_demos(augmentor: Any) -> bool:
    if augmentor is None:
        return False
    check = getattr(augmentor, "augments_demos", None)
    return bool(check()) if callable(check) else hasattr(augmentor, "augment_demos")


def _static_system_prompt(system_prompt: Optional[SystemPrompt]) -> Optional[str]:
    """The fixed text of a plain textual/empty system prompt, or None when it must run as an operator."""
    from .system_prompts import EmptySystemPrompt, TextualSystemPrompt

    if system_prompt is None or type(system_prompt) is EmptySystemPrompt:
        return ""
    if type(system_prompt) is TextualSystemPrompt:
        return system_prompt.text
    return None


def _postprocessor_reference(processor: Artifact) -> str:
    """How a post-processor object is recorded in rows: its catalog name, else its JSON."""
    if processor.__id__:
        return processor.__id__
    return json.dumps(processor.to_dict(), sort_keys=True)


def _json_default(value: Any) -> Any:
    if isinstance(value, (set, tuple)):
        return list(value)
    raise UnitxtError(f"task_data value of type {type(value).__name__} is not JSON serialisable.", stage="task_data")


_JSON_ENCODER = json.JSONEncoder(ensure_ascii=False, default=_json_default)
_encode_basestring = json.encoder.encode_basestring
_c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
# what JSONEncoder.iterencode builds per call, built once; markers=None: no shared state (thread safe)
_C_ENCODER = None if _c_make_encoder is None else _c_make_encoder(
    None,
    _json_default,
    _encode_basestring,
    None,  # indent
    _JSON_ENCODER.key_separator,
    _JSON_ENCODER.item_separator,
    _JSON_ENCODER.sort_keys,
    _JSON_ENCODER.skipkeys,
    _JSON_ENCODER.allow_nan,
)


def recipe_from_string(text: str) -> SourceOperator:
    """A recipe from `card=...,template=...` or a catalog name of a saved recipe/benchmark (`benchmarks.glue[...]`)."""
    from .catalog import fetch_artifact

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
        from .logging_utils import get_logger

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
