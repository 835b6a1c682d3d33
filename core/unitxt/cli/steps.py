"""The evaluation command as the original's `unitxt.evaluate_cli` lays it out: one function per step (parse the
options, load the recipes, build the engine, infer, score, save), each replaceable on its own, and `main()` running
them in order. The names the steps use (`load_dataset`, `Benchmark`, `build_recipe`, the engines, `evaluate`,
`settings`, `logger`, `datetime`) are looked up in this module, so a caller or a test can substitute any of them.

`unitxt-evaluate` itself is `cli.evaluate` (one-line errors, exit codes); the options are shared (`arguments`).
"""

import argparse
import json
import logging
import os
import platform  # noqa: F401 - a name of the original module (callers may patch it)
import sys
import warnings
from datetime import datetime
from typing import Any, Dict, List, Optional, Tuple

from ..api import load_dataset
from ..benchmark import Benchmark
from ..evaluation.in_memory import evaluate
from ..evaluation.results import EvaluationResults
from ..inference import CrossProviderInferenceEngine, HFAutoModelInferenceEngine, InferenceEngine
from ..logging_utils import get_logger
from ..rendering.recipe import build_recipe
from ..settings_utils import settings
from .arguments import build_parser, key_values_or_json, recipe_overrides
from ..general.secrets import redact, secret_values
from ..module_aliases import moved_classes
from .run_files import commit_hash, environment_info, installed_packages, mock_mode_note, unitxt_version, \
    write_results

logger = get_logger()

# --model_args / --gen_kwargs / --chat_template_kwargs values: "k=v,..." pairs or JSON (invalid JSON-looking text is
# an argparse error); the parser's `type` is this very function
try_parse_json = key_values_or_json


def setup_parser() -> argparse.ArgumentParser:
    """The options of the evaluation command (those of `unitxt-evaluate`)."""
    return build_parser()


def setup_logging(verbosity: str) -> None:
    """Log at `verbosity` (DEBUG, INFO, ...) with time, logger and level on each line."""
    logging.basicConfig(level=verbosity, format="%(asctime)s - %(name)s - %(levelname)s - %(message)s", force=True)
    get_logger().setLevel(verbosity)


def prepare_output_paths(output_path: str, prefix: str) -> Tuple[str, str]:
    """Create `output_path`; return (<output_path>/<prefix>.json, <output_path>/<prefix>_samples.json) - the names
    before the run's time is put in front (see `_save_results_to_disk`)."""
    os.makedirs(output_path, exist_ok=True)
    return os.path.join(output_path, f"{prefix}.json"), os.path.join(output_path, f"{prefix}_samples.json")


def configure_unitxt_settings(args: argparse.Namespace) -> Any:
    """The settings context the run happens in (HF datasets cache off, unverified code allowed, cache folder)."""
    overrides: Dict[str, Any] = {
        "disable_hf_datasets_cache": args.disable_hf_cache,
        "allow_unverified_code": args.trust_remote_code,
    }
    if args.cache_dir:
        overrides["hf_cache_dir"] = args.cache_dir
        os.environ["HF_DATASETS_CACHE"] = args.cache_dir  # read directly by parts of the HF libraries
        os.environ["HF_HOME"] = args.cache_dir
        logger.info(f"Set HF_DATASETS_CACHE to: {args.cache_dir}")
    if args.disable_hf_cache:
        os.environ["UNITXT_DISABLE_HF_DATASETS_CACHE"] = "True"
    logger.info(f"Applying unitxt settings: {overrides}")
    return settings.context(**overrides)


def cli_load_dataset(args: argparse.Namespace) -> Any:
    """The rows of `args.split` of every recipe in --tasks, as one benchmark whose subsets are the recipe strings
    (a single benchmark name keeps its own subsets); --limit, --num_fewshots, --apply_chat_template apply to each."""
    logger.info(f"Loading task/dataset using identifier: '{args.tasks}' with split '{args.split}'")
    subsets = {task: build_recipe(task, **extract_overwrite_args(args)) for task in args.tasks}
    if len(subsets) == 1 and isinstance(next(iter(subsets.values())), Benchmark):
        source = next(iter(subsets.values()))
    else:
        source = Benchmark(subsets=subsets)
    dataset = load_dataset(source, split=args.split)
    logger.info(f"Dataset loaded successfully. Number of instances: {len(dataset)}")
    return dataset


