"""The original's metrics.* names added from tables of facts (criteria, criteria judges per provider, earlier RAG
names, template judges) hold the original entry's key facts: the artifact kind, the criteria's judged field, context
fields, options and scores, the judge's engine (provider, model, token cap, seed), templates, tasks, main scores,
the RAG pipelines' steps and metrics. Wording (descriptions, prompts) is ours and not compared."""

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

from unitxt.artifact import fetch_artifact

from .test_catalog_loads import oracle_catalog_folder

ROOT = Path(__file__).resolve().parents[3]
SOURCES = ROOT / "scripts" / "catalog_sources"
# the sources that add these names (and the names of the others they add that are not metrics of the original)
SOURCE_FILES = ("judges_direct", "metrics_rag_legacy", "metrics_rag_lexical", "judges_rating_legacy",
                "metrics_model_extra", "metrics_multi_turn", "operators_judge_data")


def _added_names():
    sys.path.insert(0, str(SOURCES))
    names = []
    for stem in SOURCE_FILES:
        if stem == "judges_direct":  # every criteria judge it builds (those the original has are kept below)
            spec = importlib.util.spec_from_file_location("compat_source_judges_direct", SOURCES / f"{stem}.py")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            names += [f"metrics.llm_as_judge.{kind}.{folder}.{label}" for kind in ("direct", "pairwise")
                      for _, folder, _, _, label, _ in module.judge_models()]
            continue
        spec = importlib.util.spec_from_file_location(f"compat_source_{stem}", SOURCES / f"{stem}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.register(lambda name, artifact: names.append(name))
    from unitxt.judges.criteria_library import PAIRWISE, library

    names += [f"metrics.llm_as_judge.direct.criteria.{name}" for name in library()]
    names += [f"metrics.llm_as_judge.pairwise.criteria.{name}" for name in PAIRWISE]
    return sorted(names)


ORACLE = oracle_catalog_folder()
NAMES = [name for name in _added_names() if (ORACLE / ("/".join(name.split(".")) + ".json")).exists()]
ENGINE_KEYS = ("__type__", "provider", "model", "model_name", "max_tokens", "max_new_tokens", "seed", "random_seed",
               "temperature", "default")


def _same(ours, theirs):
    if isinstance(theirs, (int, float)) and not isinstance(theirs, bool) and isinstance(ours, (int, float)):
        return math.isclose(ours, theirs, abs_tol=1e-9)
    return ours == theirs


def _facts_of_steps(steps):
    """The steps' fields in their JSON form (a to_dict tuple, as Apply's _argv, is the catalog's list)."""
    return json.loads(json.dumps([{key: value for key, value in step.items()
                                   if not key.startswith("__") or key == "__type__"} for step in steps or []]))


def _engine(entry, keys=ENGINE_KEYS):
    engine = entry.get("inference_engine", entry.get("inference_model"))
    if isinstance(engine, dict):
        return {key: engine.get(key) for key in keys}
    return engine


def _same_engine(ours, theirs):
    """The engine settings the original's entry gives are ours too (credentials left to the user)."""
    given = [key for key in ENGINE_KEYS if _engine(theirs).get(key) is not None]
    return all(_same(_engine(ours)[key], _engine(theirs)[key]) for key in given)


def test_the_added_names_are_the_originals():
    assert len(NAMES) >= 180, len(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_key_facts_are_the_originals(name):
    theirs = json.loads((ORACLE / ("/".join(name.split(".")) + ".json")).read_text(encoding="utf-8"))
    ours = fetch_artifact(name)[0].to_dict()
    kind = theirs["__type__"]
    assert ours["__type__"] == kind
    if kind in ("criteria_with_options", "criteria"):
        for key in ("name", "prediction_field", "context_fields"):
            assert ours.get(key) == theirs.get(key), key
        assert [o["name"] for o in ours.get("options", [])] == [o["name"] for o in theirs.get("options", [])]
        for option, score in (theirs.get("option_map") or {}).items():
            assert _same(ours["option_map"][option], score), option
        return
    if kind in ("llm_judge_direct", "llm_judge_pairwise"):
        assert _same_engine(ours, theirs), (_engine(ours), _engine(theirs))
        for key in ("evaluator_name", "generate_summaries", "context_fields", "criteria_field", "prediction_type"):
            assert ours.get(key) == theirs.get(key), key
        if "criteria" in theirs:
            assert ours["criteria"]["name"] == theirs["criteria"]["name"]
            assert ours["criteria"]["option_map"] == pytest.approx(theirs["criteria"]["option_map"])
        return
    for key in ("template", "task", "format", "main_score", "prediction_field", "infer_log_probs", "prediction_type",
                "single_reference_per_prediction", "metric", "score_prefix", "items", "model_name",
                "source_template", "target_template", "single_token_mode"):
        if key in theirs:
            assert ours.get(key) == theirs[key], key
    if "inference_model" in theirs:
        if isinstance(theirs["inference_model"], dict):
            assert _same_engine(ours, theirs), (_engine(ours), _engine(theirs))
        else:
            assert ours["inference_model"] == theirs["inference_model"]
    for key in ("preprocess_steps", "postprocess_steps"):
        if key in theirs:
            assert _facts_of_steps(ours.get(key)) == _facts_of_steps(theirs[key]), key
    if kind == "sequential_operator":
        assert _facts_of_steps(ours["steps"]) == _facts_of_steps(theirs["steps"])
    if "__deprecated_msg__" in theirs:
        assert "__deprecated_msg__" in ours
        successors = [word for word in theirs["__deprecated_msg__"].split() if word.startswith("metrics.")]
        assert all(word in ours["__deprecated_msg__"] for word in successors), ours["__deprecated_msg__"]
