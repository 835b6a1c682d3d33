"""Names of the original package's modules that code written for it imports (unitxt.normalizers, unitxt.dataclass,
unitxt.utils, unitxt.text_utils, unitxt.metric_utils, unitxt.hf_utils, unitxt.register, ...): each resolves here
and does what the original's does."""

import json
import os
import sys
import threading
import types
from typing import Optional

import pytest

from unitxt.stream import MultiStream
from unitxt.test_utils.operators import apply_operator, check_operator_exception


# ---------------------------------------------------------------- operators
def test_normalize_list_fields_joins_lists_into_text():
    from unitxt.normalizers import NormalizeListFields

    rows = apply_operator(NormalizeListFields(fields=["a", "b", "c"], key_prefix="n_", separator=" | "),
                          [{"a": [], "b": ["x"], "c": ["x", "y", "z"]}])
    assert rows[0]["n_a"] == "" and rows[0]["n_b"] == "x" and rows[0]["n_c"] == "x | y | z"
    check_operator_exception(NormalizeListFields(fields=["a"]), [{"a": "text"}], ["Field a should be a list"])


def test_intersect_corresponding_fields_keeps_parallel_positions():
    from unitxt.operators import IntersectCorrespondingFields

    operator = IntersectCorrespondingFields(field="label", allowed_values=["b", "f"],
                                            corresponding_fields_to_intersect=["position"])
    rows = apply_operator(operator, [{"label": ["a", "b", "f"], "position": [0, 1, 2], "other": 7},
                                     {"label": ["c"], "position": [5], "other": 8}])
    assert rows == [{"label": ["b", "f"], "position": [1, 2], "other": 7}, {"label": [], "position": [], "other": 8}]
    check_operator_exception(operator, [{"label": ["a", "b"], "position": [0]}],
                             ["Number of elements in field 'position' is not the same"])


def test_collate_instances_by_field_groups_and_merges_policies():
    from unitxt.operators import CollateInstancesByField

    rows = apply_operator(CollateInstancesByField(by_field="cat", aggregate_fields=["v"]),
                          [{"cat": "A", "v": 1, "data_classification_policy": ["public"]},
                           {"cat": "B", "v": 2, "data_classification_policy": ["public"]},
                           {"cat": "A", "v": 3, "data_classification_policy": ["pii"]}])
    assert rows == [{"cat": "A", "v": [1, 3], "data_classification_policy": ["pii", "public"]},
                    {"cat": "B", "v": [2], "data_classification_policy": ["public"]}]
    check_operator_exception(CollateInstancesByField(by_field="cat", aggregate_fields=["v"]),
                             [{"cat": "A", "v": 1, "k": 1}, {"cat": "A", "v": 2, "k": 2}],
                             ["Inconsistent value for field 'k' in group 'A'"])


def test_field_to_field_whose_result_depends_on_order_is_refused():
    from unitxt.operators import AddConstant

    with pytest.raises(AssertionError, match="field b is mapped to field a, while the latter is mapped to b"):
        AddConstant(field_to_field={"a": "b", "b": "a"}, add=1)
    with pytest.raises(AssertionError, match="two different fields: a and b are mapped to field c"):
        AddConstant(field_to_field={"a": "c", "b": "c"}, add=1)
    assert AddConstant(field="a", to_field="b", add=2).process({"a": 1}) == {"a": 1, "b": 3}


