"""`unitxt-evaluate` options in process: the original's flags and defaults, `k=v` / JSON values, the recipe
settings the options imply, and one-line failures (the installed console scripts run in test_console_scripts.py)."""

import argparse
import importlib

import pytest

from unitxt.cli.arguments import build_parser, key_values_or_json, recipe_overrides
from unitxt.cli.evaluate import main


def test_defaults_and_short_flags_are_the_originals():
    arguments = build_parser().parse_args(["-t", "card=cards.a+card=cards.b"])
    assert arguments.tasks == ["card=cards.a", "card=cards.b"]
    assert (arguments.split, arguments.num_fewshots, arguments.limit, arguments.batch_size, arguments.model,
            arguments.model_args, arguments.gen_kwargs, arguments.chat_template_kwargs, arguments.output_path,
            arguments.output_file_prefix, arguments.log_samples, arguments.verbosity, arguments.apply_chat_template,
            arguments.trust_remote_code, arguments.disable_hf_cache, arguments.cache_dir) == (
        "test", None, None, 1, "hf", {}, None, None, ".", "evaluation_results", False, "INFO", False, False, False,
        None)
    short = build_parser().parse_args(["-t", "x", "-L", "5", "-b", "4", "-m", "cross_provider", "-a", "model_name=m",
                                       "-o", "out", "-s", "-v", "debug"])
    assert (short.limit, short.batch_size, short.model, short.model_args, short.output_path, short.log_samples,
            short.verbosity) == (5, 4, "cross_provider", {"model_name": "m"}, "out", True, "DEBUG")


def test_key_values_and_json():
    assert key_values_or_json("a=1,b=0.5,c=true,d=text, e = x ") == {"a": 1, "b": 0.5, "c": True, "d": "text",
                                                                      "e": "x"}
    assert key_values_or_json('{"pretrained": "m", "n": [1, 2]}') == {"pretrained": "m", "n": [1, 2]}
    assert key_values_or_json("plain") == "plain"
    with pytest.raises(argparse.ArgumentTypeError, match="Invalid JSON"):
        key_values_or_json("{'single': 'quotes'}")
    with pytest.raises(argparse.ArgumentTypeError, match="expected key=value pairs"):
        key_values_or_json("a=1,oops")


def test_options_become_recipe_settings():
    arguments = build_parser().parse_args(["-t", "x", "--split", "validation", "-L", "7", "--num_fewshots", "3",
                                           "--apply_chat_template"])
    assert recipe_overrides(arguments) == {"max_validation_instances": 7, "num_demos": 3, "demos_taken_from": "train",
                                           "demos_pool_size": -1, "demos_removed_from_data": True,
                                           "format": "formats.chat_api"}


@pytest.mark.parametrize("argv,message", [
    (["-t", "card=cards.demo.sentiment", "-L", "2"],
     "ValueError: Argument 'pretrained' is required in --model_args when --model is 'hf'"),
    (["-t", "card=cards.demo.sentiment+", "-m", "cross_provider", "-a", "model_name=m"],
     "An empty recipe in --tasks"),
    (["-t", "card=cards.demo.sentiment", "-m", "cross_provider", "-a", "model_name=m", "--model_args", "[1]"],
     "--model_args must be key=value pairs or a JSON object, got [1]"),
])
def test_failures_are_one_line_and_exit_1(argv, message, capsys, tmp_path):
    assert main(argv + ["-o", str(tmp_path), "-v", "CRITICAL"]) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("unitxt-evaluate: error: ") and message in line
    assert list(tmp_path.iterdir()) == []


def test_original_module_paths_lead_to_the_commands():
    steps = importlib.import_module("unitxt.evaluate_cli")  # the original's step functions (cli.steps)
    assert steps.__name__ == "unitxt.cli.steps" and callable(steps.main) and steps.main is not main
    service = importlib.import_module("unitxt.service.metrics.main")
    assert service.start_metrics_http_service.__module__ == "unitxt.service.main"
    assert importlib.import_module("unitxt.service.metrics.tokens").create_token.__module__ == "unitxt.service.tokens"
