"""processors.translate: the prediction translated by a model (a loopback OpenAI-protocol server) before scoring."""

import json
import re

import pytest

import unitxt
from tests.support.openai_protocol_server import OpenAIProtocolServer
from unitxt import evaluate, get_from_catalog
from unitxt.errors import UnitxtError
from unitxt.model_processors import TranslateWithEngine

DICTIONARY = {"bonjour": "hello", "merci beaucoup": "thank you", "chat": "cat"}


def translator(request):
    text = re.search(r"Text: (.*)\n\nTranslation:", request["messages"][-1]["content"], re.S).group(1)
    return f" {DICTIONARY.get(text, text)} "


@pytest.fixture
def server():
    with OpenAIProtocolServer(answer=translator) as running:
        yield running


def engine_json(server, tmp_path):
    return json.dumps({"__type__": "open_ai_inference_engine", "model_name": "translator",
                       "credentials": {"api_key": "k", "api_url": server.base_url}, "cache_dir": str(tmp_path),
                       "show_progress": False})


def test_catalog_translate_uses_the_generic_engine_and_scores_the_translation(server, tmp_path):
    rows = [{"source": "s", "references": [english], "metrics": ["metrics.accuracy"],
             "postprocessors": ["processors.translate"], "task_data": "{}", "groups": [], "subset": [],
             "media": {"images": [], "audios": []}, "data_classification_policy": ["public"]}
            for english in ("hello", "thank you", "cat", "dog")]
    with unitxt.settings.context(inference_engine=engine_json(server, tmp_path)):
        results = evaluate(["bonjour", "merci beaucoup", "chat", "chat"], rows)
    assert [r["processed_prediction"] for r in results] == ["hello", "thank you", "cat", "cat"]
    assert [r["processed_references"] for r in results] == [["hello"], ["thank you"], ["cat"], ["dog"]]
    assert results.global_scores["accuracy"] == 0.75
    assert server.count == 3  # one request per distinct text


def test_target_language_is_in_the_prompt_and_empty_text_is_not_sent(server, tmp_path):
    from unitxt.inference import load_engine

    operator = TranslateWithEngine(engine=load_engine(engine_json(server, tmp_path)), target_language="German")
    assert operator.process_value("  ") == "  " and server.count == 0
    assert operator.process_value("bonjour") == "hello"
    assert "into German" in server.requests[-1]["messages"][-1]["content"]
    with pytest.raises(UnitxtError, match="translates text"):
        operator.process_value(["bonjour"])


def test_translate_without_a_configured_engine_says_what_to_set():
    with unitxt.settings.context(inference_engine=None), pytest.raises(UnitxtError, match="UNITXT_INFERENCE_ENGINE"):
        get_from_catalog("processors.translate").apply_value("bonjour")
