"""Remote engines driven through their real client code against a loopback OpenAI-protocol server."""

import json
import threading
import time

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer, Reply, default_answer
from unitxt.errors import DataClassificationPolicyError
from unitxt.inference import (
    AzureOpenAIInferenceEngine,
    InferenceError,
    LiteLLMInferenceEngine,
    OllamaInferenceEngine,
    OpenAiInferenceEngine,
    OpenAiOptionSelectingInferenceEngine,
    RequestError,
    RITSInferenceEngine,
    TextGenerationInferenceOutput,
    TogetherAiInferenceEngine,
    VLLMRemoteInferenceEngine,
)


@pytest.fixture
def server():
    with OpenAIProtocolServer() as running:
        yield running


def engine_for(server, tmp_path, cls=OpenAiInferenceEngine, **kwargs):
    kwargs.setdefault("model_name", "test-model")
    kwargs.setdefault("credentials", {"api_key": "secret-key", "api_url": server.base_url})
    kwargs.setdefault("cache_dir", str(tmp_path / "cache"))
    kwargs.setdefault("retry_base_delay", 0.01)
    kwargs.setdefault("show_progress", False)
    return cls(**kwargs)


def test_text_and_chat_sources_with_generation_parameters(server, tmp_path):
    engine = engine_for(server, tmp_path, max_new_tokens=7, temperature=0.5, top_p=0.9, seed=3, stop="###",
                        num_parallel_requests=1)  # requests in row order
    rows = [{"source": "What is 2+2?"},
            {"source": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]}]
    assert engine(rows) == ["echo: What is 2+2?", "echo: Hi"]
    first, second = server.requests
    assert first == {"model": "test-model", "messages": [{"role": "user", "content": "What is 2+2?"}],
                     "max_tokens": 7, "temperature": 0.5, "top_p": 0.9, "seed": 3, "stop": ["###"]}
    assert second["messages"] == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]
    assert server.paths == ["/v1/chat/completions"] * 2
    assert server.headers[0]["authorization"] == "Bearer secret-key"


def test_meta_data(server, tmp_path):
    outputs = engine_for(server, tmp_path).infer([{"source": "one two three"}], return_meta_data=True)
    assert outputs == [TextGenerationInferenceOutput(
        prediction="echo: one two three", input_tokens=len(json.dumps([{"role": "user", "content": "one two three"}])
                                                          .split()),
        output_tokens=4, stop_reason="stop", seed=None, input_text="one two three", model_name="test-model",
        inference_type="openai")]


def test_images_travel_as_content_parts(server, tmp_path):
    url = "data:image/png;base64,iVBORw0KGgo="
    rows = [{"source": 'Describe <img src="media/images/0"> please', "media": {"images": [url], "audios": []}},
            {"source": [{"role": "user", "content": [{"type": "text", "text": "What is it?"},
                                                      {"type": "image_url", "image_url": {"url": url}}]}]}]
    engine_for(server, tmp_path, num_parallel_requests=1)(rows)
    assert server.requests[0]["messages"] == [{"role": "user", "content": [
        {"type": "text", "text": "Describe "}, {"type": "image_url", "image_url": {"url": url}},
        {"type": "text", "text": " please"}]}]
    assert server.requests[1]["messages"] == rows[1]["source"]


def test_hf_dataset_rows(server, tmp_path):
    import datasets

    dataset = datasets.Dataset.from_list([{"source": "a", "target": "x"}, {"source": "b", "target": "y"}])
    assert engine_for(server, tmp_path)(dataset) == ["echo: a", "echo: b"]


def test_completions_api(server, tmp_path):
    engine = engine_for(server, tmp_path, api="completions", max_tokens=4)
    assert engine([{"source": "Once upon"}]) == ["echo: Once upon"]
    assert server.paths == ["/v1/completions"]
    assert server.requests[0] == {"model": "test-model", "prompt": "Once upon", "max_tokens": 4}
    with pytest.raises(InferenceError, match="api='completions' takes text sources"):
        engine([{"source": [{"role": "user", "content": "hi"}]}])


