"""Template judges, task-based RAG judges (incl. log-prob scores), ensembles, catalog judges inside evaluate() with
group_by, and meta-evaluation of a judge against human labels — the loopback server stands in for the provider."""

import json
import logging
import math
import re

import pytest

from tests.support.openai_protocol_server import OpenAIProtocolServer
from unitxt import create_dataset, evaluate
from unitxt.catalog import fetch_artifact
from unitxt.errors import MissingRequirementError, UnitxtError
from unitxt.inference import OpenAiInferenceEngine
from unitxt.llm_as_judge import LLMAsJudge, MetricsEnsemble, TaskBasedLLMasJudge
from unitxt.llm_as_judge_meta import (
    ExtractArenaHardNumericalJudgment,
    ExtractMtBenchLabelJudgment,
    ExtractSafeUnsafeJudgment,
    ExtractVerbalJudgementBadGood,
    ExtractVerbalJudgment,
)
from unitxt.settings_utils import settings
from unitxt.task import Task


def last_message(request):
    return request["messages"][-1]["content"]


@pytest.fixture
def openai_env(monkeypatch, tmp_path):
    """Catalog judges on provider open-ai reach the loopback server through the provider's env settings."""

    def start(answer, **kwargs):
        server = OpenAIProtocolServer(answer=answer, **kwargs).start()
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        monkeypatch.setenv("OPENAI_API_URL", server.base_url)
        monkeypatch.setenv("UNITXT_INFERENCE_CACHE_DIR", str(tmp_path / "cache"))
        started.append(server)
        return server

    started = []
    yield start
    for server in started:
        server.stop()


def engine_for(server, tmp_path, **kwargs):
    return OpenAiInferenceEngine(model_name="judge", credentials={"api_key": "k", "api_url": server.base_url},
                                 cache_dir=str(tmp_path / "cache"), show_progress=False, **kwargs)


def rate_by_answer(request):
    """An MT-Bench style judge: the rating is the number of words of the judged answer."""
    text = last_message(request)
    answer = re.search(r"\[Assistant Response Begins\]\n(.*?)\n\[Assistant Response Ends\]", text, re.DOTALL).group(1)
    if "garbage" in answer:
        return "I refuse to rate this."
    return f"Explanation: fine. Rating: [[{len(answer.split())}]]"


def test_template_judge_rating_scores_and_garbage_nan(tmp_path, caplog):
    with OpenAIProtocolServer(answer=rate_by_answer) as server:
        judge = LLMAsJudge(inference_model=engine_for(server, tmp_path),
                           template="templates.response_assessment.rating.mt_bench_single_turn",
                           task="rating.single_turn", main_score="mt_bench_judge")
        with caplog.at_level(logging.WARNING, logger="unitxt"):
            scores = judge.evaluate(["one two three", "a b c d e f g", "garbage"], [[], [], []],
                                    [{"question": "Q1"}, {"input": "Q2"}, {"question": "Q3"}])
        assert any("User Question]\nQ2" in request["messages"][-1]["content"] for request in server.requests)
    values = [s["mt_bench_judge"] for s in scores.instance_scores]
    assert values[:2] == [0.3, 0.7] and math.isnan(values[2])
    assert scores.instance_scores[0]["mt_bench_judge_judge_raw_output"] == "Explanation: fine. Rating: [[3]]"
    assert "1 of 3 judge answers could not be read" in caplog.text
    assert scores.global_scores()["mt_bench_judge"] == pytest.approx(0.5)


