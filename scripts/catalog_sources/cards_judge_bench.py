"""Catalog: JUDGE-BENCH (dmg-illc/JUDGE-BENCH on GitHub) - human judgments of model outputs, one card per dataset and
annotated aspect, for meta-evaluating LLM judges (cards.judge_bench.<dataset>.<aspect>).

Facts from the repository's data files: each is a JSON object whose `instances` list holds {"id", "instance",
"annotations"}; `instance` is the text shown to the annotators (or, for DICES and WMT, a dict of its parts) and
`annotations` maps each aspect name to {"majority_human" (categorical aspects), "mean_human" (graded aspects),
"individual_human_scores"}. ROSCOE texts lay out a situation (premise), a claim (hypothesis), the correct relationship
and a generated step-by-step response (stepwise files add the judged step after "JUDGE:"); Newsroom texts hold a
generated summary then its source article; Inferential Strategies texts a problem statement with its statements and
the model's response. Categorical gold labels become 1.0 / 0.0 (for ROSCOE's error aspects 1.0 means the error is
absent), graded means are scaled to 0..1. Each card names the direct-assessment criteria that fits its aspect.
"""

import re
from typing import Dict, List, Tuple

from _shared import card_tags
from unitxt.card import TaskCard
from unitxt.loaders import LoadJsonFile
from unitxt.operators import (
    Cast,
    Copy,
    ExecuteExpression,
    FilterByCondition,
    GroupDictWithRegex,
    MapInstanceValues,
    Rename,
    Set,
)
from unitxt.task import Task

SAMPLED_ON_MIRRORS = True  # compared with the original's cards in the compat tier (tests/support/card_family_sources.py)

DATA = "https://raw.githubusercontent.com/dmg-illc/JUDGE-BENCH/refs/heads/master/data"
REPO = "https://github.com/dmg-illc/JUDGE-BENCH"
PAPER = "https://arxiv.org/abs/2406.18403"
CRITERIA = "metrics.llm_as_judge.direct.criteria."
FLOAT_TEMPLATE = "templates.empty[postprocessors=[processors.cast_to_float_return_nan_if_failed]]"
ROSCOE_QUESTION = "Is the Hypothesis supported by the Premise?"
DOTALL = int(re.DOTALL)


def _layout(*pieces: Tuple[str, str], lead: str = ".*?") -> str:
    """A regex reading labelled sections in order. Each piece is (literal label, what follows it): a group name
    in angle brackets (read lazily, or greedily when it is the last piece) optionally preceded by the whitespace
    rule; the label's own text is matched literally."""
    pattern = lead
    for index, (label, follow) in enumerate(pieces):
        last = index == len(pieces) - 1
        if index:
            pattern += r"\s+"
        pattern += re.escape(label)
        space, _, group = follow.partition("<")
        if group:
            pattern += (space or r"\s+") + f"(?P<{group.rstrip('>')}>.{'*' if last else '*?'})"
        else:
            pattern += space
    return pattern


_ROSCOE_CONTEXT = [("Situation (Premise):", "<premise>"), ("Claim (Hypothesis):", "<hypothesis>"),
                   ("Is the Claim supported by the Situation?", ""),
                   ("Correct Relationship (Yes or No):", r"\s<correct_answer>"),
                   ("GENERATED RESPONSE:", "<model_reasoning>")]
# the overall files end the response with a fixed request; the stepwise files add the judged step (minus the final
# whitespace character of the text)
ROSCOE_OVERALL = _layout(*_ROSCOE_CONTEXT, ("Judge the generated response:", ""))
ROSCOE_STEPWISE = _layout(*_ROSCOE_CONTEXT, ("JUDGE:", "<judged_step>")) + r"\s+"
NEWSROOM = _layout(("### Generated Summary", "<generated_summary>"), ("### Source Article", "<source_article>"),
                   lead="")
INFERENTIAL = (".*?" + re.escape("### PROBLEM STATEMENT") + r"\s+(?P<problem_statement>.*?)\s+" + re.escape("Statements:")
               + r"\s+(?P<statements>.*?)\s+" + re.escape("Let's think step by step.") + r"\s*"
               + re.escape("### MODEL RESPONSE") + r"\s+(?P<model_reasoning>.*)")

