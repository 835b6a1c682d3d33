"""The original's helper names of issue 36 (first part of its "implementation machinery" list) resolve here and behave
as the original's do; expected values were read off the original package (1.26.10) on the same inputs."""

import copy
import logging
import re
import warnings
from typing import List, Tuple

import numpy as np
import pytest

from unitxt.errors import MissingRequirementsError, UnitxtError


# ---- unitxt.parsing_utils: the step-by-step query reader


def test_consume_steps_read_one_construct_and_return_the_rest():
    from unitxt.parsing_utils import (consume_assignment, consume_name, consume_name_val, consume_overwrites,
                                      consume_query, consume_term)

    assert consume_name_val("  -12 ,x") == (-12, ",x")
    assert consume_name_val("-0.5") == (-0.5, "")
    assert consume_name_val("1.2.3") == ("1.2.3", "")
    assert consume_name_val("FALSE") == (False, "")
    assert consume_name_val("none") == ("none", "")  # only "None" is None
    assert consume_term("[a, [b,c]]rest") == (["a", ["b", "c"]], "rest")
    assert consume_term("{a=1,b=[x,y]}") == ({"a": 1, "b": ["x", "y"]}, "")
    assert consume_term("name[a=1,b={c=2}] tail") == ("name[a=1,b={c=2}] ", "tail")  # a query stays text
    assert consume_assignment("card=cards.x[a=1,b=2],t=3") == ({"card": "cards.x[a=1,b=2]"}, ",t=3")
    assert consume_assignment("a=[]") == ({"a": [""]}, "")
    assert consume_overwrites("card=cards.x[a=1,b=2],t=3", "]") == ({"card": "cards.x[a=1,b=2]", "t": 3}, "")
    assert consume_overwrites("]x", "]") == ({}, "]x")
    assert consume_query("name[a=1,b={c=2}] tail") == (("name", {"a": 1, "b": {"c": 2}}), "tail")
    assert consume_query("a=b") == (("a", None), "=b")
    assert consume_name("abc") == ("abc", "")


@pytest.mark.parametrize("function, text, message", [
    ("consume_name", "=b", "malformed name at the beginning of: =b"),
    ("consume_term", "{a=1", "malformed dict in: {a=1"),
    ("consume_term", "[1,2", "malformed list in: [1,2"),
    ("consume_assignment", "a=", "malformed assigned value in: a="),
    ("consume_query", "name[a=1", "malformed end of query: overwrites not closed by ] in: name[a=1"),
])
def test_consume_steps_reject_malformed_text_with_the_original_messages(function, text, message):
    import unitxt.parsing_utils as parsing

    with pytest.raises(ValueError, match=re.escape(message)):
        getattr(parsing, function)(text)


# ---- unitxt.dict_utils: the recursive path steps

BASE = {"a": {"b": [1, {"c": 2}, {"c": 3}]}, "d": [], "e": {"x": 1, "y": 2}, "s": "str", "l": [[1, 2], [3]]}


def components(path: str) -> List[str]:
    from unitxt.dict_utils import validate_query_and_break_to_components

    return validate_query_and_break_to_components(path)


@pytest.mark.parametrize("path, expected", [
    ("a/b/1/c", (True, 2)), ("a/b/*/c", (True, [2, 3])), ("d/*", (True, [])), ("e/*", (True, [1, 2])),
    ("a/b/5", (False, None)), ("s/0", (True, "s")), ("l/*/1", (True, [2])), ("a/b/-1/c", (True, 3)),
    ("d/*/x", (False, None)), ("*/b", (True, [[1, {"c": 2}, {"c": 3}]])),
])
def test_get_values_walks_the_query_from_a_negative_start(path, expected):
    from unitxt.dict_utils import get_values

    parts = components(path)
    assert get_values(copy.deepcopy(BASE), parts, -len(parts)) == expected
    assert get_values("anything", parts, 0) == (True, "anything")


