"""Helpers shared by the catalog sources (not a source itself: build_catalog.py skips files starting with "_").

Cards describe their data with `card_tags` and map integer labels to class names with `index_to_label`; template
sources add a family of templates and its `.all` list with `add_template_family`. All take named fields, so an
entry reads on its own.
"""

from typing import Any, Callable, Dict, List, Optional

from unitxt.operators import MapInstanceValues
from unitxt.templates import TemplatesList


def hf_url(repo: str) -> str:
    """The Hub page of a dataset repository."""
    return f"https://huggingface.co/datasets/{repo}"


def card_tags(task: str, *, dataset_url: str, paper: Optional[str] = None, language: str = "en",
              modality: str = "text", benchmark: Optional[str] = None, benchmark_config: Optional[str] = None,
              **extra: Any) -> Dict[str, Any]:
    """A card's __tags__: task, language, modality, its benchmark and config (tag "config") when part of a benchmark,
    its URLs, then any extra tags (which come after the URLs)."""
    tags: Dict[str, Any] = {"task": task, "language": language, "modality": modality}
    if benchmark is not None:
        tags["benchmark"] = benchmark
    if benchmark_config is not None:
        tags["config"] = benchmark_config
    tags["urls"] = {"dataset": dataset_url, **({"paper": paper} if paper else {})}
    return {**tags, **extra}


def index_to_label(field: str, classes: List[str], start: int = 0, **options: Any) -> MapInstanceValues:
    """Map a field's integer labels (start, start+1, ...) to the class names, in order."""
    return MapInstanceValues(mappers={field: {str(start + index): name for index, name in enumerate(classes)}},
                             **options)


def add_template_family(add: Callable[[str, Any], None], *, prefix: str, templates: Dict[str, Any],
                        tags: Dict[str, Any], task: str) -> None:
    """Add `prefix.<variant>` for every template (a variant that is a full `templates.` name keeps it; "" is the
    prefix itself) and `prefix.all` listing them all, in the given order, each tagged with `tags`."""
    names = []
    for variant, template in templates.items():
        template.__dict__["__tags__"] = dict(tags)
        if variant.startswith("templates."):
            name = variant  # a template named outside the family (still listed in its .all)
        else:
            name = f"{prefix}.{variant}" if variant else prefix
        add(name, template)
        names.append(name)
    add(f"{prefix}.all", TemplatesList(
        names, __description__=f"Every template of {prefix} (for {task}).", __tags__=dict(tags),
    ))
