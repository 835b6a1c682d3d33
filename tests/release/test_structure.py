"""Structure rules (issues 12 and 25): the generated `__type__` -> module index is current and resolving a type imports
exactly its module; the package has no import cycle, lazy imports counted; modules stay small, the root short, and
old module paths resolve through the one alias table (no files of re-exports)."""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Set

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "core" / "unitxt"


def _run(code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "core"))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=str(ROOT))


def test_type_index_is_current():
    completed = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_type_index.py"), "--check"],
                               capture_output=True, text=True)
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_type_index_names_every_defining_module():
    from unitxt._type_index import TYPE_MODULES

    assert TYPE_MODULES["add_fields"] == "operators.fields"
    assert TYPE_MODULES["accuracy"] == "metrics.classification"
    assert TYPE_MODULES["open_ai_inference_engine"].startswith("inference.")
    assert "artifact_link" not in TYPE_MODULES  # defined by artifact.py itself, always registered


_LOADED = """
import json, sys, importlib
import unitxt.artifact
before = set(sys.modules)
{action}
print(json.dumps(sorted(name for name in set(sys.modules) - before if name.startswith("unitxt"))))
"""


def _new_modules(action: str) -> List[str]:
    completed = _run(_LOADED.format(action=action))
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(completed.stdout.strip().splitlines()[-1])


def test_resolving_a_type_imports_exactly_its_module():
    by_type = _new_modules("unitxt.artifact.get_artifact_class('literal_eval')")
    by_module = _new_modules("importlib.import_module('unitxt.processors')")
    assert by_type == sorted(by_module + ["unitxt._type_index"])  # the module and what it imports, plus the index
    assert "unitxt.processors" in by_type
    assert "unitxt.metrics" not in by_type and "unitxt.llm_as_judge" not in by_type  # no metric family at all


def test_resolving_a_metric_type_does_not_import_unrelated_families():
    loaded = _new_modules("unitxt.artifact.get_artifact_class('rouge')")
    assert [name for name in loaded if name.startswith("unitxt.metrics")] == [
        "unitxt.metrics", "unitxt.metrics.base", "unitxt.metrics.ci_methods", "unitxt.metrics.instance_reductions",
        "unitxt.metrics.scores", "unitxt.metrics.stream_scores", "unitxt.metrics.text"]  # the lazy package, the bases
    # (metric classes, their CI helpers, reductions, stream writers and scores), the family
    assert not [name for name in loaded if name.startswith(("unitxt.inference", "unitxt.llm_as_judge"))]
    assert "unitxt.templates" not in loaded and "unitxt.loaders" not in loaded


def test_metrics_package_exports_lazily():
    loaded = _new_modules("from unitxt.metrics import InstanceMetric, Accuracy, Rouge")
    assert {"unitxt.metrics.base", "unitxt.metrics.classification", "unitxt.metrics.text"} <= set(loaded)
    assert "unitxt.metrics.rag" not in loaded and "unitxt.metrics.ensemble" not in loaded
    from unitxt.metrics import Accuracy, MetricPipeline, Rouge
    from unitxt.metrics.classification import Accuracy as DefinedAccuracy
    from unitxt.metrics.text import Rouge as DefinedRouge

    assert Accuracy is DefinedAccuracy and Rouge is DefinedRouge and MetricPipeline.__module__ == "unitxt.metrics.pipeline"


def test_operators_package_exports_lazily():
    loaded = _new_modules("from unitxt.operators import Copy, AddConstant, FieldOperator, LiteralEval")
    assert {"unitxt.operators.fields", "unitxt.operators.field_edits", "unitxt.processors"} <= set(loaded)
    assert "unitxt.operators.struct_data" not in loaded and "unitxt.operators.dialog" not in loaded
    from unitxt.operator import FieldOperator as BaseFieldOperator
    from unitxt.operators import AddConstant, FieldOperator

    assert FieldOperator is BaseFieldOperator and AddConstant.__module__ == "unitxt.operators.field_edits"


