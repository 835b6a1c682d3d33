"""Engines subclassed or called the original's way: each hook the original's engines define (get_default_headers,
create_client, get_client_model_name, get_return_object, to_messages, to_tools, get_instance_cache_key,
verify_infer_inputs) is the step our engines take, so overriding it changes what is sent or returned; checked on a
loopback OpenAI-protocol server through the engine's real HTTP client."""

import json

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer, Reply, split_tokens
from unitxt.errors import UnitxtError
from unitxt.inference import (CrossProviderInferenceEngine, MockInferenceEngine,
                              OpenAiInferenceEngine, RITSInferenceEngine, TextGenerationInferenceOutput)
from unitxt.settings_utils import settings


def engine(cls, server, tmp_path, **kwargs):
    kwargs.setdefault("credentials", {"api_key": "k", "api_url": server.base_url})
    return cls(model_name="m", cache_dir=str(tmp_path / "cache"), show_progress=False, retry_base_delay=0.01,
               **kwargs)


def test_get_default_headers_and_create_client_are_how_requests_are_sent(tmp_path):
    sent = []

    class Tagged(OpenAiInferenceEngine):
        def get_default_headers(self):
            return {"X-Team": "eval"}

        def create_client(self):
            client = super().create_client()

            class Recording:  # any client with post(path, body) -> dict
                def __getattr__(self, name):
                    return getattr(client, name)

                def post(self, path, body):
                    sent.append((path, body["messages"][-1]["content"]))
                    return client.post(path, body)

            return Recording()

    with OpenAIProtocolServer() as server:
        assert engine(Tagged, server, tmp_path).infer([{"source": "hi"}]) == ["echo: hi"]
        assert server.headers[-1]["x-team"] == "eval"
    assert sent == [("chat/completions", "hi")]


def test_get_client_model_name_names_the_model_in_each_request(tmp_path):
    class Renamed(OpenAiInferenceEngine):
        def get_client_model_name(self):
            return "served/" + self.model_name

    with OpenAIProtocolServer() as server:
        engine(Renamed, server, tmp_path).infer([{"source": "hi"}])
        assert server.requests[-1]["model"] == "served/m"


def test_get_return_object_reads_the_response_by_attributes_as_the_openai_client_does(tmp_path):
    class Shouting(OpenAiInferenceEngine):
        def get_return_object(self, predict_result, response, return_meta_data):
            assert response.choices[0].message.content == predict_result
            text = predict_result.upper()
            if return_meta_data:
                return TextGenerationInferenceOutput(prediction=text, input_tokens=response.usage.prompt_tokens,
                                                     model_name="loud")
            return text

    with OpenAIProtocolServer() as server:
        [output] = engine(Shouting, server, tmp_path, use_cache=False).infer([{"source": "two words"}],
                                                                               return_meta_data=True)
        assert (output.prediction, output.model_name) == ("ECHO: TWO WORDS", "loud")
        sent = json.dumps(server.requests[-1]["messages"])
        assert output.input_tokens == len(split_tokens(sent))  # the server's usage, read as response.usage...
        assert output.input_text == "two words"  # filled in by the engine when the hook leaves it out


def test_to_messages_override_changes_what_is_sent(tmp_path):
    class WithSystem(OpenAiInferenceEngine):
        def to_messages(self, instance):
            return [{"role": "system", "content": "Be brief."}] + super().to_messages(instance)

    with OpenAIProtocolServer() as server:
        engine(WithSystem, server, tmp_path).infer([{"source": "hello"}])
        assert server.requests[-1]["messages"] == [{"role": "system", "content": "Be brief."},
                                                   {"role": "user", "content": "hello"}]


def test_tools_from_task_data_are_offered_and_a_tool_call_is_the_prediction(tmp_path):
    tools = [{"type": "function", "function": {"name": "add", "parameters": {"type": "object"}}}]
    call = {"id": "c1", "type": "function", "function": {"name": "add", "arguments": '{"a": 1, "b": 2}'}}

    def answer(request):
        if "tools" not in request:
            return "no tools"
        return Reply(body={"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": None, "tool_calls": [call]}}], "model": "m",
            "usage": {"prompt_tokens": 3, "completion_tokens": 4}})

    row = {"source": "add 1 and 2", "task_data": json.dumps({"__tools__": tools})}
    with OpenAIProtocolServer(answer=answer) as server:
        probe = engine(OpenAiInferenceEngine, server, tmp_path)
        assert probe.to_tools(row) == tools and probe.to_tools({"source": "x"}) is None
        assert probe.infer([row, {"source": "plain"}]) == ['{"name": "add", "arguments": {"a": 1, "b": 2}}',
                                                           "no tools"]
        # the two rows are sent concurrently: find each request by its prompt, not by its arrival order
        by_prompt = {request["messages"][-1]["content"]: request for request in server.requests}
        assert by_prompt["add 1 and 2"]["tools"] == tools and "tools" not in by_prompt["plain"]


