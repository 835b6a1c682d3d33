"""Columnar rendering: a recipe's split rendered a batch at a time into columns, which the Arrow builder writes.

The rows are the bytes `InstanceRenderer.render` gives one at a time (tests/rendering/test_batch_render.py checks
every catalog card x template with 0 and 2 demos). The common case - a text format with a static system prompt, no media,
augmentors or policy checks - runs as one loop per batch: the per-instance generator's draws (template, number of
demos) are inlined, demos' text and task data come from per-template tables. Any other instance goes through `render`.
"""

import gc
import hashlib
import itertools
import struct
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

from ..stream import GeneratorStream

_EIGHT_WORDS = struct.Struct("<8Q")
_FIRST_BLOCK = (0).to_bytes(4, "little")  # InstanceRandom's block counter of its first block


class RenderedStream(GeneratorStream):
    """A recipe split: iterating yields rows (dicts), `iter_columns` yields the same rows as batches of columns."""

    def __init__(self, renderer: Any, stream: Iterable[Dict[str, Any]], stream_name: str, skip: int,
                 limit: Optional[int]):
        super().__init__(renderer.render_stream,
                         {"stream": stream, "stream_name": stream_name, "skip": skip, "limit": limit})
        self.renderer = renderer

    def iter_columns(self, batch_size: int = 1000) -> Iterator[Dict[str, List[Any]]]:
        """Batches of at most `batch_size` rows as {row key: column list}, keys in `row_json.ROW_KEYS` order."""
        kwargs = self.gen_kwargs
        instances = kwargs["stream"]
        if kwargs["skip"]:
            instances = itertools.islice(instances, kwargs["skip"], None)
        if kwargs["limit"] is not None:
            instances = itertools.islice(instances, kwargs["limit"])
        self.renderer.demos.begin()
        plan = BatchPlan(self.renderer)
        iterator = iter(instances)
        while True:
            # reading and rendering a batch allocates tens of thousands of short-lived, acyclic containers: the
            # cyclic collector would rescan the heap many times per batch for nothing (~20% of the time); it runs
            # again between batches
            collecting = gc.isenabled()
            gc.disable()
            try:
                chunk = list(itertools.islice(iterator, batch_size))
                columns = plan.render(chunk) if chunk else None
            finally:
                if collecting:
                    gc.enable()
            if columns is None:
                return
            yield columns


