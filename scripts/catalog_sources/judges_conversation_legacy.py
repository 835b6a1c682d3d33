"""Catalog: conversation judges under the names of older releases of the original
(metrics.llm_as_judge.conversation_answer_<measure>.<label>_judges), which later releases dropped, and their judge
templates (templates.response_assessment.judges.<measure>.v1).

Facts kept from those releases: each judge is a template judge (LLMAsJudge, task rating.single_turn) shown the
evaluated model's input and its answer; the `ensemble_v1_*` names combined several such judges, the `llama3_v1_*` and
`generic_inference_engine` names are one judge. Ours: the prompts are our own; an ensemble averages two judges with
equal weights (the old releases weighted theirs with a trained random forest we do not have); the retired IBM GenAI
and the WML engines become the cross-provider engine (default provider: watsonx, or UNITXT_DEFAULT_PROVIDER). Every
name is marked deprecated, naming the judge of the same measure to use instead.
"""

from _factory import make
from unitxt.templates import InputOutputTemplate

TAGS = {"kind": "metric", "family": "llm_as_judge", "deprecated": "renamed"}
RATING = ["processors.extract_mt_bench_rating_judgment"]
# measure -> (what the judge rates, the judge of this measure to use now)
MEASURES = {
    "topicality": ("whether the response contains only information related to, and helpful for, the user's last "
                   "inquiry in the conversation", "metrics.llm_as_judge.conversation.topicality.ensemble"),
    "groundedness": ("whether every claim of the response can be derived from the document(s) given with the "
                     "conversation", "metrics.llm_as_judge.conversation.groundedness.ensemble"),
    "idk": ("how clearly the response says that it does not know the answer (10: it only says it does not know; "
            "1: it answers without any such statement)", "metrics.llm_as_judge.conversation.idk.generic_judge"),
}
MODELS = ("llama-3-3-70b-instruct", "mixtral-8x7b-instruct")  # the two judges of an ensemble


def _template(measure, question):
    return InputOutputTemplate(
        instruction=f"You are an impartial judge. Rate {question}. Explain briefly, then give a rating from 1 to 10 "
                    "in double square brackets, e.g. [[6]].\n\n",
        input_format="[Conversation and inputs]\n{question}\n\n[Response]\n{answer}\n[End of response]",
        output_format="[[{rating}]]", postprocessors=RATING,
        __description__=f"Judge prompt of the conversation {measure} judges: a 1-10 rating written as [[N]] (read "
                        "as N/10).", __tags__={"task": "response assessment", "modality": "text"})


def _judge(measure, model, main):
    engine = make("generic_inference_engine", default="engines.cross_provider.llama_3_70b_instruct") \
        if model is None else make("cross_provider_inference_engine", model=model, max_tokens=256)
    return make("llm_as_judge", inference_model=engine, template=f"templates.response_assessment.judges.{measure}.v1",
                task="rating.single_turn", main_score=main, prediction_type="str", tags=dict(TAGS, measure=measure),
                description=f"Conversation {measure} judge ({model or 'generic engine'}).")


def register(add):
    for measure, (question, successor) in MEASURES.items():
        add(f"templates.response_assessment.judges.{measure}.v1", _template(measure, question))
        base = f"metrics.llm_as_judge.conversation_answer_{measure}"
        names = {}
        if measure == "idk":
            for label in ("llama3_v1_ibmgenai", "llama3_v1_wml"):
                names[f"{base}.{label}_judges"] = _judge(measure, MODELS[0], f"conversation_answer_{measure}")
            names[f"{base}.generic_inference_engine_judges"] = _judge(measure, None, f"conversation_answer_{measure}")
        else:
            for label in ("ensemble_v1_ibmgenai", "ensemble_v1_wml"):
                names[f"{base}.{label}_judges"] = make(
                    "metrics_ensemble", metrics=[_judge(measure, model, f"{measure}_judge_{index}")
                                                 for index, model in enumerate(MODELS)],
                    weights=[0.5, 0.5], tags=dict(TAGS, measure=measure),
                    description=f"Conversation {measure}: the mean of two template judges' 1-10 ratings (/10).")
        for name, judge in names.items():
            judge.__dict__["__deprecated_msg__"] = (f"{name} is a name of older releases; use {successor} (its "
                                                    "judge task names the fields it reads).")
            add(name, judge)