def test_to_messages_sends_tool_call_arguments_as_json_text():
    history = [{"role": "assistant", "content": "", "tool_calls": [
        {"id": "1", "type": "function", "function": {"name": "f", "arguments": {"x": 1}}}]}]
    messages = MockInferenceEngine().to_messages({"source": history})
    assert messages[0]["tool_calls"][0]["function"]["arguments"] == '{"x": 1}'
    assert history[0]["tool_calls"][0]["function"]["arguments"] == {"x": 1}  # the row is left as it was
    assert MockInferenceEngine().to_messages({"source": "q"}) == [{"role": "user", "content": "q"}]


def test_get_instance_cache_key_decides_which_rows_share_an_answer(tmp_path):
    class IgnoresCase(OpenAiInferenceEngine):
        def get_instance_cache_key(self, instance):
            return {"source": instance["source"].lower()}

    with OpenAIProtocolServer() as server:
        first = engine(IgnoresCase, server, tmp_path).infer([{"source": "Hello"}])
        second = engine(IgnoresCase, server, tmp_path).infer([{"source": "HELLO"}])
        assert first == second == ["echo: Hello"] and server.count == 1
        engine(OpenAiInferenceEngine, server, tmp_path).infer([{"source": "Hello"}, {"source": "HELLO"}])
        assert server.count == 3  # the default key is what is sent
    key = MockInferenceEngine().get_instance_cache_key({"source": "q", "task_data": "{}"})
    assert key == {"kind": "text", "source": "q"}


def test_verify_infer_inputs_runs_before_anything_is_sent(tmp_path):
    class OnlyShort(OpenAiInferenceEngine):
        def verify_infer_inputs(self, dataset, return_meta_data):
            super().verify_infer_inputs(dataset, return_meta_data)
            if any(len(row["source"]) > 5 for row in dataset):
                raise UnitxtError("too long", field="source")

    with OpenAIProtocolServer() as server:
        with pytest.raises(UnitxtError, match="too long"):
            engine(OnlyShort, server, tmp_path).infer([{"source": "short"}, {"source": "much too long"}])
        assert server.count == 0
    with pytest.raises(UnitxtError, match="no 'source' field"):
        MockInferenceEngine().verify_infer_inputs([{"text": "x"}], False)


def test_verify_not_chat_api_and_model_details():
    mock = MockInferenceEngine()
    mock.verify_not_chat_api([{"source": "text"}])
    with pytest.raises(UnitxtError, match="text prompts, not chat messages"):
        mock.verify_not_chat_api([{"source": [{"role": "user", "content": "x"}]}])
    assert mock.get_model_details() == {}


def test_mock_get_return_object_is_the_answer_of_each_row():
    class Tagged(MockInferenceEngine):
        def get_return_object(self, predict_result, generated_text, instance, return_meta_data):
            return f"{predict_result} for {instance['source']}"

    assert Tagged(default_inference_value="A").infer([{"source": "q1"}, {"source": "q2"}]) == ["A for q1",
                                                                                            "A for q2"]
    [output] = MockInferenceEngine(default_inference_value="yes").infer([{"source": "is it so"}],
                                                                         return_meta_data=True)
    assert (output.prediction, output.generated_text, output.input_tokens, output.output_tokens) == \
        ("yes", "yes", 3, 1)


def test_rits_endpoint_model_name_and_key_header(tmp_path):
    assert RITSInferenceEngine.get_base_url_from_model_name("meta-llama/Llama-3.1-8B-Instruct") == \
        "https://inference-3scale-apicast-production.apps.rits.fmaas.res.ibm.com/llama-3-1-8b-instruct"
    assert RITSInferenceEngine.get_base_url_from_model_name("mistralai/mixtral-8x7B-instruct-v0.1").endswith(
        "/mixtral-8x7b-instruct-v01")
    assert RITSInferenceEngine.get_base_url_from_model_name("byom-team/ibm/granite").endswith("/byom-team")
    byom = RITSInferenceEngine(model_name="byom-team/ibm/granite")
    assert byom.get_client_model_name() == "ibm/granite"
    assert byom.api_root().endswith("/byom-team/v1")
    with OpenAIProtocolServer() as server:
        rits = engine(RITSInferenceEngine, server, tmp_path, credentials={"api_key": "secret",
                                                                         "api_url": server.base_url})
        assert rits.get_default_headers() == {"RITS_API_KEY": "secret"}
        rits.infer([{"source": "hi"}])
        assert server.headers[-1]["rits_api_key"] == "secret" and "authorization" not in server.headers[-1]


def test_cross_provider_names_its_provider_and_delegates_the_answer_object():
    engine_ = CrossProviderInferenceEngine(model="llama-3-1-8b-instruct", provider="rits")
    assert engine_.get_provider_name() == "rits"
    with settings.context(default_provider="watsonx"):
        assert CrossProviderInferenceEngine(model="llama-3-8b-instruct").get_provider_name() == "watsonx"
    assert engine_.get_return_object("p", {"choices": [{}]}, False) == "p"
    assert isinstance(engine_.engine(), RITSInferenceEngine)

