"""Cross-provider mapping, mock/generic engines, unitxt.infer, catalog engines and optional-package errors."""

import json
import subprocess
import sys

import pytest

import unitxt
from tests.support.openai_protocol_server import OpenAIProtocolServer
from unitxt.artifact import ArtifactDefinitionError
from unitxt.catalog import fetch_artifact
from unitxt.errors import MissingRequirementError
from unitxt.inference import (
    PROVIDER_MODEL_MAP,
    CrossProviderInferenceEngine,
    GenericInferenceEngine,
    HFAutoModelInferenceEngine,
    HFPipelineBasedInferenceEngine,
    InferenceError,
    LiteLLMInferenceEngine,
    MockInferenceEngine,
    OpenAiInferenceEngine,
    VLLMInferenceEngine,
    WMLInferenceEngine,
)

RELATION_RECIPE = ("task=tasks.classification.multi_class.relation,"
                   "template=templates.classification.multi_class.relation.default")
RELATION_INSTANCE = {"label": "?", "text_a": "It works perfectly", "text_b": "It works!",
                     "classes": ["entailment", "not entailment"], "type_of_relation": "entailment",
                     "text_a_type": "premise", "text_b_type": "hypothesis"}


@pytest.fixture
def server():
    with OpenAIProtocolServer() as running:
        yield running


def test_cross_provider_maps_model_to_provider_name(server, tmp_path):
    credentials = {"api_key": "k", "api_url": server.base_url}
    engine = CrossProviderInferenceEngine(model="gpt-4o-mini", provider="open-ai", credentials=credentials,
                                          max_tokens=12, cache_dir=str(tmp_path), show_progress=False)
    assert engine([{"source": "hello"}]) == ["echo: hello"]
    assert server.requests[0] == {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hello"}],
                                  "max_tokens": 12}
    together = CrossProviderInferenceEngine(model="llama-3-2-1b-instruct", provider="together-ai",
                                            credentials=credentials, cache_dir=str(tmp_path), show_progress=False)
    together([{"source": "x"}])
    assert server.requests[-1]["model"] == "meta-llama/Llama-3.2-1B-Instruct-Turbo"
    ollama = CrossProviderInferenceEngine(model="granite-3-8b-instruct", provider="ollama",
                                          credentials={"api_url": server.base_url}, cache_dir=str(tmp_path))
    ollama([{"source": "y", "data_classification_policy": ["proprietary"]}])  # local: proprietary allowed
    assert server.requests[-1]["model"] == "granite3-dense:8b"


def test_cross_provider_default_provider_from_settings_and_env(server, tmp_path, monkeypatch):
    engine = CrossProviderInferenceEngine(model="gpt-4o", credentials={"api_key": "k", "api_url": server.base_url},
                                          cache_dir=str(tmp_path), show_progress=False)
    with unitxt.settings.context(default_provider="open-ai"):
        assert engine([{"source": "q"}]) == ["echo: q"]
    monkeypatch.setenv("UNITXT_DEFAULT_PROVIDER", "azure")
    assert engine.current_provider() == "azure"
    assert type(engine.engine()).__name__ == "AzureOpenAIInferenceEngine"
    monkeypatch.delenv("UNITXT_DEFAULT_PROVIDER")  # the documented default: watsonx
    watsonx = CrossProviderInferenceEngine(model="llama-3-2-1b-instruct")
    assert type(watsonx.engine()).__name__ == "LiteLLMInferenceEngine"
    assert watsonx.engine().model == "watsonx/meta-llama/llama-3-2-1b-instruct"


def test_cross_provider_passes_an_unconfigured_model_on_with_a_warning_naming_the_configured_ones():
    with pytest.warns(UserWarning) as caught:
        engine = CrossProviderInferenceEngine(model="gpt-4o", provider="ollama").engine()
    assert engine.model_name == "gpt-4o"  # sent as given, as the original does
    message = str(caught[0].message)
    assert "not configured for provider 'ollama'" in message and "It is served by: azure, open-ai" in message
    assert "llama-3-2-1b-instruct" in message  # the configured list
    with pytest.warns(UserWarning, match="Did you mean llama-3-2-1b-instruct"):
        CrossProviderInferenceEngine(model="llama-3-2-1b-instrct", provider="rits").engine()


def test_cross_provider_refuses_an_unknown_provider_with_the_supported_ones():
    with pytest.raises(InferenceError, match="Unknown provider 'nowhere'; supported providers: aws, azure"):
        CrossProviderInferenceEngine(model="gpt-4o", provider="nowhere").engine()
    for provider in ("watsonx", "together-ai", "open-ai", "azure", "ollama", "rits", "vertex-ai", "aws", "replicate",
                     "hf-local"):
        assert PROVIDER_MODEL_MAP[provider]


def test_cross_provider_non_public_refused_before_sending(server, tmp_path):
    engine = CrossProviderInferenceEngine(model="gpt-4o", provider="open-ai",
                                          credentials={"api_key": "k", "api_url": server.base_url},
                                          cache_dir=str(tmp_path))
    with pytest.raises(unitxt.errors.DataClassificationPolicyError, match="data_classification_policy"):
        engine([{"source": "x", "data_classification_policy": ["pii"]}])
    assert server.count == 0


