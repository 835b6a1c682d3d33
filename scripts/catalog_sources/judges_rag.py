"""Catalog: template judges (metrics.llm_as_judge.rating.*, .pairwise_comparative_rating.*), task-based RAG and
conversation judges (metrics.rag.<measure>.*, metrics.llm_as_judge.conversation.*) with their judge tasks
(tasks.rag_eval.*) and templates (templates.rag_eval.*), judge post-processors and the judge meta-evaluation metric.

RAG judges read the RAG task's fields (question, contexts, reference_answers) from task_data and the prediction as
the answer; `_judge` variants read a 0-10 rating "[[N]]" (N/10), `_judge_logprobs` variants the probability of "Yes".
"""

from templates_rag_eval_judges import VERDICT_FIELD
from unitxt.inference import CrossProviderInferenceEngine, HFPipelineBasedInferenceEngine
from unitxt.llm_as_judge import LLMAsJudge, MetricsEnsemble, TaskBasedLLMasJudge
from unitxt.llm_as_judge_meta import (
    ExtractArenaHardNumericalJudgment,
    ExtractHarmRatingJudgement,
    ExtractMtBenchLabelJudgment,
    ExtractSafeUnsafeJudgment,
    ExtractVerbalJudgementBadGood,
    ExtractVerbalJudgment,
)
from unitxt.processors import PostProcess
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate, PairwiseComparativeRatingTemplate, TemplatesList

TAGS = {"kind": "metric", "family": "llm_as_judge"}
RATING = ["processors.extract_mt_bench_rating_judgment"]
# judge post-processors the original applies to the prediction only (its catalog's PostProcess settings)
PREDICTION_ONLY = {"extract_arena_hard_numerical_judgment", "extract_verbal_judgement_bad_good"}

# measure -> (judge task input fields, what the judge is asked, judge field -> task_data field)
MEASURES = {
    "faithfulness": ({"question": "str", "contexts": "List[str]", "answer": "str"},
                     "Is every claim of the answer supported by the contexts?", {}),
    "answer_correctness": ({"question": "str", "answer": "str", "ground_truths": "List[str]"},
                           "Does the answer say the same as the ground-truth answers, with nothing wrong added?",
                           {"ground_truths": "reference_answers"}),
    "context_relevance": ({"question": "str", "contexts": "List[str]"},
                          "Do the contexts hold what is needed to answer the question?", {}),
    "answer_relevance": ({"question": "str", "answer": "str"},
                         "Does the answer address the question that was asked?", {}),
    "groundedness": ({"contexts": "List[str]", "answer": "str"},
                     "Can every substantial claim of the answer be derived from the contexts?", {}),
    "idk": ({"question": "str", "answer": "str"},
            "Does the answer decline to answer, saying it does not know? (Yes means it does.)", {}),
    "topicality": ({"question": "str", "answer": "str"},
                   "Does the answer contain only information related to, and helpful for, the question?", {}),
}
PREDICTION_FIELD = {"context_relevance": None}
CONVERSATION = ("groundedness", "idk", "topicality")


def _layout(fields):
    return "\n\n".join(f"{name.replace('_', ' ').capitalize()}:\n{{{name}}}" for name in fields)


def _tasks_and_templates(add):
    for measure, (fields, question, _) in MEASURES.items():
        score = "number_val" if measure in VERDICT_FIELD else "score"  # the original's judge tasks: number_val
        if measure not in VERDICT_FIELD:  # those are in templates_rag_eval_judges.py, in the original's schema
            add(f"tasks.rag_eval.{measure}.binary", Task(
                input_fields=fields, reference_fields={"score": "float"}, prediction_type="float",
                metrics=["metrics.spearman"], default_template=f"templates.rag_eval.{measure}.default",
                __description__=f"Judge task ({measure}): {question} The score is in 0..1.",
                __tags__={"task": "response assessment", "modality": "text"}))
        tags = {"task": "response assessment", "modality": "text"}
        rating = InputOutputTemplate(
            instruction=f"You are a careful evaluator. {question} Explain briefly, then give a rating from 0 (not at "
                        "all) to 10 (fully) in double square brackets, e.g. [[7]].\n\n",
            input_format=_layout(fields), output_format=f"[[{{{score}}}]]", postprocessors=RATING,
            __description__=f"Judge prompt for {measure}: a 0-10 rating written as [[N]] (read as N/10).",
            __tags__=tags)
        logprobs = InputOutputTemplate(
            instruction=f"{question} Answer with a single word: Yes or No.\n\n",
            input_format=_layout(fields), target_prefix="Answer: ", output_format=f"{{{score}}}",
            postprocessors=["processors.cast_to_float_return_nan_if_failed"],
            __description__=f"Judge prompt for {measure} read by log-probs: the probability of 'Yes'.", __tags__=tags)
        add(f"templates.rag_eval.{measure}.default", rating)
        add(f"templates.rag_eval.{measure}.logprobs", logprobs)
        add(f"templates.rag_eval.{measure}.all", TemplatesList(
            [f"templates.rag_eval.{measure}.default", f"templates.rag_eval.{measure}.logprobs"],
            __description__=f"Every judge template of {measure} (for tasks.rag_eval.{measure}.binary).",
            __tags__=dict(tags)))


