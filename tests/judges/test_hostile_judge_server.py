"""Issue 29, the judge half: judges over a hostile loopback server (the real engine and client). Nothing classified
proprietary reaches a remote judge, a verdict a judge can not read is NaN (one counting warning, raw answer kept,
not replayed from the cache), the HTML report escapes group-by names, streamed errors name the stream's row."""

import json
import logging
import math

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer
from unitxt import create_dataset, evaluate
from unitxt.catalog import fetch_artifact
from unitxt.errors import UnitxtError
from unitxt.inference import OpenAiInferenceEngine
from unitxt.llm_as_judge import LLMAsJudge, LLMJudgeDirect
from unitxt.llm_as_judge_constants import CriteriaWithOptions
from unitxt.judges.template_judges import yes_probability
from unitxt.task import Task


def engine_for(server, tmp_path, **kwargs):
    return OpenAiInferenceEngine(model_name="judge", credentials={"api_key": "k", "api_url": server.base_url},
                                 cache_dir=str(tmp_path / "cache"), show_progress=False, max_retries=0, **kwargs)


def rows_for(metric, questions, policy, group_by=None):
    """Recipe rows whose row-level classification is `policy` and whose task_data records none."""
    task = Task(input_fields={"question": "str", "lang": "str"}, reference_fields={"answer": "str"},
                prediction_type="str", metrics=[metric])
    data = [{"question": question, "lang": "en", "answer": "x"} for question in questions]
    dataset = create_dataset(task=task, test_set=data, template="templates.key_val", split="test",
                             data_classification_policy=["public"], **({"group_by": group_by} if group_by else {}))
    rows = []
    for row in dataset:
        task_data = json.loads(row["task_data"])
        task_data["metadata"].pop("data_classification_policy")
        rows.append(dict(row, task_data=json.dumps(task_data), data_classification_policy=policy))
    return rows


@pytest.fixture
def judge_server(monkeypatch, tmp_path):
    servers = []

    def start(answer):
        server = OpenAIProtocolServer(answer=answer).start()
        servers.append(server)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        monkeypatch.setenv("OPENAI_API_URL", server.base_url)
        monkeypatch.setenv("UNITXT_INFERENCE_CACHE_DIR", str(tmp_path / "cache"))
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.mark.parametrize("metric", [
    "metrics.llm_as_judge.direct.openai.gpt_4o[criteria=metrics.llm_as_judge.direct.criteria.conciseness]",
    "metrics.llm_as_judge.rating.gpt_4o_openai_template_mt_bench_single_turn",
])
def test_proprietary_rows_never_reach_a_remote_judge(judge_server, metric, monkeypatch):
    """The loopback server plays a hosted API here (its host counts as a third party's): proprietary rows never
    reach it, public ones do."""
    from unitxt.inference import openai_engines

    monkeypatch.setattr(openai_engines, "local_host", lambda url: False)
    server = judge_server(lambda request: "Rating: [[5]]")
    with pytest.raises(UnitxtError, match=r"policy '\['proprietary'\]'.*only configured to support the data with classification '\['public'\]'"):
        evaluate(["a secret answer"], rows_for(metric, ["the secret question"], ["proprietary"]))
    assert server.count == 0
    results = evaluate(["a public answer"], rows_for(metric, ["a public question"], ["public"]))
    assert server.count >= 1 and len(results.instance_scores) == 1


def test_group_by_field_names_are_escaped_in_the_html_report():
    hostile = '"><img src=x onerror=alert(2)>'
    rows = [{"source": "s", "references": ["a"], "metrics": ["metrics.accuracy"], "postprocessors": [],
             "task_data": json.dumps({"metadata": {hostile: "v"}}), "groups": [json.dumps([hostile])]}]
    page = evaluate(["a"], rows).to_html()
    assert "<img" not in page and "&lt;img src=x onerror=alert(2)&gt;" in page


VERDICTS = {  # the judge's answer -> the score it must give (NaN: unreadable)
    "Rating: [[7]]": 0.7, "[[ 7 ]]": 0.7, "[[10]]": 1.0, "[[1]]": 0.1,
    'The answer claims "[[10]]" but it is weak. Rating: [[2]]': 0.2,
    "[[abc]]": math.nan, "[[nan]]": math.nan, "[[-3]]": math.nan, "[[A>>B]]": math.nan, "[[11]]": math.nan,
    "[[999999]]": math.nan, "[[0]]": 0.0, "[[inf]]": math.nan, "[[1e309]]": math.nan, "no rating": math.nan,
}


