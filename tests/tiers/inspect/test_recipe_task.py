"""recipe_task through Inspect's own eval loop: over the mock model, a chat format, the OpenAI-compatible provider on a
loopback server; bad input fails before any model call."""

import os

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer
from tests.tiers.inspect.helpers import (CHAT, PLAIN, answers_by_prompt, assert_metrics_are_unitxt_global_scores,
                                          kind_of, last_text, mock_model, rows_of)


def run(task, model, **options):
    from inspect_ai import eval as inspect_eval

    (log,) = inspect_eval(task, model=model, display="none", **options)
    return log


def test_samples_are_the_recipe_rows():
    from unitxt.inspect import recipe_task

    rows = rows_of(PLAIN, 6)
    task = recipe_task(PLAIN, limit=6)
    samples = list(task.dataset)
    assert [sample.id for sample in samples] == list(range(6))
    for sample, row in zip(samples, rows):
        assert sample.input == row["source"]
        assert sample.target == row["references"]
        assert sample.metadata["label"] == row["target"]
        assert sample.metadata["metadata"]["template"] == "templates.classification.multi_class.default"


def test_mock_model_scores_are_unitxt_scores_with_post_processing():
    from unitxt.inspect import recipe_task

    rows = rows_of(PLAIN, 30)
    log = run(recipe_task(PLAIN, limit=30), mock_model(rows), max_connections=4)
    metrics = assert_metrics_are_unitxt_global_scores(log, rows)
    assert list(metrics)[:3] == ["f1_micro", "f1_micro_ci_low", "f1_micro_ci_high"]
    assert {"accuracy", "accuracy_ci_low", "f1_macro", "num_of_instances"} <= set(metrics)
    kinds = {"right": 0, "fixable": 0, "wrong": 0}
    for sample in log.samples:
        row = rows[int(sample.id)]
        kind = kind_of(last_text(row["source"]))
        kinds[kind] += 1
        score = sample.scores["unitxt"]
        assert score.metadata["row_index"] == int(sample.id)
        assert score.metadata["prediction"] == sample.output.completion
        assert score.metadata["unitxt_row"]["task_data"] == row["task_data"]
        assert score.metadata["instance_scores"]["score_name"] == "f1_micro"
        if kind == "wrong":
            assert score.value == 0.0 and score.answer != row["target"]
        else:  # right as given, or right once post-processed ("\nPositive. I am ..." -> "positive")
            assert score.value == 1.0 and score.answer == row["target"]
            assert score.metadata["instance_scores"]["accuracy"] == 1.0
    assert min(kinds.values()) > 0, kinds
    assert metrics["accuracy"] == pytest.approx((kinds["right"] + kinds["fixable"]) / 30, abs=1e-12)


def test_chat_format_gives_chat_messages_system_first():
    from inspect_ai.model import ChatMessageSystem
    from unitxt.inspect import recipe_task

    rows = rows_of(CHAT, 12)
    task = recipe_task(CHAT, limit=12)
    first = list(task.dataset)[0]
    assert isinstance(first.input[0], ChatMessageSystem)
    assert [message.role for message in first.input] == [message["role"] for message in rows[0]["source"]]
    assert [message.text for message in first.input] == [message["content"] for message in rows[0]["source"]]
    log = run(task, mock_model(rows))
    assert_metrics_are_unitxt_global_scores(log, rows)
    sent = log.samples[0].messages
    assert sent[0].role == "system" and sent[-1].role == "assistant"


def test_openai_compatible_provider_on_a_loopback_server(monkeypatch):
    from unitxt.inspect import recipe_task

    rows = rows_of(CHAT, 10)
    answers = answers_by_prompt(rows)
    with OpenAIProtocolServer(answer=lambda request: answers[request["messages"][-1]["content"]]) as server:
        monkeypatch.setenv("LOOPBACK_BASE_URL", server.base_url)
        monkeypatch.setenv("LOOPBACK_API_KEY", "test-key")
        log = run(recipe_task(CHAT, limit=10), "openai-api/loopback/tiny-model")
        assert server.count == 10
        assert {request["messages"][0]["role"] for request in server.requests} == {"system"}
    assert_metrics_are_unitxt_global_scores(log, rows)
    usage = log.stats.model_usage["openai-api/loopback/tiny-model"]
    assert usage.output_tokens == sum(len(answers[last_text(row["source"])].split()) for row in rows)


