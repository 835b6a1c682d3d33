"""Catalog: meta-evaluation of LLM judges on the data of two Hugging Face Spaces. lmarena-ai/arena-hard-viewer holds the
Arena-Hard-Auto v0.1 questions, model answers and GPT-4-Turbo's two-game pairwise verdicts against gpt-4-0314;
lmsys/mt-bench holds the MT-Bench questions, model answers and GPT-4's single-answer ratings and pairwise verdicts.
Each card joins the three files: a candidate judge sees the question and answers GPT-4 judged and is scored against
GPT-4's verdict. (The Arena-Hard generation card reads the questions and the baseline's answers from the arena-hard-auto
GitHub repository instead, as the original catalog does.)

Not a `cards_*.py` module on purpose: its cards read Spaces (not Hub datasets), so tests/judges/test_meta_eval_cards.py
runs them against Space mirrors instead of the generic Hub-dataset card harness.
"""

from unitxt.card import TaskCard
from unitxt.judgment_processors import ExtractArenaHardPreference
from unitxt.operators import (
    Copy,
    DeleteSplits,
    DuplicateSplit,
    FilterByConditionBasedOnFields,
    InterleaveListsToDialogOperator,
    JoinStreams,
    Lower,
    ExecuteExpression,
    FilterByCondition,
    MapInstanceValues,
    MergeStreams,
    Rename,
    SelectFields,
    Set,
)
from unitxt.loaders import LoadFromHFSpace, LoadJsonFile
from unitxt.task import Task
from unitxt.templates import TemplatesList
from unitxt.templates import (
    DialogFieldsData,
    DialogPairwiseChoiceTemplate,
    DialogTemplate,
    PairwiseChoiceTemplate,
    PairwiseComparativeRatingTemplate,
)

# ---------------------------------------------------------------- sources (revisions as pinned by the original catalog)
ARENA_SPACE, ARENA_REVISION, ARENA_DIR = "lmarena-ai/arena-hard-viewer", "56c7614", "data/arena-hard-v0.1"
MT_SPACE, MT_REVISION, MT_DIR = "lmsys/mt-bench", "a4b674c", "data/mt_bench"
ARENA_BASELINE = "gpt-4-0314"
# the generation card reads the questions and the baseline's answers from the Arena-Hard-Auto repository instead
ARENA_GITHUB = ("https://raw.githubusercontent.com/lmarena/arena-hard-auto/57451f35d2be7fef9f05d5567f36e4c959bb6630/"
                "data/arena-hard-v0.1")
ARENA_TAGS = {"task": "response assessment", "language": "en", "modality": "text",
              "urls": {"space": f"https://huggingface.co/spaces/{ARENA_SPACE}",
                       "code": "https://github.com/lm-sys/arena-hard-auto", "paper": "https://arxiv.org/abs/2406.11939"}}
MT_TAGS = {"task": "response assessment", "language": "en", "modality": "text",
           "urls": {"space": f"https://huggingface.co/spaces/{MT_SPACE}",
                    "code": "https://github.com/lm-sys/FastChat/tree/main/fastchat/llm_judge",
                    "paper": "https://arxiv.org/abs/2306.05685"}}
REVISION_NOTE = ("The Space revision pinned here is the one the original catalog names; this re-implementation has only "
                 "been tested against local mirrors of the files in that layout, not against the live Space.")
JUDGE_TAGS = {"task": "response assessment", "modality": "text"}

# Arena-Hard verdict labels, as signed preferences for the answer shown first (A).
ARENA_SCORES = {"A>>B": 3, "A>B": 1, "A=B": 0, "B>A": -1, "B>>A": -3}
# MT-Bench judgments name two models differently from their answer files.
MT_MODEL_ALIASES = {"vicuna-13b-hao-0515": "vicuna-13b-v1.3", "vicuna-30b-gpt4": "vicuna-33b-v1.3"}


def _arena_loader():
    files = {"questions": f"{ARENA_DIR}/question.jsonl", "answers": f"{ARENA_DIR}/model_answer/*.jsonl",
             "judgments": f"{ARENA_DIR}/model_judgment/gpt-4-1106-preview/*.jsonl"}
    return LoadFromHFSpace(space_name=ARENA_SPACE, revision=ARENA_REVISION, data_files=files)


