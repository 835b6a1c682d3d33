"""InstanceRenderer: one task-schema instance to one output row (template, number of demos and demos drawn from a
generator seeded by the instance's content; system prompt, format, augmentation, media, data-classification checks).
The demo pool and its sampling are in demo_pool.py, system prompt and format in prompt_assembly.py, the columnar
fast path in batch_render.py."""

import itertools
import json
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from ..artifact import Artifact
from ..errors import UnitxtError
from ..image_utils import merge_media, normalize_media
from ..random_utils import InstanceRandom
from ..samplers import RandomSampler
from ..settings_utils import settings
from ..templates.base import Template
from .demo_pool import DEMO_KEYS, DemoPool, render_demo
from .media_and_policy import encode_media_fields, media_field_names, policy_checks, with_serializers
from .prompt_assembly import PromptAssembler
from .row_json import encode_json
from .row_json import fields_json as fields_json_of


def _template_label(template: Template) -> Union[str, Dict[str, Any]]:
    """Catalog name of a template, else the serialised template (task_data.metadata.template, as in the original
    system; also the value of a group_by on "template"). A name fetched with overrides ("name[key=value]") is
    recorded as its catalog name, as the original records it."""
    name = template.__id__
    return name.split("[", 1)[0] if name else template.to_dict()


def _augments_demos(augmentor: Any) -> bool:
    if augmentor is None:
        return False
    check = getattr(augmentor, "augments_demos", None)
    return bool(check()) if callable(check) else hasattr(augmentor, "augment_demos")


def artifact_reference(processor: Any) -> str:
    """How a metric or post-processor is recorded in rows (a string column): a catalog name as given, an object as its
    catalog name when it came from the catalog, else as its JSON (which evaluate() and fetch_artifact read back)."""
    if isinstance(processor, str):
        return processor
    if not isinstance(processor, Artifact):
        raise UnitxtError(f"Metrics and post-processors are artifacts or catalog names, got "
                          f"{type(processor).__name__} {str(processor)[:80]!r}.", field="metrics")
    if processor.__id__:
        return processor.__id__
    return json.dumps(processor.to_dict(), sort_keys=True)