def test_user_defined_type_resolves_after_its_import():
    from unitxt.artifact import Artifact, from_serializable

    class StructureTestGreeting(Artifact):
        text: str = "hello"

    built = from_serializable({"__type__": "structure_test_greeting", "text": "hi"})
    assert isinstance(built, StructureTestGreeting) and built.text == "hi"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(package: str, level: int, module: str) -> str:
    """The absolute module named by a relative import `from <level dots><module> import ...` inside `package`."""
    parts = package.split(".")
    base = parts[: len(parts) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _assigns(node: ast.AST, name: str) -> bool:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
    return any(getattr(target, "id", None) == name for target in targets)


def _imports_of(path: Path, modules: Set[str], top_level_only: bool) -> Set[str]:
    """unitxt modules `path` imports. `from pkg import name` counts `pkg` (its __init__ runs first) and `pkg.name`
    when that is a module.
    With top_level_only, the statements run when the module is imported (top level, and inside top-level if/try);
    otherwise every import anywhere - inside functions too, which run later but are arrows all the same - plus
    `importlib.import_module("<constant>")` calls and a family package's lazy export table (`_EXPORTS`)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if top_level_only:
        nodes, pending = [], list(tree.body)
        while pending:
            node = pending.pop()
            nodes.append(node)
            if isinstance(node, (ast.If, ast.Try)):
                pending.extend(node.body + node.orelse + getattr(node, "finalbody", []))
                pending.extend(statement for handler in getattr(node, "handlers", []) for statement in handler.body)
    else:
        nodes = list(ast.walk(tree))
    found: Set[str] = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            target = _absolute(package, node.level, node.module or "") if node.level else node.module or ""
            submodules = {f"{target}.{alias.name}" for alias in node.names} & modules
            found |= submodules
            if target in modules:  # `from pkg import submodule` runs pkg/__init__ first: an arrow to pkg too
                found.add(target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif (not top_level_only and isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            text = node.args[0].value
            dots = len(text) - len(text.lstrip("."))
            found.add(_absolute(package, dots, text[dots:]) if dots else text)
        elif not top_level_only and path.name == "__init__.py" and _assigns(node, "_EXPORTS"):
            for constant in ast.walk(node.value):
                if isinstance(constant, ast.Constant) and isinstance(constant.value, str) and constant.value[:1] == ".":
                    dots = len(constant.value) - len(constant.value.lstrip("."))
                    found.add(_absolute(package, dots, constant.value[dots:]))
    return {module for module in found if module in modules and module != name}


def import_graph(top_level_only: bool = True) -> Dict[str, Set[str]]:
    paths = [path for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts]
    modules = {_module_name(path) for path in paths}
    return {_module_name(path): _imports_of(path, modules, top_level_only) for path in paths}


def find_cycle(graph: Dict[str, Set[str]]) -> List[str]:
    """One import cycle as a path [a, b, ..., a], or [] when the graph has none (iterative depth-first search)."""
    state: Dict[str, int] = {}  # 1 = on the current path, 2 = done
    for start in sorted(graph):
        if state.get(start):
            continue
        path, iterators = [start], [iter(sorted(graph[start]))]
        state[start] = 1
        while path:
            following = next(iterators[-1], None)
            if following is None:
                state[path.pop()] = 2
                iterators.pop()
            elif state.get(following) == 1:
                return path[path.index(following):] + [following]
            elif not state.get(following):
                state[following] = 1
                path.append(following)
                iterators.append(iter(sorted(graph.get(following, ()))))
    return []


def test_cycle_finder_reports_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) == []


def test_package_has_no_import_cycle():
    graph = import_graph()
    assert "unitxt.artifact" in graph and "unitxt.catalog_store" in graph["unitxt.artifact"]
    assert find_cycle(graph) == []


def test_no_import_cycle_counting_lazy_imports():
    """Imports inside functions, constant import_module calls and lazy export tables are arrows too."""
    graph = import_graph(top_level_only=False)
    assert "unitxt.evaluation.streamed" in graph["unitxt.evaluation.in_memory"]  # a lazy import, counted
    assert "unitxt.metrics.pipeline" in graph["unitxt.metrics"]  # an entry of the lazy export table, counted
    assert find_cycle(graph) == []


def test_evaluation_never_imports_the_ray_integration():
    """evaluate() reaches a Ray Dataset's scorer through the registration unitxt.ray makes (data_scorers)."""
    graph = import_graph(top_level_only=False)
    upward = sorted(f"{module} -> {imported}" for module, imports in graph.items() if module.startswith("unitxt.evaluation")
                    for imported in imports if imported.startswith("unitxt.ray"))
    assert upward == []
    assert "unitxt.evaluation.data_scorers" in graph["unitxt.ray"]


MAX_MODULE_LINES = 600  # the house rule: a module holds one concept and stays readable in one sitting


def test_no_module_over_the_size_limit():
    sizes = {str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
             for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts and path.name != "_type_index.py"}
    assert {name: lines for name, lines in sizes.items() if lines > MAX_MODULE_LINES} == {}
    assert sizes["artifact.py"] > 100  # the scan read the package


# The layers of README "Layout": a module imports (at top level) only from its own layer or lower-numbered ones.
LAYERS = {
    1: "errors logging_utils settings_utils version lazy_imports dict_utils text_utils random_utils query_parser "
       "types sandbox module_aliases general",
    2: "artifact artifact_registry _type_index catalog_store catalog stream operator",
    3: "loaders operators processors splitters samplers augmentors serializers image_utils formats",
    4: "task card templates",
    5: "rendering benchmark",
    6: "metrics",
    7: "inference judges",
    8: "evaluation",
    9: "api explore assistant test_utils cli service ray inspect __main__",
}
_LAYER_OF = {name: layer for layer, names in LAYERS.items() for name in names.split()}


def _layer(module: str) -> int:
    """The layer of a module (by its top-level name under unitxt); 0 for the package itself."""
    parts = module.split(".")
    return 0 if len(parts) == 1 else _LAYER_OF[parts[1]]


def test_every_module_has_a_layer_and_imports_only_lower_layers():
    graph = import_graph()
    unassigned = sorted(name for name in graph if len(name.split(".")) > 1 and name.split(".")[1] not in _LAYER_OF)
    assert unassigned == []
    upward = sorted(f"{module} -> {imported}" for module, imports in graph.items() for imported in imports
                    if _layer(module) and _layer(imported) > _layer(module))
    assert upward == []


MAX_ROOT_MODULES = 25  # the package root holds cross-cutting modules; concepts live in subpackages


def test_root_holds_at_most_25_modules():
    root = sorted(path.stem for path in PACKAGE.glob("*.py") if path.stem not in ("__init__", "__main__", "version", "_type_index"))
    assert "artifact" in root and len(root) <= MAX_ROOT_MODULES, root


def _is_reexport_stub(path: Path) -> bool:
    """A module whose statements are only a docstring, imports and `__all__`: it defines nothing of its own."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        if isinstance(node, ast.Assign) and [getattr(target, "id", None) for target in node.targets] == ["__all__"]:
            continue
        return False
    return True


def test_no_files_of_reexports():
    stubs = sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
                   if "__pycache__" not in path.parts and path.name != "__init__.py" and _is_reexport_stub(path))
    assert stubs == []


def test_every_alias_leads_to_an_existing_module():
    from unitxt.module_aliases import ARTIFACT_CLASSES, MODULE_ALIASES

    modules = set(import_graph())
    missing = {old: new for old, new in MODULE_ALIASES.items()
               if new != ARTIFACT_CLASSES and f"unitxt.{new}" not in modules}
    assert missing == {}
    shadowed = sorted(old for old in MODULE_ALIASES if f"unitxt.{old}" in modules)  # a real module would win
    assert shadowed == []


_OLD_PATHS = """
import importlib, json, pickle, sys
import unitxt.standard
from unitxt.blocks import TaskCard, LoadHF, InputOutputTemplate, SystemFormat, DatasetRecipe
from unitxt.standard import DatasetRecipe as StandardRecipe
from unitxt.llm_as_judge import LLMJudgeDirect, LLMAsJudge, MetricsEnsemble
from unitxt.collections_operators import Explode, Wrap
from unitxt.image_operators import ToImage
from unitxt.data_types import Dialog, mentions_media_type
from unitxt.type_utils import to_type
from unitxt.recipe import DatasetRecipe as RecipeRecipe
recipe_module = importlib.import_module("unitxt.rendering.recipe")
# pickles written where classes lived before (protocol 0 names "module\\nclass" as text, so paths can be swapped)
old_pickle = pickle.dumps(LoadHF(path="glue", name="wnli"), protocol=0).replace(
    b"unitxt.loaders.hub_and_files\\n", b"unitxt.blocks\\n")
task = TaskCard.__module__
recipe_pickle = pickle.dumps(recipe_module.DatasetRecipe, protocol=0).replace(
    b"unitxt.rendering.recipe\\n", b"unitxt.recipe\\n")
assert b"unitxt.blocks" in old_pickle and b"unitxt.recipe" in recipe_pickle
print(json.dumps({
    "same_module": importlib.import_module("unitxt.standard") is recipe_module and unitxt.standard is recipe_module,
    "same_class": DatasetRecipe is StandardRecipe is RecipeRecipe is recipe_module.DatasetRecipe,
    "spec_kept": recipe_module.__spec__.name,
    "judge_module": LLMJudgeDirect.__module__, "template_judge_module": LLMAsJudge.__module__,
    "ensemble_module": MetricsEnsemble.__module__, "explode": Explode.__module__, "to_image": ToImage.__module__,
    "dialog": to_type("Dialog") is Dialog and mentions_media_type("List[Image]"),
    "task_card": task, "load_hf": LoadHF.__module__,
    "unpickled_old_path": pickle.loads(recipe_pickle) is recipe_module.DatasetRecipe,
    "unpickled_object": pickle.loads(old_pickle).path,
    "blocks_all": "TaskCard" in importlib.import_module("unitxt.blocks").__all__,
}))
"""


def test_old_and_original_module_paths_resolve_to_their_homes():
    completed = _run(_OLD_PATHS)
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert json.loads(completed.stdout.strip().splitlines()[-1]) == {
        "same_module": True, "same_class": True, "spec_kept": "unitxt.rendering.recipe",
        "judge_module": "unitxt.judges.criteria_judges", "template_judge_module": "unitxt.judges.template_judges",
        "ensemble_module": "unitxt.metrics.ensemble", "explode": "unitxt.operators.streams",
        "to_image": "unitxt.operators.images", "dialog": True, "task_card": "unitxt.card",
        "load_hf": "unitxt.loaders.hub_and_files", "unpickled_old_path": True, "unpickled_object": "glue",
        "blocks_all": True,
    }


def test_unknown_names_of_an_aliased_path_are_import_errors():
    completed = _run("from unitxt.blocks import NoSuchBlock")
    assert completed.returncode == 1 and "cannot import name 'NoSuchBlock'" in completed.stderr
    completed = _run("import unitxt.standard.nothing_here")
    assert completed.returncode == 1 and "No module named 'unitxt.standard.nothing_here'" in completed.stderr


def test_python_m_of_an_aliased_entry_module():
    """`python -m unitxt.ui` (the original's explorer path) runs unitxt.explore's entry point."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "core"))
    completed = subprocess.run([sys.executable, "-m", "unitxt.ui", "--help"], env=env, capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert "Explore the unitxt catalog" in completed.stdout and "--port" in completed.stdout


def test_python_m_of_an_aliased_module_with_relative_imports():
    """`python -m unitxt.evaluate_cli` (the original's command module) runs unitxt.cli.steps as __main__ in its own
    package, so its relative imports resolve."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "core"))
    completed = subprocess.run([sys.executable, "-m", "unitxt.evaluate_cli", "--help"], env=env, capture_output=True,
                               text=True)
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert "--ray [ADDRESS]" in completed.stdout and "--tasks" in completed.stdout


def test_the_package_never_imports_through_an_alias():
    """Old paths are for users' code; the library imports each module from its home."""
    from unitxt.module_aliases import MODULE_ALIASES

    aliased = {f"unitxt.{old}" for old in MODULE_ALIASES}
    found = []
    for path in PACKAGE.rglob("*.py"):
        if "__pycache__" in path.parts:
            continue
        name = _module_name(path)
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                target = _absolute(package, node.level, node.module or "")
                targets = {target} | {f"{target}.{alias.name}" for alias in node.names}
                found += [f"{name}: {hit}" for hit in sorted(targets & aliased)]
    assert found == []
