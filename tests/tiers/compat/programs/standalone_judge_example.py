"""The documented example examples/standalone_evaluation_llm_as_judge.py (a judge template that asks for "[[10]]" or
"[[0]]"), its code as written, with stand-ins so it runs offline: the judge engine is an OpenAI-protocol server
at JUDGE_API_URL the model's answers are given, and the rows are public (the original sends no proprietary rows to an OpenAI engine).
Writes the scores (JSON) to argv[1].
"""

import json
import os
import sys

from unitxt.api import create_dataset, evaluate
from unitxt.blocks import Task
from unitxt.inference import OpenAiInferenceEngine
from unitxt.llm_as_judge import LLMAsJudge
from unitxt.templates import InputOutputTemplate

data = [
    {"query": "What is the capital of Texas?", "document": "The capital of Texas is Austin.",
     "reference_answer": "Austin"},
    {"query": "What is the color of the sky right now?", "document": "The sky is generally black during the night.",
     "reference_answer": "Black"},
]

judge_correctness_template = InputOutputTemplate(
    instruction="Please act as an impartial judge and evaluate if the assistant's answer is correct."
    ' Answer "[[10]]" if the answer is accurate, and "[[0]]" if the answer is wrong. '
    'Please use the exact format of the verdict as "[[rate]]". '
    "You can explain your answer after the verdict"
    ".\n\n",
    input_format="[User's input]\n{question}\n[Assistant's Answer]\n{answer}\n",
    output_format="[[{rating}]]",
    postprocessors=[r"processors.extract_mt_bench_rating_judgment"],
)

llm_judge_metric = LLMAsJudge(
    inference_model=OpenAiInferenceEngine(  # stand-in for CrossProviderInferenceEngine(model="llama-3-8b-instruct")
        model_name="judge", use_cache=False,
        credentials={"api_key": "none", "api_url": os.environ["JUDGE_API_URL"]}),
    template=judge_correctness_template,
    format="formats.chat_api",
    task="rating.single_turn",
    main_score="llm_judge_score",
    strip_system_prompt_and_format_from_inputs=False,
)

task = Task(
    input_fields={"query": str, "document": str},
    reference_fields={"reference_answer": str},
    prediction_type=str,
    metrics=[llm_judge_metric],
)

template = InputOutputTemplate(
    instruction="Answer the following query based on the provided document.",
    input_format="Document:\n{document}\nQuery:\n{query}",
    output_format="{reference_answer}",
    postprocessors=["processors.lower_case"],
)

dataset = create_dataset(test_set=data, task=task, template=template, format="formats.chat_api", split="test",
                         max_test_instances=10, data_classification_policy=["public"])  # may go to the judge server

predictions = ["Austin", "Blue"]  # stand-in for the answers of a local model: the first right, the second wrong

results = evaluate(predictions=predictions, data=dataset)
with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump({"global": results.global_scores["score"], "score_name": results.global_scores["score_name"],
               "instances": [row["score"] for row in results.instance_scores]}, out, indent=1)