class BatchPlan:
    """What is fixed for a renderer (fast-path eligibility, sampler, tables of demo task data), applied per batch."""

    def __init__(self, renderer: Any):
        self.renderer = renderer
        self.fast = (
            not renderer._policy_checks
            and not renderer.media_fields
            and not renderer.augmentors
            and renderer.prompt.static_system_prompt is not None
            and not renderer.demos.has_media
        )
        # the plain SystemFormat's model_input_format applied directly to the five parts (its placeholders were
        # checked against them when it was compiled); on any error `render_prompt` runs to raise its own error
        from ..formats.base import SystemFormat

        model = getattr(renderer.prompt.format, "_model", None)
        self.prompt = None
        if type(renderer.prompt.format) is SystemFormat and not renderer.prompt.format.format_args and model is not None:
            self.prompt = (model.head_memo(("demos", "source")) or model._render_with_markers if model.has_marker
                           else model._format_map)
        # the plain RandomSampler's population when every instance may see every pool entry: drawn here directly
        from ..samplers import RandomSampler

        demos = renderer.demos
        self.random_demos = (range(len(demos.items)) if type(demos.sampler) is RandomSampler and demos.items
                             and max(renderer.counts) <= len(demos.items) else None)
        # each template's per-row render (the same result as `render`, faster where the template offers it)
        self.row_renderers = [template._row_renderer() for template in renderer.templates]
        # template index -> per pool position: the demo formatted by the format, and the demo's task_data JSON
        self.demo_tables: Dict[int, Tuple[List[Optional[str]], List[Optional[str]]]] = {}

    def _demo_table(self, template_index: int) -> Tuple[List[Optional[str]], List[Optional[str]]]:
        table = self.demo_tables.get(template_index)
        if table is None:
            size = len(self.renderer.demos.items)
            table = self.demo_tables[template_index] = ([None] * size, [None] * size)
        return table

    def _fill_demo_table(self, template_index: int, indices: List[int]) -> None:
        """Renders the entries of `indices` not yet in the template's table (once per template and pool position)."""
        texts, datas = self._demo_table(template_index)
        for index in indices:
            if texts[index] is None:
                text = self.renderer.demos.text(template_index, [index])
                datas[index] = self.renderer.demos.task_data(template_index, index)
                texts[index] = text

    def render(self, instances: List[Dict[str, Any]]) -> Dict[str, List[Any]]:
        """The rows of `instances` as columns."""
        from .row_json import ROW_KEYS
        from .row_json import encode_json as _encode_json
        from .row_json import fields_json as _fields_json

        renderer = self.renderer
        columns = {key: [] for key in ROW_KEYS}
        if not self.fast:
            for instance in instances:
                self._append(columns, renderer.render(instance))
            return columns
        sources, targets, references = columns["source"], columns["target"], columns["references"]
        task_data, policies = columns["task_data"], columns["data_classification_policy"]
        # the columns that vary per row are appended in the loop; the others hold one value in every row rendered
        # here, set after it (`general` and `subsets` then replace the rows that differ)
        postprocessors = columns["postprocessors"] if renderer.n_templates > 1 else None
        groups = columns["groups"] if renderer.group_keys else None
        general: List[Tuple[int, Dict[str, Any]]] = []  # (position, row) of the rows `render` made
        subsets: List[Tuple[int, List[Any]]] = []  # (position, subset) of the rows that name one
        blake2b, unpack = hashlib.blake2b, _EIGHT_WORDS.unpack
        prefix, counts = renderer.seed_prefix, renderer.counts
        templates = self.row_renderers
        n_templates, n_counts = renderer.n_templates, len(counts)
        render_prompt, system_prompt = renderer.prompt.format.render_prompt, renderer.prompt.static_system_prompt
        prompt = self.prompt
        metadata_json, demo_tables = renderer._metadata_json, self.demo_tables
        demos, random_demos = renderer.demos, self.random_demos
        demo_keys, sampling_seed = demos.keys, demos.recipe.seed
        draw = demos.draws().sample if random_demos is not None else None
        template_postprocessors = renderer.postprocessors
        drawn = n_templates > 1 or n_counts > 1
        template_index, num_demos = 0, counts[0]
        metadata_key, metadata = None, ""  # the last row's (template, number of demos, policy) and its metadata JSON
        for instance in instances:
            if instance.get("media"):
                self._render_generally(instance, general, sources, targets, references, task_data, policies,
                                       postprocessors, groups)
                continue
            input_fields = instance["input_fields"]
            reference_fields = instance["reference_fields"]
            fields_json = _fields_json(input_fields, reference_fields)
            if drawn:  # the instance's generator, as InstanceRandom draws (only when there is a choice to make)
                words = unpack(blake2b((prefix + fields_json).encode("utf-8") + _FIRST_BLOCK, digest_size=64).digest())
                template_index = words[0] % n_templates if n_templates > 1 else 0
                num_demos = counts[words[n_templates > 1] % n_counts] if n_counts > 1 else counts[0]
            holder: Dict[str, Any] = {}
            rendered = templates[template_index](input_fields, reference_fields, holder)
            if holder.get("media"):  # a serializer recorded media: the general path places it
                self._render_generally(instance, general, sources, targets, references, task_data, policies,
                                       postprocessors, groups)
                continue
            demos_text = ""
            if num_demos:
                if random_demos is not None and fields_json not in demo_keys:  # the RandomSampler, inlined
                    indices = draw(input_fields, random_demos, num_demos, sampling_seed)
                else:
                    indices = demos.sample(instance, num_demos, fields_json)
                if indices:
                    texts, datas = demo_tables.get(template_index) or self._demo_table(template_index)
                    chosen = [texts[index] for index in indices]
                    if None in chosen:
                        self._fill_demo_table(template_index, indices)
                        chosen = [texts[index] for index in indices]
                    demos_text = "".join(chosen)
                    demos_data = ", ".join([datas[index] for index in indices])
            else:
                indices = ()
            source = None
            if prompt is not None:
                try:  # the rendered dict holds source, instruction and target_prefix: the prompt's values with these
                    rendered["system_prompt"], rendered["demos"] = system_prompt, demos_text
                    source = prompt(rendered)
                except Exception:  # noqa: BLE001 - a value its format specs refuse: render_prompt raises the error
                    source = None
            if source is None:
                source = render_prompt(rendered["source"], rendered["instruction"], rendered["target_prefix"],
                                       system_prompt, demos_text)
            sources.append(source)
            targets.append(rendered["target"])
            references.append(rendered["references"])
            policy = instance.get("data_classification_policy") or []
            policies.append(policy)
            if (template_index, num_demos, policy) != metadata_key:
                metadata_key = (template_index, num_demos, policy)
                metadata = metadata_json(template_index, num_demos, policy)
            if "task_fields" in rendered:  # the template changed what the instance is (e.g. swapped answers)
                fields_json = _fields_json(*rendered["task_fields"])
            options = rendered.get("options")
            if options is None and indices and len(fields_json) > 2:  # the common row: fields, demos, metadata
                task_data.append(f'{fields_json[:-1]}, "demos": [{demos_data}], "metadata": {metadata}}}')
            else:
                separator = ", " if len(fields_json) > 2 else ""
                if options is not None:
                    separator += f'"options": {_encode_json(options)}, '
                if indices:
                    separator += f'"demos": [{demos_data}], '
                task_data.append(f'{fields_json[:-1]}{separator}"metadata": {metadata}}}')
            if postprocessors is not None:
                postprocessors.append(template_postprocessors[template_index])
            if groups is not None:
                groups.append(renderer._groups(input_fields, reference_fields, template_index, num_demos))
            subset = instance.get("subset")
            if subset:
                subsets.append((len(sources) - 1, list(subset)))
        count = len(sources)
        columns["metrics"] = ConstantColumn(renderer.metrics, count)
        if postprocessors is None:
            columns["postprocessors"] = ConstantColumn(template_postprocessors[0], count)
        if groups is None:
            columns["groups"] = ConstantColumn([], count)
        columns["subset"] = ConstantColumn([], count)
        columns["media"] = ConstantColumn({"images": [], "audios": []}, count)
        for position, subset in subsets:
            columns["subset"][position] = subset
        for position, row in general:
            for key, column in columns.items():
                column[position] = row[key]
        return columns

    def _render_generally(self, instance: Dict[str, Any], general: List[Tuple[int, Dict[str, Any]]],
                          *varying: Optional[List[Any]]) -> None:
        """Renders `instance` with `render` (an unusual row), holding its place in the columns filled per row."""
        general.append((len(varying[0]), self.renderer.render(instance)))
        for column in varying:
            if column is not None:
                column.append(None)

    @staticmethod
    def _append(columns: Dict[str, List[Any]], row: Dict[str, Any]) -> None:
        for key, column in columns.items():
            column.append(row[key])


class ConstantColumn(list):
    """A column holding `value` in every row (the same object), until a row is replaced: the Arrow builder converts
    the value once while every row is still it (`is_constant`)."""

    def __init__(self, value: Any, count: int):
        super().__init__([value] * count)
        self.value = value
        self._replaced = False

    def __setitem__(self, position: Any, item: Any) -> None:
        self._replaced = True
        super().__setitem__(position, item)

    @property
    def is_constant(self) -> bool:
        return not self._replaced and len(self) > 0