YES_NO = {"Yes": 1.0, "No": 0.0}
ERROR_ABSENT = {"Yes": 0.0, "No": 1.0}  # ROSCOE asks whether a step has an error: "no" is the good answer
LOWER_YES_NO = {"no": "No", "yes": "Yes"}
BINARY_METRICS = ["metrics.accuracy", "metrics.f1_macro"]

# ROSCOE: dataset -> file stem; aspects -> (annotation name, criteria)
ROSCOE_DATASETS = {"cosmos": "cosmos", "drop": "drop", "esnli": "esnli"}
ROSCOE_STEP_ASPECTS = {
    "arithmetic": ("Arithmetic", "step_by_step_reasoning_arithmetic"),
    "coherency_and_logic": ("Coherency and Logic", "step_by_step_reasoning_non_coherent"),
    "commonsense": ("Commonsense", "step_by_step_reasoning_commonsense"),
    "factuality": ("Factuality", "step_by_step_reasoning_non_factual"),
    "final_answer": ("Final Answer", "step_by_step_reasoning_bad_final_answer"),
    "grammar": ("Grammar", "step_by_step_reasoning_bad_grammar"),
    "hallucination": ("Hallucination", "step_by_step_reasoning_hallucination"),
    "redundancy": ("Redundancy", "step_by_step_reasoning_redundancy"),
    "repetition": ("Repetition", "step_by_step_reasoning_repetition"),
}
# overall aspects: (annotation name, criteria, graded)
ROSCOE_OVERALL_ASPECTS = {
    "coherence": ("Coherency", "step_by_step_reasoning_coherency", True),
    "contradiction": ("Contradiction", "step_by_step_reasoning_contradiction", False),
    "missing_steps": ("Missing Steps", "step_by_step_reasoning_missing_steps", False),
    "overall_quality": ("Overall Quality", "step_by_step_reasoning_overall_quality", True),
}
NEWSROOM_ASPECTS = ["coherence", "fluency", "informativeness", "relevance"]
WMT_PAIRS = {"chinese_to_english": ("zh_en", "chinese", "english"),
             "english_to_german": ("en_de", "english", "german")}


def _task(inputs: Dict[str, str], graded: bool, description: str) -> Task:
    reference = "mean_score" if graded else "label_value"
    return Task(input_fields={**inputs}, reference_fields={reference: "float"}, prediction_type="float",
                metrics=["metrics.pearson", "metrics.spearman"] if graded else list(BINARY_METRICS),
                default_template=FLOAT_TEMPLATE, __description__=description,
                __tags__={"task": "response assessment", "modality": "text"})


def _binary_gold(annotation: str, values: Dict[str, float], relabel: Dict[str, str] = None) -> List:
    """`label` (the majority vote, relabelled to Yes/No) and `label_value` (its number)."""
    steps = [Rename(field=f"annotations/{annotation}/majority_human", to_field="label")]
    if relabel:
        steps.append(MapInstanceValues(mappers={"label": relabel}))
    return steps + [Copy(field="label", to_field="label_value"),
                    MapInstanceValues(mappers={"label_value": values})]


def _graded_gold(annotation: str, expression: str) -> List:
    return [Rename(field=f"annotations/{annotation}/mean_human", to_field="mean_score"),
            Cast(field="mean_score", to="float"),
            ExecuteExpression(expression=expression, to_field="mean_score")]


def _card(files: Dict[str, str], steps: List, task: Task, description: str, dataset_url: str,
          templates: List[str] = ()) -> TaskCard:
    return TaskCard(
        loader=LoadJsonFile(files={split: f"{DATA}/{path}" for split, path in files.items()}, data_field="instances",
                            data_classification_policy=["public"]),
        preprocess_steps=steps, task=task, templates=list(templates),
        __description__=description + " Data: JUDGE-BENCH on GitHub (raw files of its master branch).",
        __tags__=card_tags("response assessment", dataset_url=f"{REPO}/tree/master/data", paper=PAPER),
    )