def test_mock_engine_fixed_echo_and_log_probs():
    rows = [{"source": "first prompt"}, {"source": [{"role": "user", "content": "chat"}]}]
    assert MockInferenceEngine()(rows) == ["[[10]]", "[[10]]"]
    assert MockInferenceEngine(echo=True)(rows) == ["first prompt", "user: chat"]
    meta = MockInferenceEngine(default_inference_value="yes").infer(rows[:1], return_meta_data=True)[0]
    assert (meta.prediction, meta.input_tokens, meta.output_tokens, meta.inference_type) == ("yes", 2, 1, "mock")
    assert MockInferenceEngine(default_inference_value="yes").infer_log_probs(rows[:1]) == [
        [{"text": "yes", "logprob": 0.0, "top_tokens": [{"text": "yes", "logprob": 0.0}]}]]


def test_generic_engine_uses_env_then_default(monkeypatch):
    rows = [{"source": "p"}]
    monkeypatch.setenv("UNITXT_INFERENCE_ENGINE", json.dumps(
        {"__type__": "mock_inference_engine", "default_inference_value": "from env"}))
    assert GenericInferenceEngine()(rows) == ["from env"]
    monkeypatch.delenv("UNITXT_INFERENCE_ENGINE")
    default = MockInferenceEngine(default_inference_value="dflt").to_json()
    assert GenericInferenceEngine(default=default)(rows) == ["dflt"]
    with pytest.raises(InferenceError, match="UNITXT_INFERENCE_ENGINE"):
        GenericInferenceEngine()(rows)


def test_infer_end_to_end_with_postprocessing_and_return_data():
    engine = MockInferenceEngine(default_inference_value=" Not Entailment, surely\n")
    assert unitxt.infer(RELATION_INSTANCE, RELATION_RECIPE, engine) == "not entailment"
    rows = unitxt.infer([RELATION_INSTANCE, RELATION_INSTANCE], RELATION_RECIPE, engine, return_data=True,
                        return_meta_data=True)
    assert [row["processed_prediction"] for row in rows] == ["not entailment", "not entailment"]
    assert rows[0]["prediction"] == " Not Entailment, surely\n"
    assert rows[0]["source"].endswith("premise: It works perfectly\nhypothesis: It works!\nThe entailment class is ")
    assert rows[0]["infer_meta_data"]["inference_type"] == "mock"


def test_infer_paraphrase_example_without_reference_and_catalog_engine(temp_catalog):
    recipe = ("task=tasks.rewriting.paraphrase,template=templates.rewriting.paraphrase.default,"
              "format=formats.models.flan.exq_exa")
    unitxt.add_to_catalog(MockInferenceEngine(echo=True), "engines.test.echo", catalog_path=str(temp_catalog))
    result = unitxt.infer([{"input_text": "So simple to paraphrase!"}], recipe=recipe, engine="engines.test.echo")
    assert result == ["Paraphrase the following text: say the same thing in different words."]


def test_produce_renders_for_a_model_and_post_process_reads_the_answers():
    # as the original: production rows carry no target/references, and task_data drops the reference fields even
    # when the instances hold them (evaluation needs rows from load_dataset)
    rows = unitxt.produce([dict(RELATION_INSTANCE, label=label) for label in ("entailment", "not entailment")],
                          RELATION_RECIPE)
    assert all("target" not in row and "references" not in row for row in rows)
    assert all("label" not in json.loads(row["task_data"]) for row in rows)
    engine = MockInferenceEngine(default_inference_value="Entailment.")
    predictions = engine(rows)
    assert unitxt.post_process(predictions, rows) == ["entailment", "entailment"]


def test_evaluate_loop_over_a_loaded_dataset(server, tmp_path):
    from unitxt import load_dataset

    dataset = load_dataset("card=cards.demo.sentiment,loader_limit=20", split="test")
    labels = {json.loads(row)["text"]: json.loads(row)["label"] for row in dataset["task_data"]}

    def answer(request):  # a perfect model: it reads the review text back from the prompt
        prompt = request["messages"][-1]["content"]
        return next(label for text, label in labels.items() if text in prompt)

    with OpenAIProtocolServer(answer=answer) as perfect:
        engine = OpenAiInferenceEngine(model_name="m", credentials={"api_key": "k", "api_url": perfect.base_url},
                                       cache_dir=str(tmp_path), show_progress=False, num_parallel_requests=4)
        results = unitxt.evaluate(predictions=engine(dataset), data=dataset)
    assert results.global_scores["score"] == 1.0 and perfect.count == len(dataset)


