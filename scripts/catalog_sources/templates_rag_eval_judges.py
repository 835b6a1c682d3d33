"""Catalog: the RAG judge prompts (templates.rag_eval.<measure>.<variant>) and the judge tasks they add
(tasks.rag_eval.correctness_holistic.*, tasks.rag_eval.<measure>.non_binary).

A variant = what the judge sees (question / contexts / answer / ground truths) x how it answers, which fixes the
post-processors that turn the answer into a 0..1 score:
  yes/no -> 1/0 (first word); logprobs -> P(Yes) from the first token's log-probs; numeric -> a 0-10 rating / 10;
  verbal -> a four-level grounding verdict; verbal_good_bad -> a [[verdict]] on a bad..good scale;
  explain_first -> reasoning, then [[Yes]] / [[No]]; metric_template -> the answer is already a number.
Wording is ours; the fields and the post-processing follow the judge metrics that use these names.
"""

from unitxt.task import Task
from unitxt.templates import TemplatesList
from unitxt.templates.judging import InputOutputTemplateWithCustomTarget

P = "processors."
POST = {  # answer style -> (how to answer, post-processors)
    "yes_no": ("Answer with one word, Yes or No, and nothing else.",
               ["take_first_word", "lower_case", "predictions_yes_1_else_0", "cast_to_float_return_zero_if_failed"]),
    "explain": ("Start your reply with Yes or No; you may add a one-sentence reason after it.",
                ["take_first_word", "lower_case", "predictions_yes_1_else_0", "cast_to_float_return_zero_if_failed"]),
    "logprobs": ("Answer with one word, Yes or No.",
                 ["load_json_from_predictions", "infer_logprobs_to_yes_no_probs",
                  "cast_to_float_return_zero_if_failed"]),
    "numeric": ("Give only a whole number from 0 (not at all) to 10 (fully).",
                ["take_first_word", "lower_case", "cast_to_float_return_zero_if_failed", "scale_0_10_to_0_1"]),
    "verbal": ("Reply with exactly one of: \"Completely grounded\", \"Mostly grounded\", \"Somewhat grounded\", "
               "\"Not grounded\" — nothing else.",
               ["take_first_word", "lower_case", "extract_verbal_judgement"]),
    "verbal_good_bad": ("Finish with your verdict in double square brackets, one of [[Very Bad]], [[Bad]], "
                        "[[Mediocre]], [[Good]], [[Very Good]].",
                        ["extract_from_double_brackets", "extract_verbal_judgement_bad_good",
                         "cast_to_float_return_zero_if_failed"]),
    "explain_first": ("Think it through in a few sentences first, then end with [[Yes]] or [[No]].",
                      ["extract_from_double_brackets", "lower_case", "yes_no_to_int",
                       "cast_to_float_return_zero_if_failed"]),
    "explain_first_logprobs": ("Think it through in a few sentences first, then end with Yes or No.",
                               ["load_json_from_predictions", "infer_last_token_logprobs_to_yes_no_probs",
                                "cast_to_float_return_zero_if_failed"]),
    "metric_template": ("", ["to_string_stripped", "cast_to_float_return_zero_if_failed"]),
}
LABELS = {"question": "Question", "contexts": "Retrieved passages", "answer": "Response to judge",
          "ground_truths": "Reference answers"}
QA, QAG, QCA, CA, QC = (["question", "answer"], ["question", "answer", "ground_truths"],
                        ["question", "contexts", "answer"], ["contexts", "answer"], ["question", "contexts"])
FAITHFUL = "Is the response supported by the passages — is everything it states found in, or implied by, them?"
# measure -> {variant base: (fields, the judge's question)}; then the answer-style suffixes it comes in
FAMILIES = {
    "answer_correctness": {
        "judge_instruct_qa_format": (QAG, "Does the response answer the question correctly, judged against the "
                                          "reference answers?", ["", "logprobs"]),
        "judge_loose_match_no_context": (QAG, "Does the response convey the key information of a reference answer "
                                              "(wording may differ, extra harmless detail is fine)?",
                                         ["", "logprobs", "numeric", "verbal", "verbal_good_bad"]),
        "judge_simplified_format": (QAG, "Is the response correct according to the reference answers?",
                                    ["", "logprobs"]),
        "judge_simplified_no_context": (QAG, "Does the response agree with the reference answers?", ["", "logprobs"]),
        "judge_simplified_with_context": (["question", "contexts", "answer", "ground_truths"],
                                          "Using the passages and the reference answers, is the response correct?",
                                          ["", "logprobs"]),
        "metric_template": (QAG, "Score the response's correctness against the reference answers.", None),
    },
    "answer_relevance": {
        "judge_answer_relevance": (QA, "Does the response address what the question asks?",
                                   ["", "logprobs", "numeric", "verbal_good_bad"]),
        "metric_template": (QA, "Score how relevant the response is to the question.", None),
    },
    "context_relevance": {
        "judge_context_relevance": (QC, "Are the passages relevant to the question?", ["", "logprobs"]),
        "judge_context_relevance_ares": (QC, "Do the passages hold information that helps answer the question?",
                                         ["", "logprobs", "numeric", "verbal", "verbal_good_bad"]),
        "metric_template": (QC, "Score how relevant the passages are to the question.", None),
    },
    "correctness_holistic": {
        "judge_correctness_simple": (QCA, "Taking the passages into account, is the response a correct answer to "
                                          "the question?", ["", "logprobs", "numeric"]),
        "judge_correctness_explain_first": (QCA, "Taking the passages into account, is the response a correct "
                                                 "answer to the question?", ["explain_first",
                                                                             "explain_first_logprobs"]),
        "metric_template": (QCA, "Score the response's overall correctness.", None),
    },
    "faithfulness": {
        "judge_no_question_full": (CA, FAITHFUL + " Check each statement of the response in turn.",
                                   ["", "logprobs"]),
        "judge_no_question_simplified": (CA, FAITHFUL, ["", "explain", "explain_logprobs", "logprobs", "numeric",
                                                        "verbal", "verbal_good_bad"]),
        "judge_with_question_full": (QCA, FAITHFUL + " The question is context only; check each statement of the "
                                                     "response in turn.", ["", "logprobs"]),
        "judge_with_question_simplified": (QCA, FAITHFUL + " The question is context only.",
                                           ["", "logprobs", "numeric", "verbal", "verbal_good_bad"]),
        "metric_template": (QCA, "Score how faithful the response is to the passages.", None),
    },
}
TASK_FIELDS = {"answer_correctness": ["question", "contexts", "answer", "ground_truths"], "answer_relevance": QA,
               "context_relevance": QC, "correctness_holistic": QCA, "faithfulness": QCA}