# ---------------------------------------------------------------- dataclass helpers
def test_dataclass_field_helpers():
    from unitxt.dataclass import (Dataclass, FinalField, Undefined, class_fields, get_field_default,
                                  is_class_method, is_final_field, required_fields, to_dict)

    class Base(Dataclass):
        a: int = FinalField(default=1)
        b: str = "x"

    class Child(Base):
        c: int
        d: Optional[str] = None

    child = Child(c=3)
    assert [spec.name for spec in class_fields(child)] == ["c", "d"]
    assert [is_final_field(spec) for spec in class_fields(Base(b="y"))] == [True, False]
    assert [spec.name for spec in required_fields(Child)] == ["c"]
    assert get_field_default(class_fields(child)[0]) is Undefined
    assert to_dict({"k": [child]}) == {"k": [{"a": 1, "b": "x", "c": 3, "d": None}]}
    assert child.to_dict(classes=[Child]) == {"c": 3, "d": None}
    assert child.to_dict(keep_empty=False) == {"a": 1, "b": "x", "c": 3}
    assert is_class_method(Child.to_dict) and not is_class_method(lambda x: x)


# ---------------------------------------------------------------- serializers
def test_number_quantizing_and_default_serializers():
    from unitxt.serializers import DefaultSerializer, NumberQuantizingSerializer, NumberSerializer, ToolsSerializer

    assert NumberQuantizingSerializer(quantum=0.5).serialize(2.7, {}) == "2.5"
    assert NumberQuantizingSerializer(quantum=5).serialize(12, {}) == "10"
    assert NumberSerializer().serialize(1.25, {}) == "1.2" and NumberSerializer().serialize(4, {}) == "4"
    assert DefaultSerializer().serialize({"k": 1}, {}) == "{'k': 1}"
    instance = {}
    tool = {"name": "f", "description": "d", "parameters": {"type": "object", "properties": {}}}
    assert json.loads(ToolsSerializer().serialize([tool], instance)) == [{"type": "function", "function": tool}]
    assert instance["__tools__"] == [{"type": "function", "function": tool}]


# ---------------------------------------------------------------- utils
def test_require_reports_missing_and_conflicting_distributions():
    from unitxt.utils import DistributionNotFound, VersionConflict, require

    require(["pytest"])
    with pytest.raises(DistributionNotFound):
        require("surely-not-installed-distribution-0")
    with pytest.raises(VersionConflict) as info:
        require("pytest>=999")
    assert info.value.dist.project_name == "pytest" and info.value.req == "pytest>=999"
    require("surely-not-installed-distribution-0; python_version<'1'")  # the marker does not apply: no error


def test_lru_cache_is_per_thread_and_decorator_memoises():
    from unitxt.utils import LRUCache, lru_cache_decorator

    cache = LRUCache(max_size=2)
    cache["a"] = 1
    seen = []
    thread = threading.Thread(target=lambda: seen.append("a" in cache))
    thread.start()
    thread.join()
    assert seen == [False] and cache["a"] == 1
    calls = []

    @lru_cache_decorator(max_size=None)
    def square(x):
        calls.append(x)
        return x * x

    assert [square(3), square(3), square(x=3)] == [9, 9, 9] and calls == [3, 3]
    square.cache_clear()
    square(3)
    assert calls == [3, 3, 3]


# ---------------------------------------------------------------- text utils
def test_dicts_printed_as_yaml_and_python():
    from unitxt.text_utils import is_made_of_sub_strings, print_dict_as_python, print_dict_as_yaml

    assert print_dict_as_yaml({"k": ["a", {"b": 1, "c d": ""}]}) == 'k: \n  - a\n  - b: 1\n    "c d": ""'
    assert print_dict_as_python({"__type__": "t", "x": [1, "s"], "y": {"z": None}}) == (
        '__type__t(\n    x=[\n        1,\n        "s",\n    ],\n    y={\n        "z": None,\n    },\n)')
    assert is_made_of_sub_strings("abab", ["ab"]) and not is_made_of_sub_strings("aba", ["ab"])