class InstanceRenderer:
    """Turns task-schema instances into output rows (sampling, template, system prompt, format, row assembly)."""

    def __init__(self, recipe: Any, production: bool = False):
        self.recipe = recipe
        self.production = production  # rows for a model: no reference fields, no target or references
        self.task = recipe.get_task()
        self.media_fields = media_field_names(self.task)
        templates = recipe.get_templates()
        self.labels = [_template_label(template) for template in templates]  # names of the templates as given
        self.templates = [with_serializers(template, recipe.serializer, bool(self.media_fields)) for template in templates]
        self.prompt = PromptAssembler(recipe)
        self.counts = recipe._counts()
        self.base_seed = settings.seed if recipe.seed is None else recipe.seed
        metrics = recipe.metrics if recipe.metrics is not None else self.task.metrics
        self.metrics = [artifact_reference(metric) for metric in metrics]
        self.group_keys = [list(spec) if isinstance(spec, list) else [spec] for spec in recipe.group_by]
        augmentors = recipe.augmentor if isinstance(recipe.augmentor, list) else [recipe.augmentor] if recipe.augmentor else []
        self.augmentors = augmentors
        self._metadata_cache: Dict[Tuple[int, int, Tuple[str, ...]], str] = {}
        self.n_templates = len(self.templates)
        self.seed_prefix = f"{self.base_seed}:"
        self.postprocessors = [
            [artifact_reference(p) for p in template.postprocessors]
            for template in self.templates
        ]
        if recipe.postprocessors is not None:
            self.postprocessors = [[artifact_reference(p) for p in recipe.postprocessors] for _ in self.templates]
        self.demo_augmentors = any(_augments_demos(augmentor) for augmentor in self.augmentors)
        self._policy_checks = policy_checks([*self.templates, self.prompt.format, self.prompt.system_prompt, *self.augmentors,
                                             *[getattr(t, "serializer", None) for t in self.templates]])
        self.demos = DemoPool(recipe, recipe.demo_sampler() or RandomSampler(), self.templates, self.prompt.format,
                              self.media_fields)

    def render_stream(self, stream, stream_name: str, skip: int, limit: Optional[int]) -> Iterator[Dict[str, Any]]:
        if skip:
            stream = itertools.islice(stream, skip, None)
        if limit is not None:
            stream = itertools.islice(stream, limit)
        self.demos.begin()
        render = self.render
        for instance in stream:
            yield render(instance)

    def _metadata_json(self, template_index: int, num_demos: int, policy: List[str]) -> str:
        key = (template_index, num_demos, tuple(policy))
        text = self._metadata_cache.get(key)
        if text is None:
            text = encode_json({  # the original's key order
                "data_classification_policy": list(policy),
                "num_demos": num_demos,
                "demos_pool_size": self.demos.size,
                "template": self.labels[template_index],
            })
            self._metadata_cache[key] = text
        return text

    def _groups(self, input_fields: Dict[str, Any], reference_fields: Dict[str, Any], template_index: int,
                num_demos: int) -> List[str]:
        """The instance's value of each group_by key list, as JSON objects ('{"label": "pos"}', as the original
        system writes them): keys are task fields or metadata (template, num_demos, demos_pool_size)."""
        metadata = {"template": self.labels[template_index], "num_demos": num_demos, "demos_pool_size": self.demos.size}
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
        fields_json = fields_json_of(input_fields, reference_fields)
        template_index, num_demos = 0, self.counts[0]
        if self.n_templates > 1 or len(self.counts) > 1:  # the instance's generator, only when there is a choice
            rng = InstanceRandom(self.seed_prefix + fields_json)
            template_index = rng.randrange(self.n_templates) if self.n_templates > 1 else 0
            num_demos = rng.choice(self.counts) if len(self.counts) > 1 else self.counts[0]
        augmentor = aug_rng = None
        if self.augmentors:
            instance, fields_json, augmentor, aug_rng = self._augment(instance, fields_json, reference_fields)
            input_fields = instance["input_fields"]
        holder = {"media": normalize_media(instance["media"])} if instance.get("media") else {}
        rendered = self.templates[template_index].render(input_fields, reference_fields, holder,
                                                         with_references=not self.production)
        media = holder.get("media")
        if media is not None and not (media["images"] or media["audios"]):
            media = None
        indices = ()
        if num_demos:
            indices = self.demos.sample(instance, num_demos, fields_json)
        demo_augmentor = augmentor if self.demo_augmentors and _augments_demos(augmentor) else None
        demo_media = demo_augmentor is None and self.demos.has_media and bool(indices) and self.demos.have_media(
            template_index, indices)
        prompt = self.prompt
        if prompt.static_system_prompt is not None and not media and not demo_augmentor and not demo_media:
            source = prompt.format.render_prompt(
                rendered["source"], rendered["instruction"], rendered["target_prefix"], prompt.static_system_prompt,
                self.demos.text(template_index, indices) if indices else "",
            )
        else:
            source, media = self._general_source(instance, rendered, template_index, indices, media, demo_augmentor,
                                                 aug_rng)
        policy = instance.get("data_classification_policy") or []
        if "task_fields" in rendered:  # the template changed what the instance is (e.g. swapped answers)
            fields_json = fields_json_of(*rendered["task_fields"])
        separator = ", " if len(fields_json) > 2 else ""
        options = rendered.get("options")
        if options is not None or indices:  # as the original system: choices' answers and the demos' task data
            separator += (f'"options": {encode_json(options)}, ' if options is not None else "") + (
                f'"demos": [{", ".join(self.demos.task_data(template_index, index) for index in indices)}], '
                if indices else "")
        row = {
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
        if self.production:
            del row["target"], row["references"]
        return row

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
            fields_json = fields_json_of(instance["input_fields"], reference_fields)
        return instance, fields_json, augmentor, aug_rng

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
            items = demo_augmentor.augment_demos([self.demos.items[index] for index in indices], instance, aug_rng)
            template = self.templates[template_index]
            demos = [render_demo(template, item) for item in items]
        else:
            demos = [self.demos.rendered(template_index, index) for index in indices]
        if media is None and any("media" in demo for demo in demos):
            media = normalize_media(None)
        if media is not None:
            demos = [merge_media(media, demo.get("media"), {k: demo[k] for k in DEMO_KEYS}) for demo in demos]
        return self.prompt.general(rendered, demos, media), media
