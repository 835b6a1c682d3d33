"""A small LLM-as-judge service written the way third-party tools use unitxt (runs unchanged on the original).

It lists the judge models and providers (iterating over the enums), builds its criteria from the catalog (direct and
pairwise), adds one criteria of its own, and judges a batch of answers and a comparison of systems with an
OpenAI-protocol judge at JUDGE_API_URL. It writes one JSON document of facts and scores (no prose) to argv[1].
"""

import json
import os

from unitxt.api import create_dataset, evaluate
from unitxt.artifact import fetch_artifact
from unitxt.blocks import Task
from unitxt.inference import OpenAiInferenceEngine
from unitxt.templates import NullTemplate
from unitxt.llm_as_judge import (
    EVALUATOR_TO_MODEL_ID,
    CriteriaOption,
    CriteriaWithOptions,
    EvaluatorNameEnum,
    LLMJudgeDirect,
    LLMJudgePairwise,
    ModelProviderEnum,
    get_evaluator_metadata,
)


def engine():
    return OpenAiInferenceEngine(model_name="judge", use_cache=False,
                                 credentials={"api_key": "none", "api_url": os.environ["JUDGE_API_URL"]})


def catalog_of_judges():
    judges = {}
    for evaluator in EvaluatorNameEnum:
        if evaluator not in EVALUATOR_TO_MODEL_ID:
            continue
        try:
            providers = get_evaluator_metadata(evaluator).providers
        except ValueError:
            providers = []
        judges[evaluator.name] = {"display": evaluator.value, "model": EVALUATOR_TO_MODEL_ID[evaluator],
                                  "providers": [provider.value for provider in providers]}
    return {"providers": {provider.name: provider.value for provider in ModelProviderEnum}, "judges": judges}


def roles(conversation):
    return [turn["role"] for turn in conversation]


def direct_scores():
    relevance = fetch_artifact("metrics.llm_as_judge.direct.criteria.answer_relevance")[0]
    own = CriteriaWithOptions(name="names the capital", description="Does the answer name the capital city?",
                              prediction_field="answer", context_fields=["question"],
                              options=[CriteriaOption(name="Yes", description="it does"),
                                       CriteriaOption(name="No", description="it does not")],
                              option_map={"Yes": 1.0, "No": 0.0})
    rows = [{"question": "What is the capital of France?", "answer": "Paris is the capital."},
            {"question": "What is the capital of France?", "answer": "Lyon, I think."}]
    report = {}
    for criteria, fields in ((relevance, ["question"]), (own, None)):
        judge = LLMJudgeDirect(inference_engine=engine(), criteria=criteria, context_fields=fields)
        task = Task(input_fields={"question": str, "answer": str}, reference_fields={}, prediction_type=str,
                    metrics=[judge], default_template="templates.empty")
        dataset = create_dataset(task=task, test_set=rows, split="test", data_classification_policy=["public"])
        predictions = [row["answer"] for row in rows] if criteria is relevance else None
        results = evaluate(predictions=predictions, data=dataset)
        main = results.global_scores["score_name"]
        report[criteria.name] = {
            "options": [option.name for option in criteria.options], "option_map": criteria.option_map,
            "score_name": main, "global": results.global_scores[main],
            "instances": [{"score": row[main], "selected": row[f"{main}_selected_option"],
                           "positional_bias": row[f"{main}_positional_bias"],
                           "assessment_roles": roles(row[f"{main}_prompts"]["assessment"]),
                           "selection_roles": roles(row[f"{main}_prompts"]["option_selection"])}
                          for row in results.instance_scores]}
    return report


def pairwise_scores():
    criteria = fetch_artifact("metrics.llm_as_judge.pairwise.criteria.inclusivity")[0]
    judge = LLMJudgePairwise(inference_engine=engine(), criteria=criteria, context_fields=["question"])
    task = Task(input_fields={"question": str}, reference_fields={}, prediction_type=dict, metrics=[judge],
                default_template=NullTemplate())  # predictions reach the judge as given (a dict of systems)
    dataset = create_dataset(task=task, test_set=[{"question": "What is the capital of France?"}], split="test",
                             data_classification_policy=["public"])
    systems = [{"alpha": "Paris is the capital.", "beta": "Lyon, I think.", "gamma": "No idea."}]
    results = evaluate(predictions=systems, data=dataset)
    row = results.instance_scores[0]
    return {"score_name": results.global_scores["score_name"],
            "systems": {name: {key: row[f"{name}_{key}"] for key in ("winrate", "ranking", "compared_to",
                                                                    "selections", "contest_results",
                                                                    "positional_bias")}
                        for name in systems[0]},
            "selection_roles": roles(row["alpha_prompts"]["option_selection"][0])}


if __name__ == "__main__":
    import sys

    with open(sys.argv[1], "w", encoding="utf-8") as out:  # stdout carries the library's logs
        json.dump({"catalog": catalog_of_judges(), "direct": direct_scores(), "pairwise": pairwise_scores()}, out,
                  indent=1, sort_keys=True, default=str)