JUDGE_MODELS = {  # catalog label -> (engine for the rating judge, engine for the log-prob judge)
    "generic": ("engines.generic", None),
    "llama_3_3_70b_instruct_watsonx": (
        CrossProviderInferenceEngine(model="llama-3-3-70b-instruct", provider="watsonx", max_tokens=512,
                                     temperature=0.0, seed=42),
        "engines.classification.llama_3_3_70b_instruct_watsonx"),
    "llama_3_3_70b_instruct_rits": (
        CrossProviderInferenceEngine(model="llama-3-3-70b-instruct", provider="rits", max_tokens=512,
                                     temperature=0.0, seed=42),
        "engines.classification.llama_3_3_70b_instruct_rits"),
    "gpt_4o_openai": (
        CrossProviderInferenceEngine(model="gpt-4o", provider="open-ai", max_tokens=512, temperature=0.0, seed=42),
        "engines.classification.gpt_4o_openai"),
}


def _judge(measure, engine, logprobs):
    _, question, mapping = MEASURES[measure]
    suffix = "_logprobs" if logprobs else ""
    return TaskBasedLLMasJudge(
        inference_model=engine, task=f"tasks.rag_eval.{measure}.binary",
        template=f"templates.rag_eval.{measure}." + ("logprobs" if logprobs else "default"),
        main_score=f"{measure}_judge{suffix}",
        prediction_field=PREDICTION_FIELD.get(measure, "answer"), infer_log_probs=logprobs,
        judge_to_generator_fields_mapping=mapping,
        __description__=f"LLM judge of {measure}: {question} "
                        + ("Score: P(Yes) from the judge's log-probs." if logprobs else "Score: a 0-10 rating / 10."),
        __tags__=dict(TAGS, measure=measure))


def _rag_judges(add):
    for measure in MEASURES:
        prefix = "metrics.llm_as_judge.conversation" if measure in CONVERSATION else "metrics.rag"
        if measure == "groundedness":
            prefix = "metrics.rag"
        for label, (engine, logprob_engine) in JUDGE_MODELS.items():
            add(f"{prefix}.{measure}.{label}_judge", _judge(measure, engine, False))
            if logprob_engine is not None:
                add(f"{prefix}.{measure}.{label}_judge_logprobs", _judge(measure, logprob_engine, True))
        if measure in CONVERSATION:
            add(f"metrics.llm_as_judge.conversation.{measure}.ensemble", MetricsEnsemble(
                metrics=[f"{prefix}.{measure}.llama_3_3_70b_instruct_watsonx_judge",
                         f"{prefix}.{measure}.llama_3_3_70b_instruct_watsonx_judge_logprobs"],
                weights=[0.5, 0.5], main_score=f"{measure}_ensemble",
                __description__=f"Ensemble of two {measure} judges (0-10 rating and log-prob), equal weights.",
                __tags__=dict(TAGS, measure=measure)))