def test_log_probs(server, tmp_path):
    engine = engine_for(server, tmp_path, top_logprobs=3)
    [tokens] = engine.infer_log_probs([{"source": "ab c"}])
    assert server.requests[0]["logprobs"] is True and server.requests[0]["top_logprobs"] == 3
    assert [token["text"] for token in tokens] == ["echo:", " ab", " c"]
    assert [token["logprob"] for token in tokens] == pytest.approx([-0.5, -0.2, -0.1])
    assert tokens[1]["top_tokens"] == [{"text": " ab", "logprob": pytest.approx(-0.2)},
                                       {"text": "alt1", "logprob": pytest.approx(-1.2)},
                                       {"text": "alt2", "logprob": pytest.approx(-2.2)}]


def test_retries_on_429_and_500_then_succeeds(server, tmp_path):
    server.fail_next(2, status=429)
    server.fail_next(1, status=500)
    assert engine_for(server, tmp_path, max_retries=3)([{"source": "x"}]) == ["echo: x"]
    assert server.count == 4


def test_gives_up_after_max_retries_and_does_not_retry_client_errors(server, tmp_path):
    server.fail_next(5, status=503)
    with pytest.raises(RequestError, match=r"HTTP 503 .*gave up after 3 attempts") as raised:
        engine_for(server, tmp_path, max_retries=2)([{"source": "x"}])
    assert raised.value.status == 503 and server.count == 3
    server.reset()
    server._failures.clear()
    server.fail_next(1, status=400)
    with pytest.raises(RequestError, match="HTTP 400"):
        engine_for(server, tmp_path, max_retries=2)([{"source": "y"}])
    assert server.count == 1


def test_backoff_grows_exponentially(server, tmp_path):
    server.fail_next(3, status=429)
    started = time.perf_counter()
    engine_for(server, tmp_path, max_retries=3, retry_base_delay=0.1)([{"source": "x"}])
    elapsed = time.perf_counter() - started
    assert 0.35 <= elapsed < 5.0  # jittered 0.1 + 0.2 + 0.4, each at least halved (slack for a loaded machine)


def test_timeout_is_retried_then_reported(tmp_path):
    calls = []

    def slow_first(request):
        calls.append(1)
        return Reply(text="late", delay=1.0) if len(calls) == 1 else "fast"

    with OpenAIProtocolServer(answer=slow_first) as server:
        assert engine_for(server, tmp_path, timeout=0.3, max_retries=2)([{"source": "x"}]) == ["fast"]
    with OpenAIProtocolServer(answer=lambda request: Reply(text="never", delay=1.0)) as server:
        with pytest.raises(RequestError, match="timed out after 0.2s"):
            engine_for(server, tmp_path, timeout=0.2, max_retries=1)([{"source": "y"}])
        assert server.count == 2


def test_requests_run_in_parallel(tmp_path):
    """Each answer waits until 8 requests are in the server at once: only 8 truly parallel requests get through
    (the barrier would time out otherwise), whatever the machine's load."""
    barrier = threading.Barrier(8)

    def answer(request):
        barrier.wait(timeout=30)
        return default_answer(request)

    with OpenAIProtocolServer(answer=answer) as server:
        engine = engine_for(server, tmp_path, num_parallel_requests=8)
        predictions = engine([{"source": f"q{i}"} for i in range(16)])
    assert predictions == [f"echo: q{i}" for i in range(16)]  # input order kept
    assert server.max_in_flight == 8 and server.count == 16 and not barrier.broken


def test_cache_second_run_sends_nothing(server, tmp_path):
    rows = [{"source": f"q{i}"} for i in range(10)]
    first = engine_for(server, tmp_path, num_parallel_requests=4)(rows)
    assert server.count == 10
    again = engine_for(server, tmp_path, num_parallel_requests=4)  # a new engine object, same settings
    assert again.infer(rows, return_meta_data=True)[3].prediction == "echo: q3"
    assert again(rows) == first and server.count == 10
    engine_for(server, tmp_path, temperature=0.7)(rows[:2])  # a setting that changes answers: a new key
    assert server.count == 12
    engine_for(server, tmp_path, use_cache=False)(rows[:2])
    engine_for(server, tmp_path, use_cache=False)(rows[:2])
    assert server.count == 16