def _roscoe_cards(add):
    question = {"question": ROSCOE_QUESTION}
    step_inputs = {"premise": "str", "hypothesis": "str", "question": "str", "model reasoning": "str",
                   "correct answer": "str", "criteria": "Any", "step": "str"}
    overall_inputs = {"premise": "str", "hypothesis": "str", "question": "str", "generated response": "str",
                      "correct answer": "str", "criteria": "Any"}
    for dataset, stem in ROSCOE_DATASETS.items():
        for aspect, (annotation, criteria) in ROSCOE_STEP_ASPECTS.items():
            add(f"cards.judge_bench.roscoe.stepwise.{dataset}.{aspect}", _card(
                {"test": f"roscoe/roscoe-{stem}-stepwise.json"},
                [GroupDictWithRegex(field="instance", pattern=ROSCOE_STEPWISE, flags=DOTALL),
                 Rename(field_to_field={"instance/premise": "premise", "instance/hypothesis": "hypothesis",
                                        "instance/model_reasoning": "model reasoning",
                                        "instance/correct_answer": "correct answer", "instance/judged_step": "step"}),
                 *_binary_gold(annotation, ERROR_ABSENT, LOWER_YES_NO),
                 Set(fields={"criteria": CRITERIA + criteria, **question})],
                _task(step_inputs, False, f"Judge one step of a step-by-step answer for {annotation.lower()} "
                                          "errors (1.0: no error)."),
                f"ROSCOE ({dataset}, stepwise): one reasoning step of a model's answer on whether a claim follows "
                f"from a situation, with the annotators' majority verdict on whether the step has a "
                f"'{annotation}' error (gold 1.0 when it has none).", f"{REPO}"))
        for aspect, (annotation, criteria, graded) in ROSCOE_OVERALL_ASPECTS.items():
            gold = (_graded_gold(annotation, "(mean_score - 1) / 4") if graded
                    else _binary_gold(annotation, ERROR_ABSENT, LOWER_YES_NO))
            add(f"cards.judge_bench.roscoe.overall.{dataset}.{aspect}", _card(
                {"test": f"roscoe/roscoe-{stem}-overall.json"},
                [GroupDictWithRegex(field="instance", pattern=ROSCOE_OVERALL, flags=DOTALL),
                 Rename(field_to_field={"instance/premise": "premise", "instance/hypothesis": "hypothesis",
                                        "instance/model_reasoning": "generated response",
                                        "instance/correct_answer": "correct answer"}),
                 *gold,
                 Set(fields={"criteria": CRITERIA + criteria, **question})],
                _task(overall_inputs, graded,
                      f"Rate a whole step-by-step answer for {annotation.lower()} "
                      + ("(mean human grade 1..5 scaled to 0..1)." if graded else "(1.0: the problem is absent).")),
                f"ROSCOE ({dataset}, overall): a model's whole step-by-step answer on whether a claim follows from a "
                f"situation, with the annotators' " + (f"mean '{annotation}' grade (1..5, scaled to 0..1)."
                                                       if graded else f"majority verdict on '{annotation}' "
                                                                      "(gold 1.0 when absent)."), REPO))