# ---------------------------------------------------------------- loaders
def test_load_from_ibm_cloud_reads_downloaded_files(tmp_path, monkeypatch):
    from unitxt.loaders import LoadFromIBMCloud

    rows = [{"a": 1}, {"a": 2}, {"a": 3}]
    asked = []

    class Body:
        def iter_lines(self):
            return (json.dumps(row).encode() for row in rows)

    class Resource:
        def Object(self, bucket, key):  # noqa: N802 - the SDK's names
            asked.append(key)
            return types.SimpleNamespace(get=lambda: {"ContentLength": 1, "Body": Body()})

        def Bucket(self, bucket):  # noqa: N802
            def download_file(key, path, Callback):  # noqa: N803
                asked.append(key)
                with open(path, "w") as out:
                    out.writelines(json.dumps(row) + "\n" for row in rows)
            return types.SimpleNamespace(download_file=download_file)

    monkeypatch.setitem(sys.modules, "ibm_boto3", types.SimpleNamespace(resource=lambda *a, **k: Resource()))
    monkeypatch.setenv("UNITXT_IBM_COS_CACHE", str(tmp_path))
    for name in ("URL", "KEY", "SECRET"):
        monkeypatch.setenv(f"T_{name}", "x")
    loader = LoadFromIBMCloud(endpoint_url_env="T_URL", aws_access_key_id_env="T_KEY",
                              aws_secret_access_key_env="T_SECRET", bucket_name="b", data_dir="d",
                              data_files={"test": "test.jsonl"}, loader_limit=2)
    assert [dict(row) for row in loader()["test"]] == [{"a": 1, "data_classification_policy": ["proprietary"]},
                                                       {"a": 2, "data_classification_policy": ["proprietary"]}]
    assert asked == ["d/test.jsonl"]
    monkeypatch.delenv("T_URL")
    with pytest.raises(Exception, match="Please set the T_URL environmental variable"):
        list(loader()["test"])


# ---------------------------------------------------------------- metric_utils
def test_split_and_join_subsets_and_groups_round_trip():
    from unitxt.metric_utils import JoinSubsetsAndGroups, SplitSubsetsAndGroups

    rows = [{"subset": ["s1"], "groups": ['{"t": "a"}']}, {"subset": ["s2"], "groups": ['{"t": "a"}']}]
    split = SplitSubsetsAndGroups()(MultiStream.from_iterables({"test": rows}))
    assert sorted(split) == ["test>>s1", "test>>s1?t:a", "test>>s2", "test>>s2?t:a"]
    scored = {}
    for name, stream in split.items():
        value = 1.0 if name.startswith("test>>s1") else 0.0
        scored[name] = [dict(row, score={"global": {"score": value, "score_name": "acc", "num_of_instances": 1},
                                         "instance": {"score": value}}) for row in stream]
    joined = list(JoinSubsetsAndGroups()(MultiStream.from_iterables(scored))["test"])
    assert [row["subset"] for row in joined] == [["s1"], ["s2"]]
    score = joined[0]["score"]
    assert score["global"] == {"score": 0.5, "score_name": "subsets_mean", "subsets_mean": 0.5, "num_of_instances": 2}
    assert score["subsets"]["s1"]["groups"]["t"]["a"]["score"] == 1.0


def test_remote_metrics_settings_errors_are_runtime_errors(monkeypatch):
    from unitxt.metric_utils import UNITXT_REMOTE_METRICS, get_remote_metrics_names

    monkeypatch.setenv(UNITXT_REMOTE_METRICS, json.dumps(["metrics.accuracy"]))
    assert get_remote_metrics_names() == ["metrics.accuracy"]
    monkeypatch.setenv(UNITXT_REMOTE_METRICS, json.dumps({"k": "metrics.accuracy"}))
    with pytest.raises(RuntimeError):
        get_remote_metrics_names()


# ---------------------------------------------------------------- catalogs, artifacts, hub entries, streams
def test_reset_env_local_catalogs_puts_env_catalogs_on_top(tmp_path, monkeypatch):
    from unitxt.artifact import Catalogs
    from unitxt.register import _reset_env_local_catalogs, register_local_catalog, unregister_local_catalog

    registered, from_env = tmp_path / "registered", tmp_path / "env"
    registered.mkdir()
    from_env.mkdir()
    register_local_catalog(str(registered))
    try:
        monkeypatch.setenv("UNITXT_CATALOGS", str(from_env))
        _reset_env_local_catalogs()
        assert next(iter(Catalogs())).location == str(from_env)
        monkeypatch.delenv("UNITXT_CATALOGS")
        assert next(iter(Catalogs())).location == str(registered)
    finally:
        unregister_local_catalog(str(registered))


