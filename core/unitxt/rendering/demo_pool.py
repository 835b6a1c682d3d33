"""The demo pool of a recipe: the instances demos are drawn from, the sampler choosing them, and each demo rendered
once per template (its fields as the template shows them, its text in the format, its task_data JSON)."""

import itertools
import threading
from typing import Any, Dict, Iterable, List, Optional, Tuple

from ..errors import RecipeError
from ..image_utils import normalize_media
from ..random_utils import OriginalDraws, new_random_generator
from ..templates.base import Template
from .media_and_policy import encode_media_fields
from .row_json import encode_json, fields_json, instance_key

NO_EXCLUSIONS: frozenset = frozenset()


def demo_generator(instance: Dict[str, Any], sampling_seed: Optional[int] = None) -> Any:
    """The original's generator for an instance's demos: seeded by its input fields (and the demos sampling seed).
    DemoPool draws the same numbers from one re-seeded generator (random_utils.OriginalDraws)."""
    sub_seed = {**(instance.get("input_fields") or {})}
    if sampling_seed is not None:
        sub_seed["local_seed"] = sampling_seed
    return new_random_generator(sub_seed)


DEMO_KEYS = ("source", "target", "target_prefix", "instruction")


def render_demo(template: Template, item: Dict[str, Any]) -> Dict[str, Any]:
    """A demo's {source, target, target_prefix, instruction} (+ "media" when it has its own media, + "options")."""
    holder = {"media": normalize_media(item["media"])} if item.get("media") else {}
    rendered = template.render(item["input_fields"], item["reference_fields"], holder)
    demo = {key: rendered[key] for key in DEMO_KEYS}
    media = holder.get("media")
    if media and (media["images"] or media["audios"]):
        demo["media"] = media
    if "options" in rendered:
        demo["options"] = rendered["options"]
    if "task_fields" in rendered:  # the template records the demo as shown (e.g. reordered choices)
        demo["task_fields"] = rendered["task_fields"]
    return demo


class DemoPool:
    """The first `demos_pool_size` instances of the demos split (read once, on first use), sampled per instance."""

    def __init__(self, recipe: Any, sampler: Any, templates: List[Template], format: Any, media_fields: List[str]):
        self.recipe = recipe  # for error messages: its artifact name and demos_taken_from
        self.sampler = sampler
        self.templates = templates
        self.format = format
        self.media_fields = media_fields
        self.size = recipe.demos_pool_size or 0
        self.source: Optional[Tuple[Iterable[Dict[str, Any]], Optional[int]]] = None
        self.items: Optional[List[Dict[str, Any]]] = None
        self.keys: Dict[str, set] = {}  # an instance's fields JSON -> its positions in the pool (never its own demo)
        self.has_media = False  # set when the pool is read: demos may carry their own media
        self._rendered: Dict[Tuple[int, int], Dict[str, Any]] = {}
        self._task_data: Dict[Tuple[int, int], str] = {}
        self._texts: Dict[int, List[Optional[str]]] = {}  # template index -> formatted demo per pool position
        # the per-instance generators (global seed read by `begin`), one per thread: a generator is re-seeded per draw
        self._draws: Dict[int, OriginalDraws] = {}

    def begin(self) -> None:
        """Called when a split starts rendering: reads the pool (once) and the global seed the draws use (as the
        original, which reads it when it draws)."""
        if self.source is not None:
            self.materialise()
        self._draws[threading.get_ident()] = OriginalDraws()

    def set_source(self, stream: Iterable[Dict[str, Any]], size: Optional[int]) -> None:
        """`size` None: every instance of the stream is in the pool."""
        self.source = (stream, size)

    def materialise(self) -> List[Dict[str, Any]]:
        """The pool's instances (read from the source once)."""
        if self.items is None:
            if self.source is None:
                self.items = []
                return self.items
            stream, size = self.source
            items = list(stream) if size is None else list(itertools.islice(stream, size))
            if size is None:
                size = self.size = len(items)
            if self.media_fields:  # images as data URLs: JSON-able keys, renderable demos
                items = [encode_media_fields(item, self.media_fields) for item in items]
            if len(items) < size:
                raise RecipeError(
                    f"demos_pool_size={size} but split '{self.recipe.demos_taken_from}' has only {len(items)} "
                    "instances.", artifact=self.recipe.artifact_name, field="demos_pool_size")
            self.items = items
            self.sampler.set_pool(items)
            self.has_media = bool(self.media_fields) or any(item.get("media") for item in items)
            keys: Dict[str, set] = {}
            for index, item in enumerate(items):
                keys.setdefault(instance_key(item), set()).add(index)
            self.keys = keys
        return self.items

    def draws(self) -> OriginalDraws:
        """The per-instance generators of the split being rendered."""
        draws = self._draws.get(threading.get_ident())
        if draws is None:
            draws = self._draws[threading.get_ident()] = OriginalDraws()
        return draws

    def sample(self, instance: Dict[str, Any], num_demos: int, key: str) -> List[int]:
        """Pool positions of `num_demos` demos for `instance` (whose fields JSON is `key`: it is never its own demo),
        drawn with the original's generator for the instance (so the demos are the original's)."""
        generator = self.draws().for_fields(instance.get("input_fields") or {}, self.recipe.seed)
        return self.sampler.sample_indices(instance, num_demos, generator, self.keys.get(key, NO_EXCLUSIONS))

    def rendered(self, template_index: int, pool_index: int) -> Dict[str, Any]:
        key = (template_index, pool_index)
        cached = self._rendered.get(key)
        if cached is None:
            cached = self._rendered[key] = render_demo(self.templates[template_index], self.items[pool_index])
        return cached

    def have_media(self, template_index: int, indices: List[int]) -> bool:
        return any("media" in self.rendered(template_index, index) for index in indices)

    def text(self, template_index: int, indices: List[int]) -> str:
        """The chosen demos formatted by the (SystemFormat) format's demo_format and concatenated.

        Each demo's text is computed once per template and pool entry (a list per template, indexed by pool position:
        cheaper per row than a dict keyed by tuples)."""
        texts = self._texts.get(template_index)
        if texts is None:
            texts = self._texts[template_index] = [None] * len(self.items)
        chosen = [texts[index] for index in indices]
        if None in chosen:
            for index in indices:
                if texts[index] is None:
                    texts[index] = self.format.format_demos([self.rendered(template_index, index)])
            chosen = [texts[index] for index in indices]
        return "".join(chosen)

    def task_data(self, template_index: int, pool_index: int) -> str:
        """A demo's task_data (its fields, options for multiple choice, its classification policy) as JSON."""
        key = (template_index, pool_index)
        text = self._task_data.get(key)
        if text is None:
            item = self.items[pool_index]
            rendered = self.rendered(template_index, pool_index)
            fields = fields_json(*rendered.get("task_fields", (item["input_fields"], item["reference_fields"])))
            extra = f'"options": {encode_json(rendered["options"])}, ' if "options" in rendered else ""
            separator = ", " if len(fields) > 2 else ""
            policy = encode_json({"data_classification_policy": list(item.get("data_classification_policy") or [])})
            text = self._task_data[key] = f'{fields[:-1]}{separator}{extra}"metadata": {policy}}}'
        return text