@pytest.mark.parametrize("path, value, create, multiple, changed", [
    ("a/b/*/c", 7, False, False, {"a": {"b": [1, {"c": 7}, {"c": 7}]}}),
    ("new/x", 1, True, False, {"new": {"x": 1}}),
    ("d/*", [1, 2], True, True, {"d": [1, 2]}),
    ("e/*", [5, 6], False, True, {"e": {"x": 5, "y": 6}}),
    ("a/b/4", "z", True, False, {"a": {"b": [1, {"c": 2}, {"c": 3}, None, "z"]}}),
    ("s/k", 1, True, False, {"s": {"k": 1}}),
    ("x/*/y", 2, True, False, {"x": [{"y": 2}]}),
])
def test_set_values_sets_or_creates_along_the_query(path, value, create, multiple, changed):
    from unitxt.dict_utils import set_values

    parts = components(path)
    matched, result = set_values(copy.deepcopy(BASE), value, -len(parts),
                                 {"query": parts, "generate_if_not_exists": create}, set_multiple=multiple)
    assert matched is True
    assert result == {**copy.deepcopy(BASE), **changed}


@pytest.mark.parametrize("path, value, create, multiple", [
    ("new/x", 1, False, False), ("a/b/4", "z", False, False), ("e/*", [1], True, True),
])
def test_set_values_reports_a_query_it_can_not_follow(path, value, create, multiple):
    from unitxt.dict_utils import dict_set, set_values

    parts = components(path)
    data = copy.deepcopy(BASE)
    assert set_values(data, value, -len(parts), {"query": parts, "generate_if_not_exists": create},
                      set_multiple=multiple) == (False, None)
    if create:  # dict_set, built on the same walk, leaves such data untouched without an error (as the original)
        dict_set(data, path, value, not_exist_ok=True, set_multiple=multiple)
        assert data == BASE


@pytest.mark.parametrize("path, prune, after", [
    ("a/b/*/c", True, {"a": {"b": [1]}}), ("a/b/*/c", False, {"a": {"b": [1, {}, {}]}}), ("e/*", False, {"e": {}}),
    ("l/*/0", True, {"l": [[2]]}), ("a/b/0", False, {"a": {"b": [{"c": 2}, {"c": 3}]}}),
])
def test_delete_values_removes_in_place_and_returns_the_element(path, prune, after):
    from unitxt.dict_utils import delete_values

    parts = components(path)
    data = copy.deepcopy(BASE)
    matched, result = delete_values(data, parts, -len(parts), remove_empty_ancestors=prune)
    assert matched is True and result is data
    assert data == {**copy.deepcopy(BASE), **after}
    for missing in ("a/x", "l/0/5", "s/0"):
        assert delete_values(data, components(missing), -len(components(missing))) == (False, None)


# ---- unitxt.operator / unitxt.operators helpers


def test_single_instance_stream_helpers():
    from unitxt.operator import instance_generator, instance_result, stream_single

    stream = stream_single({"a": 1})
    assert list(stream) == [{"a": 1}] and list(stream) == [{"a": 1}]  # re-iterable
    assert list(instance_generator(3)) == [3]
    assert (instance_result([]), instance_result([{"a": 1}]), instance_result([1, 2])) == (None, {"a": 1}, [1, 2])


def test_recursive_key_value_replace_edits_in_place_as_recursive_replace_does():
    from unitxt.operators import RecursiveReplace, recursive_key_value_replace

    data = {"a": "1", "b": [{"a": "3", "c": 2}, {"a": ["1", "2", "3", {"x": 1}]}], "d": {"a": {"a": "2"}}, "a2": 5}
    expected = {"a": "hi", "b": [{"c": 2}, {"a": ["hi", "bye"]}], "d": {"a": {"a": "bye"}}, "a2": 5}
    operator = RecursiveReplace(key="a", map_values={"1": "hi", "2": "bye"}, remove_values=["3"])
    assert operator.process(copy.deepcopy(data)) == expected
    assert recursive_key_value_replace(data, "a", {"1": "hi", "2": "bye"}, ["3"]) is data
    assert data == expected
    assert recursive_key_value_replace([{"a": 1}, {"a": 2}], "a", {1: "one"}) == [{"a": "one"}, {"a": 2}]


