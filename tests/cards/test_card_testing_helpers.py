"""test_card / test_adding_to_catalog (unitxt.test_utils.card, documented as unitxt.test_utils.card) and print_dict."""

import pytest

from unitxt.card import TaskCard
from unitxt.test_utils.card import CardTestError, card_templates, test_adding_to_catalog, test_card
from unitxt.loaders import LoadFromDictionary
from unitxt.operators import Rename, Set
from unitxt.rendering.recipe import DatasetRecipe
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate
from unitxt.text_utils import dict_to_text, print_dict

SENTENCES = [("I loved it", "positive"), ("Terrible film", "negative"), ("Great acting", "positive"),
             ("Boring and long", "negative"), ("A joy to watch", "positive"), ("I want my money back", "negative")]


def _rows(count, offset=0):
    return [{"sentence": f"{SENTENCES[(index + offset) % 6][0]} #{index}", "label": SENTENCES[(index + offset) % 6][1]}
            for index in range(count)]


def _card(templates=None, **extra):
    return TaskCard(
        loader=LoadFromDictionary(data={"train": _rows(12), "test": _rows(7, 1)}),
        preprocess_steps=[Rename(field_to_field={"sentence": "text"}),
                          Set(fields={"classes": ["negative", "positive"]})],
        task="tasks.classification.multi_class.sentiment",
        templates=templates or ["templates.classification.multi_class.default",
                                "templates.classification.multi_class.title"],
        **extra,
    )


def _card_with_classes():
    return _card()


def test_test_card_passes_a_good_card_and_prints_every_section(capsys):
    problems = test_card(_card_with_classes())
    out = capsys.readouterr().out
    assert problems == []
    assert "Loading limited to 30 instances by setting LoadFromDictionary.loader_limit;" in out
    assert "Showing up to 5 examples from stream 'test':" in out
    assert "Showing up to 5 examples from stream 'train':" in out
    for field in ("source (str):", "target (str):", "references (list):", "metrics (list):",
                  "postprocessors (list):", "task_data (str):"):
        assert field in out
    assert "Running with the gold references as predictions." in out
    assert "Showing the output of the post processing:" in out
    assert "Prediction: (str)     The sentiment is" in out or "Prediction: (str)     " in out
    assert "Processed prediction: (str) positive" in out or "Processed prediction: (str) negative" in out
    assert "Processed references: (list) " in out
    assert "Score output:" in out and '"score_name": "f1_micro"' in out
    assert "Running with random text predictions (full mismatch)." in out
    assert "Prediction: (str)     a1s" in out
    # every template, with 0 and 1 demos
    for name in ("templates.classification.multi_class.default", "templates.classification.multi_class.title"):
        assert f"Template: {name} | num_demos: 0" in out
        assert f"Template: {name} | num_demos: 1" in out
    assert "test_card: all checks passed." in out


def test_test_card_shows_at_most_five_examples_per_stream(capsys):
    test_card(_card_with_classes(), num_demos=0)
    out = capsys.readouterr().out
    block = out.split("Showing up to 5 examples from stream 'test':")[1].split("----------")[0]
    assert block.count("source (str):") == 5


def test_test_card_accepts_a_catalog_name_style_card_and_demo_pool_alias(capsys):
    assert test_card(_card_with_classes(), num_demos=2, demo_pool_size=4, loader_limit=10) == []
    assert "num_demos: 2" in capsys.readouterr().out


def test_broken_postprocessing_fails_in_strict_mode_and_warns_otherwise(capsys):
    wrong = InputOutputTemplate(
        input_format="{text}", output_format="{label}",
        postprocessors=["processors.take_first_non_empty_line", "processors.upper_case"],
    )
    card = _card(templates=[wrong])
    # references and predictions are upper-cased alike: still an exact match, so use a bad expected score instead
    with pytest.raises(CardTestError, match="exact_match_score"):
        test_card(card, exact_match_score=0.5, num_demos=0)
    capsys.readouterr()
    problems = test_card(card, exact_match_score=0.5, num_demos=0, strict=False)
    out = capsys.readouterr().out
    assert len(problems) == 1 and "WARNING:" in out and "found 1 problem(s)" in out


def test_full_mismatch_check_uses_the_given_values(capsys):
    card = _card_with_classes()
    with pytest.raises(CardTestError, match="maximum_full_mismatch_score"):
        test_card(card, num_demos=0, full_mismatch_prediction_values=["positive"])
    assert test_card(card, num_demos=0, full_mismatch_prediction_values=["positive"],
                     maximum_full_mismatch_score=1.0) == []
    assert test_card(card, num_demos=0, test_full_mismatch_score_with_full_mismatch_prediction_values=False,
                     test_exact_match_score_when_predictions_equal_references=False) == []
    out = capsys.readouterr().out
    assert "Prediction: (str)     positive" in out