def extract_overwrite_args(args: argparse.Namespace) -> Dict[str, Any]:
    """The recipe settings --limit, --num_fewshots and --apply_chat_template imply (max_<split>_instances; num_demos
    with train demos taken out of the data; formats.chat_api), each logged."""
    overrides = recipe_overrides(args)
    for key, value in overrides.items():
        logger.info(f"Applying {key}={value} from the command line options")
    return overrides


def extract_scores(directory: str) -> Any:
    """A pandas DataFrame with one row per `*evaluation_results.json` file of `directory`: Model, Timestamp, Average
    (the overall score) and the score of each task, oldest run first; a file that can not be read is logged."""
    import pandas as pd

    table = []
    for filename in sorted(os.listdir(directory)):
        if not filename.endswith("evaluation_results.json"):
            continue
        try:
            with open(os.path.join(directory, filename), encoding="utf-8") as file:
                content = json.load(file)
            info = content.get("environment_info", {})
            results = content.get("results", {})
            row = {"Model": info.get("parsed_arguments", {}).get("model", "N/A"),
                   "Timestamp": info.get("timestamp_utc", "N/A"), "Average": results.get("score", "N/A")}
            row.update({task: scores.get("score", "N/A") for task, scores in results.items()
                        if isinstance(scores, dict)})
            table.append(row)
        except Exception as error:  # noqa: BLE001 - one bad file is reported, the others still count
            logger.error(f"Error parsing results file {filename}: {error}.")
    frame = pd.DataFrame(table)
    return frame.sort_values(by="Timestamp", ascending=True) if len(frame) else frame


def frame_as_markdown(frame: Any) -> str:
    """A DataFrame as a Markdown table (header, rule, one line per row), without the index."""
    columns = [str(column) for column in frame.columns]
    cells = [[str(value) for value in row] for row in frame.itertuples(index=False)]
    widths = [max([len(column)] + [len(row[i]) for row in cells]) for i, column in enumerate(columns)]
    lines = ["| " + " | ".join(column.ljust(width) for column, width in zip(columns, widths)) + " |",
             "|" + "|".join("-" * (width + 2) for width in widths) + "|"]
    lines += ["| " + " | ".join(cell.ljust(width) for cell, width in zip(row, widths)) + " |" for row in cells]
    return "\n".join(lines)


def summarize_cli() -> None:
    """`<program> RESULTS_DIRECTORY` (from sys.argv): log the extract_scores table as Markdown; exit 1 on bad usage."""
    if len(sys.argv) != 2:
        logger.error("Usage: python summarize_cli_results.py <results-directory>")
        sys.exit(1)
    logger.info(frame_as_markdown(extract_scores(sys.argv[1])))


def prepare_kwargs(kwargs: Any) -> Dict[str, Any]:
    """A parsed option value as a dict: a dict as is, None as {}, anything else {} with a warning."""
    if not isinstance(kwargs, dict) and kwargs is not None:
        logger.warning(f"Could not parse kwargs '{kwargs}' as JSON or key-value pairs. Treating as empty.")
    prepared = kwargs if isinstance(kwargs, dict) else {}
    logger.info(f"Using kwargs: {redact(prepared)}")
    return prepared