def _arena_questions_and_answers():
    """questions: question_id, question, group (topic cluster); answers: model_id (lower case), question_id, answer
    (the assistant message's answer). The Space's files key every row by `uid`."""
    return [
        Copy(field="prompt", to_field="question", apply_to_streams=["questions"]),
        Rename(field_to_field={"uid": "question_id", "cluster": "group"}, apply_to_streams=["questions"]),
        SelectFields(fields=["question_id", "question", "group"], apply_to_streams=["questions"]),
        Copy(field="messages/1/content/answer", to_field="answer", apply_to_streams=["answers"]),
        Rename(field_to_field={"uid": "question_id", "model": "model_id"}, apply_to_streams=["answers"]),
        Lower(field="model_id", apply_to_streams=["answers"]),
        SelectFields(fields=["question_id", "model_id", "answer"], apply_to_streams=["answers"]),
    ]


def _join_answers(stream, left, models):
    """Join `left` with the answers of `models` = [(model field, answer field), ...] one after the other."""
    steps = []
    for index, (model_field, answer_field) in enumerate(models):
        copy_name = f"answers_{index}"
        steps += [
            DuplicateSplit(split="answers", to_split=copy_name),
            Rename(field_to_field={source: target for source, target in (("model_id", model_field),
                                                                         ("answer", answer_field)) if source != target},
                   apply_to_streams=[copy_name]),
            JoinStreams(left_stream=left, right_stream=copy_name, how="inner", on=["question_id", model_field],
                        new_stream_name=stream),
        ]
        left = stream
    return steps


def _arena_games():
    """One instance per judgment: the question, the baseline's and the model's answers and the two games' verdicts
    (game 1 shows the baseline as A, game 2 the model as A), keeping only judgments whose both verdicts parsed."""
    return [
        *_arena_questions_and_answers(),
        Lower(field="model", apply_to_streams=["judgments"]),
        Rename(field_to_field={"uid": "question_id", "model": "model_2", "judge": "judge_model_id"},
               apply_to_streams=["judgments"]),
        Set(fields={"model_1": ARENA_BASELINE}, apply_to_streams=["judgments"]),
        Copy(field_to_field={"games/0/score": "score_game_1", "games/1/score": "score_game_2"},
             apply_to_streams=["judgments"]),
        FilterByCondition(values={"score_game_1": list(ARENA_SCORES), "score_game_2": list(ARENA_SCORES)},
                          condition="in", apply_to_streams=["judgments"]),
        SelectFields(fields=["question_id", "model_1", "model_2", "judge_model_id", "score_game_1", "score_game_2"],
                     apply_to_streams=["judgments"]),
        JoinStreams(left_stream="questions", right_stream="judgments", how="inner", on=["question_id"],
                    new_stream_name="judged"),
        *_join_answers("test", "judged", [("model_1", "answer_1"), ("model_2", "answer_2")]),
        DeleteSplits(splits=["questions", "answers", "judgments", "judged", "answers_0", "answers_1"]),
    ]


def _game(stream, first):
    """Name the fields of `stream` for the game whose answer A is model `first` (1: the baseline, 2: the model)."""
    second = 3 - first
    return Rename(field_to_field={f"answer_{first}": "answer_a", f"answer_{second}": "answer_b",
                                  f"model_{first}": "model_a", f"model_{second}": "model_b",
                                  f"score_game_{first}": "answer_a_preference"}, apply_to_streams=[stream])


ARENA_TASK = Task(
    input_fields={"question": "str", "answer_a": "str", "answer_b": "str", "model_a": "str", "model_b": "str"},
    reference_fields={"answer_a_preference": "int"},
    prediction_type="int",
    metrics=["metrics.weighted_win_rate_correlation", "metrics.accuracy"],
    __description__="Rate how much better answer A is than answer B (3, 1, 0, -1, -3 for A>>B .. B>>A); the models "
                    "behind the answers let the metric compare the win rates the judge implies with the gold ones.",
    __tags__=dict(JUDGE_TAGS),
)
ARENA_TEMPLATES = ["templates.response_assessment.pairwise_comparative_rating.arena_hard_preference",
                   "templates.response_assessment.pairwise_comparative_rating.arena_hard_with_shuffling"]


