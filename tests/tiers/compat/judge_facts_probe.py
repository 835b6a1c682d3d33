"""Lists judge facts through the public API of whichever unitxt runs it (the original's or ours), as JSON.

Run by both pythons with the same arguments: an output path and a JSON file of catalog names (criteria and criteria
judges of the original's catalog). Facts only: names, members, values, options and their order, option maps, fields,
model ids and provider lists; never descriptions.
"""

import json
import sys
import warnings


def criteria_facts(criteria):
    facts = {"class": type(criteria).__name__, "name": criteria.name,
             "prediction_field": criteria.prediction_field, "context_fields": criteria.context_fields}
    if hasattr(criteria, "options"):
        facts["options"] = [option.name for option in criteria.options]
        facts["option_map"] = {key: float(value) for key, value in (criteria.option_map or {}).items()}
    return facts


def judge_facts(judge):
    engine = judge.inference_engine
    return {"class": type(judge).__name__, "evaluator_name": str(getattr(judge.evaluator_name, "name",
                                                                         judge.evaluator_name)),
            "generate_summaries": judge.generate_summaries, "engine": type(engine).__name__,
            "provider": engine.provider, "model": engine.model, "max_tokens": engine.max_tokens,
            "seed": engine.seed, "temperature": float(engine.temperature), "credentials": engine.credentials}


def main() -> None:
    from unitxt.artifact import fetch_artifact
    from unitxt.llm_as_judge import (EVALUATOR_TO_MODEL_ID, EVALUATORS_METADATA, DirectCriteriaCatalogEnum,
                                     EmptyPrediction, EvaluatorNameEnum, EvaluatorTypeEnum, ModelProviderEnum,
                                     PairwiseCriteriaCatalogEnum, get_evaluator_metadata, rank_indexes)
    from unitxt.llm_as_judge_constants import DIRECT_CRITERIA, PAIRWISE_CRITERIA
    from unitxt.llm_as_judge_utils import get_parsed_context
    from unitxt.metric_utils import EmptyPrediction as EmptyPredictionOfMetricUtils

    output, names_file = sys.argv[1], sys.argv[2]
    names = json.load(open(names_file, encoding="utf-8"))
    facts = {"enums": {enum.__name__: [[member.name, member.value] for member in enum]
                       for enum in (EvaluatorNameEnum, ModelProviderEnum, EvaluatorTypeEnum)},
             "enum_is_str": [issubclass(enum, str) for enum in (EvaluatorNameEnum, ModelProviderEnum)],
             "model_ids": [[evaluator.name, model] for evaluator, model in EVALUATOR_TO_MODEL_ID.items()],
             "metadata": [[entry.name.name, [provider.name for provider in entry.providers]]
                          for entry in EVALUATORS_METADATA],
             "metadata_lookup": [get_evaluator_metadata(evaluator).name.name for evaluator in
                                 (EvaluatorNameEnum.GPT4o, EvaluatorNameEnum.LLAMA3_3_70B)],
             "rank_indexes": [rank_indexes(numbers) for numbers in ([3, 1, 3], [0.5, 0.25, 1.0, 0.25], [])],
             "parsed_context": [get_parsed_context(context) for context in
                                ({"context": "c"}, {"Context": "c"}, {"question": "q", "doc": "d"}, {"a": "x"})],
             "empty_prediction": [str(EmptyPrediction()), EmptyPrediction is EmptyPredictionOfMetricUtils],
             "direct_criteria": [criteria_facts(criteria) for criteria in DIRECT_CRITERIA],
             "pairwise_criteria": [criteria_facts(criteria) for criteria in PAIRWISE_CRITERIA],
             "criteria_enums": {enum.__name__: [[member.name, member.value.name] for member in enum]
                                for enum in (DirectCriteriaCatalogEnum, PairwiseCriteriaCatalogEnum)},
             "catalog": {}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in names:
            artifact = fetch_artifact(name)[0]
            facts["catalog"][name] = criteria_facts(artifact) if ".criteria." in name else judge_facts(artifact)
    with open(output, "w", encoding="utf-8") as handle:
        json.dump(facts, handle, indent=1, default=str)


if __name__ == "__main__":
    main()
