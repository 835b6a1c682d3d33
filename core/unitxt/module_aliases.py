"""Old and original import paths of unitxt modules, resolved to their present home through one table.

`unitxt/__init__` installs `ModuleAliasFinder` on `sys.meta_path`: importing `unitxt.<old path>` (`unitxt.standard`,
`unitxt.llm_as_judge`, `unitxt.recipe`...) gives the module that holds those names now - the same module object, not a
copy - so `from ... import`, `importlib.import_module`, pickles of older versions and `python -m` work without files
of re-exports. This module imports nothing of unitxt at load (it is imported by `unitxt/__init__`).
"""

import importlib
import importlib.machinery
import importlib.util
import sys
import types
from typing import Any, Dict, List, Optional, Tuple

# A home that is no single module: every built-in artifact class by its class name (the original's `unitxt.blocks`,
# a bag of building blocks from all over the package).
ARTIFACT_CLASSES = "<every built-in artifact class>"

# old path (relative to the package) -> new home (relative to the package, or ARTIFACT_CLASSES)
MODULE_ALIASES: Dict[str, str] = {
    # module paths of the original package (and of the documentation)
    "blocks": ARTIFACT_CLASSES,
    "standard": "rendering.recipe",
    "recipe": "rendering.recipe",
    "dataset_utils": "rendering.dataset_query",
    "image_operators": "operators.images",
    "collections_operators": "operators",
    "system_prompts": "formats.system_prompts",
    "type_utils": "types.checking",
    "eval_utils": "evaluation.eval_utils",
    "llm_as_judge": "judges",
    "llm_as_judge_constants": "judges.constants",
    "llm_as_judge_operators": "judges.operators",
    "ui": "explore",
    "evaluate_cli": "cli.steps",  # the original's step functions; the `unitxt-evaluate` command is cli.evaluate
    "service.metrics": "service",
    "base_metric": "metrics.base",  # HELM's unitxt metric imports unitxt.base_metric.Metric
    # this library's own paths before its packages by concept (evaluation, judges, rendering, sandbox, types)
    "data_types": "types",
    "expressions": "sandbox.expressions",
    "expression_runtime": "sandbox.runtime",
    "expression_validation": "sandbox.validation",
    "format_utils": "sandbox.format_strings",
    "formats_tokenizer": "formats.tokenizer",
    "table_augmentors": "augmentors",
    "instance_renderer": "rendering.instance_renderer",
    "batch_render": "rendering.batch_render",
    "demo_pool": "rendering.demo_pool",
    "prompt_assembly": "rendering.prompt_assembly",
    "dataset_builder": "rendering.dataset_builder",
    "media_and_policy": "rendering.media_and_policy",
    "row_json": "rendering.row_json",
    "llm_as_judge_templates": "judges.template_judges",
    "llm_as_judge_prompts": "judges.prompts",
    "llm_as_judge_meta": "judges.meta",
    "judgment_processors": "judges.judgment_processors",
    "model_processors": "judges.model_processors",
    "evaluation_inputs": "evaluation.inputs",
    "streamed_evaluation": "evaluation.streamed",
    "post_processing": "evaluation.post_processing",
    "results": "evaluation.results",
    "html_report": "evaluation.html_report",
    "plots": "evaluation.plots",
    "paired_comparison": "evaluation.paired_comparison",
    "signature": "evaluation.signature",
    # more of the original's module paths: the module holding (most of) the same names now
    "error_utils": "errors",
    "dataclass": "artifact",
    "register": "catalog",
    "base_metric": "metrics.base",
    "metric": "metrics.base",
    "metric_utils": "evaluation.results",
    "parsing_utils": "query_parser",
    "text2sql_utils": "metrics.sql",
    "utils": "general.helpers",
    "string_operators": "operators.field_edits",
    "struct_data_operators": "operators.struct_data",
    "dialog_operators": "operators.dialog",
    "span_lableing_operators": "operators.label_spans",
    "stream_operators": "operators.splits_and_streams",
    "llm_as_judge_from_template": "judges.template_judges",
    "llm_as_judge_utils": "judges.constants",
    "llm_as_judge_chat_templates": "judges.prompts",  # the original's judge prompt templates; ours are built there
    "dataset": "rendering.dataset_builder",
    "collections": "templates.collections",
    "deprecation_utils": "general.deprecation",
    "inference_engines": "inference",
    "fusion": "operators.fusion",
    "normalizers": "operators.value_edits",
    "hf_utils": "general.hub_versions",
    "generator_utils": "stream",
    "file_utils": "general.helpers",
    "split_utils": "splitters",
    "instructions": "formats.system_prompts",  # the engines' module in releases before `unitxt.inference`
    "schema": "rendering.schema",
    "validate": "rendering.schema",
}