def test_rating_verdicts_off_the_scale_or_unreadable_are_nan_and_asked_again(tmp_path, caplog):
    answers = list(VERDICTS)
    with OpenAIProtocolServer(answer=lambda request: answers[int(request["messages"][-1]["content"].split(
            "[Assistant Response Begins]\n")[1].split("\n")[0])]) as server:
        judge = LLMAsJudge(inference_model=engine_for(server, tmp_path), task="rating.single_turn",
                           template="templates.response_assessment.rating.mt_bench_single_turn", main_score="j")
        predictions = [str(i) for i in range(len(answers))]
        with caplog.at_level(logging.WARNING, logger="unitxt"):
            scores = judge.evaluate(predictions, [[]] * len(answers), [{"question": "q"}] * len(answers))
        got = [row["j"] for row in scores.instance_scores]
        for answer, expected, value in zip(answers, VERDICTS.values(), got):
            assert (math.isnan(value) if math.isnan(expected) else value == pytest.approx(expected)), answer
        assert [row["j_judge_raw_output"] for row in scores.instance_scores] == answers
        unreadable = sum(math.isnan(v) for v in VERDICTS.values())
        assert f"{unreadable} of {len(answers)} judge answers could not be read" in caplog.text
        sent = server.count
        judge.evaluate(predictions, [[]] * len(answers), [{"question": "q"}] * len(answers))
        assert server.count == sent + unreadable  # unreadable answers are asked again, readable ones cached


def test_arena_hard_verdicts_outside_the_five_are_nan(tmp_path):
    verdicts = ["[[A>>B]]", "[[A>B]]", "[[A=B]]", "[[B>A]]", "[[B>>A]]", "[[garbage]]", "[[7]]", "none",
                "[[B>>A]] quoted, mine: [[A>B]]"]
    expected = [3.0, 1.0, 0.0, -1.0, -3.0, math.nan, math.nan, math.nan, 1.0]

    def answer(request):
        text = request["messages"][-1]["content"]
        return verdicts[int(text.split("Assistant A's Answer|>\n")[1].split("\n")[0])]

    with OpenAIProtocolServer(answer=answer) as server:
        judge = fetch_artifact("metrics.llm_as_judge.pairwise_comparative_rating.generic_template_arena_hard")[0]
        judge = judge.copy(inference_model=engine_for(server, tmp_path))
        scores = judge.evaluate([str(i) for i in range(len(verdicts))], [["base"]] * len(verdicts),
                                [{"question": "q"}] * len(verdicts))
    values = [row["generic_template_arena_hard"] for row in scores.instance_scores]
    for value, want, verdict in zip(values, expected, verdicts):
        assert (math.isnan(value) if math.isnan(want) else value == want), verdict


def test_a_negated_option_names_no_option_and_the_raw_verdict_is_kept(tmp_path, caplog):
    def answer(request):
        text = request["messages"][-1]["content"]
        if "Reply with exactly one" not in text:
            return "assessment"
        return "Not Excellent" if "first" in request["messages"][0]["content"] else "Excellent"  # the judged turn

    criteria = CriteriaWithOptions.from_obj({
        "name": "quality", "description": "Is it good?", "prediction_field": "response",
        "options": [{"name": "Excellent", "description": ""}, {"name": "Bad", "description": ""}],
        "option_map": {"Excellent": 1.0, "Bad": 0.0}})
    with OpenAIProtocolServer(answer=answer) as server:
        judge = LLMJudgeDirect(inference_engine=engine_for(server, tmp_path), criteria=criteria,
                               check_positional_bias=False)
        with caplog.at_level(logging.WARNING, logger="unitxt"):
            scores = judge.evaluate(["first", "second"], [[], []], [{}, {}])
    first, second = scores.instance_scores
    assert math.isnan(first["quality"]) and first["quality_raw_verdict"] == "Not Excellent"
    assert second["quality"] == 1.0 and "quality_raw_verdict" not in second
    assert "1 of 2 judge answers could not be parsed" in caplog.text


