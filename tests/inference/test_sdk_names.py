"""The original's SDK-bound inference names are real here: helpers work, parameter sets carry the original's fields
and defaults, mixins behave as the original's (abstract ones refuse to be built), and the lmms-eval and metric
engines run (lmms-eval through a stand-in package with its interface) or give the install hint only when used.
Expected values were checked against unitxt 1.26.10."""

import asyncio
import sys
import time
import types
import warnings

import pytest

from unitxt.errors import MissingRequirementError, UnitxtError
from unitxt.inference import (
    AsyncTokenBucket,
    CredentialsOpenAi,
    HFGenerationParamsMixin,
    LazyLoadMixin,
    ListWithMetadata,
    LMMSEvalInferenceEngine,
    LMMSEvalLoglikelihoodInferenceEngine,
    LogProbInferenceEngine,
    MetricInferenceEngine,
    MockModeMixin,
    OpenAiInferenceEngineParams,
    OpenAiInferenceEngineParamsMixin,
    StandardAPIParamsMixin,
    TogetherAiInferenceEngineParamsMixin,
    TorchDeviceMixin,
    VLLMParamsMixin,
    WMLChatParamsMixin,
    WMLGenerationParamsMixin,
    WMLInferenceEngineParams,
    WMLInferenceEngineParamsMixin,
    batched,
    get_images_without_text,
    get_model_and_label_id,
    get_text_without_images,
    run_with_imap,
)
from unitxt.settings_utils import settings


def test_small_helpers_match_the_original():
    assert list(batched([1, 2, 3, 4, 5], 2)) == [[1, 2], [3, 4], [5]]
    assert list(batched(iter(range(4)), 4)) == [[0, 1, 2, 3]] and list(batched([], 3)) == []
    assert get_model_and_label_id("meta-llama/Llama-3.1-8B", "wml") == "llama_3,1_8b_wml"
    tagged = ListWithMetadata([1, 2], metadata={"a": 1})
    assert tagged == [1, 2] and tagged.metadata == {"a": 1} and ListWithMetadata([3]).metadata == {}
    assert repr(tagged) == "ListWithMetadata(data=[1, 2], metadata={'a': 1})"
    assert CredentialsOpenAi.__annotations__ == {"api_key": str, "api_url": str} and not CredentialsOpenAi.__total__

    class Adder:
        @run_with_imap
        def add(self, a, b):
            return a + b

    assert Adder().add((1, 2)) == 3


def test_async_token_bucket_limits_the_rate():
    """capacity 2 at 20 tokens/s: two acquisitions pass at once, four more need 4 intervals of 0.05 s."""
    bucket = AsyncTokenBucket(rate=20, capacity=2)

    async def take(count):
        start = time.perf_counter()
        for _ in range(count):
            await bucket.acquire()
        return time.perf_counter() - start

    assert asyncio.run(take(2)) < 0.04
    elapsed = asyncio.run(take(4))
    assert 0.18 <= elapsed < 1.0 and bucket.tokens == 0


def test_parameter_sets_have_the_original_fields_and_defaults():
    openai = OpenAiInferenceEngineParamsMixin()
    assert (openai.top_logprobs, openai.logprobs, openai.service_tier) == (20, True, None)
    assert StandardAPIParamsMixin(model="m", extra_headers={"x": "y"}).extra_headers == {"x": "y"}
    assert StandardAPIParamsMixin(model="m").top_logprobs is None
    assert set(TogetherAiInferenceEngineParamsMixin.get_fields()) >= {"echo", "min_p", "repetition_penalty"}
    assert set(WMLGenerationParamsMixin.get_fields()) >= {"decoding_method", "stop_sequences", "prompt_variables"}
    assert set(WMLChatParamsMixin.get_fields()) >= {"response_format", "time_limit", "logit_bias"}
    vllm = VLLMParamsMixin(model="m")
    assert (vllm.max_tokens, vllm.top_k, vllm.repetition_penalty, vllm.n) == (16, -1, 1.0, 1)
    assert HFGenerationParamsMixin().do_sample is False
    with pytest.raises(UnitxtError, match="service_tier"):
        OpenAiInferenceEngineParamsMixin(service_tier="premium")