def test_interrupted_run_resumes_where_it_stopped(tmp_path):
    broken = threading.Event()
    broken.set()

    def answer(request):
        text = request["messages"][-1]["content"]
        return Reply(status=400) if broken.is_set() and text == "q6" else f"A:{text}"

    with OpenAIProtocolServer(answer=answer) as server:
        rows = [{"source": f"q{i}"} for i in range(10)]
        with pytest.raises(RequestError):
            engine_for(server, tmp_path, num_parallel_requests=1)(rows)
        assert server.count == 7
        broken.clear()
        assert engine_for(server, tmp_path, num_parallel_requests=1)(rows) == [f"A:q{i}" for i in range(10)]
        assert server.count == 7 + 4  # q6..q9 only


def test_non_public_data_is_refused_before_sending(server, tmp_path):
    """A hosted API gets public rows only (refused before anything is sent); a server of the user's own (loopback or
    a private network) is no third party, so it takes proprietary rows too, as Ollama's."""
    rows = [{"source": "fine", "data_classification_policy": ["public"]},
            {"source": "secret", "data_classification_policy": ["proprietary"]}]
    hosted = {"api_key": "k", "api_url": "https://api.hosted-models.example/v1"}
    with pytest.raises(DataClassificationPolicyError) as raised:
        engine_for(server, tmp_path, credentials=hosted)(rows)
    message = str(raised.value)
    assert "data_classification_policy" in message and "Row 1" in message and "proprietary" in message
    assert "Nothing was sent" in message and server.count == 0
    with pytest.raises(DataClassificationPolicyError):  # the hosted default URL: public only
        OpenAiInferenceEngine(model_name="m", credentials={"api_key": "k"}, use_cache=False)(rows)
    with pytest.raises(DataClassificationPolicyError):  # an explicit policy is kept on loopback too
        engine_for(server, tmp_path, data_classification_policy=["public"])(rows)
    assert server.count == 0
    assert engine_for(server, tmp_path)(rows) == ["echo: fine", "echo: secret"]
    assert engine_for(server, tmp_path, credentials={"api_key": "k"}, base_url=server.base_url)(
        [rows[1]]) == ["echo: secret"]
    for private in ("http://10.1.2.3:8000/v1", "http://192.168.0.5/v1", "http://localhost:8000/v1"):
        assert OpenAiInferenceEngine(model_name="m", base_url=private).effective_policy() == ["public", "proprietary"]
    assert OpenAiInferenceEngine(model_name="m", base_url="https://my-models.example.com/v1").effective_policy() == [
        "public"]
    assert engine_for(server, tmp_path, cls=OllamaInferenceEngine)([rows[1]]) == ["echo: secret"]