def test_update_scores_of_stream_instances_gives_each_instance_a_copy_of_its_score():
    from unitxt.operators import update_scores_of_stream_instances

    scores = [{"s": [1]}, {"s": [2]}]
    updated = list(update_scores_of_stream_instances([{"x": 1}, {"x": 2}, {"x": 3}], scores))
    assert updated == [{"x": 1, "score": {"s": [1]}}, {"x": 2, "score": {"s": [2]}}]
    assert updated[0]["score"]["s"] is not scores[0]["s"]


def test_artifact_fetcher_mixin_fetches_once_and_hands_out_copies():
    from unitxt.metrics import Accuracy
    from unitxt.operators import ArtifactFetcherMixin

    first = ArtifactFetcherMixin.get_artifact("metrics.accuracy")
    second = ArtifactFetcherMixin.get_artifact("metrics.accuracy")
    assert isinstance(first, Accuracy) and first.main_score == "accuracy"
    assert first is not second
    assert "metrics.accuracy" in ArtifactFetcherMixin._artifacts_cache


def test_download_errors_and_placeholder():
    from unitxt.operators import DefaultPlaceHolder, DownloadError, UnexpectedHttpCodeError

    with pytest.raises(UnitxtError, match="unexpected http code 404"):
        raise UnexpectedHttpCodeError(404)
    with pytest.raises(DownloadError, match="Unable to download x"):
        raise DownloadError("Unable to download x")
    assert isinstance(DefaultPlaceHolder(), DefaultPlaceHolder)


def test_process_instance_value_picks_the_closest_option():
    from types import SimpleNamespace

    from unitxt.processors import process_instance_value

    owner = SimpleNamespace(options_field="options")
    assert process_instance_value(owner, "catt", {"options": ["cat", "dog", "cattle"]}) == "cat"
    assert process_instance_value(owner, "Dgo", {"options": ["cat", "dog"]}) == "dog"
    assert process_instance_value(owner, "x", {"options": []}) is None


# ---- unitxt.metrics helpers


def test_metric_helpers_behave_as_the_original():
    import dataclasses

    from unitxt import metrics

    assert metrics.normalize_answer("The  Cat, an apple! A-team") == "cat apple ateam"
    assert [metrics.is_original_key(key) for key in ("f1_ci_low", "score", "f1", "num_of_instances",
                                                     "score_name")] == [False, False, True, False, False]
    assert (metrics.get_index_or_default([1, 2, 3], 2), metrics.get_index_or_default([1], 5),
            metrics.get_index_or_default([], 1, None)) == (1, -1, None)
    item = metrics.EvaluationInput("p", ["r"], {"a": 1})
    assert item == ("p", ["r"], {"a": 1}) and isinstance(item, tuple)
    assert dataclasses.asdict(metrics.SacreBleuStats([1], [2], 3, 4)) == {"counts": [1], "totals": [2], "sys_len": 3,
                                                                         "ref_len": 4}
    assert 'pip install "sacrebleu[ko]"' in metrics.KO_ERROR_MESSAGE and "brew install mecab" in metrics.KO_ERROR_MESSAGE


def test_new_random_generator_is_seeded_from_the_global_seed():
    from unitxt import metrics
    from unitxt.settings_utils import get_settings

    with get_settings().context(seed=7):
        drawn = metrics.new_random_generator().integers(0, 1000, 5)
    assert drawn.tolist() == np.random.default_rng(hash(7) & 0xFFFFFFFF).integers(0, 1000, 5).tolist()
    assert metrics.new_random_generator().integers(0, 1000, 5).tolist() == [89, 773, 654, 438, 433]  # seed 42


def test_abstract_field_gives_each_object_a_fresh_dict():
    from unitxt.artifact import Artifact
    from unitxt.metrics import abstract_factory, abstract_field

    class WithAbstractMap(Artifact):
        mapping: dict = abstract_field()

    first, second = WithAbstractMap(), WithAbstractMap()
    first.mapping["k"] = 1
    assert second.mapping == {} and abstract_factory() == {}


def test_optional_package_helpers_name_what_to_install():
    from unitxt.metrics import ReflectionToolCallingMixin, pytrec_eval_at_k

    with pytest.raises(MissingRequirementsError, match="pytrec_eval"):
        pytrec_eval_at_k({"q": {"d": 1.0}}, {"q": {"d": 1}}, [1], "ndcg_cut")
    with pytest.raises(MissingRequirementsError, match="llmevalkit"):
        ReflectionToolCallingMixin.convert_tool_call({"name": "f", "arguments": {}})


