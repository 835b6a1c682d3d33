"""Structure rules (issue 12): the generated `__type__` -> module index is current and resolving a type imports
exactly its module; the package has no import cycle; modules stay small."""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Set

ROOT = Path(__file__).resolve().parent.parent
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
        "unitxt.metrics", "unitxt.metrics.base", "unitxt.metrics.text"]  # the lazy package, the bases, the family
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


def _module_level_imports(path: Path, modules: Set[str]) -> Set[str]:
    """unitxt modules imported when `path` is imported: its top-level statements (and those nested in top-level
    if/try blocks), not imports inside functions or classes, which run later on purpose (lazy imports)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: Set[str] = set()
    pending = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.If, ast.Try)):
            pending.extend(node.body + node.orelse + getattr(node, "finalbody", []))
            pending.extend(statement for handler in getattr(node, "handlers", []) for statement in handler.body)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for candidate in [target] + [f"{target}.{alias.name}" for alias in node.names]:
                if candidate in modules and candidate != name:
                    found.add(candidate)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules and alias.name != name)
    return found


def import_graph() -> Dict[str, Set[str]]:
    paths = [path for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts]
    modules = {_module_name(path) for path in paths}
    return {_module_name(path): _module_level_imports(path, modules) for path in paths}


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


MAX_MODULE_LINES = 600  # the house rule: a module holds one concept and stays readable in one sitting


def test_no_module_over_the_size_limit():
    sizes = {str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
             for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts and path.name != "_type_index.py"}
    assert {name: lines for name, lines in sizes.items() if lines > MAX_MODULE_LINES} == {}
    assert sizes["artifact.py"] > 100  # the scan read the package


# The layers of README "Layout": a module imports (at top level) only from its own layer or lower-numbered ones.
LAYERS = {
    1: "errors logging_utils settings_utils version lazy_imports dict_utils text_utils random_utils query_parser "
       "type_utils data_types expressions expression_validation expression_runtime",
    2: "artifact _type_index catalog_store catalog stream operator",
    3: "loaders operators processors judgment_processors model_processors splitters samplers augmentors "
       "table_augmentors serializers image_utils format_utils formats image_operators collections_operators",
    4: "task card templates formats_tokenizer system_prompts",
    5: "recipe instance_renderer demo_pool prompt_assembly media_and_policy row_json batch_render dataset_builder "
       "benchmark standard blocks",
    6: "metrics",
    7: "inference llm_as_judge llm_as_judge_constants llm_as_judge_meta llm_as_judge_operators llm_as_judge_prompts "
       "llm_as_judge_templates signature",
    8: "evaluation evaluation_inputs post_processing eval_utils results paired_comparison html_report plots "
       "streamed_evaluation",
    9: "api explore test_utils",
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