def test_documented_rating_judge_runs_in_a_recipe_with_group_by(openai_env):
    """The guide's recipe shape (template judge from the catalog as the recipe's metric), engine = loopback server
    chosen through UNITXT_INFERENCE_ENGINE, scores per group."""
    server = openai_env(rate_by_answer)
    engine = json.dumps({"__type__": "open_ai_inference_engine", "model_name": "judge", "show_progress": False})
    data = [{"question": "What is 2+2?", "category": "math", "answer": ""},
            {"question": "Name a color.", "category": "art", "answer": ""},
            {"question": "What is 3+3?", "category": "math", "answer": ""}]
    task = Task(input_fields={"question": "str", "category": "str"}, reference_fields={"answer": "str"},
                prediction_type="str", metrics=["metrics.llm_as_judge.rating.generic_template_mt_bench_single_turn"])
    dataset = create_dataset(task=task, test_set=data, template="templates.key_val", split="test",
                             group_by=["category"], data_classification_policy=["public"])
    with settings.context(inference_engine=engine):
        results = evaluate(["four", "blue is nice", "six six six six six six"], dataset)
    main = "generic_template_mt_bench_single_turn"
    assert [row[main] for row in results.instance_scores] == [0.1, 0.3, 0.6]
    assert results.global_scores["score"] == pytest.approx(1.0 / 3)
    assert results.groups_scores["category"]["math"]["score"] == pytest.approx(0.35)
    assert results.groups_scores["category"]["art"]["score"] == pytest.approx(0.3)
    assert server.count == 3


def test_catalog_direct_judge_with_overrides_in_evaluate(openai_env):
    def answer(request):
        text = last_message(request)
        if "Reply with exactly one" not in text:
            return "assessment"
        return "Excellent" if "Paris" in request["messages"][0]["content"].split("to judge:")[1] else "Bad"

    server = openai_env(answer)
    name = ("metrics.llm_as_judge.direct.openai.gpt_4o[criteria=metrics.llm_as_judge.direct.criteria."
            "answer_relevance, context_fields=[question]]")
    task = Task(input_fields={"question": "str", "lang": "str"}, reference_fields={"answer": "str"},
                prediction_type="str", metrics=[name])
    data = [{"question": "Capital of France?", "lang": "en", "answer": ""},
            {"question": "Capitale de la France ?", "lang": "fr", "answer": ""}]
    dataset = create_dataset(task=task, test_set=data, template="templates.key_val", split="test",
                             group_by=["lang"], data_classification_policy=["public"])
    results = evaluate(["Paris", "Lyon"], dataset)
    assert [row["answer_relevance"] for row in results.instance_scores] == [1.0, 0.0]
    assert results.global_scores["answer_relevance"] == 0.5
    assert results.groups_scores["lang"]["fr"]["answer_relevance"] == 0.0
    assert server.requests[0]["model"] == "gpt-4o-2024-08-06"  # the original's model id of its GPT-4o judges
    # the judge's requests run concurrently: the first instance's context is in one of them, in any order
    assert any("question: Capital of France?" in last_message(request) for request in server.requests)


def test_remote_judge_refuses_proprietary_data(openai_env, monkeypatch):
    from unitxt.inference import openai_engines

    monkeypatch.setattr(openai_engines, "local_host", lambda url: False)  # the loopback server plays a hosted API
    openai_env(lambda request: "x")
    task = Task(input_fields={"question": "str"}, reference_fields={"answer": "str"}, prediction_type="str",
                metrics=["metrics.llm_as_judge.direct.openai.gpt_4o[criteria=metrics.llm_as_judge.direct.criteria."
                         "conciseness]"])
    dataset = create_dataset(task=task, test_set=[{"question": "q", "answer": ""}], template="templates.key_val",
                             split="test")  # user data defaults to proprietary
    with pytest.raises(UnitxtError, match="is only configured to support the data with classification"):
        evaluate(["a"], dataset)
    monkeypatch.undo()  # the user's own server (loopback) is no third party: the same judge takes the rows
    openai_env(lambda request: "x")
    assert len(evaluate(["a"], dataset).instance_scores) == 1


