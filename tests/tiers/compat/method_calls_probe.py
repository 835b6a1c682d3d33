"""The original's engine, judge and processor methods programs call, called on given inputs; run by the oracle's
python (`python method_calls_probe.py < inputs.json`, the original package) and imported by ours (this package):
test_same_engine_and_judge_methods.py compares the two results."""

import json
import sys


def calls(inputs):
    """{name: result} of each call on `inputs` (the package on the path decides whose methods run)."""
    from unitxt.inference import MockInferenceEngine, RITSInferenceEngine
    from unitxt.llm_as_judge import LLMJudgeDirect
    from unitxt.llm_as_judge_constants import Criteria, CriteriaWithOptions
    from unitxt.llm_as_judge_from_template import LLMAsJudge, TaskBasedLLMasJudge
    from unitxt.processors import InferDictsToBinaryLogprobs

    out = {}
    out["rits_urls"] = [RITSInferenceEngine.get_base_url_from_model_name(m) for m in inputs["rits_models"]]
    rits = RITSInferenceEngine(model_name="byom-team/ibm/granite-3-8b", credentials={"api_key": "k"})
    out["rits_client_model"] = rits.get_client_model_name()
    processor = InferDictsToBinaryLogprobs(pos_class_name="yes", neg_class_name="no", field="p",
                                           take_logprobs_from_end=inputs["from_end"])
    tokens = inputs["tokens"]
    out["pos_neg"] = [processor.get_pos_neg_probs(token) for token in tokens]
    out["token_range"] = list(processor.get_token_range(tokens))
    out["binary"] = processor.process_value(tokens)
    mock = MockInferenceEngine(model_name="m")
    out["tools"] = [mock.to_tools(row) for row in inputs["rows"]]
    out["messages"] = [mock.to_messages(row) for row in inputs["rows"]]
    judge = LLMJudgeDirect(inference_engine=mock, criteria="metrics.llm_as_judge.direct.criteria.answer_relevance")
    out["clean"] = judge.clean_results(inputs["results"])
    out["context_fields"] = [judge.get_context_fields_as_dict(fields) for fields in inputs["context_fields"]]
    criteria = CriteriaWithOptions.from_jsons(inputs["criteria_json"])
    out["criteria"] = [criteria.name, criteria.description, criteria.prediction_field, criteria.context_fields,
                       [[o.name, o.description] for o in criteria.options]]
    plain = Criteria.from_jsons(inputs["criteria_json"])
    out["plain_criteria"] = [plain.name, plain.description, plain.prediction_field, plain.context_fields]
    template_judge = LLMAsJudge(inference_model=mock, task="rating.single_turn", main_score="x",
                                template="templates.response_assessment.rating.mt_bench_single_turn")
    out["full_task_name"] = template_judge.get_full_task_name()
    task_judge = TaskBasedLLMasJudge(inference_model=mock, task="tasks.rag_eval.answer_correctness.binary",
                                     template="templates.rag_eval.answer_correctness.judge_loose_match_no_context",
                                     format=None)
    out["task_full_name"] = task_judge.get_full_task_name()
    out["chosen_format"] = task_judge.format.__id__
    out["preprocessed"] = task_judge.preprocess_instance(dict(inputs["instance"]))
    return json.loads(json.dumps(out, default=float))


if __name__ == "__main__":
    print(json.dumps(calls(json.loads(sys.stdin.read())), default=float))