# the original's judge-task schema: the yes/no verdict field of each measure (a list of strings, as written by human
# annotators) and `number_val`, the human score the judge's number is compared with; `choices` names the verdicts
VERDICT_FIELD = {"answer_correctness": "is_correct", "answer_relevance": "is_relevant",
                 "context_relevance": "is_context_relevant", "correctness_holistic": "is_correct",
                 "faithfulness": "is_faithful"}
BINARY_METRICS = ["metrics.spearman", "metrics.kendalltau_b", "metrics.roc_auc", "metrics.f1_binary",
                  "metrics.accuracy_binary", "metrics.max_f1_binary", "metrics.max_accuracy_binary"]
TYPES = {"question": "str", "answer": "str", "contexts": "List[str]", "ground_truths": "List[str]"}
TAGS = {"task": "response assessment", "modality": "text"}


def _template(measure, fields, question, style):
    how, post = POST[style]
    return InputOutputTemplateWithCustomTarget(
        instruction=f"You are grading a retrieval-augmented answer. {question} {how}".strip() + "\n",
        input_format="\n\n".join(f"{LABELS[field]}:\n{{{field}}}" for field in fields) + "\n",
        target_prefix="Answer: ", output_format=f"{{{VERDICT_FIELD[measure]}}}", reference="{number_val}",
        postprocessors=[P + p for p in post],
        __description__=f"RAG judge prompt ({style.replace('_', ' ')}): {question}", __tags__=dict(TAGS))


def register(add):
    for measure, variants in FAMILIES.items():
        names = []
        for base, (fields, question, suffixes) in variants.items():
            for suffix in suffixes or [""]:
                if base == "metric_template":
                    style = "metric_template"
                elif suffix in ("", "explain"):
                    style = "yes_no" if suffix == "" else "explain"
                elif suffix == "explain_logprobs":
                    style = "logprobs"
                else:
                    style = suffix
                name = f"templates.rag_eval.{measure}.{base}" + (
                    f"_{suffix}" if suffix and not suffix.startswith("explain_first") else "")
                if suffix.startswith("explain_first"):
                    name = f"templates.rag_eval.{measure}.judge_correctness_{suffix}"
                add(name, _template(measure, fields, question, style))
                names.append(name)
        if measure == "correctness_holistic":
            add("templates.rag_eval.correctness_holistic.default",
                _template(measure, QCA, variants["judge_correctness_simple"][1], "numeric"))
            names.append("templates.rag_eval.correctness_holistic.default")
            add("templates.rag_eval.correctness_holistic.all", TemplatesList(  # the ones that read numbers back
                [n for n in names if n.endswith(("default", "numeric", "metric_template"))], __description__="Every judge prompt of correctness_holistic.", __tags__=dict(TAGS)))
    for measure in VERDICT_FIELD:
        for kind in ("binary", "non_binary"):
            add(f"tasks.rag_eval.{measure}.{kind}", rag_eval_task(measure, kind))


def rag_eval_task(measure, kind):
    """The judge task of a RAG measure in the original's schema (fields, verdict + number_val references, defaults,
    metrics); the default template is ours."""
    verdict = VERDICT_FIELD[measure]
    defaults = {"choices": ["yes", "no"], verdict: ["-"], "number_val": -1}
    if measure == "answer_correctness":
        defaults["contexts"] = ["-"]
    return Task(
        input_fields={**{field: TYPES[field] for field in TASK_FIELDS[measure]}, "choices": "List[str]"},
        reference_fields={verdict: "List[str]", "number_val": "Union[float, int]"}, prediction_type="float",
        metrics=BINARY_METRICS if kind == "binary" else ["metrics.spearman", "metrics.kendalltau_b"],
        defaults=defaults, default_template=f"templates.rag_eval.{measure}.default",
        __description__=f"Judge task ({measure.replace('_', ' ')}, {'yes/no' if kind == 'binary' else 'graded'} "
                        f"human labels): the judge's 0..1 score is compared with number_val (the human score; "
                        f"{verdict} holds the annotators' verdicts).", __tags__=dict(TAGS))
