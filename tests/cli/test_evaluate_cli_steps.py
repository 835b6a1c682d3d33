"""The evaluation command's steps under the original's names (`unitxt.evaluate_cli`): each step alone, with the
names it uses substituted in the module, and `main` running them in order."""

import argparse
import json
from unittest import mock

import pytest

from unitxt import evaluate_cli as steps
from unitxt.evaluation.results import EvaluationResults, SubsetsScores


def test_option_values_and_parser():
    assert steps.try_parse_json("temperature=0.5,seed=3,stream=false") == {"temperature": 0.5, "seed": 3,
                                                                           "stream": False}
    assert steps.try_parse_json('{"a": [1]}') == {"a": [1]}
    assert steps.try_parse_json("plain words") == "plain words" and steps.try_parse_json(None) is None
    with pytest.raises(argparse.ArgumentTypeError, match="Invalid JSON"):
        steps.try_parse_json("{'single': 1}")
    actions = {action.dest: action for action in steps.setup_parser()._actions}
    assert actions["gen_kwargs"].type is steps.try_parse_json and actions["tasks"].required
    assert actions["num_fewshots"].type is int and actions["model"].default == "hf"


def test_output_paths_and_kwargs(tmp_path):
    target = tmp_path / "runs" / "a"
    assert steps.prepare_output_paths(str(target), "exp") == (str(target / "exp.json"),
                                                              str(target / "exp_samples.json"))
    assert target.is_dir()
    with mock.patch.object(steps, "logger") as logger:
        assert steps.prepare_kwargs({"k": 1}) == {"k": 1}
        assert steps.prepare_kwargs(None) == {}
        logger.warning.assert_not_called()
        assert steps.prepare_kwargs("not pairs") == {}
        assert "Could not parse kwargs 'not pairs'" in logger.warning.call_args[0][0]


def test_engine_choice_and_required_arguments():
    with mock.patch.object(steps, "CrossProviderInferenceEngine") as remote:
        remote.return_value.get_engine_id.return_value = "remote-id"
        args = argparse.Namespace(model="cross_provider")
        steps.initialize_inference_engine(args, {"model_name": "m1", "max_tokens": 9}, None)
        remote.assert_called_once_with(model="m1", max_tokens=9)
        assert args.model == "remote-id"
    with mock.patch.object(steps, "HFAutoModelInferenceEngine") as local:
        args = argparse.Namespace(model="hf", batch_size=3)
        steps.initialize_inference_engine(args, {"pretrained": "tiny"}, {"thinking": True})
        local.assert_called_once_with(model_name="tiny", batch_size=3, chat_kwargs_dict={"thinking": True})
        with pytest.raises(ValueError, match="'pretrained' is required"):
            steps.initialize_inference_engine(argparse.Namespace(model="hf", batch_size=1), {}, None)


def test_inference_and_scoring_steps():
    engine = mock.Mock()
    engine.infer.return_value = ["x"]
    with mock.patch.object(steps, "logger") as logger:
        assert steps.run_inference(engine, [1, 2]) == ["x"]
        assert "unexpected number of predictions (1)" in logger.error.call_args[0][0]
        assert steps.run_evaluation([], [1]) == []
    with mock.patch.object(steps, "evaluate", return_value={"not": "results"}):
        with pytest.raises(RuntimeError, match="unexpected type"):
            steps.run_evaluation(["x"], [1])
    scored = mock.Mock(spec=EvaluationResults)
    with mock.patch.object(steps, "evaluate", return_value=scored) as evaluate:
        assert steps.run_evaluation(["x"], ["row"]) is scored
        evaluate.assert_called_once_with(predictions=["x"], data=["row"])


def test_results_and_samples_files(tmp_path):
    args = argparse.Namespace(log_samples=True, tasks=["card=cards.q"], output_path=str(tmp_path))
    results = mock.Mock()
    results.subsets_scores = SubsetsScores({"score": 0.25, "score_name": "subsets_mean"})
    results.instance_scores = [{"subset": ["card=cards.q"], "score": 0.25, "postprocessors": ["p"]}]
    with mock.patch.object(steps, "_get_installed_packages", return_value={"numpy": "1"}):
        steps.process_and_save_results(args, results, str(tmp_path / "r.json"), str(tmp_path / "r_samples.json"))
    summary = json.loads(next(tmp_path.glob("*_r.json")).read_text())
    samples = json.loads(next(tmp_path.glob("*_r_samples.json")).read_text())
    assert summary["results"] == {"score": 0.25, "score_name": "subsets_mean"}
    assert summary["environment_info"]["parsed_arguments"]["tasks"] == ["card=cards.q"]
    assert summary["environment_info"]["timestamp_utc"].endswith("Z")
    assert samples["samples"] == {"card=cards.q": [{"subset": ["card=cards.q"], "score": 0.25}]}


def test_main_runs_the_steps_in_order_and_exits_1_on_failure(tmp_path):
    names = ["cli_load_dataset", "initialize_inference_engine", "run_inference", "run_evaluation",
             "process_and_save_results"]
    argv = ["-t", "card=cards.q", "-m", "cross_provider", "-a", "model_name=m", "--gen_kwargs", "seed=1",
            "-o", str(tmp_path), "-v", "ERROR"]
    with mock.patch.multiple(steps, **{name: mock.DEFAULT for name in names}) as patched:
        steps.main(argv)
        engine_args = patched["initialize_inference_engine"].call_args[0]
        assert engine_args[1] == {"model_name": "m", "seed": 1} and engine_args[2] == {}
        patched["run_inference"].assert_called_once_with(patched["initialize_inference_engine"].return_value,
                                                         patched["cli_load_dataset"].return_value)
        patched["run_evaluation"].side_effect = RuntimeError("scoring broke")
        with pytest.raises(SystemExit) as stopped:
            steps.main(argv)
        assert stopped.value.code == 1