def _arena_cards(add):
    description = ("Arena-Hard-Auto v0.1 (Space {space}): each judged question pairs the baseline {baseline}'s answer "
                   "with another model's, and GPT-4-Turbo (gpt-4-1106-preview) judged the pair twice, once in each "
                   "order. {how} Judgments where either game has no parsed verdict are dropped. Evaluates a "
                   "comparative-rating judge against GPT-4-Turbo (win-rate correlation, accuracy). One split "
                   "(test). " + REVISION_NOTE)
    add("cards.arena_hard.response_assessment.pairwise_comparative_rating.both_games_gpt_4_judge", TaskCard(
        loader=_arena_loader(),
        preprocess_steps=[
            *_arena_games(),
            DuplicateSplit(split="test", to_split="game_2"),
            _game("test", 1), _game("game_2", 2),
            MergeStreams(streams_to_merge=["test", "game_2"], new_stream_name="test", add_origin_stream_name=False),
            MapInstanceValues(mappers={"answer_a_preference": ARENA_SCORES}),
        ],
        task=ARENA_TASK, templates=ARENA_TEMPLATES,
        __description__=description.format(space=ARENA_SPACE, baseline=ARENA_BASELINE,
                                           how="Both games are instances, each with its own order and verdict."),
        __tags__=ARENA_TAGS,
    ))
    add("cards.arena_hard.response_assessment.pairwise_comparative_rating.first_game_only_gpt_4_judge", TaskCard(
        loader=_arena_loader(),
        preprocess_steps=[
            *_arena_games(),
            _game("test", 1),
            MapInstanceValues(mappers={"answer_a_preference": ARENA_SCORES}),
        ],
        task=ARENA_TASK, templates=ARENA_TEMPLATES,
        __description__=description.format(space=ARENA_SPACE, baseline=ARENA_BASELINE,
                                           how="Only the first game (baseline shown as A) is used."),
        __tags__=ARENA_TAGS,
    ))
    reversed_scores = {label: -score for label, score in ARENA_SCORES.items()}
    add("cards.arena_hard.response_assessment.pairwise_comparative_rating.both_games_mean_judgment_gpt4_judge",
        TaskCard(
            loader=_arena_loader(),
            preprocess_steps=[
                *_arena_games(),
                MapInstanceValues(mappers={"score_game_1": ARENA_SCORES, "score_game_2": reversed_scores}),
                ExecuteExpression(expression="int(round((score_game_1 + score_game_2) / 2))",
                                  to_field="score_game_1"),
                _game("test", 1),
            ],
            task=ARENA_TASK, templates=ARENA_TEMPLATES,
            __description__=description.format(
                space=ARENA_SPACE, baseline=ARENA_BASELINE,
                how="One instance per judgment with the baseline as A; the gold is the mean of the two games' "
                    "preferences for the baseline, rounded half to even (so it ranges over -3..3)."),
            __tags__=ARENA_TAGS,
        ))
    add("cards.arena_hard.generation.english_gpt_4_0314_reference", TaskCard(
        loader=LoadJsonFile(files={"questions": f"{ARENA_GITHUB}/question.jsonl",
                                   "model_answer": f"{ARENA_GITHUB}/model_answer/{ARENA_BASELINE}.jsonl"},
                            lines=True, data_classification_policy=["public"]),
        preprocess_steps=[
            Copy(field="prompt", to_field="input", apply_to_streams=["questions"]),
            Set(fields={"reference_model": ARENA_BASELINE}, apply_to_streams=["questions"]),
            SelectFields(fields=["uid", "category", "input", "reference_model"], apply_to_streams=["questions"]),
            Copy(field="messages/1/content/answer", to_field="output", apply_to_streams=["model_answer"]),
            Rename(field_to_field={"model": "reference_model"}, apply_to_streams=["model_answer"]),
            Lower(field="reference_model", apply_to_streams=["model_answer"]),
            SelectFields(fields=["uid", "reference_model", "output"], apply_to_streams=["model_answer"]),
            JoinStreams(left_stream="questions", right_stream="model_answer", how="inner",
                        on=["uid", "reference_model"], new_stream_name="test"),
            DeleteSplits(splits=["questions", "model_answer"]),
            Rename(field_to_field={"uid": "question_id", "category": "group"}),
            Set(fields={"type_of_input": "prompt", "type_of_output": "answer"}),
        ],
        task="tasks.generation",
        templates=["templates.generation.empty"],
        __description__=f"Arena-Hard-Auto v0.1 questions with {ARENA_BASELINE}'s answer, the baseline every model is "
                        "judged against, as the reference output; read from the arena-hard-auto GitHub repository "
                        "(the commit the original catalog pins; its newer layout: uid, prompt, and the answer inside "
                        "the assistant message). One split (test).",
        __tags__={**ARENA_TAGS, "task": "generation",
                  "urls": {"code": "https://github.com/lmarena/arena-hard-auto",
                           "paper": "https://arxiv.org/abs/2406.11939"}},
    ))