def test_hf_evaluate_load_loads_a_local_metric_and_reads_the_offline_folder(tmp_path):
    from unitxt.metrics import hf_evaluate_load
    from unitxt.settings_utils import get_settings

    folder = tmp_path / "metrics" / "agreement"
    folder.mkdir(parents=True)
    (folder / "agreement.py").write_text(
        "import datasets\nimport evaluate\n\n\nclass Agreement(evaluate.Metric):\n"
        "    def _info(self):\n"
        "        return evaluate.MetricInfo(description='', citation='', inputs_description='', features=datasets."
        "Features({'predictions': datasets.Value('int32'), 'references': datasets.Value('int32')}))\n\n"
        "    def _compute(self, predictions, references):\n"
        "        return {'agreement': sum(p == r for p, r in zip(predictions, references)) / len(predictions)}\n")
    assert hf_evaluate_load(str(folder)).compute(predictions=[1, 2, 3, 4], references=[1, 0, 3, 4]) == {
        "agreement": 0.75}
    with get_settings().context(hf_offline_metrics_path=str(tmp_path / "metrics")):
        assert hf_evaluate_load("agreement").compute(predictions=[1], references=[2]) == {"agreement": 0.0}


def test_parse_string_types_instead_of_actual_objects_warns_and_parses():
    from typing import Dict, List, Optional

    from unitxt.base_metric import parse_string_types_instead_of_actual_objects as from_base_metric
    from unitxt.metrics import parse_string_types_instead_of_actual_objects as from_metrics
    from unitxt.task import parse_string_types_instead_of_actual_objects as from_task

    with pytest.warns(DeprecationWarning):
        assert from_metrics("Dict[str, List[int]]") == Dict[str, List[int]]
    with pytest.warns(DeprecationWarning):
        assert from_task("Optional[float]") == Optional[float]
    assert from_base_metric is from_metrics is from_task


# ---- judges


def test_criteria_builders_and_judge_helpers():
    from unitxt.llm_as_judge import EVALUATORS_METADATA
    from unitxt.llm_as_judge_constants import (OptionSelectionStrategyEnum, get_likert_scale_criteria,
                                               get_yes_no_criteria)
    from unitxt.llm_as_judge_from_template import get_task_data_dict
    from unitxt.llm_as_judge_utils import get_parsed_context, rank_indexes

    likert = get_likert_scale_criteria("n", "how good", "response", ["q"], high_short_description="great")
    assert likert.description == "On a scale of 1 (low) to 5 (great), how good"
    assert [option.name for option in likert.options] == ["1", "2", "3", "4", "5"]
    assert likert.option_map == {"1": 0.0, "2": 0.25, "3": 0.5, "4": 0.75, "5": 1.0}
    yes_no = get_yes_no_criteria("response", ["q"], name="x", bigger_is_better=False)
    assert ([option.name for option in yes_no.options], yes_no.option_map) == (["Yes", "No"], {"Yes": 0.0, "No": 1.0})
    assert [member.value for member in OptionSelectionStrategyEnum] == ["PARSE_OUTPUT_TEXT", "PARSE_OPTION_LOGPROB"]
    assert get_parsed_context({"Context": "abc"}) == "abc"
    assert get_parsed_context({"a": 1, "b": 2}) == "a: 1\nb: 2"
    assert get_parsed_context({"q": "x"}) == "q: x"
    assert rank_indexes([3, 1, 3, 2]) == [0, 3, 0, 2] and rank_indexes([1, 2, 3]) == [2, 1, 0]
    assert get_task_data_dict('{"a": 1}') == {"a": 1} and get_task_data_dict({"b": 2}) == {"b": 2}
    assert len(EVALUATORS_METADATA) == 21


# ---- logging, api, dataset, dataclass