def test_every_openai_protocol_engine_takes_proprietary_rows_from_its_own_server_only(server, tmp_path):
    """The loopback/private-network rule holds for every OpenAI-protocol engine (LiteLLM, vLLM remote, Together AI,
    Azure included): a base_url of the user's own server takes proprietary rows through the real client; a hosted
    endpoint - and LiteLLM without base_url, which calls providers through the litellm library - gets public rows
    only, refused before any request (or any import of litellm)."""
    secret = [{"source": "secret", "data_classification_policy": ["proprietary"]}]
    for cls in (LiteLLMInferenceEngine, VLLMRemoteInferenceEngine, TogetherAiInferenceEngine):
        engine = cls(model_name="served-model", base_url=server.base_url, credentials={"api_key": "k"},
                     cache_dir=str(tmp_path / cls.__name__), show_progress=False)
        assert engine(secret) == ["echo: secret"], cls.__name__
        assert engine.effective_policy() == ["public", "proprietary"]
        for private in ("http://10.0.0.7:4000/v1", "http://172.16.3.4/v1", "http://192.168.1.9:8000/v1",
                        "http://[::1]:4000/v1", "http://localhost:4000"):
            assert cls(model_name="m", base_url=private).effective_policy() == ["public", "proprietary"], private
        assert cls(model_name="m", base_url="https://llm-gateway.example.com/v1").effective_policy() == ["public"]
    assert server.count == 3
    library = LiteLLMInferenceEngine(model="watsonx/meta-llama/llama-3-8b-instruct", use_cache=False)
    assert not library.proxy_mode() and library.effective_policy() == ["public"]
    with pytest.raises(DataClassificationPolicyError, match="(?s)Row 0.*proprietary.*Nothing was sent"):
        library(secret)
    assert TogetherAiInferenceEngine(model_name="m").effective_policy() == ["public"]
    azure = AzureOpenAIInferenceEngine(model_name="d", credentials={"api_key": "k", "api_url": "https://x.openai.azure.com"})
    assert azure.effective_policy() == ["public"]
    assert AzureOpenAIInferenceEngine(model_name="d", credentials={"api_key": "k", "api_url": "http://10.1.1.1"}
                                      ).effective_policy() == ["public", "proprietary"]
    assert LiteLLMInferenceEngine(model="m", base_url=server.base_url, data_classification_policy=["public"]
                                  ).effective_policy() == ["public"]  # an explicit policy always wins


def test_organisation_hosted_engines_take_proprietary_rows_as_the_original(server, tmp_path):
    """IBM RITS and watsonx.ai serve an organisation's own models: like the original, they accept proprietary rows
    by default; a hosted OpenAI or Together AI engine does not."""
    from unitxt.inference import RITSInferenceEngine, TogetherAiInferenceEngine, WMLInferenceEngineChat

    secret = [{"source": "secret", "data_classification_policy": ["proprietary"]}]
    assert engine_for(server, tmp_path, cls=RITSInferenceEngine)(secret) == ["echo: secret"]
    assert WMLInferenceEngineChat(model_name="m").data_classification_policy == ["public", "proprietary"]
    assert TogetherAiInferenceEngine(model_name="m").data_classification_policy == ["public"]


def test_env_credentials(server, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "env-key")
    monkeypatch.setenv("OPENAI_API_URL", server.base_url)
    engine = OpenAiInferenceEngine(model_name="gpt-4o", cache_dir=str(tmp_path), show_progress=False)
    assert engine([{"source": "hi"}]) == ["echo: hi"]
    assert server.headers[0]["authorization"] == "Bearer env-key" and server.requests[0]["model"] == "gpt-4o"
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(InferenceError, match="needs an API key.*OPENAI_API_KEY"):
        OpenAiInferenceEngine(model_name="gpt-4o", use_cache=False)([{"source": "hi"}])


def test_provider_engines_reach_their_endpoints(server, tmp_path):
    azure = engine_for(server, tmp_path, cls=AzureOpenAIInferenceEngine, model_name="my-deployment",
                       credentials={"api_key": "az", "api_url": server.base_url.rsplit("/v1", 1)[0]})
    assert azure([{"source": "a"}]) == ["echo: a"]
    assert server.paths[-1] == "/openai/deployments/my-deployment/chat/completions?api-version=2024-08-01-preview"
    assert server.headers[-1]["api-key"] == "az" and "authorization" not in server.headers[-1]
    rits = engine_for(server, tmp_path, cls=RITSInferenceEngine, model_name="ibm-granite/granite-3.0-8b-instruct",
                      credentials={"api_key": "rk", "api_url": server.base_url})
    assert rits([{"source": "b"}]) == ["echo: b"] and server.headers[-1]["rits_api_key"] == "rk"
    assert RITSInferenceEngine(model_name="ibm-granite/granite-3.0-8b-instruct").api_root() == (
        "https://inference-3scale-apicast-production.apps.rits.fmaas.res.ibm.com/granite-3-0-8b-instruct/v1")
    for cls in (VLLMRemoteInferenceEngine, OllamaInferenceEngine, LiteLLMInferenceEngine):
        engine = cls(model_name="served-model", base_url=server.base_url, cache_dir=str(tmp_path),
                     show_progress=False)
        assert engine([{"source": cls.__name__}]) == [f"echo: {cls.__name__}"]
        assert server.requests[-1]["model"] == "served-model" and "authorization" not in server.headers[-1]
    together = engine_for(server, tmp_path, cls=TogetherAiInferenceEngine)
    assert together.api_root() == server.base_url
    assert TogetherAiInferenceEngine(model_name="m").api_root() == "https://api.together.xyz/v1"
    assert OllamaInferenceEngine(model_name="m").api_root() == "http://localhost:11434/v1"