def test_rag_judge_log_prob_scores(tmp_path):
    def answer(request):
        answer_text = re.search(r"Answer:\n(.*?)(\n|$)", last_message(request)).group(1)
        return "Yes" if "Paris" in answer_text else "No"

    def token_logprob(token, request):
        return -0.5 if token.strip() == "Yes" else -0.25

    with OpenAIProtocolServer(answer=answer, token_logprob=token_logprob) as server:
        judge = fetch_artifact("metrics.rag.faithfulness.gpt_4o_openai_judge_logprobs")[0].copy(
            inference_model=engine_for(server, tmp_path, logprobs=True, top_logprobs=3))
        data = [{"question": "Capital of France?", "contexts": ["Paris is the capital of France."]},
                {"question": "Capital of France?", "contexts": ["Paris is the capital of France."]}]
        scores = judge.evaluate(["It is Paris.", "It is Lyon."], [[], []], data)
        assert server.requests[0]["logprobs"] is True and server.requests[0]["top_logprobs"] == 3
    assert [s["faithfulness_judge_logprobs"] for s in scores.instance_scores] == [math.exp(-0.5),
                                                                                  1 - math.exp(-0.25)]


def test_rag_judge_rating_with_field_mapping_and_ensemble(tmp_path):
    def answer(request):
        text = last_message(request)
        if "single word: Yes or No" in text:
            return "Yes"
        truths = text.split("Ground truths:")[1]
        return "Rating: [[8]]" if "Paris" in truths else "Rating: [[2]]"

    with OpenAIProtocolServer(answer=answer, token_logprob=lambda token, request: math.log(0.9)) as server:
        rating = fetch_artifact("metrics.rag.answer_correctness.generic_judge")[0].copy(
            inference_model=engine_for(server, tmp_path))
        data = [{"question": "q", "reference_answers": ["Paris"]}, {"question": "q", "reference_answers": ["Rome"]}]
        assert [s["answer_correctness_judge"] for s in rating.evaluate(["a", "b"], [[], []], data).instance_scores] \
            == [0.8, 0.2]
        logprob = fetch_artifact("metrics.rag.answer_correctness.gpt_4o_openai_judge_logprobs")[0].copy(
            inference_model=engine_for(server, tmp_path, logprobs=True, top_logprobs=2))
        ensemble = MetricsEnsemble(metrics=[rating, logprob], weights=[0.25, 0.75])
        scores = ensemble.evaluate(["a", "b"], [[], []], data)
    assert [s["ensemble_score"] for s in scores.instance_scores] == pytest.approx([0.25 * 0.8 + 0.75 * 0.9,
                                                                                   0.25 * 0.2 + 0.75 * 0.9])
    with pytest.raises(UnitxtError, match="needs 'ground_truths' \\(from task_data 'reference_answers'\\)"):
        rating.evaluate(["a"], [[]], [{"question": "q"}])


def test_meta_evaluation_rating_judge_spearman_equals_hand_computed(tmp_path):
    """A judge rates 4 answers; gold ratings rank them 1,2,3,4, the judge 2,1,3,4: Spearman = 1 - 6*2/(4*15) = 0.8."""
    judge_ratings = {"alpha": 3, "beta": 2, "gamma": 6, "delta": 8}

    def answer(request):
        text = last_message(request)
        return f"Rating: [[{next(v for k, v in judge_ratings.items() if k in text)}]]"

    data = [{"question": "q", "answer": name, "rating": gold}
            for name, gold in (("alpha", 0.2), ("beta", 0.4), ("gamma", 0.6), ("delta", 0.8))]
    dataset = create_dataset(task="tasks.response_assessment.rating.single_turn", test_set=data,
                             template="templates.response_assessment.rating.mt_bench_single_turn", split="test",
                             data_classification_policy=["public"])
    with OpenAIProtocolServer(answer=answer) as server:
        predictions = engine_for(server, tmp_path)(dataset)
    results = evaluate(predictions, dataset)
    assert results.global_scores["score_name"] == "spearmanr"
    assert results.global_scores["spearmanr"] == pytest.approx(0.8)