def test_size_limited_formatter_cuts_long_messages():
    from unitxt.logging_utils import SizeLimitedFormatter, get_logger
    from unitxt.settings_utils import get_settings

    record = logging.LogRecord("x", logging.INFO, "f", 1, "a" * 30, None, None)
    with get_settings().context(max_log_message_size=10):
        cut = SizeLimitedFormatter().format(record)
        assert cut.startswith("a" * 10 + "...\n") and "a" * 11 not in cut and "max_log_message_size" in cut
    assert SizeLimitedFormatter().format(record) == "a" * 30
    assert any(isinstance(handler.formatter, SizeLimitedFormatter) for handler in get_logger().handlers)


def test_fill_metadata_adds_version_and_time():
    from unitxt.api import fill_metadata
    from unitxt.version import version

    metadata = fill_metadata(model="m")
    assert metadata["model"] == "m" and metadata["unitxt_version"] == version
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}", metadata["creation_time"])


RECIPE = "task=tasks.qa.multiple_choice.open,template=templates.qa.multiple_choice.open.title"
INSTANCES = [{"question": "Which?", "choices": ["a", "bbb", "cc"], "answer": 0},
             {"question": "Q2", "choices": ["xx", "y"], "answer": 1}]


def prefer_option(letter: str):
    from unitxt.inference.option_selection import OptionSelectingByLogProbsInferenceEngine

    class PreferOption(OptionSelectingByLogProbsInferenceEngine):
        def options_log_probs(self, pairs: List[Tuple[str, str]]) -> List[float]:
            return [1.0 if option == letter else 0.0 for _, option in pairs]

    return PreferOption(use_cache=False)  # engines of one class share the answer cache: each test asks afresh


def test_select_picks_the_option_an_engine_scores_highest():
    from unitxt.api import select

    assert select(INSTANCES, prefer_option("B"), RECIPE) == ["B", "B"]
    assert select(INSTANCES[0], prefer_option("C"), RECIPE) == "C"
    rows = select(INSTANCES, prefer_option("A"), RECIPE, return_data=True,
                  previous_messages=[[{"role": "system", "content": "hi"}], []])
    assert [row["prediction"] for row in rows] == ["A", "A"]
    assert rows[0]["source"][0] == {"role": "system", "content": "hi"} and rows[0]["source"][1]["role"] == "user"


def test_select_needs_an_option_selecting_engine():
    from unitxt.api import select
    from unitxt.inference import MockInferenceEngine

    with pytest.raises(UnitxtError, match="option-selecting engine"):
        select(INSTANCES, MockInferenceEngine(model_name="mock"), RECIPE)


def test_dataset_builder_name_and_schemas():
    from unitxt.api import create_dataset
    from unitxt.dataset import Dataset
    from unitxt.metric import UNITXT_METRIC_SCHEMA
    from unitxt.metric_utils import UNITXT_DATASET_SCHEMA
    from unitxt.rendering.dataset_builder import UnitxtDatasetBuilder

    assert Dataset is UnitxtDatasetBuilder
    assert UNITXT_METRIC_SCHEMA["references"] == UNITXT_DATASET_SCHEMA
    dataset = create_dataset(task="tasks.qa.open", test_set=[{"question": "q", "answers": ["a"]}],
                             template="templates.qa.open.simple", split="test")
    # the same columns; types inferred from the rows as the original's builder does (lists empty in every row are
    # list<null>; the source is text)
    assert set(dataset.features) == set(UNITXT_DATASET_SCHEMA)
    schema = dataset.features.arrow_schema
    assert str(schema.field("source").type) == "string" and str(schema.field("references").type) == "list<item: string>"
    assert str(schema.field("groups").type) == "list<item: null>"


def test_dataclass_meta_and_get_fields():
    from unitxt.dataclass import Dataclass, DataclassMeta, get_fields

    class Base(Dataclass):
        a: int = 1
        b: str = "x"

    class Child(Base):
        a = 2
        c: float = 0.5

    assert isinstance(Child, DataclassMeta) and type(Dataclass) is DataclassMeta
    declared = get_fields(Child, dict(vars(Child)))
    assert {name: spec.default() for name, spec in declared.items()} == {"a": 2, "b": "x", "c": 0.5}
    assert {name: spec.default() for name, spec in get_fields(Child, {}).items()} == {"a": 1, "b": "x"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(UnitxtError, match="artifact"):
            get_fields(int, {})