def _rating_judges(add):
    add("templates.response_assessment.pairwise_comparative_rating.arena_hard", PairwiseComparativeRatingTemplate(
        instruction="You compare two AI assistants' answers to the user prompt below. First write your own answer, "
                    "then compare both answers with it, noting mistakes, missing information, relevance and "
                    "concision. End with exactly one verdict: [[A>>B]] (A much better), [[A>B]] (A better), "
                    "[[A=B]] (tie), [[B>A]] (B better) or [[B>>A]] (B much better).\n\n",
        input_format="<|User Prompt|>\n{question}\n\n<|Assistant A's Answer|>\n{answer_a}\n<|End of Assistant A's "
                     "Answer|>\n\n<|Assistant B's Answer|>\n{answer_b}\n<|End of Assistant B's Answer|>",
        choice_a_field="answer_a", choice_b_field="answer_b", choice_a_id_field="model_a",
        choice_b_id_field="model_b", answer_field="answer_a_preference", shuffle=False,
        output_format="{answer_a_preference}", postprocessors=["processors.extract_arena_hard_numerical_judgment"],
        __description__="Arena-Hard style pairwise judge prompt over a signed preference for answer A (the answers in "
                        "the given order): verdict [[A>>B]]..[[B>>A]] read as 3..-3.",
        __tags__={"task": "response assessment", "modality": "text"}))
    mistral = HFPipelineBasedInferenceEngine(model_name="mistralai/Mistral-7B-Instruct-v0.2", max_new_tokens=256,
                                             use_fp16=True)
    label = "mistral_7b_instruct_v0_2_huggingface_template_mt_bench_single_turn"
    add(f"metrics.llm_as_judge.rating.{label}", LLMAsJudge(
        inference_model=mistral, template="templates.response_assessment.rating.mt_bench_single_turn",
        task="rating.single_turn", format="formats.models.mistral.instruction", main_score=label,
        prediction_type="str", __description__="MT-Bench single-answer judge (1-10 rating, read as N/10) run by Mistral-7B-Instruct-v0.2 "
                        "locally (transformers, torch).", __tags__=TAGS))
    for name, engine in (("generic", "engines.generic"),
                         ("llama_3_3_70b_instruct_watsonx", JUDGE_MODELS["llama_3_3_70b_instruct_watsonx"][0]),
                         ("gpt_4o_openai", JUDGE_MODELS["gpt_4o_openai"][0])):
        for task, template in (("rating.single_turn", "mt_bench_single_turn"),
                               ("rating.single_turn_with_reference", "mt_bench_single_turn_with_reference")):
            main = f"{name}_template_{template}"
            add(f"metrics.llm_as_judge.rating.{main}", LLMAsJudge(
                inference_model=engine, template=f"templates.response_assessment.rating.{template}", task=task,
                main_score=main, __description__=f"MT-Bench style rating judge ({template}), engine: {name}.",
                __tags__=TAGS))
        main = f"{name}_template_arena_hard"
        add(f"metrics.llm_as_judge.pairwise_comparative_rating.{main}", LLMAsJudge(
            inference_model=engine, template="templates.response_assessment.pairwise_comparative_rating.arena_hard",
            task="pairwise_comparative_rating.single_turn", main_score=main,
            __description__=f"Arena-Hard style pairwise judge (prediction = answer A, first reference = answer B; "
                            f"score 3..-3), engine: {name}.", __tags__=TAGS))


def register(add):
    _tasks_and_templates(add)
    _rag_judges(add)
    _rating_judges(add)
    processors = {  # descriptions: the classes' own first docstring lines (the original system's rules)
        "extract_arena_hard_numerical_judgment": ExtractArenaHardNumericalJudgment(),
        "extract_harm_rating_judgement": ExtractHarmRatingJudgement(),
        "extract_verbal_judgement_bad_good": ExtractVerbalJudgementBadGood(),
        "extract_verbal_judgment": ExtractVerbalJudgment(),
        "extract_mt_bench_label_judgment": ExtractMtBenchLabelJudgment(),
        "extract_safe_unsafe_judgment": ExtractSafeUnsafeJudgment(),
    }
    for name, processor in processors.items():
        described = type(processor).__doc__.strip().splitlines()[0]
        if name in PREDICTION_ONLY:  # the original maps the judge's output only; references stay as given
            processor = PostProcess(operator=processor, process_prediction=True, process_references=False)
        processor.__dict__["__description__"] = described
        processor.__dict__["__tags__"] = {"kind": "processor", "family": "llm_as_judge"}
        add(f"processors.{name}", processor)