def test_positive_or_textual_log_probs_never_become_probabilities(tmp_path):
    assert math.isnan(yes_probability([{"top_tokens": [{"text": "yes", "logprob": 5.0}]}]))
    assert math.isnan(yes_probability([{"top_tokens": [{"text": "yes", "logprob": "-0.1"}]}]))
    assert math.isnan(yes_probability([{"top_tokens": [{"text": "yes", "logprob": 1000}]}]))
    assert yes_probability([{"top_tokens": [{"text": "Yes", "logprob": math.log(0.6)},
                                            {"text": "No", "logprob": math.log(0.2)}]}]) == pytest.approx(0.75)
    with OpenAIProtocolServer(answer=lambda request: "Yes", token_logprob=lambda token, request: 5.0) as server:
        judge = fetch_artifact("metrics.rag.faithfulness.gpt_4o_openai_judge_logprobs")[0].copy(
            inference_model=engine_for(server, tmp_path, logprobs=True, top_logprobs=3))
        with pytest.raises(UnitxtError, match="Row 0: OpenAiInferenceEngine .*unreadable log-probs"):
            judge.evaluate(["Paris"], [[]], [{"question": "q", "contexts": ["c"]}])


def test_metric_and_group_by_typos_are_found_before_any_judge_request(judge_server):
    server = judge_server(lambda request: "Rating: [[5]]")
    judge = "metrics.llm_as_judge.rating.gpt_4o_openai_template_mt_bench_single_turn"
    rows = rows_for(judge, ["q1", "q2"], ["public"])
    rows[1]["metrics"] = ["metrics.acuracy"]
    with pytest.raises(UnitxtError, match="acuracy"):
        evaluate(["a", "b"], rows)
    rows = rows_for(judge, ["q1", "q2"], ["public"])
    for row in rows:
        row["groups"] = [json.dumps(["lnag"])]
    with pytest.raises(UnitxtError, match="group_by key 'lnag'"):
        evaluate(["a", "b"], rows)
    assert server.count == 0


def test_streamed_errors_name_the_row_of_the_stream():
    rows = [{"source": f"s{i}", "references": ["a"], "postprocessors": [], "metrics": ["metrics.accuracy"],
             "task_data": "{}", "groups": []} for i in range(20)]
    rows[16]["groups"] = ["{not json"]
    with pytest.raises(UnitxtError, match="Row 16: each entry of 'groups'"):
        evaluate(iter(["a"] * 20), iter(rows), chunk_size=7)
    with pytest.raises(UnitxtError, match="Row 16: each entry of 'groups'"):
        evaluate(["a"] * 20, rows)
    rows = [{"source": f"s{i}", "references": ["a"], "postprocessors": [], "task_data": "{}",
             "metrics": ["metrics.accuracy"] if i % 2 else ["metrics.f1_micro"]} for i in range(20)]
    rows[16]["references"] = []  # the 9th row of the f1 partition, the 3rd of its chunk
    with pytest.raises(UnitxtError, match="Instance 16 has no reference"):
        evaluate(iter(["a"] * 20), iter(rows), chunk_size=7)
    with pytest.raises(UnitxtError, match="Instance 16 has no reference"):
        evaluate(["a"] * 20, rows)


def test_streamed_evaluation_of_an_endless_generator_ends(caplog):
    def endless_predictions():
        while True:
            yield "a"

    def endless_rows():
        while True:
            yield {"source": "s", "references": ["a"], "postprocessors": [], "metrics": ["metrics.accuracy"],
                   "task_data": "{}"}

    rows = [{"source": "s", "references": ["a"], "postprocessors": [], "metrics": ["metrics.accuracy"],
             "task_data": "{}"}] * 5
    with pytest.raises(UnitxtError, match="Got at least 1000005 predictions for 5 instances"):
        evaluate(endless_predictions(), iter(rows), chunk_size=5)
    with caplog.at_level(logging.WARNING, logger="unitxt"):  # fewer predictions than rows: the leading rows are scored (issue 26)
        results = evaluate(iter(["a"] * 5), endless_rows(), chunk_size=5)
    assert len(results) == 5 and results.global_scores["accuracy"] == 1.0
    assert "got 5 predictions for at least 1000010 instances" in caplog.text
