"""Catalog: the data preparation of the judge meta-evaluation sources published as Hugging Face spaces
(operators.mt_bench.*_hf_space_processing_steps, operators.arena_hard_hf_space_processing_steps).

Each source has three streams - questions, model answers, judgments - that are renamed into one schema, joined on
the question id and the model ids, and left as one test split with the listed fields. The field names, the model-name
corrections and the verdict filter are facts of the sources.
"""

from _factory import make

TAGS = {"kind": "operator", "family": "judge_data"}
VICUNA_NAMES = {"vicuna-13b-hao-0515": "vicuna-13b-v1.3", "vicuna-30b-gpt4": "vicuna-33b-v1.3"}
VERDICTS = ["A=B", "A>B", "A>>B", "B>A", "B>>A"]


def _on(streams, type_name, **settings):
    return make(type_name, apply_to_streams=list(streams), **settings)


def _lower(field, streams):
    return _on(streams, "apply", function="str.lower", to_field=field, _argv=[field])


def _fix_vicuna(field, streams):
    return _on(streams, "map_instance_values", mappers={field: dict(VICUNA_NAMES)}, strict=False)


def _join_both_models(first_model, first_output="model_output"):
    """Join the answers of model 1 and then of model 2 (the answer stream renamed each time) onto the judgments."""
    return [
        make("join_streams", left_stream="questions", right_stream="judgment", how="inner", on=["question_id"],
             new_stream_name="merged_stream"),
        _on(["model_answer"], "rename", field_to_field={first_model: "model_1", first_output: "model_1_output"}),
        make("join_streams", left_stream="merged_stream", right_stream="model_answer", how="inner",
             on=["question_id", "model_1"], new_stream_name="merged_stream"),
        _on(["model_answer"], "rename", field_to_field={"model_1": "model_2", "model_1_output": "model_2_output"}),
        make("join_streams", left_stream="merged_stream", right_stream="model_answer", how="inner",
             on=["question_id", "model_2"], new_stream_name="merged_stream"),
    ]


def _finish(fields):
    return [make("delete_splits", splits=["questions", "model_answer", "judgment"]),
            make("rename_splits", mapper={"merged_stream": "test"}), make("select_fields", fields=fields)]


def mt_bench_rating():
    return [
        _on(["questions"], "rename", field_to_field={"turns": "model_input"}),
        _on(["judgment"], "rename", field_to_field={"model": "model_id", "user_prompt": "judge_input",
                                                    "judgment": "judge_output"}),
        _on(["judgment"], "copy", field="judge/0", to_field="judge_model_id"),
        _on(["model_answer"], "rename", field_to_field={"choices": "model_output"}),
        _lower("model_id", ["judgment", "model_answer"]),
        _fix_vicuna("model_id", ["judgment", "model_answer"]),
        _on(["model_answer"], "copy", field="model_output/0/turns", to_field="model_output"),
        make("join_streams", left_stream="questions", right_stream="judgment", how="inner", on=["question_id"],
             new_stream_name="merged_stream"),
        make("join_streams", left_stream="merged_stream", right_stream="model_answer", how="inner",
             on=["question_id", "model_id"], new_stream_name="merged_stream"),
    ] + _finish(["question_id", "category", "model_input", "reference", "turn", "model_id", "judge_model_id",
                 "score", "model_output", "judge_input", "judge_output"])


