"""`unitxt-evaluate` (also `python -m unitxt`): load recipes, run a model over them, score the answers, and write
the results files (see `run_files`). Fails with exit code 1 and one line naming what went wrong."""

import argparse
import logging
import os
import sys
from typing import Any, Dict, List, Optional

from ..errors import UnitxtError
from .arguments import as_dict, build_parser, recipe_overrides

logger = logging.getLogger("unitxt.cli")


def load_tasks(arguments: argparse.Namespace) -> Any:
    """The rows of every recipe in --tasks, as one benchmark whose subsets are named by the recipe strings."""
    from ..api import load_dataset
    from ..benchmark import Benchmark
    from ..rendering.recipe import build_recipe

    overrides = recipe_overrides(arguments)
    subsets = {}
    for task in arguments.tasks:
        if not task.strip():
            raise UnitxtError("An empty recipe in --tasks (two '+' in a row, or one at an end).", field="--tasks")
        if task in subsets:
            raise UnitxtError(f"The recipe '{task}' is given twice in --tasks.", field="--tasks")
        subsets[task] = build_recipe(task, **overrides)
    if len(subsets) == 1 and isinstance(next(iter(subsets.values())), Benchmark):
        source = next(iter(subsets.values()))  # a benchmark keeps its own subsets
    else:
        source = Benchmark(subsets=subsets)
    logger.info("Rendering %d recipe(s), split '%s'", len(subsets), arguments.split)
    dataset = load_dataset(source, split=arguments.split)
    logger.info("Loaded %d instances", len(dataset))
    return dataset


def build_engine(arguments: argparse.Namespace, model_args: Dict[str, Any], chat_kwargs: Dict[str, Any]) -> Any:
    """The engine --model names, built from --model_args (+ --gen_kwargs); records its id in arguments.model."""
    from .. import inference

    if arguments.model == "hf":
        if "pretrained" not in model_args:
            raise ValueError("Argument 'pretrained' is required in --model_args when --model is 'hf'")
        name = model_args.pop("pretrained")
        model_args["batch_size"] = arguments.batch_size
        if chat_kwargs:
            model_args["chat_kwargs_dict"] = chat_kwargs
        engine = inference.HFAutoModelInferenceEngine(model_name=name, **model_args)
        arguments.model = name
        return engine
    if "model_name" not in model_args:
        raise ValueError("Argument 'model_name' is required in --model_args when --model is 'cross_provider'")
    name = model_args.pop("model_name")
    if "max_tokens" not in model_args and "max_new_tokens" not in model_args:
        logger.warning("'max_tokens' or 'max_new_tokens' not found in --model_args, %s might require it.", name)
    if "base_url" in model_args:  # any OpenAI-compatible server
        key = model_args.pop("api_key", None) or os.environ.get("OPENAI_API_KEY")
        if key:
            model_args["credentials"] = {**model_args.get("credentials", {}), "api_key": key}
        engine = inference.VLLMRemoteInferenceEngine(model_name=name, **model_args)
        arguments.model = f"{name}@{model_args['base_url']}"
        return engine
    engine = inference.CrossProviderInferenceEngine(model=name, **model_args)
    arguments.model = engine.get_engine_id()
    return engine


