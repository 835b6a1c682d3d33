"""The documentation's example programs, in our own small versions: the task fields, result shapes and engine
behaviours those programs rely on, checked as a user would run them (our data, our wording)."""

from unitxt.api import create_dataset, evaluate


def test_span_labeling_extraction_takes_entity_types_and_scores_entity_pairs():
    kinds = ["Animal", "City"]
    rows = [
        {"text": "A fox ran through Paris.", "entity_types": kinds, "spans_starts": [2, 18], "spans_ends": [5, 23],
         "labels": ["Animal", "City"]},
        {"text": "Oslo has no owls.", "entity_types": kinds, "spans_starts": [0], "spans_ends": [4],
         "labels": ["City"]},
    ]
    dataset = create_dataset(task="tasks.span_labeling.extraction", test_set=rows, split="test")
    assert "Animal, City" in dataset[0]["source"]  # the default template names the entity types
    results = evaluate(predictions=["fox: Animal, Paris: City", "owls: Animal"], data=dataset)
    assert results.instance_scores[0]["processed_references"] == [[("fox", "Animal"), ("Paris", "City")]]
    assert results.global_scores["score_name"] == "f1_micro"
    assert round(results.global_scores["recall_micro"], 4) == round(2 / 3, 4)
    assert round(results.global_scores["precision_micro"], 4) == round(2 / 3, 4)


def test_a_template_judge_takes_its_engine_as_model_like_later_examples_write():
    import pytest

    from unitxt.errors import UnitxtError
    from unitxt.inference import MockInferenceEngine
    from unitxt.llm_as_judge import LLMAsJudge
    from unitxt.templates import InputOutputTemplate

    template = InputOutputTemplate(input_format="Rate this reply to {question}: {answer}", output_format="[[{rating}]]",
                                   postprocessors=["processors.extract_mt_bench_rating_judgment"])
    engine = MockInferenceEngine(default_inference_value="[[6]]")
    judge = LLMAsJudge(model=engine, template=template, task="rating.single_turn", format="formats.empty",
                       main_score="reply_rating")
    assert judge.inference_model is engine
    dataset = create_dataset(task="tasks.qa.open", test_set=[{"question": "Why is the sky blue?", "answers": ["x"]}],
                             split="test", metrics=[judge])
    results = evaluate(predictions=["Scattering of sunlight."], data=dataset)
    assert results.global_scores["reply_rating"] == 0.6  # "[[6]]" on the 1..10 scale
    with pytest.raises(UnitxtError, match="'model' and 'inference_model' name the same field"):
        LLMAsJudge(model=engine, inference_model=engine, template=template)


def test_a_pairwise_judge_over_list_predictions_reports_each_system_as_the_original(tmp_path):
    from tests.support.openai_protocol_server import OpenAIProtocolServer
    from unitxt.inference import OpenAiInferenceEngine
    from unitxt.llm_as_judge import LLMJudgePairwise
    from unitxt.llm_as_judge_constants import Criteria

    def shorter_wins(request):
        if len(request["messages"]) == 1:  # the assessment; the verdict request continues its conversation
            return "Considering both."
        import re

        # the options are the responses' names: "Response 1", "Response 3"... as shown in the assessment turn
        shown = re.findall(r"(Response \d):\n<<<\n(.*?)\n>>>", request["messages"][0]["content"], flags=re.DOTALL)
        (first_name, first), (second_name, second) = shown
        return first_name if len(first) < len(second) else second_name

    brevity = Criteria(name="brevity", description="Which answer is shorter?")
    with OpenAIProtocolServer(answer=shorter_wins) as server:
        engine = OpenAiInferenceEngine(model_name="judge", credentials={"api_key": "k", "api_url": server.base_url},
                                       cache_dir=str(tmp_path / "cache"), show_progress=False)
        judge = LLMJudgePairwise(inference_engine=engine, criteria=brevity, check_positional_bias=False)
        dataset = create_dataset(task="tasks.qa.open", test_set=[{"question": "Say hi."}, {"question": "Count."}],
                                 metrics=[judge], split="test", data_classification_policy=["public"])
        results = evaluate(predictions=[["hello there", "hi", "hey you"], ["one two", "one"]], data=dataset)
    assert results.global_scores["score_name"] == "1_winrate"
    assert {key for key in results.global_scores if key.endswith("_winrate")} == {"1_winrate", "2_winrate",
                                                                                   "3_winrate"}
    assert results.global_scores["2_winrate"] == 1.0  # "hi" and "one": the shortest every time
    first = results.instance_scores[0]
    assert (first["1_ranking"], first["2_ranking"], first["3_ranking"]) == (3, 1, 2)
    assert first["2_compared_to"] == ["1", "3"] and first["2_selections"] == ["2", "2"]
    assert first["3_llm_as_judge"] == 0.5 and first["3_response_name"] == "3"
    assert '"name": "brevity"' in first["criteria"]