def mt_bench_pairwise():
    games = {f"g{game}_{part}": f"{ours}_model_{game}_ordered_first" for game in (1, 2)
             for part, ours in (("user_prompt", "judge_input"), ("judgment", "judge_output"), ("winner", "winner"))}
    order = ["g1_user_prompt", "g2_user_prompt", "g1_judgment", "g2_judgment", "g1_winner", "g2_winner"]
    return [
        _on(["questions"], "rename", field_to_field={"turns": "model_input"}),
        _on(["judgment"], "rename", field_to_field={key: games[key] for key in order}),
        _on(["judgment"], "copy", field="judge/0", to_field="judge_model_id"),
        _lower("model_1", ["judgment"]), _fix_vicuna("model_1", ["judgment"]),
        _lower("model_2", ["judgment"]), _fix_vicuna("model_2", ["judgment"]),
        _on(["judgment"], "copy", field="judge_model_id/0", to_field="judge_model_id"),
        _on(["judgment"], "filter_by_condition_based_on_fields",
            values={"winner_model_1_ordered_first": "winner_model_2_ordered_first"}, condition="eq"),
        _on(["judgment"], "copy", field_to_field={"winner_model_1_ordered_first": "winner"}),
        _on(["model_answer"], "rename", field_to_field={"choices": "model_output"}),
        _lower("model_id", ["model_answer"]), _fix_vicuna("model_id", ["model_answer"]),
        _on(["model_answer"], "copy", field="model_output/0/turns", to_field="model_output"),
    ] + _join_both_models("model_id") + _finish(
        ["question_id", "category", "model_input", "reference", "model_1", "model_2", "turn", "judge_model_id",
         "model_1_output", "model_2_output", "winner_model_1_ordered_first", "winner_model_2_ordered_first",
         "winner", "judge_input_model_1_ordered_first", "judge_input_model_2_ordered_first",
         "judge_output_model_1_ordered_first", "judge_output_model_2_ordered_first"])


def arena_hard():
    games = {f"games/{game}/{part}": f"{ours}_model_{game + 1}_ordered_first" for part, ours in
             (("user_prompt", "judge_input"), ("judgment", "judge_output"), ("score", "score")) for game in (0, 1)}
    ordered = ["games/0/user_prompt", "games/1/user_prompt", "games/0/judgment", "games/1/judgment",
               "games/0/score", "games/1/score"]
    return [
        _on(["questions"], "rename", field_to_field={"uid": "question_id", "cluster": "category"}),
        _on(["questions"], "copy", field_to_field={"prompt": "model_input"}),
        _on(["model_answer"], "rename", field_to_field={"uid": "question_id", "model": "model_id"}),
        _on(["model_answer"], "copy", field_to_field={"messages/1/content/answer": "model_output"}),
        _lower("model_id", ["model_answer"]),
        _on(["judgment"], "copy", field_to_field={key: games[key] for key in ordered}),
        _on(["judgment"], "rename", field_to_field={"uid": "question_id", "model": "model_2",
                                                    "judge": "judge_model_id"}),
        _on(["judgment"], "remove_fields", fields=["category"]),
        _on(["judgment"], "set", fields={"model_1": "gpt-4-0314"}),  # the baseline every model is compared with
        _on(["judgment"], "cast", field="judge_input_model_1_ordered_first", to="str"),
        _on(["judgment"], "cast", field="judge_input_model_2_ordered_first", to="str"),
        _on(["judgment"], "lower", field="model_1"),
        _on(["judgment"], "lower", field="model_2"),
        _on(["judgment"], "filter_by_condition", condition="in",
            values={"score_model_1_ordered_first": list(VERDICTS), "score_model_2_ordered_first": list(VERDICTS)}),
    ] + _join_both_models("model_id") + _finish(
        ["question_id", "category", "model_input", "model_1", "model_2", "judge_model_id", "model_1_output",
         "model_2_output", "score_model_1_ordered_first", "score_model_2_ordered_first",
         "judge_input_model_1_ordered_first", "judge_input_model_2_ordered_first",
         "judge_output_model_1_ordered_first", "judge_output_model_2_ordered_first"])


def register(add):
    for name, steps, what in (
            ("operators.mt_bench.rating_hf_space_processing_steps", mt_bench_rating(), "MT-Bench single-answer "
             "ratings (lmsys/mt-bench space): questions, answers and GPT-4 judgments joined per question and model"),
            ("operators.mt_bench.pairwise_hf_space_processing_steps", mt_bench_pairwise(), "MT-Bench pairwise "
             "judgments: both game orders kept when they agree, joined with both models' answers"),
            ("operators.arena_hard_hf_space_processing_steps", arena_hard(), "Arena-Hard judgments against the "
             "gpt-4-0314 baseline, both game orders, joined with both models' answers")):
        add(name, make("sequential_operator", steps=steps, tags=TAGS, description=f"Prepares {what}."))