# ---------------------------------------------------------------- MT-Bench
def _mt_loader(judgment_file):
    return LoadFromHFSpace(space_name=MT_SPACE, revision=MT_REVISION, data_files={
        "questions": f"{MT_DIR}/question.jsonl",
        "answers": f"{MT_DIR}/model_answer/*.jsonl",
        "judgments": f"{MT_DIR}/model_judgment/{judgment_file}",
    })


def _mt_questions_and_answers():
    """questions: question_id, turns (the user turns), reference (the reference turns, None when absent), group;
    answers: model_id (lower case, aliases resolved), question_id, answer (the list of answer turns)."""
    return [
        Rename(field_to_field={"category": "group"}, apply_to_streams=["questions"]),
        Copy(field="choices/0/turns", to_field="answer", apply_to_streams=["answers"]),
        Lower(field="model_id", apply_to_streams=["answers"]),
        MapInstanceValues(mappers={"model_id": MT_MODEL_ALIASES}, strict=False, apply_to_streams=["answers"]),
        SelectFields(fields=["question_id", "model_id", "answer"], apply_to_streams=["answers"]),
    ]


def _mt_finish(with_reference, turn):
    """Drop the source streams, keep the judged turn, and keep questions with (or without) a reference."""
    return [
        DeleteSplits(splits=["questions", "answers", "judgments", "judged", "answers_0", "answers_1"]),
        FilterByCondition(values={"turn": turn}, condition="eq"),
        FilterByCondition(values={"reference": None}, condition="ne" if with_reference else "eq"),
    ]


def _mt_rating_steps(with_reference, turn):
    return [
        *_mt_questions_and_answers(),
        Lower(field="model", apply_to_streams=["judgments"]),
        MapInstanceValues(mappers={"model": MT_MODEL_ALIASES}, strict=False, apply_to_streams=["judgments"]),
        Rename(field_to_field={"model": "model_id", "score": "rating"}, apply_to_streams=["judgments"]),
        Copy(field="judge/0", to_field="judge_model_id", apply_to_streams=["judgments"]),
        SelectFields(fields=["question_id", "model_id", "judge_model_id", "turn", "rating"],
                     apply_to_streams=["judgments"]),
        JoinStreams(left_stream="questions", right_stream="judgments", how="inner", on=["question_id"],
                    new_stream_name="judged"),
        *_join_answers("test", "judged", [("model_id", "answer_turns")]),
        *_mt_finish(with_reference, turn),
    ]


def _mt_pairwise_steps(with_reference, turn):
    return [
        *_mt_questions_and_answers(),
        Lower(field="model_1", apply_to_streams=["judgments"]),
        Lower(field="model_2", apply_to_streams=["judgments"]),
        MapInstanceValues(mappers={"model_1": MT_MODEL_ALIASES, "model_2": MT_MODEL_ALIASES}, strict=False,
                          apply_to_streams=["judgments"]),
        Copy(field="judge/0", to_field="judge_model_id", apply_to_streams=["judgments"]),
        FilterByConditionBasedOnFields(values={"g1_winner": "g2_winner"}, condition="eq",
                                       apply_to_streams=["judgments"]),
        FilterByCondition(values={"g1_winner": ["model_1", "model_2", "tie"]}, condition="in",
                          apply_to_streams=["judgments"]),
        MapInstanceValues(mappers={"g1_winner": {"model_1": "choice_a", "model_2": "choice_b", "tie": "tie"}},
                          apply_to_streams=["judgments"]),
        Rename(field_to_field={"g1_winner": "winner"}, apply_to_streams=["judgments"]),
        SelectFields(fields=["question_id", "model_1", "model_2", "judge_model_id", "turn", "winner"],
                     apply_to_streams=["judgments"]),
        JoinStreams(left_stream="questions", right_stream="judgments", how="inner", on=["question_id"],
                    new_stream_name="judged"),
        *_join_answers("test", "judged", [("model_1", "answer_turns_a"), ("model_2", "answer_turns_b")]),
        *_mt_finish(with_reference, turn),
    ]