def initialize_inference_engine(args: argparse.Namespace, model_args_dict: Dict[str, Any],
                                chat_kwargs_dict: Optional[Dict[str, Any]]) -> Any:
    """The engine --model names: 'hf' -> HFAutoModelInferenceEngine(model_name=<pretrained>, ..., batch_size,
    chat_kwargs_dict); 'cross_provider' -> CrossProviderInferenceEngine(model=<model_name>, ...). Records the
    engine's model in `args.model` for the results file."""
    kind = str(args.model).lower()
    if kind == "hf":
        if "pretrained" not in model_args_dict:
            raise ValueError("Argument 'pretrained' is required in --model_args when --model is 'hf'")
        name = model_args_dict.pop("pretrained")
        model_args_dict["batch_size"] = args.batch_size
        logger.info(f"Initializing HFAutoModelInferenceEngine for model: {name} with {redact(model_args_dict)}")
        engine = HFAutoModelInferenceEngine(model_name=name, **model_args_dict, chat_kwargs_dict=chat_kwargs_dict)
        args.model = getattr(engine, "model_name", name)
        _warn_when_mocked(args)
        return engine
    if kind == "cross_provider":
        if "model_name" not in model_args_dict:
            raise ValueError("Argument 'model_name' is required in --model_args when --model is 'cross_provider'")
        name = model_args_dict.pop("model_name")
        if "max_tokens" not in model_args_dict and "max_new_tokens" not in model_args_dict:
            logger.warning(f"'max_tokens' or 'max_new_tokens' not found in --model_args, {name} might require it.")
        logger.info(f"Initializing CrossProviderInferenceEngine for model: {name} with {redact(model_args_dict)}")
        engine = CrossProviderInferenceEngine(model=name, **model_args_dict)
        args.model = engine.get_engine_id()
        _warn_when_mocked(args)
        return engine
    raise ValueError(f"--model must be 'hf' or 'cross_provider', got '{args.model}'.")


def _warn_when_mocked(args: argparse.Namespace) -> None:
    """Under UNITXT_MOCK_INFERENCE_MODE: a warning, and the run marked as mocked in its results (see run_files)."""
    note = mock_mode_note(args)
    if note:
        logger.warning(note)


def run_inference(engine: Any, dataset: Any) -> List[Any]:
    """The engine's predictions for the dataset; a count different from the dataset's is logged as an error."""
    logger.info("Starting inference...")
    try:
        predictions = engine.infer(dataset)
    except Exception:
        logger.exception("An error occurred during inference")
        raise
    logger.info("Inference completed.")
    if not predictions:
        logger.warning("Inference returned no predictions.")
        return []
    if len(predictions) != len(dataset):
        logger.error(f"Inference returned an unexpected number of predictions ({len(predictions)}). "
                     f"Expected {len(dataset)}.")
    return predictions


def run_evaluation(predictions: List[Any], dataset: Any) -> Any:
    """Score the predictions: the EvaluationResults ([] when there are no predictions); RuntimeError when the
    scoring returns nothing or something else than EvaluationResults."""
    logger.info("Starting evaluation...")
    if not predictions:
        logger.warning("Skipping evaluation as there are no predictions.")
        return []
    try:
        results = evaluate(predictions=predictions, data=dataset)
        logger.info("Evaluation completed.")
        if not results:
            logger.error("Evaluation returned no results (empty list/None).")
            raise RuntimeError("Evaluation returned no results.")
        if not isinstance(results, EvaluationResults):
            logger.error(f"Evaluation returned unexpected type: {type(results)}.")
            raise RuntimeError(f"Evaluation returned unexpected type: {type(results)}")
        return results
    except Exception:
        logger.exception("An error occurred during evaluation")
        raise


def run_on_ray(args: argparse.Namespace, engine: Any, dataset: Any) -> Any:
    """--ray [ADDRESS]: the engine as --ray_actors actors on the cluster, the scoring per chunk there (as
    `unitxt-evaluate --ray` does); the EvaluationResults."""
    from ..ray.cli import infer_and_evaluate

    logger.info(f"Starting inference and evaluation on the Ray cluster {args.ray or '(a local one)'}...")
    results = infer_and_evaluate(args, dataset, engine)
    logger.info("Evaluation completed.")
    return results


def _get_unitxt_commit_hash() -> Optional[str]:
    return commit_hash()


def _get_unitxt_version() -> str:
    return unitxt_version()


def _get_installed_packages() -> Dict[str, str]:
    return installed_packages()