def test_catalog_engines_load_with_documented_fields():
    engine, _ = fetch_artifact("engines.model.flan.t5_small.hf")
    assert isinstance(engine, HFPipelineBasedInferenceEngine)
    assert (engine.model_name, engine.max_new_tokens) == ("google/flan-t5-small", 32)
    cross, _ = fetch_artifact("engines.cross_provider.llama_3_3_70b_instruct")
    assert (cross.model, cross.provider, cross.temperature) == ("llama-3-3-70b-instruct", None, 0.0)
    classification, _ = fetch_artifact("engines.classification.gpt_4o_openai")
    assert (classification.provider, classification.logprobs, classification.max_tokens) == ("open-ai", True, 5)
    assert fetch_artifact("engines.ollama.llama3_2_1b")[0].model_name == "llama3.2:1b"
    assert fetch_artifact("engines.openai.gpt_4o")[0].model_name == "gpt-4o"
    assert isinstance(fetch_artifact("engines.generic")[0], GenericInferenceEngine)


def test_type_names_of_original_catalogs_are_registered():
    from unitxt.artifact import from_serializable

    examples = {
        "cross_provider_inference_engine": {"model": "llama-3-3-70b-instruct", "provider": "watsonx",
                                            "max_tokens": 1024, "seed": 42, "temperature": 0},
        "generic_inference_engine": {"default": "engines.ibm_gen_ai.llama_3_70b_instruct"},
        "wml_inference_engine_generation": {"model_name": "ibm/granite-13b", "max_new_tokens": 10},
        "wml_inference_engine": {"model_name": "ibm/granite-13b", "max_new_tokens": 10},
        "rits_inference_engine": {"model_name": "meta-llama/llama-3-1-70b-instruct", "max_tokens": 20},
        "hf_pipeline_based_inference_engine": {"model_name": "google/flan-t5-small", "max_new_tokens": 32},
        "azure_open_ai_inference_engine": {"model_name": "gpt-4o", "logprobs": True, "top_logprobs": 5},
        "ollama_inference_engine": {"model_name": "llama2"},
        "open_ai_inference_engine": {"model_name": "gpt-4o", "max_tokens": 30},
    }
    for type_name, fields in examples.items():
        engine = from_serializable({"__type__": type_name, **fields})
        assert type(engine)._type_name == type_name
        for key, value in fields.items():
            assert getattr(engine, key) == value


def test_generation_parameter_validation():
    assert OpenAiInferenceEngine(model_name="m", max_new_tokens=9).generation_params() == {"max_tokens": 9}
    assert HFPipelineBasedInferenceEngine(model_name="m", max_generated_tokens=256).token_limit == 256
    with pytest.raises(ArtifactDefinitionError, match="name the same limit but differ"):
        OpenAiInferenceEngine(model_name="m", max_tokens=5, max_new_tokens=6)
    with pytest.raises(ArtifactDefinitionError, match="top_p must be in"):
        OpenAiInferenceEngine(model_name="m", top_p=1.5)
    with pytest.raises(ArtifactDefinitionError, match="Unknown field"):
        OpenAiInferenceEngine(model_name="m", max_tokenz=5)


def test_optional_packages_give_install_hints():
    rows = [{"source": "x"}]
    with pytest.raises(MissingRequirementError, match="pip install transformers torch"):
        HFPipelineBasedInferenceEngine(model_name="google/flan-t5-small", use_cache=False)(rows)
    with pytest.raises(MissingRequirementError, match="pip install transformers torch"):
        HFAutoModelInferenceEngine(model_name="m", use_cache=False)(rows)
    with pytest.raises(MissingRequirementError, match="ibm-watsonx-ai"):
        WMLInferenceEngine(model_name="ibm/granite-13b", use_cache=False)(rows)
    with pytest.raises(MissingRequirementError, match="pip install vllm"):
        VLLMInferenceEngine(model="m", use_cache=False)(rows)
    with pytest.raises(MissingRequirementError, match="pip install litellm"):
        LiteLLMInferenceEngine(model="watsonx/x", use_cache=False)(rows)
    with pytest.raises(InferenceError, match="does not expose log-probs"):
        HFPipelineBasedInferenceEngine(model_name="m").infer_log_probs(rows)


def test_bad_rows_are_clear_errors():
    engine = MockInferenceEngine()
    with pytest.raises(InferenceError, match="no 'source' field"):
        engine([{"text": "x"}])
    with pytest.raises(InferenceError, match="single row"):
        engine({"source": "x"})
    with pytest.raises(InferenceError, match="source' must be a string or a list of chat messages"):
        engine([{"source": 5}])


def test_importing_engines_does_not_import_torch_or_transformers():
    code = ("import sys, unitxt.inference, unitxt.api; "
            "print(sorted(m for m in ('torch', 'transformers', 'openai', 'huggingface_hub') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_mock_logprobs_default_value_factory_is_a_fresh_single_token_answer():
    from unitxt.inference import mock_logprobs_default_value_factory

    first = mock_logprobs_default_value_factory()
    assert first == [{"logprob": -1, "text": "[[10]]", "top_tokens": [{"logprob": -1, "text": "[[10]]"}]}]
    first[0]["text"] = "changed"
    assert mock_logprobs_default_value_factory()[0]["text"] == "[[10]]"