def _dialog(answers, to_field):
    return InterleaveListsToDialogOperator(user_turns_field="turns", assistant_turns_field=answers, to_field=to_field)


MT_RATING_DESCRIPTION = (
    "MT-Bench (Space {space}) {what}, with the answers of several models and GPT-4's 1-10 rating (file "
    "gpt-4_single.jsonl; a rating GPT-4 failed to give is kept as stored, -1, as the original catalog keeps it). "
    "Evaluates a rating judge against GPT-4 (Spearman). One split (test). {ref_note}" + REVISION_NOTE)
MT_PAIR_DESCRIPTION = (
    "MT-Bench (Space {space}) {what}, with two models' answers and GPT-4's verdict (file gpt-4_pair.jsonl). GPT-4 "
    "judged each pair twice, once in each order; only pairs where both games agree are kept, and the verdict is "
    "choice_a, choice_b or tie. Evaluates a pairwise judge against GPT-4 (accuracy). One split (test). "
    "{ref_note}" + REVISION_NOTE)


def _mt_cards(add):
    two_turn = "two-turn conversations (the rating/verdict is for the second answer, given the whole dialog)"
    for with_reference in (False, True):
        suffix = "_with_reference" if with_reference else ""
        which = (" for questions with a reference answer (math, reasoning, coding), shown to the judge"
                 if with_reference else " for questions without a reference answer")
        ref_note = ("The reference is the question file's 'reference' field; FastChat showed GPT-4 its own "
                    "reference answers (reference_answer/gpt-4.jsonl), which this card does not load. "
                    if with_reference else "")
        steps = [_dialog("answer_turns", "dialog")]
        if with_reference:
            steps.append(_dialog("reference", "reference_dialog"))
        add(f"cards.mt_bench.response_assessment.rating.multi_turn{suffix}_gpt4_judgement", TaskCard(
            loader=_mt_loader("gpt-4_single.jsonl"),
            preprocess_steps=[*_mt_rating_steps(with_reference, turn=2), *steps],
            task=f"tasks.response_assessment.rating.multi_turn{suffix}",
            templates=[f"templates.response_assessment.rating.mt_bench_multi_turn{suffix}"],
            __description__=MT_RATING_DESCRIPTION.format(space=MT_SPACE, what=two_turn + which,
                                                         ref_note=ref_note),
            __tags__=MT_TAGS,
        ))
        single = [Copy(field_to_field={"turns/0": "question", "answer_turns_a/0": "answer_a",
                                       "answer_turns_b/0": "answer_b"})]
        if with_reference:
            single.append(Copy(field="reference/0", to_field="reference_answer"))
        add(f"cards.mt_bench.response_assessment.pairwise_comparison.single_turn{suffix}_gpt4_judgement", TaskCard(
            loader=_mt_loader("gpt-4_pair.jsonl"),
            preprocess_steps=[*_mt_pairwise_steps(with_reference, turn=1), *single],
            task=f"tasks.response_assessment.pairwise_comparison.single_turn{suffix}",
            templates=[f"templates.response_assessment.pairwise_comparison.mt_bench_single_turn{suffix}_with_shuffle"],
            __description__=MT_PAIR_DESCRIPTION.format(space=MT_SPACE, what="the first turn of conversations" + which,
                                                       ref_note=ref_note),
            __tags__=MT_TAGS,
        ))
        first_turn = [Copy(field_to_field={"turns/0": "question", "answer_turns/0": "answer"})]
        if with_reference:
            first_turn.append(Copy(field="reference/0", to_field="reference_answer"))
        add(f"cards.mt_bench.response_assessment.rating.single_turn{suffix}_gpt4_judgement", TaskCard(
            loader=_mt_loader("gpt-4_single.jsonl"),
            preprocess_steps=[*_mt_rating_steps(with_reference, turn=1), *first_turn],
            task=f"tasks.response_assessment.rating.single_turn{suffix}",
            templates=[f"templates.response_assessment.rating.mt_bench_single_turn{suffix}"],
            __description__=MT_RATING_DESCRIPTION.format(space=MT_SPACE, what="the first turn of conversations"
                                                         + which, ref_note=ref_note),
            __tags__=MT_TAGS,
        ))
        multi = [_dialog("answer_turns_a", "dialog_a"), _dialog("answer_turns_b", "dialog_b")]
        if with_reference:
            multi.append(_dialog("reference", "reference_dialog"))
        add(f"cards.mt_bench.response_assessment.pairwise_comparison.multi_turn{suffix}_gpt4_judgement", TaskCard(
            loader=_mt_loader("gpt-4_pair.jsonl"),
            preprocess_steps=[*_mt_pairwise_steps(with_reference, turn=2), *multi],
            task=f"tasks.response_assessment.pairwise_comparison.multi_turn{suffix}",
            templates=[f"templates.response_assessment.pairwise_comparison.mt_bench_multi_turn{suffix}_with_shuffle"],
            __description__=MT_PAIR_DESCRIPTION.format(space=MT_SPACE, what=two_turn + which,
                                                       ref_note=ref_note),
            __tags__=MT_TAGS,
        ))