def test_rag_end_to_end_takes_the_original_fields_and_scores_under_its_metric_names():
    contexts = ["Paris is the capital of France.", "Lyon is in France.", "Marseille is a port."]
    rows = [
        {"question": "What is the capital of France?", "question_id": "q1", "reference_answers": ["Paris"],
         "reference_contexts": [contexts[0]], "reference_context_ids": [10], "metadata_tags": {"topic": "geo"}},
        {"question": "Which city is a port?", "question_id": "q2", "reference_answers": ["Marseille"],
         "reference_contexts": [contexts[2]], "reference_context_ids": [12], "metadata_tags": {}},
    ]  # one set of fields per split: the original's LoadFromDictionary refuses ragged rows
    dataset = create_dataset(task="tasks.rag.end_to_end", test_set=rows, split="test", postprocessors=[])
    predictions = [{"answer": "Paris", "contexts": [contexts[0]], "context_ids": [10], "is_answerable": True},
                   {"answer": "Lyon", "contexts": [contexts[1]], "context_ids": [11, 12], "is_answerable": True}]
    results = evaluate(predictions, dataset)
    first, second = results.instance_scores
    assert first["score_name"] == "answer_correctness_recall" and first["score"] == 1.0
    assert second["answer_correctness_recall"] == 0.0
    assert (first["context_correctness_mrr"], second["context_correctness_mrr"]) == (1.0, 0.5)  # integer ids
    assert first["answer_faithfulness_precision"] == 1.0
    assert results.global_scores["score_name"] == "answer_correctness_recall"
    assert results.global_scores["context_correctness_mrr"] == 0.75


def test_rag_response_generation_accepts_contexts_ids():
    rows = [{"question": "Where is the Louvre?", "contexts": ["The Louvre is in Paris."], "contexts_ids": [3],
             "reference_answers": ["Paris"]},
            {"question": "Who wrote it?", "contexts": ["It was written by Ann."], "contexts_ids": [],
             "reference_answers": ["Ann"]}]
    dataset = create_dataset(task="tasks.rag.response_generation", test_set=rows, split="test",
                             template="templates.rag.response_generation.default")
    results = evaluate(["In Paris.", "Bob"], dataset)
    first = results.instance_scores[0]
    assert first["score_name"] == "f1" and round(first["score"], 4) == round(2 / 3, 4)  # "in paris" vs "paris"
    assert first["correctness_recall_token_overlap"] == 1.0 and first["faithfullness_precision_token_overlap"] == 1.0
    assert results.instance_scores[1]["score"] == 0.0


def test_an_arena_hard_judge_with_shuffling_renders_production_rows_unshuffled_as_the_original(tmp_path):
    # the original's judge renders through produce(): production rows skip the template's answer-dependent
    # preprocessing, so the evaluated answer is always shown as A and the baseline as B
    import re

    from tests.support.openai_protocol_server import OpenAIProtocolServer
    from unitxt.catalog import fetch_artifact
    from unitxt.inference import OpenAiInferenceEngine

    def prefers_the_candidate(request):  # the evaluated answers all start with "cand"
        text = request["messages"][-1]["content"]
        shown_a = re.search(r"Assistant A's Answer\|>\n(.*?)\n", text).group(1)
        return "Verdict: [[A>>B]]" if shown_a.startswith("cand") else "Verdict: [[B>>A]]"

    name = "metrics.llm_as_judge.pairwise_comparative_rating.llama_3_8b_instruct_generic_engine_template_arena_hard"
    with OpenAIProtocolServer(answer=prefers_the_candidate) as server:
        engine = OpenAiInferenceEngine(model_name="judge", credentials={"api_key": "k", "api_url": server.base_url},
                                       cache_dir=str(tmp_path / "cache"), show_progress=False)
        judge = fetch_artifact(name + "_with_shuffling")[0].copy(inference_model=engine)
        candidates = [f"cand {i}" for i in range(12)]
        scores = judge.evaluate(candidates, [["baseline"]] * 12, [{"question": f"q{i}"} for i in range(12)])
    main = judge.main_score
    assert [row[main] for row in scores.instance_scores] == [3.0] * 12
    assert all("Assistant A's Answer|>\ncand" in row[main + "_judge_raw_input"] for row in scores.instance_scores)
    assert scores.global_scores()[main] == 1.0


