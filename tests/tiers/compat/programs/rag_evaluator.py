"""A small RAG evaluator written the way third-party tools use unitxt (runs unchanged on the original).

It keeps its own judge engine and criteria in a local catalog (add_to_catalog + register_local_catalog) and calls the
catalog's criteria judges with `[key=value]` overrides naming them: once on given answers, once on rows that carry
their answers (evaluated without predictions). The judge is an OpenAI-protocol server at JUDGE_API_URL. It writes one
JSON document of scores and chosen options (no prose) to argv[1].
"""

import json
import os
import sys
import tempfile

from unitxt import add_to_catalog, register_local_catalog
from unitxt.api import create_dataset, evaluate
from unitxt.blocks import Task
from unitxt.inference import OpenAiInferenceEngine
from unitxt.llm_as_judge_constants import CriteriaOption, CriteriaWithOptions

ROWS = [
    {"question": "What is the capital of France?", "contexts": ["France's capital city hosts the Louvre."],
     "answer": "The capital is Paris."},
    {"question": "What is the capital of France?", "contexts": ["France's capital city hosts the Louvre."],
     "answer": "It is Marseille."},
    {"question": "Where is the Louvre?", "contexts": ["The Louvre is a museum in Paris."],
     "answer": "In Paris, France."},
]


def local_catalog() -> str:
    folder = tempfile.mkdtemp()
    engine = OpenAiInferenceEngine(model_name="judge", use_cache=False,
                                   credentials={"api_key": "none", "api_url": os.environ["JUDGE_API_URL"]})
    add_to_catalog(engine, "engines.rag_eval.local_judge", catalog_path=folder, overwrite=True)
    grounded = CriteriaWithOptions(
        name="grounded_answer", description="Is the answer supported by the contexts?", prediction_field="answer",
        context_fields=["contexts", "question"],
        options=[CriteriaOption(name="Yes", description="it is"), CriteriaOption(name="No", description="it is not")],
        option_map={"Yes": 1.0, "No": 0.0})
    add_to_catalog(grounded, "criteria.rag_eval.grounded_answer", catalog_path=folder, overwrite=True)
    register_local_catalog(folder)
    return folder


def scores(results):
    main = results.global_scores["score_name"]
    return {"score_name": main, "global": results.global_scores[main],
            "instances": [[row[main], row[f"{main}_selected_option"], row[f"{main}_positional_bias"]]
                          for row in results.instance_scores]}


def main() -> None:
    local_catalog()
    relevance = ("metrics.llm_as_judge.direct.rits.llama3_3_70b[inference_engine=engines.rag_eval.local_judge,"
                 "criteria=metrics.llm_as_judge.direct.criteria.answer_relevance,context_fields=[question]]")
    grounded = ("metrics.llm_as_judge.direct.watsonx.llama3_3_70b[inference_engine=engines.rag_eval.local_judge,"
                "criteria=criteria.rag_eval.grounded_answer,context_fields=[contexts,question]]")
    report = {}
    for label, metric, predictions in (("relevance", relevance, [row["answer"] for row in ROWS]),
                                       ("grounded", grounded, None)):
        task = Task(input_fields={"question": str, "contexts": list, "answer": str}, reference_fields={},
                    prediction_type=str, metrics=[metric], default_template="templates.empty")
        dataset = create_dataset(task=task, test_set=ROWS, split="test", data_classification_policy=["public"])
        report[label] = scores(evaluate(predictions=predictions, data=dataset))
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        json.dump(report, out, indent=1, sort_keys=True, default=str)


if __name__ == "__main__":
    main()