def _other_cards(add):
    for aspect in NEWSROOM_ASPECTS:
        add(f"cards.judge_bench.newswoom.{aspect}", _card(
            {"test": "newsroom/newsroom.json"},
            [*_graded_gold(aspect.capitalize(), "(mean_score - 1) / 4"),
             GroupDictWithRegex(field="instance", pattern=NEWSROOM, flags=DOTALL),
             Rename(field="instance/generated_summary", to_field="summary"),
             Rename(field="instance/source_article", to_field="article"),
             Set(fields={"criteria": f"{CRITERIA}summarization_{aspect}"})],
            _task({"summary": "str", "article": "str", "criteria": "Any"}, True,
                  f"Rate a summary's {aspect} against its article (mean human grade 1..5 scaled to 0..1)."),
            f"Newsroom human evaluation: generated news summaries with their source articles and the annotators' mean "
            f"{aspect} grade (1..5, scaled to 0..1). (The catalog name keeps the original's spelling 'newswoom'.)",
            REPO))
    add("cards.judge_bench.cola.grammaticality", _card(
        {"test": "cola/cola.json"},
        [Rename(field="instance", to_field="response"),
         *_binary_gold("grammaticality", YES_NO),
         Set(fields={"criteria": f"{CRITERIA}grammar_and_punctuation"})],
        _task({"response": "str", "label": "str", "criteria": "Any"}, False,
              "Judge whether a sentence is grammatical (1.0: grammatical)."),
        "CoLA sentences with the annotators' majority verdict on grammaticality (Yes = 1.0).", REPO))
    add("cards.judge_bench.dices.safety", _card(
        {"test": "dices/dices_990.json"},
        [Rename(field="instance/user_prompt", to_field="user message"),
         Rename(field="instance/response", to_field="assistant message"),
         *_binary_gold("safety", YES_NO),
         Set(fields={"criteria": f"{CRITERIA}assistant_message_general_harm"})],
        _task({"user message": "str", "assistant message": "str", "label": "str", "criteria": "Any"}, False,
              "Judge whether an assistant's reply to a conversation is harmful (1.0: the majority said Yes)."),
        "DICES-990: a conversation so far (user message) and a chatbot reply, with the crowd's majority safety "
        "verdict (Yes = 1.0; an 'Unsure' majority has no number and is refused).", REPO))
    add("cards.judge_bench.inferential_strategies.sound_reasoning", _card(
        {"test": "inferential-strategies/inferential_strategies.json"},
        [GroupDictWithRegex(field="instance", pattern=INFERENTIAL, flags=DOTALL),
         FilterByCondition(values={"instance/problem_statement": True}, condition="exists"),
         Rename(field_to_field={"instance/problem_statement": "problem statement", "instance/statements": "statements",
                                "instance/model_reasoning": "model reasoning"}),
         *_binary_gold("Sound Reasoning", YES_NO, LOWER_YES_NO),
         Set(fields={"criteria": f"{CRITERIA}logical_validity_of_reasoning"})],
        _task({"problem statement": "str", "statements": "str", "model reasoning": "str", "label": "str",
               "criteria": "Any"}, False, "Judge whether a model's propositional-logic reasoning is sound."),
        "Inferential Strategies: a model's reasoning on a propositional-logic problem (statements and a conclusion) "
        "with the annotators' majority verdict on its soundness (yes = 1.0); texts not in the problem/response "
        "layout are dropped.", REPO))
    toxic_files = {"train": "toxic_chat/toxic_chat_train.json", "test": "toxic_chat/toxic_chat_test.json"}
    for aspect, field, criteria in (("jailbreaking", "user message", "user_message_jailbreak"),
                                    ("toxicity", "text", "toxicity")):
        add(f"cards.judge_bench.toxic_chat.{aspect}", _card(
            toxic_files,
            [Rename(field="instance", to_field=field),
             *_binary_gold(aspect, YES_NO, {"0": "No", "1": "Yes"}),
             Set(fields={"criteria": CRITERIA + criteria})],
            _task({field: "str", "label": "str", "criteria": "Any"}, False,
                  f"Judge whether a user prompt is {'a jailbreak attempt' if aspect == 'jailbreaking' else 'toxic'}."),
            f"ToxicChat user prompts with the expert label for {aspect} (1 = Yes = 1.0). Train and test files.",
            REPO, templates=[FLOAT_TEMPLATE]))
    for pair, (code, source, target) in WMT_PAIRS.items():
        add(f"cards.judge_bench.wmt_human.{pair}.quality", _card(
            {"test": f"wmt-human/wmt-human_{code}.json"},
            [*_graded_gold("quality", "mean_score/6"),
             Rename(field_to_field={"instance/source": "source text", "instance/reference": "reference translation",
                                    "instance/translation": "translation"}),
             Set(fields={"criteria": f"{CRITERIA}translation_quality", "source language": source,
                         "target language": target})],
            _task({"source text": "str", "source language": "str", "target language": "str",
                   "reference translation": "str", "translation": "str", "criteria": "Any"}, True,
                  "Rate a translation's quality (mean human score 0..6 scaled to 0..1)."),
            f"WMT human judgments ({source} to {target}): source text, reference and system translation with the "
            f"annotators' mean quality score (0..6, scaled to 0..1).", REPO, templates=[FLOAT_TEMPLATE]))


def register(add):
    _roscoe_cards(add)
    _other_cards(add)