def test_artifact_type_registry_questions():
    from unitxt.artifact import Artifact

    class SurfaceProbeArtifact(Artifact):
        pass

    assert Artifact.is_registered_type("surface_probe_artifact") and Artifact.is_registered_type("accuracy")
    assert Artifact.is_registered_class(SurfaceProbeArtifact) and not Artifact.is_registered_class(dict)
    assert SurfaceProbeArtifact.get_artifact_type() == "surface_probe_artifact"


def test_augmentor_set_fields_and_augmented_type():
    from unitxt.augmentors import AugmentPrefixSuffix, AugmentWhitespace

    operator = AugmentWhitespace(augmented_type=float)
    operator.set_fields(["text"])
    assert apply_operator(operator, [{"input_fields": {"text": "a b"}}]) == [{"input_fields": {"text": "a b"}}]
    operator = AugmentWhitespace()
    operator.set_fields(["missing"])
    with pytest.raises(ValueError):
        apply_operator(operator, [{"input_fields": {"text": "a b"}}])
    with pytest.raises(AssertionError, match="Argument prefixes should be either None or a list of strings"):
        AugmentPrefixSuffix(prefixes=[1, "x"], suffixes=None)


def test_hub_versions_and_directory_size(tmp_path):
    from unitxt.hf_utils import UnitxtVersionsConflictError, _verify_versions, get_internal_imports
    from unitxt.test_utils.storage import get_directory_size

    with pytest.raises(UnitxtVersionsConflictError, match="older than the Huggingface Unitxt metric version 2.0"):
        _verify_versions("metric", "1.0", "2.0")
    _verify_versions("metric", "1.0", "1.0")
    script = tmp_path / "entry.py"
    script.write_text('"""doc\nfrom .hidden import x\n"""\nfrom .api import y\nimport .stream\n')
    assert get_internal_imports(str(script)) == ["api", "stream"]
    assert get_directory_size(str(tmp_path)) == os.path.getsize(script)


def test_multistream_to_dataset_caches_only_when_asked(tmp_path):
    from unitxt.stream import GeneratorStream
    from unitxt.test_utils.storage import get_directory_size

    multi = MultiStream({"test": GeneratorStream(lambda: ({"x": i} for i in range(50)))})
    assert multi.to_dataset(cache_dir=str(tmp_path))["test"]["x"] == list(range(50))
    assert get_directory_size(str(tmp_path)) == 0
    assert multi.to_dataset(disable_cache=False, cache_dir=str(tmp_path))["test"]["x"] == list(range(50))
    assert get_directory_size(str(tmp_path)) > 0


def test_extract_images_follows_image_tags():
    from unitxt.image_operators import extract_images

    source = 'a <unitxt-img src="images/0"> b <unitxt-img src=\'x\'>'
    assert extract_images({"source": source, "images": ["first"], "x": "second"}) == ["first", "second"]
    with pytest.raises(ValueError):
        extract_images({"source": '<unitxt-img src="nothing">'})


def test_peft_engine_is_a_real_engine_that_asks_for_its_packages_when_used():
    from unitxt.errors import MissingRequirementsError
    from unitxt.inference import HFAutoModelInferenceEngine, HFInferenceEngineBase, HFPeftInferenceEngine

    engine = HFPeftInferenceEngine(model_name="org/adapter", max_new_tokens=5)
    assert isinstance(engine, HFAutoModelInferenceEngine) and isinstance(engine, HFInferenceEngineBase)
    with pytest.raises(MissingRequirementsError, match="peft"):
        engine.infer([{"source": "hi"}])