def prepend_timestamp_to_path(original_path: str, timestamp: str) -> str:
    """'<dir>/<name>' -> '<dir>/<timestamp>_<name>'."""
    directory, name = os.path.split(original_path)
    return os.path.join(directory, f"{timestamp}_{name}")


def _utc_now_text() -> str:
    with warnings.catch_warnings():  # utcnow is deprecated from Python 3.12; the naive UTC time is what is written
        warnings.simplefilter("ignore", DeprecationWarning)
        return datetime.utcnow().isoformat() + "Z"


def _save_results_to_disk(args: argparse.Namespace, global_scores: Any, all_samples_data: Dict[str, List[Any]],
                          results_path: str, samples_path: str) -> None:
    """Write {"environment_info", "results"} to <time>_<results file> and, with --log_samples,
    {"environment_info", "samples"} to <time>_<samples file>, with the results-file writer of `unitxt-evaluate`
    (new files only, never through a link, -2, -3... for runs in the same second, credentials redacted); a file
    that can not be written is a UnitxtError (the command then exits 1)."""
    info = environment_info(args, timestamp=_utc_now_text(), version=_get_unitxt_version(),
                            commit=_get_unitxt_commit_hash(), packages=_get_installed_packages())
    folder, name = os.path.split(results_path)
    prefix = name[:-len(".json")] if name.endswith(".json") else name
    logger.info(f"Saving global results summary to: {prepend_timestamp_to_path(results_path, '<time>')}")
    if args.log_samples:
        logger.info(f"Saving detailed samples to: {prepend_timestamp_to_path(samples_path, '<time>')}")
    written, samples_written = write_results(args, global_scores, all_samples_data if args.log_samples else None,
                                             info=info, folder=folder or ".", prefix=prefix)
    for path in (written, samples_written):
        if path is not None:
            logger.info(f"Wrote {path}")


def process_and_save_results(args: argparse.Namespace, evaluation_results: Any, results_path: str,
                             samples_path: str) -> None:
    """Log the subsets' summary table and save the scores, with each instance grouped by its recipe (the first
    entry of its `subset`) and without `postprocessors`."""
    try:
        subsets_scores = evaluation_results.subsets_scores
        grouped: Dict[str, List[Dict[str, Any]]] = {}
        for instance in evaluation_results.instance_scores if args.log_samples else []:
            row = {key: value for key, value in instance.items() if key != "postprocessors"}
            grouped.setdefault((row.get("subset") or [""])[0], []).append(row)
        logger.info(f"\n{subsets_scores.summary}")
        _save_results_to_disk(args, subsets_scores, grouped, results_path, samples_path)
    except Exception:
        logger.exception("An error occurred during result processing or saving")
        raise


def main(argv: Optional[List[str]] = None) -> None:
    """Run the steps in order; any failure is logged and exits with status 1."""
    args = setup_parser().parse_args(argv)
    setup_logging(args.verbosity)
    logger.info("Starting Unitxt Evaluation CLI")
    logger.debug(f"Parsed arguments: {redact(vars(args), secret_values(vars(args)))}")
    try:
        results_path, samples_path = prepare_output_paths(args.output_path, args.output_file_prefix)
        with configure_unitxt_settings(args):
            dataset = cli_load_dataset(args)
            model_args = prepare_kwargs(args.model_args)
            gen_kwargs = prepare_kwargs(args.gen_kwargs)
            chat_kwargs = prepare_kwargs(args.chat_template_kwargs)
            model_args.update(gen_kwargs)
            engine = initialize_inference_engine(args, model_args, chat_kwargs)
            if getattr(args, "ray", None) is not None:
                results = run_on_ray(args, engine, dataset)
            else:
                predictions = run_inference(engine, dataset)
                results = run_evaluation(predictions, dataset)
            process_and_save_results(args, results, results_path, samples_path)
    except Exception as error:  # noqa: BLE001 - the command reports every failure and exits 1
        logger.exception(f"{type(error).__name__}: {error}")
        sys.exit(1)
    logger.info("Unitxt Evaluation CLI finished successfully.")


if __name__ == "__main__":
    main()


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