def artifact_classes_module(name: str, package: str) -> types.ModuleType:
    """A module whose attributes are the built-in artifact classes, each imported on first use from its module."""
    module = types.ModuleType(name, "Every built-in unitxt artifact class by its class name (imported on first use).")
    class_of = moved_classes(name, package)

    def __getattr__(attribute: str) -> Any:
        if attribute == "__all__":
            artifact = importlib.import_module(f"{package}.artifact")
            return sorted({cls.__name__ for cls in artifact.registered_artifact_types().values()
                           if cls.__module__.startswith(package + ".")})
        found = class_of(attribute)
        setattr(module, attribute, found)
        return found

    module.__getattr__ = __getattr__
    return module


def moved_classes(module_name: str, package: Optional[str] = None) -> Any:
    """A module `__getattr__` giving the built-in artifact classes the original kept in that module and that live
    elsewhere here (e.g. `unitxt.processors.StanceToProCon`), each imported on first use through the type index."""
    package = package or module_name.split(".")[0]

    def __getattr__(attribute: str) -> Any:
        if attribute[:1].isupper():
            artifact = importlib.import_module(f"{package}.artifact")
            try:
                found = artifact.get_artifact_class(artifact.camel_to_snake(attribute))
            except artifact.UnknownArtifactTypeError:
                found = None
            if found is not None and found.__name__ == attribute:
                return found
        raise AttributeError(f"module '{module_name}' has no attribute '{attribute}'")

    return __getattr__


class ModuleAliasFinder:
    """Resolves `<package>.<old path>[.<rest>]` to `<package>.<new home>[.<rest>]` (the same module object): a
    meta path finder and the loader of its specs (the import protocol's methods; importlib.abc costs 15 ms to import)."""

    def __init__(self, package: str, aliases: Dict[str, str]) -> None:
        self.package = package
        self.aliases = aliases
        self._homes: Dict[str, Any] = {}  # alias name -> the real module's own spec, restored after loading

    def home_of(self, fullname: str) -> Optional[Tuple[str, str]]:
        """(home, rest) for an aliased name - the longest aliased prefix wins - or None."""
        if not fullname.startswith(self.package + "."):
            return None
        parts = fullname[len(self.package) + 1:].split(".")
        for end in range(len(parts), 0, -1):
            home = self.aliases.get(".".join(parts[:end]))
            if home is not None:
                return home, ".".join(parts[end:])
        return None

    def target_name(self, fullname: str) -> Optional[str]:
        """The real module name behind an alias (None for the class namespace)."""
        home, rest = self.home_of(fullname)
        if home == ARTIFACT_CLASSES:
            return None
        return ".".join(part for part in (self.package, home, rest) if part)

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Optional[importlib.machinery.ModuleSpec]:
        found = self.home_of(fullname)
        if found is None:
            return None
        if found[0] == ARTIFACT_CLASSES:
            return None if found[1] else importlib.util.spec_from_loader(fullname, self)
        real_spec = importlib.util.find_spec(self.target_name(fullname))
        if real_spec is None:
            return None
        return importlib.util.spec_from_loader(fullname, self,
                                               is_package=real_spec.submodule_search_locations is not None)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        name = self.target_name(spec.name)
        if name is None:
            return artifact_classes_module(spec.name, self.package)
        module = importlib.import_module(name)
        self._homes[spec.name] = module.__spec__
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the module is the real one, already executed. The import machinery set its `__spec__` to
        the alias's; give it back its own, so it keeps reporting where it lives."""
        spec = self._homes.pop(getattr(module.__spec__, "name", None), None)
        if spec is not None:
            module.__spec__ = spec

    def get_code(self, fullname: str) -> Any:
        """For `python -m <old path>` (runpy asks the loader of the name it was given): code that runs the real module
        as __main__ under its own name, so its relative imports resolve in its own package."""
        name = self.target_name(fullname)
        real_spec = importlib.util.find_spec(name) if name else None
        if real_spec is None or not hasattr(real_spec.loader, "get_code"):
            raise ImportError(f"No code object for {fullname}", name=fullname)
        return compile(f"import runpy\nrunpy.run_module({name!r}, run_name='__main__', alter_sys=True)\n",
                       f"<{fullname}: {name}>", "exec")

    def is_package(self, fullname: str) -> bool:
        name = self.target_name(fullname)
        real_spec = importlib.util.find_spec(name) if name else None
        return bool(real_spec and real_spec.submodule_search_locations is not None)


def install(package: str) -> Any:
    """Put the package's alias finder first on sys.meta_path (once per package)."""
    for finder in sys.meta_path:  # by class name: a vendored and an installed copy share the check
        if type(finder).__name__ == "ModuleAliasFinder" and getattr(finder, "package", None) == package:
            return finder
    finder = ModuleAliasFinder(package, MODULE_ALIASES)
    sys.meta_path.insert(0, finder)
    return finder


def aliases_of(home: str) -> List[str]:
    """The old paths that lead to a module (relative names), e.g. aliases_of("rendering.recipe")."""
    return sorted(old for old, new in MODULE_ALIASES.items() if new == home)