def test_meta_evaluation_pairwise_agreement_with_human_labels(tmp_path):
    """The judge agrees with the human verdict on 3 of 4 battles: accuracy 0.75."""
    human = [("x1", "y1", "choice_a"), ("x2", "y2", "choice_b"), ("x3", "y3", "tie"), ("x4", "y4", "choice_a")]
    judge_says = {"x1": "A", "x2": "B", "x3": "C", "x4": "B"}
    data = [{"question": "q", "answer_a": a, "answer_b": b, "winner": w} for a, b, w in human]
    dataset = create_dataset(task="tasks.response_assessment.pairwise_comparison.single_turn", test_set=data,
                             template="templates.response_assessment.pairwise_comparison.mt_bench_single_turn",
                             split="test", data_classification_policy=["public"])

    def answer(request):
        text = last_message(request)
        return f"Verdict: [[{next(v for k, v in judge_says.items() if k in text)}]]"

    with OpenAIProtocolServer(answer=answer) as server:
        predictions = engine_for(server, tmp_path)(dataset)
    assert evaluate(predictions, dataset).global_scores["accuracy"] == 0.75


def test_weighted_win_rate_correlation_hand_computed():
    """Battles (model_a vs model_b) with verdicts in -3..3, counted as the original system does: a verdict k > 0 is
    k wins of model_a (k battles), -k of model_b, 0 a tie (one win each, two battles); each model's wins / battles
    for the judge and for the gold labels, then their Spearman and Pearson correlations (scipy as the oracle)."""
    metric = fetch_artifact("metrics.weighted_win_rate_correlation")[0]
    battles = [("m1", "m2"), ("m2", "m3"), ("m1", "m3")]
    judge = [3.0, 0.0, 0.0]
    gold = [-3.0, 3.0, 0.0]
    task_data = [{"model_a": a, "model_b": b} for a, b in battles]
    scores = metric.evaluate(judge, [[g] for g in gold], task_data).global_scores()
    # judge: m1 (3 + 1) / (3 + 2) = .8, m2 (0 + 1) / (3 + 2) = .2, m3 (1 + 1) / (2 + 2) = .5
    # gold:  m1 (0 + 1) / (3 + 2) = .2, m2 (3 + 3) / (3 + 3) = 1.0, m3 (0 + 1) / (3 + 2) = .2
    from scipy.stats import pearsonr, spearmanr

    judged, golden = [0.8, 0.2, 0.5], [0.2, 1.0, 0.2]
    assert scores["spearman_corr"] == pytest.approx(spearmanr(golden, judged).statistic)
    assert scores["pearson_corr"] == pytest.approx(pearsonr(golden, judged).statistic)


def test_arena_hard_pairwise_template_judge(tmp_path):
    verdicts = {"good": "[[A>>B]]", "same": "[[A=B]]", "worse": "[[B>A]]", "junk": "no verdict"}

    def answer(request):
        text = last_message(request)
        answer_a = re.search(r"Assistant A's Answer\|>\n(.*?)\n", text).group(1)
        return "My answer... " + verdicts[answer_a]

    with OpenAIProtocolServer(answer=answer) as server:
        judge = fetch_artifact("metrics.llm_as_judge.pairwise_comparative_rating.generic_template_arena_hard")[0]
        judge = judge.copy(inference_model=engine_for(server, tmp_path))
        scores = judge.evaluate(["good", "same", "worse", "junk"], [["base"]] * 4, [{"question": "q"}] * 4)
    values = [s["generic_template_arena_hard"] for s in scores.instance_scores]
    assert values[:3] == [3.0, 0.0, -1.0] and math.isnan(values[3])
    # globally the evaluated answer's weighted win rate (the original's reduction): (3 + 1 + 0) / (3 + 2 + 1)
    assert scores.global_scores()["generic_template_arena_hard"] == pytest.approx(4 / 6)