# ---------------------------------------------------------------- tasks and templates the cards need
DIALOG = "List[Tuple[str, str]]"
WINNER_NOTE = "'winner' is choice_a, choice_b or tie"
# the original's pairwise judge tasks name no prediction type (Any) and score the verdicts as classes
PAIRWISE_PREDICTION = "Any"
PAIRWISE_METRICS = ["metrics.accuracy", "metrics.f1_micro", "metrics.f1_macro"]


def _tasks(add):
    def task(name, inputs, references, prediction, metrics, description):
        add(f"tasks.response_assessment.{name}", Task(
            input_fields=inputs, reference_fields=references, prediction_type=prediction, metrics=metrics,
            default_template=f"templates.response_assessment.{name}.default",
            __description__=description, __tags__=dict(JUDGE_TAGS)))

    task("rating.multi_turn", {"dialog": DIALOG}, {"rating": "float"}, "float", ["metrics.spearman"],
         "Rate the assistant's last answer in a dialog (a judge task; gold ratings evaluate the judge).")
    task("rating.multi_turn_with_reference", {"dialog": DIALOG, "reference_dialog": DIALOG}, {"rating": "float"},
         "float", ["metrics.spearman"],
         "Rate the assistant's last answer in a dialog against a reference dialog with correct answers (a judge task).")
    task("pairwise_comparison.single_turn", {"question": "str", "answer_a": "str", "answer_b": "str"},
         {"winner": "str"}, PAIRWISE_PREDICTION, PAIRWISE_METRICS,
         f"Which of two answers to a question is better; {WINNER_NOTE} (a judge task).")
    task("pairwise_comparison.single_turn_with_reference",
         {"question": "str", "answer_a": "str", "answer_b": "str", "reference_answer": "str"}, {"winner": "str"},
         PAIRWISE_PREDICTION, PAIRWISE_METRICS,
         f"Which of two answers to a question is better, given a correct reference answer; {WINNER_NOTE}.")
    task("pairwise_comparison.multi_turn", {"dialog_a": DIALOG, "dialog_b": DIALOG}, {"winner": "str"},
         PAIRWISE_PREDICTION, PAIRWISE_METRICS,
         f"Which of two assistants answered a multi-turn dialog better; {WINNER_NOTE}.")
    task("pairwise_comparison.multi_turn_with_reference",
         {"dialog_a": DIALOG, "dialog_b": DIALOG, "reference_dialog": DIALOG}, {"winner": "str"},
         PAIRWISE_PREDICTION, PAIRWISE_METRICS,
         f"Which of two assistants answered a multi-turn dialog better, given a reference dialog; {WINNER_NOTE}.")


def _turns(field, user, assistant):
    return DialogFieldsData(dialog_field=field, user_role_label=user, assistant_role_label=assistant,
                            system_role_label="### System:")


RATING_RULES = ("Judge the quality of the assistant's answers, weighing helpfulness, relevance, accuracy, depth, "
                "creativity and level of detail.{reference} Focus on the assistant's second answer. Explain briefly, "
                "then rate the second answer from 1 to 10 in double square brackets, e.g. \"Rating: [[5]]\".\n\n")