def test_older_conversation_judge_names_resolve_with_a_deprecation_naming_the_current_judge(tmp_path, monkeypatch):
    import warnings

    from tests.support.openai_protocol_server import OpenAIProtocolServer
    from unitxt.api import load_dataset
    from unitxt.card import TaskCard
    from unitxt.loaders import LoadFromDictionary
    from unitxt.task import Task
    from unitxt.templates import InputOutputTemplate, TemplatesDict

    seen = []

    def rater(request):
        text = request["messages"][-1]["content"]
        seen.append(text)
        return "Mostly on topic. [[8]]" if "gardening" in text else "Off topic. [[2]]"

    with OpenAIProtocolServer(answer=rater) as server:
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        monkeypatch.setenv("OPENAI_API_URL", server.base_url)
        monkeypatch.setenv("UNITXT_DEFAULT_PROVIDER", "open-ai")
        monkeypatch.setenv("UNITXT_INFERENCE_CACHE_DIR", str(tmp_path / "cache"))
        card = TaskCard(
            loader=LoadFromDictionary(data={"test": [{"conversation": "user: tips for gardening?"},
                                                     {"conversation": "user: how do I bake bread?"}]},
                                      data_classification_policy=["public"]),
            task=Task(input_fields={"conversation": "str"}, reference_fields={}, prediction_type="str",
                      metrics=["metrics.llm_as_judge.conversation_answer_topicality.ensemble_v1_wml_judges"]),
            templates=TemplatesDict({"simple": InputOutputTemplate(input_format="{conversation}", output_format="")}))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            dataset = load_dataset(card=card, template_card_index="simple", split="test")
            results = evaluate(predictions=["Water in the morning.", "Use a hot oven."], data=dataset)
    assert any("use metrics.llm_as_judge.conversation.topicality.ensemble" in str(w.message) for w in caught)
    assert [row["ensemble_score"] for row in results.instance_scores] == [0.8, 0.2]  # two judges, [[8]] and [[2]]
    # each judge sees the evaluated input as the original shows it: re-rendered by the instance's template, plain format
    assert len(seen) == 4 and sum("inputs]\nuser: tips for gardening?\n" in text for text in seen) == 2


def test_a_direct_judge_reports_the_original_keys_under_the_snake_cased_criteria_name(tmp_path):
    import json

    from tests.support.openai_protocol_server import OpenAIProtocolServer
    from unitxt.inference import OpenAiInferenceEngine
    from unitxt.llm_as_judge import LLMJudgeDirect
    from unitxt.llm_as_judge_constants import CriteriaWithOptions

    units = CriteriaWithOptions.from_obj({
        "name": "Gives Metric Units", "description": "Does the response use metric units?",
        "options": [{"name": "Yes", "description": ""}, {"name": "No", "description": ""}],
        "option_map": {"Yes": 1.0, "No": 0.0}})

    def judge_answer(request):
        text = request["messages"][0]["content"]  # the judged response is in the assessment turn
        return "No" if "miles" in text else "Yes"

    with OpenAIProtocolServer(answer=judge_answer) as server:
        engine = OpenAiInferenceEngine(model_name="judge", credentials={"api_key": "k", "api_url": server.base_url},
                                       cache_dir=str(tmp_path / "cache"), show_progress=False)
        judge = LLMJudgeDirect(inference_engine=engine, criteria=units, evaluator_name="Tester")
        dataset = create_dataset(task="tasks.qa.open", test_set=[{"question": "How far?"}, {"question": "How far?"}],
                                 metrics=[judge], split="test", data_classification_policy=["public"])
        results = evaluate(predictions=["Five km.", "Three miles."], data=dataset)
    main = "gives_metric_units"
    assert results.global_scores["score_name"] == main and results.global_scores[main] == 0.5
    assert f"{main}_positional_bias" not in results.global_scores
    first = results.instance_scores[0]
    assert first[main] == 1.0 and first[f"{main}_using_tester_openai"] == 1.0
    assert first[f"{main}_positional_bias"] is False and first[f"{main}_option_selection_completion"] == "Yes"
    assert first[f"{main}_positional_bias_option_selection_completion"] == "Yes"
    assert json.loads(first[f"{main}_criteria"])["option_map"] == {"Yes": 1.0, "No": 0.0}


def test_the_gpt_4o_criteria_judges_name_their_evaluator_as_the_original():
    from unitxt.catalog import fetch_artifact
    from unitxt.llm_as_judge_constants import EVALUATOR_TO_MODEL_ID, EvaluatorNameEnum

    assert EVALUATOR_TO_MODEL_ID[EvaluatorNameEnum.GPT4o] == "gpt-4o-2024-08-06"  # the original's id
    for kind in ("direct", "pairwise"):
        assert fetch_artifact(f"metrics.llm_as_judge.{kind}.openai.gpt_4o")[0].evaluator_name == "GPT4o"


def test_rag_eval_judge_tasks_have_the_original_schema():
    from unitxt.catalog import fetch_artifact

    task = fetch_artifact("tasks.rag_eval.faithfulness.binary")[0]
    assert set(task.input_fields) == {"question", "contexts", "answer", "choices"}
    assert set(task.reference_fields) == {"is_faithful", "number_val"}
    assert task.defaults == {"choices": ["yes", "no"], "is_faithful": ["-"], "number_val": -1}
    assert "metrics.roc_auc" in task.metrics
    processed = task.process({"question": "Q?", "contexts": ["c"], "answer": "a", "number_val": 1})
    assert processed["input_fields"]["choices"] == ["yes", "no"]
    graded = fetch_artifact("tasks.rag_eval.answer_correctness.non_binary")[0]
    assert graded.defaults["contexts"] == ["-"] and graded.metrics == ["metrics.spearman", "metrics.kendalltau_b"]