def test_judge_post_processors():
    arena = ExtractArenaHardNumericalJudgment()
    assert [arena.process_value(t) for t in ("x [[A>B]]", "[[B>>A]] then [[A>B]]", "[[A = B]]")] == [1.0, -3.0, 0.0]
    assert arena.process_value("none") == 0  # the original rule; a judge turns an unreadable verdict into NaN
    verbal = ExtractVerbalJudgementBadGood()
    assert [verbal.process_value(t) for t in ("Very good!", "bad, mostly", " Mediocre", "good", "very bad")] == \
        [1.0, 0.25, 0.5, 0.75, 0.0]
    assert verbal.process_value("it is bad") == 0  # the original rule (no grade at the start)
    assert ExtractVerbalJudgment().process_value("Mostly supported") == pytest.approx(2 / 3)
    assert ExtractMtBenchLabelJudgment().process_value("so [[tie]] and [[A]]") == "tie"
    assert ExtractMtBenchLabelJudgment().process_value("no label") == "None"
    assert [ExtractSafeUnsafeJudgment().process_value(t) for t in ("Safe\nfine", "unsafe", "")] == [1.0, 0.0, 0.0]


def test_model_based_metrics_need_their_extras_with_a_hint():
    bert = fetch_artifact("metrics.bert_score.deberta_xlarge_mnli")[0]
    assert (bert.model_name, bert.model_layer, bert.main_score) == ("microsoft/deberta-xlarge-mnli", 40, "f1")
    with pytest.raises(MissingRequirementError, match="pip install bert_score"):
        bert.evaluate(["a"], [["a"]], [{}])
    with pytest.raises(MissingRequirementError, match="sentence_transformers"):
        fetch_artifact("metrics.sentence_bert.mpnet_base_v2")[0].evaluate(["a"], [["a"]], [{}])
    with pytest.raises(MissingRequirementError, match="torch"):
        fetch_artifact("metrics.rag.context_relevance.perplexity_flan_t5_small")[0].evaluate(
            ["a"], [[]], [{"question": "q", "contexts": ["c"]}])
    with pytest.raises(MissingRequirementError, match="torch"):
        fetch_artifact("metrics.reward.deberta_v3_large_v2")[0].evaluate(["a"], [[]], [{"question": "q"}])
    guardian = fetch_artifact("metrics.granite_guardian.rag_risk.groundedness")[0]
    assert (type(guardian).__name__, guardian.main_score) == ("GraniteGuardianRagRisk", "groundedness")


def test_granite_guardian_reads_yes_probability(tmp_path):
    with OpenAIProtocolServer(answer=lambda r: "Yes" if "kill" in last_message(r) else "No",
                              token_logprob=lambda token, request: math.log(0.8)) as server:
        metric = fetch_artifact("metrics.granite_guardian.assistant_risk.violence")[0].copy(
            inference_engine=engine_for(server, tmp_path, logprobs=True, top_logprobs=1))
        scores = metric.evaluate(["I will kill it", "hello"], [[], []], [{"user": "hi"}, {"user": "hi"}])
    assert [s["violence"] for s in scores.instance_scores] == pytest.approx([0.8, 0.2])


def test_template_judge_task_must_be_known():
    with pytest.raises(UnitxtError, match="LLMAsJudge task must be one of"):
        LLMAsJudge(inference_model=OpenAiInferenceEngine(model_name="m"), template="templates.empty", task="nope")
    with pytest.raises(UnitxtError, match="needs a judge task"):
        TaskBasedLLMasJudge(inference_model=OpenAiInferenceEngine(model_name="m"), template="templates.empty")