def test_the_recipe_comes_back_whole_from_commas_and_bad_arguments_are_named():
    from unitxt.errors import UnitxtError
    from unitxt.inspect.task import recipe_text

    assert recipe_text(PLAIN.split(",")) == PLAIN
    with pytest.raises(UnitxtError, match="recipe string"):
        recipe_text("")
    from unitxt.inspect import recipe_task

    with pytest.raises(UnitxtError, match="limit"):
        recipe_task(PLAIN, limit=-1)


@pytest.mark.parametrize("recipe, named", [
    ("card=cards.demo.no_such_card,template=templates.classification.multi_class.default", "cards.demo.no_such_card"),
    ("card=cards.demo.sentiment,template=templates.no_such_template", "templates.no_such_template"),
    ("card=cards.demo.sentiment,template=templates.classification.multi_class.default,metrics=[metrics.no_such_one]",
     "metrics.no_such_one"),
])
def test_unknown_card_template_or_metric_fails_naming_it_before_any_model_call(recipe, named):
    from unitxt.errors import UnitxtError
    from unitxt.inspect import recipe_task

    with OpenAIProtocolServer() as server:
        os.environ["LOOPBACK_BASE_URL"], os.environ["LOOPBACK_API_KEY"] = server.base_url, "k"
        try:
            with pytest.raises(UnitxtError, match=named.replace(".", r"\.")):
                run(recipe_task(recipe, limit=3), "openai-api/loopback/tiny-model")
        finally:
            del os.environ["LOOPBACK_BASE_URL"], os.environ["LOOPBACK_API_KEY"]
        assert server.count == 0


def test_a_judge_is_a_metric_like_any_other(temp_catalog, tmp_path, monkeypatch):
    """A card (LoadFromDictionary, in a temp local catalog) whose metric is a catalog rating judge; the judge model is
    a loopback OpenAI-protocol server rating an answer by its number of words."""
    import json
    import re

    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from unitxt.card import TaskCard
    from unitxt.catalog import add_to_catalog
    from unitxt.loaders import LoadFromDictionary
    from unitxt.settings_utils import settings
    from unitxt.task import Task
    from unitxt.inspect import recipe_task

    main = "generic_template_mt_bench_single_turn"
    data = {"test": [{"question": f"What is {i} plus {i}?", "answer": str(2 * i)} for i in range(8)]}
    card = TaskCard(loader=LoadFromDictionary(data=data),
                    task=Task(input_fields={"question": "str"}, reference_fields={"answer": "str"},
                              prediction_type="str", metrics=[f"metrics.llm_as_judge.rating.{main}"]))
    add_to_catalog(card, "cards.judged_sums", catalog_path=str(temp_catalog))
    recipe = "card=cards.judged_sums,template=templates.key_val"
    rows = rows_of(recipe, 8)
    answers = {row["source"]: " ".join(["word"] * (1 + index % 5)) for index, row in enumerate(rows)}

    def respond(messages, tools, tool_choice, config):
        output = ModelOutput.from_content(model="mockllm/model", content=answers[messages[-1].text])
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    def rate(request):
        judged = re.search(r"\[Assistant Response Begins\]\n(.*?)\n\[Assistant Response Ends\]",
                           request["messages"][-1]["content"], re.DOTALL).group(1)
        return f"Explanation: fine. Rating: [[{len(judged.split())}]]"

    engine = json.dumps({"__type__": "open_ai_inference_engine", "model_name": "judge", "show_progress": False})
    with OpenAIProtocolServer(answer=rate) as judge, settings.context(inference_engine=engine):
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        monkeypatch.setenv("OPENAI_API_URL", judge.base_url)
        monkeypatch.setenv("UNITXT_INFERENCE_CACHE_DIR", str(tmp_path / "judge-cache"))
        log = run(recipe_task(recipe), get_model("mockllm/model", custom_outputs=respond))
        assert judge.count >= 8
        metrics = assert_metrics_are_unitxt_global_scores(log, rows)
    assert list(metrics)[0] == main
    for sample in log.samples:
        words = len(answers[rows[int(sample.id)]["source"]].split())
        assert sample.scores["unitxt"].value == pytest.approx(words / 10)
    assert metrics[main] == pytest.approx(sum(1 + index % 5 for index in range(8)) / 80)