def test_debug_mode_prints_sizes_and_an_example_after_every_step(capsys):
    test_card(_card_with_classes(), debug=True, num_demos=0)
    out = capsys.readouterr().out
    assert "After step: loading (LoadFromDictionary)" in out
    assert "After step: preprocess step 1:" in out and "After step: preprocess step 2:" in out
    assert "After step: task (tasks.classification.multi_class.sentiment)" in out
    assert "Split sizes: train: 12, test: 7" in out
    assert "One example from split 'train':" in out
    assert "input_fields (dict):" in out  # the task's output, expanded


def test_card_without_train_split_is_tested_without_demos(capsys):
    card = TaskCard(
        loader=LoadFromDictionary(data={"test": _rows(6)}),
        preprocess_steps=[Rename(field_to_field={"sentence": "text"}),
                          Set(fields={"classes": ["negative", "positive"]})],
        task="tasks.classification.multi_class.sentiment",
        templates=["templates.classification.multi_class.default"],
    )
    assert test_card(card) == []
    assert "testing without demos only" in capsys.readouterr().out


def test_card_templates_of_lists_dicts_and_defaults():
    card = _card(templates={"a": "templates.classification.multi_class.empty"})
    assert [label for label, _ in card_templates(card)] == ["templates.classification.multi_class.empty"]
    inline = InputOutputTemplate(input_format="{text}", output_format="{label}")
    assert card_templates(_card(templates=[inline]))[0][0].startswith("template 0")


def test_documented_import_path_and_catalog_round_trip():
    from unitxt.test_utils.card import test_adding_to_catalog as documented_adding
    from unitxt.test_utils.card import test_card as documented

    assert documented is test_card and documented_adding is test_adding_to_catalog
    test_adding_to_catalog(_card_with_classes())


def test_print_dict_layout(capsys):
    print_dict({"source": "line one\nline two", "references": ["a"], "nested": {"x": 1}})
    out = capsys.readouterr().out
    assert out == ("source (str):\n    line one\n    line two\nreferences (list):\n    ['a']\nnested (dict):\n"
                   "    x (int):\n        1\n")
    assert dict_to_text({"a": 1, "b": "x"}, keys_to_print=["b"]) == "b (str):\n    x"


def _small_card():
    data = {split: [{"q": f"q{index}", "a": f"a{index % 3}"} for index in range(8)] for split in ("train", "test")}
    return TaskCard(loader=LoadFromDictionary(data=data), preprocess_steps=[Rename(field="q", to_field="question")],
                    task=Task(input_fields={"question": str}, reference_fields={"a": str}, metrics=["metrics.accuracy"]),
                    templates=[InputOutputTemplate(input_format="{question}", output_format="{a}")])


def test_the_original_step_functions_of_test_card(caplog):
    """The original's steps of test_card, one by one, on the same card as the original (same rows and outcomes)."""
    import logging

    from unitxt.test_utils import card as steps

    card = _small_card()
    steps.test_metrics_exist(card)
    steps.test_loading_from_catalog(card)
    with caplog.at_level(logging.INFO, logger="unitxt"):
        examples = steps.load_examples_from_dataset_recipe(card, template_card_index=0, debug=False)
    assert len(examples) == 5 and examples[0]["source"] == "q0\n" and examples[0]["target"] == "a0"
    assert "Showing up to 5 examples from stream 'test':" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="unitxt"):
        debugged = steps.load_examples_from_dataset_recipe(card, template_card_index=0, debug=True, loader_limit=5)
    assert len(debugged) == 2  # one example of each stream after the last step
    assert "stream named 'test' has 5 instances" in caplog.text and "Preprocessing step 1: Rename" in caplog.text
    steps.test_correct_predictions(examples, strict=True, exact_match_score=1.0)
    with pytest.raises(AssertionError, match="a perfect score of 0.5 in this case, but returned metric score was 1.0"):
        steps.test_correct_predictions(examples, strict=True, exact_match_score=0.5)
    steps.test_correct_predictions(examples, strict=False, exact_match_score=0.5)  # only logged
    steps.test_wrong_predictions(examples, strict=True, maximum_full_mismatch_score=0.0,
                                 full_mismatch_prediction_values=["zz", "yy"])
    with pytest.raises(CardTestError, match="expected a low score of atmost 0.0 in this case, but returned metric "
                                            "score was 0.4"):
        steps.test_wrong_predictions(examples, strict=True, maximum_full_mismatch_score=0.0,
                                     full_mismatch_prediction_values=["a0"])
    assert steps.TEMP_NAME == "tmp_name"
    with pytest.raises(CardTestError, match="max_steps must be between 1 and 4"):
        steps.print_recipe_output(DatasetRecipe(card=card, template_card_index=0), max_steps=9, num_examples=1,
                                  print_header=False, print_stream_size=False)