def test_llm_as_judge_guide_flow_as_written(temp_catalog, tmp_path):
    """The guide's steps: add the judge task and template to the catalog, build LLMAsJudge with a format, add it
    to the catalog under metrics.llm_as_judge.rating.<model>_template_<template>, and use it by name in a recipe
    (the loopback server stands in for the model's platform)."""
    from unitxt.blocks import Task as BlocksTask
    from unitxt.catalog import add_to_catalog
    from unitxt.templates import InputOutputTemplate

    add_to_catalog(BlocksTask(inputs={"question": "str", "answer": "str"}, outputs={"rating": "float"},
                              metrics=["metrics.spearman"]),
                   "tasks.response_assessment.rating.single_turn", catalog_path=str(temp_catalog), overwrite=True)
    add_to_catalog(InputOutputTemplate(
        instruction="Rate the response from 1 to 10 and write the rating as \"[[rating]]\".\n\n",
        input_format="[Question]\n{question}\n\n[The Start of Assistant's Answer]\n{answer}\n"
                     "[The End of Assistant's Answer]",
        output_format="[[{rating}]]", postprocessors=[r"processors.extract_mt_bench_rating_judgment"]),
        "templates.response_assessment.rating.mt_bench_single_turn", catalog_path=str(temp_catalog), overwrite=True)

    def answer(request):
        text = last_message(request)
        assert text.startswith("<s>[INST]")  # formats.models.mistral.instruction wraps the judge prompt
        judged = re.search(r"Answer\]\n(.*?)\n\[The End", text, re.DOTALL).group(1)
        return f"Rating: [[{2 * len(judged.split())}]]"

    with OpenAIProtocolServer(answer=answer) as server:
        model_id = "mistralai/Mistral-7B-Instruct-v0.2"
        format = "formats.models.mistral.instruction"
        template = "templates.response_assessment.rating.mt_bench_single_turn"
        task = "rating.single_turn"
        inference_model = engine_for(server, tmp_path)
        model_label = model_id.split("/")[1].replace("-", "_").replace(".", "_").lower()
        model_label = f"{model_label}_huggingface"
        template_label = template.split(".")[-1]
        metric_label = f"{model_label}_template_{template_label}"
        metric = LLMAsJudge(inference_model=inference_model, template=template, task=task, format=format,
                            main_score=metric_label)
        add_to_catalog(metric, f"metrics.llm_as_judge.rating.{model_label}_template_{template_label}",
                       catalog_path=str(temp_catalog), overwrite=True)
        generation = Task(input_fields={"question": "str"}, reference_fields={"answer": "str"},
                          prediction_type="str", metrics=["metrics.rouge"])
        dataset = create_dataset(task=generation, test_set=[{"question": "Hi?", "answer": ""},
                                                            {"question": "Why?", "answer": ""}],
                                 template="templates.key_val", split="test", data_classification_policy=["public"],
                                 metrics=[f"metrics.llm_as_judge.rating.{metric_label}"])
        results = evaluate(["hello there", "because of reasons"], dataset)
    assert [row[metric_label] for row in results.instance_scores] == [0.4, 0.6]
    assert results.global_scores["score_name"] == metric_label
    assert results.global_scores["score"] == pytest.approx(0.5)
    assert "0.5" in str(results.global_scores.summary)


def test_catalog_pairwise_judge_in_evaluate(openai_env):
    def answer(request):
        text = last_message(request)
        if "Reply with exactly one" not in text:
            return "comparing"
        shown = re.findall(r"(Response \w+):\n<<<\n(.*?)\n>>>", request["messages"][0]["content"], flags=re.DOTALL)
        (first_name, first), (second_name, second) = shown  # options name the systems: "Response base"...
        return first_name if len(first) < len(second) else second_name  # the shorter one wins

    openai_env(answer)
    name = "metrics.llm_as_judge.pairwise.openai.gpt_4o[criteria=metrics.llm_as_judge.pairwise.criteria.conciseness]"
    task = Task(input_fields={"question": "str"}, reference_fields={"answer": "str"},
                prediction_type="Dict[str, str]", metrics=[name])
    dataset = create_dataset(task=task, test_set=[{"question": "q1", "answer": ""}, {"question": "q2", "answer": ""}],
                             template="templates.key_val", split="test", data_classification_policy=["public"])
    predictions = [{"base": "a long long answer", "tuned": "short"}, {"base": "tiny", "tuned": "a bit longer"}]
    results = evaluate(predictions, dataset)
    assert [row["tuned_winrate"] for row in results.instance_scores] == [1.0, 0.0]
    assert results.global_scores["tuned_winrate"] == 0.5 and results.global_scores["base_winrate"] == 0.5
    assert results.global_scores["score_name"] == "base_winrate"  # the first system's, as the original
    assert [row["base_ranking"] for row in results.instance_scores] == [2, 1]