def test_deprecated_parameter_sets_warn_and_still_work():
    for build, successor in ((OpenAiInferenceEngineParams, "OpenAiInferenceEngineParamsMixin"),
                             (WMLInferenceEngineParams, "WMLGenerationParamsMixin"),
                             (WMLInferenceEngineParamsMixin, "specify inference parameters directly")):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            params = build()
        assert any(issubclass(w.category, DeprecationWarning) and successor in str(w.message) for w in caught)
        assert params.to_dict()["__type__"] in ("open_ai_inference_engine_params", "wml_inference_engine_params",
                                                "wml_inference_engine_params_mixin")
    with pytest.warns(DeprecationWarning):
        assert OpenAiInferenceEngineParams(top_logprobs=5).top_logprobs == 5


def test_mixins_behave_as_the_originals(monkeypatch):
    assert TorchDeviceMixin(device="cuda:1").get_device_id() == "cuda:1"
    monkeypatch.setitem(sys.modules, "torch", None)  # no torch: detecting a device names what to install
    with pytest.raises(MissingRequirementError, match="pip install torch"):
        TorchDeviceMixin().get_device_id()
    assert MockModeMixin().mock_mode is False and MockModeMixin(mock_mode=True).mock_mode is True
    with pytest.raises(TypeError, match="Can't instantiate abstract class LazyLoadMixin with abstract method _is_loaded"):
        LazyLoadMixin()
    with pytest.raises(TypeError, match="abstract method _infer_log_probs"):
        LogProbInferenceEngine()

    class Loaded(LazyLoadMixin):
        def _is_loaded(self):
            return True

    assert Loaded(lazy_load=True).lazy_load is True and Loaded()._is_loaded()

    class Scorer(LogProbInferenceEngine):
        def _infer_log_probs(self, dataset, return_meta_data=False):
            return [[{"text": row["source"], "logprob": -0.5, "top_tokens": []}] for row in dataset]

    assert Scorer().infer_log_probs([{"source": "a"}]) == [[{"text": "a", "logprob": -0.5, "top_tokens": []}]]
    with settings.context(mock_inference_mode=True):
        assert Scorer().infer_log_probs([{"source": "a"}]) == [
            [{"logprob": -1, "text": "[[10]]", "top_tokens": [{"logprob": -1, "text": "[[10]]"}]}]]


def test_text_and_images_of_a_row_for_lmms_eval():
    from PIL import Image

    from unitxt.image_utils import encode_image

    assert get_text_without_images({"source": 'Look <unitxt-img src="media/images/0"> here '
                                              '<unitxt-img src="media/images/1"/>.'}) == "Look <image> here <image>."
    chat = [{"role": "user", "content": [{"type": "text", "text": "a"},
                                         {"type": "image_url", "image_url": {"url": encode_image(Image.new("L", (2, 3)))}}]},
            {"role": "assistant", "content": "b"}]
    assert get_text_without_images({"source": chat}, image_token="<I>") == "a<I>b"
    with pytest.raises(ValueError, match="source must be text or chat messages"):
        get_text_without_images({"source": 3})
    images = get_images_without_text({"source": chat})
    assert [(image.mode, image.size) for image in images] == [("RGB", (2, 3))]
    row = {"source": 'x <img src="media/images/0">', "media": {"images": [Image.new("L", (4, 1))]}}
    assert get_text_without_images(row) == "x <image>"
    assert [(image.mode, image.size) for image in get_images_without_text(row)] == [("RGB", (4, 1))]


def test_lmms_eval_engines_need_the_package_only_when_used():
    engine = LMMSEvalInferenceEngine(model_type="llava", model_args={"pretrained": "m"})
    assert engine.get_engine_id() == "llava_lmms-eval"
    assert (engine.max_new_tokens, engine.generate_until, engine.batch_size, engine.lazy_load) == (32, ["\n\n"], 1,
                                                                                                  False)
    with pytest.raises(MissingRequirementError, match="pip install lmms-eval"):
        engine.infer([{"source": "hi"}])


class FakeLmmsModel:
    """lmms-eval's model interface: a task registry, generate_until and loglikelihood over Instances."""

    created = []

    def __init__(self, args, extra):
        self.args, self.extra, self.task_dict = args, extra, {}
        FakeLmmsModel.created.append(self)

    @classmethod
    def create_from_arg_string(cls, args, extra):
        return cls(args, extra)

    def generate_until(self, requests):
        self.seen = [(r.arguments[0], r.arguments[1], list(self.task_dict)) for r in requests]
        return [f"answer to {r.arguments[0]}" for r in requests]

    def loglikelihood(self, requests):  # a lower score is better for the engine; "blue" wins for every row
        return [(0.1 if r.arguments[1] == "blue" else 0.9, False) for r in requests]