def _stage_bar(enabled: bool) -> Any:
    """A bar over the three stages (rendering, inference, scoring) on a terminal's stderr; silent otherwise."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        tqdm = None
    if enabled and tqdm is not None:
        return tqdm(total=3, desc="unitxt-evaluate", unit="stage", disable=None, leave=False)

    class _Silent:
        def update(self, n: int = 1) -> None:
            pass

        def set_description(self, text: str) -> None:
            pass

        def close(self) -> None:
            pass

    return _Silent()


def run(arguments: argparse.Namespace) -> List[str]:
    """Evaluate as the arguments say; return the paths written."""
    from ..evaluation.in_memory import evaluate
    from ..settings_utils import settings
    from .run_files import check_output_folder, mock_mode_note, samples_by_task, write_results

    check_output_folder(arguments.output_path)  # before any recipe is rendered or model called
    if arguments.cache_dir:
        os.environ["HF_DATASETS_CACHE"] = arguments.cache_dir
        os.environ["HF_HOME"] = arguments.cache_dir
    stages = _stage_bar(arguments.verbosity in ("DEBUG", "INFO"))
    with settings.context(disable_hf_datasets_cache=arguments.disable_hf_cache,
                          allow_unverified_code=arguments.trust_remote_code):
        stages.set_description("rendering")
        dataset = load_tasks(arguments)
        model_args = as_dict(arguments.model_args, "--model_args")
        model_args.update(as_dict(arguments.gen_kwargs, "--gen_kwargs"))
        engine = build_engine(arguments, model_args, as_dict(arguments.chat_template_kwargs, "--chat_template_kwargs"))
        note = mock_mode_note(arguments)
        if note:  # printed whatever the verbosity: a mock run must never pass for a real one
            print(f"unitxt-evaluate: warning: {note}", file=sys.stderr)
        stages.update()
        if getattr(arguments, "batch_file_out", None):
            from ..inference.batch_offline import write_batch_input

            count = write_batch_input(engine, dataset, arguments.batch_file_out)
            logger.info("Wrote %d requests to %s", count, arguments.batch_file_out)
            stages.close()
            return [arguments.batch_file_out]
        stages.set_description("inference")
        if getattr(arguments, "ray", None) is not None:
            if getattr(arguments, "batch_file_in", None):
                raise UnitxtError("--ray and --batch-file-in do not go together: a batch output file is scored in "
                                  "this process; drop --ray.")
            from ..ray.cli import infer_and_evaluate

            logger.info("Running inference with %s on Ray", arguments.model)
            results = infer_and_evaluate(arguments, dataset, engine)
            stages.update()
        else:
            if getattr(arguments, "batch_file_in", None):
                from ..inference.batch_offline import read_batch_output

                logger.info("Reading the answers of %s", ", ".join(arguments.batch_file_in))
                predictions = [output.prediction for output in read_batch_output(engine, dataset,
                                                                                 arguments.batch_file_in)]
            else:
                logger.info("Running inference with %s", arguments.model)
                predictions = engine.infer(dataset)  # the engine shows its own per-request bar
            if len(predictions) != len(dataset):
                raise UnitxtError(f"The model returned {len(predictions)} answers for {len(dataset)} instances.")
            stages.update()
            stages.set_description("scoring")
            logger.info("Scoring %d predictions", len(predictions))
            results = evaluate(predictions=predictions, data=dataset)
        stages.update()
        stages.close()
    subsets = results.subsets_scores
    logger.info("\n%s", subsets.summary)
    samples = samples_by_task(results.instance_scores) if arguments.log_samples else None
    results_path, samples_path = write_results(arguments, subsets, samples)
    written = [str(results_path)] + ([str(samples_path)] if samples_path else [])
    for path in written:
        logger.info("Wrote %s", path)
    return written


def main(argv: Optional[List[str]] = None) -> int:
    arguments = build_parser().parse_args(argv)
    from ..logging_utils import get_logger

    get_logger().setLevel(arguments.verbosity)  # the unitxt logger (its handler prints to stderr)
    try:
        written = run(arguments)
    except KeyboardInterrupt:
        print("unitxt-evaluate: interrupted", file=sys.stderr)
        return 130
    except Exception as error:  # noqa: BLE001 - the command line reports one line, the log level shows more
        logger.debug("unitxt-evaluate failed", exc_info=True)
        message = " ".join(str(error).split()) or type(error).__name__
        print(f"unitxt-evaluate: error: {type(error).__name__}: {message}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    return 0


def console_main() -> None:
    """The `unitxt-evaluate` console script."""
    sys.exit(main())


if __name__ == "__main__":
    console_main()