PAIR_RULES = ("Compare the two AI assistants' answers to the user below, for helpfulness, relevance, accuracy, depth, "
              "creativity and detail.{reference}{focus} Neither the order of the answers, their length nor the "
              "assistants' names may sway you. Explain briefly, then give your verdict: [[A]] if assistant A is "
              "better, [[B]] if assistant B is better, [[C]] for a tie.\n\n")
REFERENCE_RULE = " A reference answer is given; treat it as correct and count departures from it as mistakes."


def _family(add, family, default, named, task):
    """`family`.default (a plainer prompt), the MT-Bench template `named`, and `family`.all listing both."""
    prefix = f"templates.response_assessment.{family}"
    default.__dict__["__tags__"] = dict(JUDGE_TAGS)
    named[1].__dict__["__tags__"] = dict(JUDGE_TAGS)
    add(f"{prefix}.default", default)
    add(named[0], named[1])
    add(f"{prefix}.all", TemplatesList([f"{prefix}.default", named[0]], __tags__=dict(JUDGE_TAGS),
                                       __description__=f"Every template of {prefix} (for tasks.response_assessment."
                                                       f"{task})."))


def _templates(add):
    for with_reference in (False, True):
        suffix = "_with_reference" if with_reference else ""
        reference_rule = REFERENCE_RULE if with_reference else ""
        dialogs = [_turns("dialog", "### User:", "### Assistant:")]
        layout = "<|The Start of the Conversation|>\n{dialog}\n<|The End of the Conversation|>"
        if with_reference:
            dialogs.append(_turns("reference_dialog", "### User:", "### Reference answer:"))
            layout = ("<|The Start of the Reference|>\n{reference_dialog}\n<|The End of the Reference|>\n\n"
                      + layout)
        rating = dict(dialog_fields=dialogs, input_format=layout, output_format="[[{rating}]]",
                      postprocessors=["processors.extract_mt_bench_rating_judgment"])
        with_ref_text = " with a reference dialog" if with_reference else ""
        _family(add, f"rating.multi_turn{suffix}", DialogTemplate(
            instruction="Rate the assistant's last answer in the dialog below from 1 to 10" + (
                ", taking the reference dialog's answers as correct" if with_reference else "")
                + ". Write only the rating in double square brackets, e.g. [[7]].\n\n",
            __description__="Short judge prompt for the last answer of a dialog" + with_ref_text
                            + "; '[[N]]' read as N/10.", **rating,
        ), (f"templates.response_assessment.rating.mt_bench_multi_turn{suffix}", DialogTemplate(
            instruction=RATING_RULES.format(reference=reference_rule),
            __description__="MT-Bench style judge prompt for the second answer of a two-turn dialog" + with_ref_text
                            + "; '[[N]]' read as N/10.", **rating,
        )), f"rating.multi_turn{suffix}")

        choice = dict(answer_field="winner", choice_a_label="A", choice_b_label="B", choice_tie_label="C",
                      output_format="[[{winner}]]", postprocessors=["processors.extract_mt_bench_label_judgment"])
        single = dict(choice_a_field="answer_a", choice_b_field="answer_b", input_format=(
            "[User Question]\n{question}\n\n"
            + ("[Reference Answer Begins]\n{reference_answer}\n[Reference Answer Ends]\n\n" if with_reference else "")
            + "[Assistant A Begins]\n{answer_a}\n[Assistant A Ends]\n\n"
              "[Assistant B Begins]\n{answer_b}\n[Assistant B Ends]"), **choice)
        short_rule = ("Which assistant answered better" + (", taking the reference answer as correct" if with_reference
                                                           else "")
                      + "? Reply [[A]], [[B]] or [[C]] for a tie.\n\n")
        shuffle_note = "; about half the instances swap A and B (and the verdict), seeded by content"
        verdict_note = "; verdict [[A]], [[B]] or [[C]] (tie)."
        with_ref_answer = " with a reference answer" if with_reference else ""
        _family(add, f"pairwise_comparison.single_turn{suffix}", PairwiseChoiceTemplate(
            instruction=short_rule, **single,
            __description__="Short pairwise judge prompt" + with_ref_answer + verdict_note,
        ), (f"templates.response_assessment.pairwise_comparison.mt_bench_single_turn{suffix}_with_shuffle",
            PairwiseChoiceTemplate(
                instruction=PAIR_RULES.format(reference=reference_rule, focus=""), shuffle=True, **single,
                __description__="MT-Bench style pairwise judge prompt" + with_ref_answer + shuffle_note
                                + verdict_note)), f"pairwise_comparison.single_turn{suffix}")

        pair_dialogs = [_turns("dialog_a", "### User:", "### Assistant A:"),
                        _turns("dialog_b", "### User:", "### Assistant B:")]
        multi_layout = ("<|The Start of Assistant A's Conversation with User|>\n{dialog_a}\n"
                        "<|The End of Assistant A's Conversation with User|>\n\n"
                        "<|The Start of Assistant B's Conversation with User|>\n{dialog_b}\n"
                        "<|The End of Assistant B's Conversation with User|>")
        if with_reference:
            pair_dialogs.append(_turns("reference_dialog", "### User:", "### Reference answer:"))
            multi_layout = ("<|The Start of Reference Answer|>\n{reference_dialog}\n<|The End of Reference Answer|>"
                            "\n\n" + multi_layout)
        multi = dict(dialog_fields=pair_dialogs, choice_a_field="dialog_a", choice_b_field="dialog_b",
                     input_format=multi_layout, **choice)
        _family(add, f"pairwise_comparison.multi_turn{suffix}", DialogPairwiseChoiceTemplate(
            instruction=short_rule.replace("answered better", "answered the user's last question better"), **multi,
            __description__="Short pairwise judge prompt over two dialogs" + with_ref_text + verdict_note,
        ), (f"templates.response_assessment.pairwise_comparison.mt_bench_multi_turn{suffix}_with_shuffle",
            DialogPairwiseChoiceTemplate(
                instruction=PAIR_RULES.format(reference=reference_rule,
                                              focus=" Focus on the answers to the user's second question."),
                shuffle=True, **multi,
                __description__="MT-Bench style pairwise judge prompt over two two-turn dialogs" + with_ref_text
                                + shuffle_note + verdict_note)), f"pairwise_comparison.multi_turn{suffix}")
    arena = dict(
        choice_a_field="answer_a", choice_b_field="answer_b", choice_a_id_field="model_a",
        choice_b_id_field="model_b", answer_field="answer_a_preference",
        instruction="You compare two AI assistants' answers to the user prompt below. First write your own "
                    "answer, then compare both answers with it, noting mistakes, missing information, relevance "
                    "and concision. End with exactly one verdict: [[A>>B]] (A much better), [[A>B]] (A better), "
                    "[[A=B]] (tie), [[B>A]] (B better) or [[B>>A]] (B much better).\n\n",
        input_format="<|User Prompt|>\n{question}\n\n<|The Start of Assistant A's Answer|>\n{answer_a}\n"
                     "<|The End of Assistant A's Answer|>\n\n<|The Start of Assistant B's Answer|>\n{answer_b}\n"
                     "<|The End of Assistant B's Answer|>",
        output_format="[[{answer_a_preference}]]",
        postprocessors=["processors.extract_arena_hard_preference"],
        __tags__=dict(JUDGE_TAGS),
    )
    reading = "The verdict [[A>>B]]..[[B>>A]] is read as 3..-3 (a gold written as [[n]] as n)."
    add("templates.response_assessment.pairwise_comparative_rating.arena_hard_preference",
        PairwiseComparativeRatingTemplate(
            shuffle=False, **arena,
            __description__="Arena-Hard style pairwise judge prompt over a signed preference for answer A, answers "
                            "in the card's order. " + reading))
    add("templates.response_assessment.pairwise_comparative_rating.arena_hard_with_shuffling",
        PairwiseComparativeRatingTemplate(
            shuffle=True, **arena,
            __description__="Arena-Hard style pairwise judge prompt; about half the instances (seeded by content) "
                            "show the answers and their model ids swapped and negate the gold preference (the "
                            "row's task_data holds the swapped fields, so win rates credit the right models). "
                            + reading))
    processor = ExtractArenaHardPreference()
    processor.__dict__["__description__"] = ExtractArenaHardPreference.__doc__.strip().splitlines()[0]
    processor.__dict__["__tags__"] = {"kind": "processor", "family": "llm_as_judge"}
    add("processors.extract_arena_hard_preference", processor)


def register(add):
    _tasks(add)
    _templates(add)
    _arena_cards(add)
    _mt_cards(add)