def test_unreachable_server_is_a_clear_error(tmp_path):
    engine = OpenAiInferenceEngine(model_name="m", base_url="http://127.0.0.1:9/v1", credentials={"api_key": "k"},
                                   use_cache=False, max_retries=1, retry_base_delay=0.01, show_progress=False)
    with pytest.raises(RequestError, match=r"Can not reach http://127.0.0.1:9"):
        engine([{"source": "x"}])


def test_option_selection_by_prompt_log_probs(tmp_path):
    def token_logprob(token, request):  # the model likes "blue"
        return -0.1 if token.strip() == "blue" else -3.0

    with OpenAIProtocolServer(token_logprob=token_logprob) as server:
        engine = engine_for(server, tmp_path, cls=OpenAiOptionSelectingInferenceEngine)
        rows = [{"source": "The sky is", "task_data": json.dumps({"options": [" red", " blue", " green"]})},
                {"source": "Grass is", "task_data": {"options": [" very green", " blue"]}}]
        assert engine(rows) == [" blue", " blue"]
        same_prompt = [{"source": "The sky is", "task_data": {"options": [" blue moon", " grey"]}}]
        assert engine(same_prompt) == [" grey"]  # -3.0 beats -3.1; cached per prompt and options
    assert sorted(request["prompt"] for request in server.requests) == [
        "Grass is blue", "Grass is very green", "The sky is blue", "The sky is blue moon", "The sky is green",
        "The sky is grey", "The sky is red"]
    assert all(request["echo"] is True and request["max_tokens"] == 0 for request in server.requests)
    assert set(server.paths) == {"/v1/completions"}
    with pytest.raises(InferenceError, match=r"task_data\['options'\]"):
        engine([{"source": "no options", "task_data": "{}"}])


def test_cache_survives_the_process(server, tmp_path):
    """A rerun in a new Python process answers from the disk cache: zero requests."""
    import os
    import subprocess
    import sys

    code = ("import sys, json; from unitxt.inference import OpenAiInferenceEngine; "
            "engine = OpenAiInferenceEngine(model_name='m', credentials={'api_key': 'k', 'api_url': sys.argv[1]}, "
            "cache_dir=sys.argv[2], show_progress=False); "
            "print(json.dumps(engine([{'source': f'q{i}'} for i in range(6)])))")
    for expected_count in (6, 6):
        result = subprocess.run([sys.executable, "-c", code, server.base_url, str(tmp_path)], capture_output=True,
                                text=True, env=dict(os.environ), check=True)
        assert json.loads(result.stdout) == [f"echo: q{i}" for i in range(6)]
        assert server.count == expected_count


def test_policy_override_by_catalog_name(server, tmp_path, temp_catalog, monkeypatch):
    from unitxt import add_to_catalog
    from unitxt.inference import load_engine

    add_to_catalog(engine_for(server, tmp_path, data_classification_policy=["public"]), "engines.test.remote",
                   catalog_path=str(temp_catalog))
    secret = [{"source": "s", "data_classification_policy": ["proprietary"]}]
    with pytest.raises(DataClassificationPolicyError, match="engines.test.remote"):
        load_engine("engines.test.remote")(secret)
    monkeypatch.setenv("UNITXT_DATA_CLASSIFICATION_POLICY", json.dumps({"engines.test.remote": ["proprietary"]}))
    assert load_engine("engines.test.remote")(secret) == ["echo: s"]
    assert server.count == 1