def test_subgroup_comparisons():
    from unitxt.metrics import interpret_effect_size, mean_subgroup_score, normalized_hedges_g, performance_drop_rate

    scores = {"original": [1.0, 1.0, 0.0, 1.0], "paraphrase": [1.0, 0.0, 0.0, float("nan")]}
    assert performance_drop_rate(dict(scores), ["original"], ["paraphrase"]) == pytest.approx(1 - (1 / 3) / 0.75)
    assert mean_subgroup_score(dict(scores), ["original", "paraphrase"]) == pytest.approx(4 / 7)
    assert normalized_hedges_g(dict(scores), ["original"], ["original"]) == 0.0
    assert [interpret_effect_size(x) for x in (0.0, 0.3, -1.0, 2.5)] == ["essentially zero", "small", "large", "huge"]


def test_load_from_api_reads_a_json_endpoint(monkeypatch):
    import http.server

    from unitxt.loaders import LoadFromAPI

    seen_headers = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the server's hook name
            seen_headers.append(self.headers.get("Authorization"))
            body = json.dumps({"data": [{"q": "a"}, {"q": "b"}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        monkeypatch.setenv("PROBE_API_KEY", "k1")
        url = f"http://127.0.0.1:{server.server_port}/rows"
        loader = LoadFromAPI(urls={"test": url}, api_key_env_var="PROBE_API_KEY", loader_limit=1)
        assert list(loader()["test"]) == [{"q": "a", "data_classification_policy": ["proprietary"]}]
        assert seen_headers == ["Bearer k1"]
        with pytest.raises(Exception, match="Data field 'rows' not found in API response"):
            list(LoadFromAPI(urls={"test": url}, data_field="rows")()["test"])
    finally:
        server.shutdown()


def test_split_helpers_and_slice_splitters():
    from unitxt.split_utils import build_stream_routing, parse_random_mix_string, parse_slices_string
    from unitxt.splitters import SeparateSplit, SliceSplit

    assert parse_random_mix_string("train[90%]+dev[0.5]+test") == {"train": 0.9, "dev": 0.5, "test": 1.0}
    assert parse_slices_string("train[0:10]+train[20:]+test") == {"train": [(0, 10), (20, None)],
                                                                   "test": [(None, None)]}
    assert build_stream_routing({"a": {"x": 0.25}, "b": {"x": 0.25}}) == {"x": (["a", None, "b"], [0.25, 0.5, 0.25])}
    source = {"train": [{"i": i} for i in range(6)], "test": [{"i": 9}]}
    split = SeparateSplit(from_split="train", to_split_names=["demos", "train"], to_split_sizes=[2])(
        MultiStream.from_iterables(source))
    assert {name: [row["i"] for row in stream] for name, stream in split.items()} == {
        "test": [9], "demos": [0, 1], "train": [2, 3, 4, 5]}
    sliced = SliceSplit(slices={"x": "train[0:2]+test"})(MultiStream.from_iterables(source))
    assert [row["i"] for row in sliced["x"]] == [0, 1, 9]


def test_small_original_operators_and_bases():
    from unitxt.augmentors import AugmentWhitespace, TaskInputsAugmentor, TypeDependentAugmentor
    from unitxt.image_operators import EncodeImageToString, ImageFieldOperator, PillowMixin
    from unitxt.instructions import TextualInstruction
    from unitxt.operators import BytesToString, RecursiveCopy

    source = {"a": {"b": [1]}}
    copied = RecursiveCopy(field="a", to_field="c").process_instance(source)
    copied["c"]["b"].append(2)
    assert source["a"] == {"b": [1]}
    assert BytesToString(field="a").process_instance({"a": b"x"}) == {"a": "b'x'"}
    assert issubclass(AugmentWhitespace, TypeDependentAugmentor) and issubclass(TypeDependentAugmentor,
                                                                               TaskInputsAugmentor)
    assert TextualInstruction(text="Answer briefly.").get_instruction() == "Answer briefly."
    assert issubclass(ImageFieldOperator, PillowMixin) and EncodeImageToString().image_format == "JPEG"


def test_artifact_module_lookup_helpers():
    import unitxt.catalog
    from unitxt.artifact import (UnitxtArtifactNotFoundError, dict_diff_string, get_catalog_name_and_args,
                                 get_closest_artifact_type, is_name_legal_for_catalog, verify_legal_catalog_name)

    assert unitxt.catalog.get_catalog_name_and_args is get_catalog_name_and_args  # one definition, two paths

    assert get_closest_artifact_type("acuracy") == "accuracy"
    assert is_name_legal_for_catalog("cards.my_card") and not is_name_legal_for_catalog("my card")
    with pytest.raises(AssertionError, match="should be alphanumeric"):
        verify_legal_catalog_name("a/b")
    assert dict_diff_string({"a": 1, "b": 2}, {"b": 3}).splitlines() == [" - a (removed): 1", " - b (changed): 2 -> 3"]
    catalog, name, overrides = get_catalog_name_and_args("metrics.accuracy[n_resamples=3]")
    assert name == "metrics.accuracy" and "metrics.accuracy" in catalog and overrides == {"n_resamples": 3}
    with pytest.raises(UnitxtArtifactNotFoundError, match="metrics.surely_not_there"):
        get_catalog_name_and_args("metrics.surely_not_there")


def test_artifact_module_recovers_artifacts_from_names_and_dicts():
    from unitxt.artifact import get_raw, maybe_recover_artifact, maybe_recover_artifacts_structure, \
        register_all_artifacts
    from unitxt.metrics import Accuracy
    from unitxt.register import ProjectArtifactRegisterer

    recovered = maybe_recover_artifacts_structure({"m": "metrics.accuracy", "d": {"__type__": "accuracy"}, "n": 3})
    assert isinstance(recovered["m"], Accuracy) and isinstance(recovered["d"], Accuracy) and recovered["n"] == 3
    assert maybe_recover_artifact(7) == 7 and isinstance(maybe_recover_artifact("metrics.accuracy"), Accuracy)
    assert get_raw([recovered["m"], (recovered["d"],)]) == ["metrics.accuracy", ({"__type__": "accuracy"},)]
    assert ProjectArtifactRegisterer() is ProjectArtifactRegisterer() and callable(register_all_artifacts)


def test_collection_pickers_and_api_helpers():
    from unitxt.api import object_to_str_without_addresses, short_hex_hash
    from unitxt.collections import DictCollection, ItemPicker, ListCollection, RandomPicker

    assert ItemPicker(item="1")(ListCollection(items=["a", "b"])) == "b"
    assert ItemPicker(item="1")(DictCollection(items={"1": "by key"})) == "by key"
    picks = [RandomPicker()(ListCollection(items=["a", "b", "c"])) for _ in range(2)]
    assert picks == [RandomPicker()(ListCollection(items=["a", "b", "c"])) for _ in range(2)]  # seeded
    assert short_hex_hash("abc") == "ba7816bf" and short_hex_hash("abc", length=4) == "ba78"
    assert object_to_str_without_addresses(object()) == "<object object>"


def test_multiple_source_loader_keeps_each_source_policy_and_dictionary_checks():
    from unitxt.loaders import LoadFromDictionary, MultipleSourceLoader

    loader = MultipleSourceLoader(sources=[
        LoadFromDictionary(data={"test": [{"x": 1}]}, data_classification_policy=["public"]),
        LoadFromDictionary(data={"test": [{"x": 2}]}, data_classification_policy=["pii"])])
    assert [row["data_classification_policy"] for row in loader()["test"]] == [["public"], ["pii"]]
    with pytest.raises(ValueError, match="Passed data to LoadFromDictionary is not of type"):
        LoadFromDictionary(data=[{"x": 1}])