@pytest.fixture
def fake_lmms_eval(monkeypatch):
    package = types.ModuleType("lmms_eval")
    package.__path__ = []
    models = types.ModuleType("lmms_eval.models")
    models.get_model = lambda name: FakeLmmsModel
    api = types.ModuleType("lmms_eval.api")
    instance = types.ModuleType("lmms_eval.api.instance")

    class Instance:
        def __init__(self, request_type, arguments, idx, metadata):
            self.request_type, self.arguments, self.idx, self.metadata = request_type, arguments, idx, metadata

    instance.Instance = Instance
    for name, module in (("lmms_eval", package), ("lmms_eval.models", models), ("lmms_eval.api", api),
                         ("lmms_eval.api.instance", instance)):
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setattr("unitxt.inference.base.InferenceEngine.check_missing_requirements", lambda self: None)
    FakeLmmsModel.created = []
    return FakeLmmsModel


def test_lmms_eval_engines_drive_the_model_interface(fake_lmms_eval, tmp_path):
    rows = [{"source": 'Q1 <img src="media/images/0">', "task_data": '{"options": ["red", "blue"]}'},
            {"source": "Q2", "task_data": {"options": ["blue", "green"]}}]
    engine = LMMSEvalInferenceEngine(model_type="llava", model_args={"pretrained": "m", "dtype": "f16"},
                                     device="cpu", use_cache=False)
    assert engine.infer(rows) == ["answer to Q1 <image>", "answer to Q2"]
    model = fake_lmms_eval.created[0]
    assert model.args == "pretrained=m,dtype=f16" and model.extra == {"batch_size": 1, "device": "cpu",
                                                                      "device_map": "cpu"}
    assert model.seen[0][1] == {"max_new_tokens": 32, "temperature": 0.0, "do_sample": False, "until": ["\n\n"]}
    assert len(model.seen[0][2]) == 1 and model.task_dict == {}  # a temporary task while running, removed after
    chooser = LMMSEvalLoglikelihoodInferenceEngine(model_type="llava", model_args="pretrained=m", device="cpu",
                                                   use_cache=False)
    assert chooser.infer(rows) == ["blue", "blue"]
    with pytest.raises(UnitxtError, match="Row 0: .*needs task_data\\['options'\\]"):
        chooser.infer([{"source": "no options", "task_data": {}}])


def test_metric_inference_engine_predicts_the_metric_scores():
    from unitxt.metrics.base import BulkInstanceMetric

    class Overlap(BulkInstanceMetric):
        main_score = "overlap"
        reduction_map = {"mean": ["overlap"]}

        def compute(self, references, predictions, task_data):
            return [{"overlap": float(p in refs), "asked": data["question"]}
                    for refs, p, data in zip(references, predictions, task_data)]

    rows = [{"source": "s1", "references": ["Paris"], "task_data": '{"question": "q1", "answer": "Paris"}'},
            {"source": "s2", "references": ["Rome"], "task_data": {"question": "q2", "answer": "Milan"}}]
    engine = MetricInferenceEngine(metric=Overlap(), prediction_field="answer")
    assert engine.get_engine_id() == "metric_inference_engine"
    assert engine.infer(rows) == [{"overlap": 1.0, "asked": "q1"}, {"overlap": 0.0, "asked": "q2"}]
    with pytest.raises(UnitxtError, match="task_data has no 'answer'"):
        MetricInferenceEngine(metric=Overlap(), prediction_field="answer").infer(
            [{"source": "s", "references": ["x"], "task_data": {"question": "q"}}])

    from unitxt.metrics.base import InstanceMetric

    class Longer(InstanceMetric):
        main_score = "longer"
        reduction_map = {"mean": ["longer"]}

        def compute(self, references, prediction, task_data):
            return {"longer": float(len(task_data["question"]) > 2), "prediction": prediction}

    assert MetricInferenceEngine(metric=Longer()).infer(rows) == [{"longer": 0.0, "prediction": None},
                                                                   {"longer": 0.0, "prediction": None}]
    assert MetricInferenceEngine(metric=Longer(), prediction_field="answer").infer(rows)[1] == {
        "longer": 0.0, "prediction": "Milan"}
