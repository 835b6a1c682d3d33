"""Testing cards: `test_card` (documented as `unitxt.test_utils.card.test_card`) and `test_adding_to_catalog`.

`test_card(card)` prepares the card's data with every template of the card, with 0 demos and with `num_demos` demos,
prints up to 5 rows of each split with all their fields, then evaluates the test split twice:

1. with the gold references as predictions: the main score must equal `exact_match_score`;
2. with text that matches nothing (`full_mismatch_prediction_values`): the main score must be at most
   `maximum_full_mismatch_score`.

For both runs it shows how the template's post-processors turned the predictions and references into the values the
metrics read. A failed check raises `CardTestError` (`strict=True`) or prints a warning (`strict=False`). With
`debug=True` the data is first prepared one step at a time (loader, each preprocessing step, task, templates),
printing the split sizes and one example after every step.
"""

import copy
import json
import math
import tempfile
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..card import TaskCard
from ..errors import UnitxtError
from ..logging_utils import get_logger
from ..settings_utils import settings
from ..operator import SequentialOperator
from ..stream import ListStream, MultiStream
from ..templates.base import Template
from ..templates.collections import TemplatesDict, TemplatesList, keyed_templates
from ..text_utils import print_dict, to_pretty_json
from ..module_aliases import moved_classes

DEFAULT_FULL_MISMATCH_PREDICTION_VALUES = ["a1s", "bfsdf", "dgdfgs", "gfjgfh", "ghfjgh"]
EXAMPLES_SHOWN = 5
SEPARATOR = "*" * 40
SHORT_SEPARATOR = "*" * 5
ROW_FIELDS_ORDER = ("metrics", "data_classification_policy", "source", "target", "references", "task_data", "groups",
                    "subset", "media", "postprocessors")
EVALUATION_SPLITS = ("test", "validation", "train")


class CardTestError(UnitxtError, AssertionError):
    """A card failed one of the checks of test_card (raised in strict mode)."""


# ---------------------------------------------------------------- helpers
def _resolve_card(card: Any) -> TaskCard:
    if isinstance(card, str):
        from ..catalog import get_from_catalog

        card = get_from_catalog(card)
    if not isinstance(card, TaskCard):
        raise CardTestError(f"test_card needs a TaskCard (or a card's catalog name), got {type(card).__name__}.",
                            stage="test_card")
    return card


def card_templates(card: TaskCard) -> List[Tuple[str, Template]]:
    """(label, template) for every template of the card; the task's (or card's) default template when it has none."""
    spec = card.templates
    if spec is None or (isinstance(spec, (list, dict, TemplatesList, TemplatesDict)) and len(spec) == 0):
        default = (card.task.default_template if card.task is not None else None) or card.default_template
        if default is None:
            raise CardTestError("The card has no templates and its task has no default_template.", stage="test_card")
        spec = [default]
    result = []
    for key, template in keyed_templates(spec):
        if isinstance(template, str):
            from ..catalog import get_from_catalog

            template = get_from_catalog(template)
        if not isinstance(template, Template):
            raise CardTestError(f"Card template {key} is a {type(template).__name__}, not a template.",
                                stage="test_card")
        label = template.__id__ or f"template {key} ({type(template).__name__})"
        result.append((label, template))
    return result


def _materialize(multi_stream: MultiStream) -> Dict[str, List[Dict[str, Any]]]:
    return {name: list(stream) for name, stream in multi_stream.items()}


def _show_splits(step: str, data: Dict[str, List[Dict[str, Any]]]) -> None:
    sizes = ", ".join(f"{name}: {len(rows)}" for name, rows in data.items()) or "no splits"
    print(f"\n{'=' * 10} After step: {step}\nSplit sizes: {sizes}")
    for name, rows in data.items():
        if rows:
            print(f"One example from split '{name}':")
            print_dict(rows[0], indent=4)


def _mean_score_value(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def _short_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=repr)
    except (TypeError, ValueError):
        return repr(value)


class _Reporter:
    def __init__(self, strict: bool):
        self.strict = strict
        self.problems: List[str] = []

    def fail(self, message: str) -> None:
        self.problems.append(message)
        if self.strict:
            raise CardTestError(message, stage="test_card")
        print(f"WARNING: {message}")
        get_logger().warning(message)


# ---------------------------------------------------------------- debug mode
def _debug_run(card: TaskCard, loader_limit: Optional[int]) -> None:
    """Run loader, each preprocessing step and the task one at a time, printing sizes and an example after each."""
    print("Running the card step by step (debug mode).")
    loader = copy.copy(card.loader)
    if loader_limit is not None:
        loader.loader_limit = loader_limit
    data = _materialize(loader())
    _show_splits(f"loading ({type(loader).__name__})", data)
    for index, step in enumerate(card.preprocess_steps or []):
        operator = step
        if isinstance(step, str):
            from ..catalog import get_from_catalog

            operator = get_from_catalog(step)
        name = step if isinstance(step, str) else (step.__id__ or type(step).__name__)
        multi_stream = MultiStream({split: ListStream(rows) for split, rows in data.items()})
        data = _materialize(SequentialOperator(steps=[operator])(multi_stream))
        _show_splits(f"preprocess step {index + 1}: {name}", data)
    multi_stream = MultiStream({split: ListStream(rows) for split, rows in data.items()})
    data = _materialize(card.task(multi_stream))
    _show_splits(f"task ({card.task.__id__ or type(card.task).__name__})", data)


# ---------------------------------------------------------------- the checks
def _print_examples(rows_by_split: Dict[str, List[Dict[str, Any]]]) -> None:
    for split, rows in rows_by_split.items():
        print("----------")
        print(f"Showing up to {EXAMPLES_SHOWN} examples from stream '{split}':\n")
        for row in rows[:EXAMPLES_SHOWN]:
            keys = [key for key in ROW_FIELDS_ORDER if key in row] + [key for key in row if key not in ROW_FIELDS_ORDER]
            print_dict(row, keys_to_print=keys)
            print("\n")


def _gold_predictions(rows: List[Dict[str, Any]]) -> List[Any]:
    predictions = []
    for row in rows:
        references = list(row.get("references") or [])
        target = row.get("target")
        if target is not None and (target in references or not references):
            predictions.append(target)
        else:
            predictions.append(references[0] if references else "")
    return predictions


def _evaluate_and_show(title: str, predictions: List[Any], rows: List[Dict[str, Any]]) -> Any:
    from ..evaluation.in_memory import evaluate

    print(SEPARATOR)
    print(title)
    print("Showing the output of the post processing:")
    print(SHORT_SEPARATOR)
    results = evaluate(predictions, rows)
    for result in list(results)[:EXAMPLES_SHOWN]:
        prediction = result["prediction"]
        processed = result["processed_prediction"]
        references = result["processed_references"]
        print(f"Prediction: ({type(prediction).__name__})     {_short_value(prediction)}")
        print(f"Processed prediction: ({type(processed).__name__}) {_short_value(processed)}")
        print(f"Processed references: ({type(references).__name__}) {_short_value(references)}")
        print(SHORT_SEPARATOR)
    print()
    print(SHORT_SEPARATOR)
    print("Score output:")
    instance = results[0]["score"]["instance"] if len(results) else {}
    print(to_pretty_json({"global": dict(results.global_scores), "instance": instance}))
    return results


def _check_templates(
    card: TaskCard,
    label: str,
    template: Template,
    demo_counts: Sequence[int],
    reporter: _Reporter,
    settings: Dict[str, Any],
) -> None:
    from ..rendering.recipe import DatasetRecipe

    for count in demo_counts:
        recipe_kwargs = dict(settings["recipe_kwargs"])
        if count > 0:
            recipe_kwargs.update(num_demos=count, demos_pool_size=settings["demos_pool_size"],
                                 demos_taken_from=settings["demos_taken_from"])
        recipe = DatasetRecipe(card=card, template=template, loader_limit=settings["loader_limit"], **recipe_kwargs)
        print(f"\n{SEPARATOR}\nTemplate: {label} | num_demos: {count}")
        rows_by_split = _materialize(recipe())
        if not any(rows_by_split.values()):
            reporter.fail(f"Template {label} with {count} demos produced no instances.")
            continue
        _print_examples(rows_by_split)
        if count != demo_counts[0]:
            continue  # metrics do not depend on the demos: score once per template
        split = next((name for name in EVALUATION_SPLITS if rows_by_split.get(name)), None)
        split = split or next(name for name, rows in rows_by_split.items() if rows)
        rows = rows_by_split[split]
        if settings["test_exact"]:
            results = _evaluate_and_show("Running with the gold references as predictions.",
                                         _gold_predictions(rows), rows)
            score = _mean_score_value(results.global_scores.get("score"))
            expected = settings["exact_match_score"]
            if math.isnan(score) or not math.isclose(score, expected, rel_tol=1e-5, abs_tol=1e-4):
                reporter.fail(
                    f"Template {label}: with the gold references as predictions the main score "
                    f"({results.global_scores.get('score_name')}) is {score}, expected {expected} "
                    f"(exact_match_score). Check the template's post-processors and the task's metrics."
                )
        if settings["test_mismatch"]:
            values = settings["mismatch_values"]
            predictions = [values[index % len(values)] for index in range(len(rows))]
            results = _evaluate_and_show("Running with random text predictions (full mismatch).", predictions, rows)
            score = _mean_score_value(results.global_scores.get("score"))
            maximum = settings["maximum_full_mismatch_score"]
            if math.isnan(score):
                message = (f"Template {label}: the main score is NaN for the full-mismatch predictions; set "
                           "full_mismatch_prediction_values to values the post-processors can parse.")
                print(f"WARNING: {message}")
                get_logger().warning(message)
            elif score > maximum + 1e-9:
                reporter.fail(
                    f"Template {label}: with full-mismatch predictions the main score "
                    f"({results.global_scores.get('score_name')}) is {score}, above maximum_full_mismatch_score "
                    f"{maximum}."
                )


def test_card(
    card: Any,
    debug: bool = False,
    strict: bool = True,
    num_demos: int = 1,
    demos_pool_size: Optional[int] = None,
    demos_taken_from: str = "train",
    loader_limit: Optional[int] = 30,
    exact_match_score: float = 1.0,
    maximum_full_mismatch_score: float = 0.0,
    full_mismatch_prediction_values: Optional[List[Any]] = None,
    test_exact_match_score_when_predictions_equal_references: bool = True,
    test_full_mismatch_score_with_full_mismatch_prediction_values: bool = True,
    **kwargs: Any,
) -> List[str]:
    """Check a card end to end (see the module docstring). Extra keyword arguments go to every DatasetRecipe
    (e.g. `format=...`, `max_test_instances=...`; `demo_pool_size` is accepted for `demos_pool_size`).

    Returns the problems found (empty when everything passed; in strict mode the first problem raises).
    """
    __tracebackhide__ = True  # noqa: F841 - keeps pytest tracebacks short when a card check fails
    if settings.test_card_disable:
        get_logger().info("test_card() is disabled by unitxt.settings.test_card_disable (UNITXT_TEST_CARD_DISABLE).")
        return None
    if "demo_pool_size" in kwargs:
        demos_pool_size = kwargs.pop("demo_pool_size")
    card = _resolve_card(card)
    if card.loader is None:
        raise CardTestError("The card has no loader.", stage="test_card")
    if loader_limit is not None:
        print(f"Loading limited to {loader_limit} instances by setting {type(card.loader).__name__}.loader_limit;")
    if debug:
        _debug_run(card, loader_limit)
    reporter = _Reporter(strict)
    demo_counts = [0]
    if num_demos and num_demos > 0:
        pool = demos_pool_size if demos_pool_size is not None else max(num_demos, min(10, (loader_limit or 30) // 3))
        loader = copy.copy(card.loader)
        loader.loader_limit = loader_limit
        splits = set(SequentialOperator(steps=list(card.preprocess_steps or []))(loader()).keys())
        if demos_taken_from in splits:
            demo_counts.append(num_demos)
        else:
            print(f"Note: the card has no '{demos_taken_from}' split ({sorted(splits)}); testing without demos only.")
    else:
        pool = demos_pool_size
    checks = {
        "recipe_kwargs": kwargs,
        "demos_pool_size": pool,
        "demos_taken_from": demos_taken_from,
        "loader_limit": loader_limit,
        "test_exact": test_exact_match_score_when_predictions_equal_references,
        "test_mismatch": test_full_mismatch_score_with_full_mismatch_prediction_values,
        "exact_match_score": exact_match_score,
        "maximum_full_mismatch_score": maximum_full_mismatch_score,
        "mismatch_values": list(full_mismatch_prediction_values or DEFAULT_FULL_MISMATCH_PREDICTION_VALUES),
    }
    for label, template in card_templates(card):
        _check_templates(card, label, template, demo_counts, reporter, checks)
    print(SEPARATOR)
    if reporter.problems:
        print(f"test_card found {len(reporter.problems)} problem(s).")
    else:
        print("test_card: all checks passed.")
    return reporter.problems


def test_adding_to_catalog(card: Any, name: str = "cards.test_card_round_trip") -> None:
    """Save the card to a temporary catalog and load it back: it must serialise and come back equal."""
    from ..artifact import Artifact
    from ..catalog import LocalCatalog, add_to_catalog

    card = _resolve_card(card)
    with tempfile.TemporaryDirectory(prefix="unitxt-card-") as directory:
        add_to_catalog(card, name, catalog_path=directory, overwrite=True, verbose=False)
        loaded = Artifact.from_dict(LocalCatalog(directory).load_data(name))
    if loaded != card:
        raise CardTestError(f"The card does not round-trip through the catalog as '{name}'.", stage="test_card")


# ---------------------------------------------------------------- the original's steps of test_card
TEMP_NAME = "tmp_name"  # the catalog name cards are saved under by the catalog checks (the original's)


def test_metrics_exist(card: TaskCard) -> None:
    """Every metric of the card's task is found (by catalog name, or given as an artifact)."""
    from ..artifact import fetch_artifact

    for metric_name in card.task.metrics:
        fetch_artifact(metric_name)


def test_loading_from_catalog(card: TaskCard) -> None:
    """The card saved in a temporary catalog as TEMP_NAME loads back with the same JSON."""
    from ..artifact import fetch_artifact
    from ..catalog import add_to_catalog, register_local_catalog, unregister_local_catalog

    with tempfile.TemporaryDirectory() as directory:
        add_to_catalog(card, TEMP_NAME, overwrite=True, catalog_path=directory, verbose=False)
        register_local_catalog(directory)
        try:
            loaded, _ = fetch_artifact(TEMP_NAME)
        finally:
            unregister_local_catalog(directory)
    if json.dumps(loaded.to_dict(), sort_keys=True) != json.dumps(card.to_dict(), sort_keys=True):
        raise CardTestError("Card loaded is not equal to card stored", stage="test_card")


def _recipe_stages(recipe: Any) -> List[Tuple[str, Any]]:
    """(description, run) for each stage of a DatasetRecipe: loading, each preprocessing step, the task, rendering;
    `run()` gives the data after that stage."""
    card = recipe.card
    loader = copy.copy(card.loader)
    if recipe.loader_limit is not None:
        loader.loader_limit = recipe.loader_limit
    steps = list(card.preprocess_steps or [])

    def through(operators: List[Any]) -> Any:
        return lambda: SequentialOperator(steps=operators)(loader()) if operators else loader()

    stages = [(f"Loading the data ({type(loader).__name__})", through([]))]
    stages += [(f"Preprocessing step {index + 1}: {step if isinstance(step, str) else type(step).__name__}",
                through(steps[:index + 1])) for index, step in enumerate(steps)]
    stages.append(("Standardizing to the task schema", through(steps + [recipe.get_task()])))
    stages.append(("Rendering the rows (demos, template, format)", recipe))
    return stages


def _num_steps(recipe: Any) -> int:
    return recipe.num_steps() if hasattr(recipe, "num_steps") else len(_recipe_stages(recipe))


def print_recipe_output(recipe: Any, max_steps: int, num_examples: int, print_header: bool, print_stream_size: bool,
                        streams: Optional[List[str]] = None) -> List[Dict[str, Any]]:
    """Run the recipe through its first `max_steps` steps and log up to `num_examples` instances of each stream
    (of `streams` when given), with the step's description and the stream sizes if asked; returns the instances."""
    logger = get_logger()
    if hasattr(recipe, "set_max_steps"):  # a sequential recipe of the original's kind
        recipe.set_max_steps(max_steps)
        description, run = recipe.get_last_step_description(), recipe
    else:
        stages = _recipe_stages(recipe)
        if not 1 <= max_steps <= len(stages):
            raise CardTestError(f"max_steps must be between 1 and {len(stages)} (the recipe's steps), got "
                                f"{max_steps}.", stage="test_card")
        description, run = stages[max_steps - 1]
    if print_header:
        for line in ("=" * 80, "=" * 8, f"{'=' * 8} {description}", "=" * 8):
            logger.info(line)
    multi_stream = run()
    if print_stream_size:
        for name in multi_stream.keys():
            logger.info(f"stream named '{name}' has {sum(1 for _ in multi_stream[name])} instances\n")
    examples = []
    for name in multi_stream.keys():
        if streams is None or name in streams:
            logger.info("-" * 10)
            logger.info(f"Showing up to {num_examples} examples from stream '{name}':")
            for example, _ in zip(multi_stream[name], range(num_examples)):
                logger.info(to_pretty_json(example))
                logger.info("\n")
                examples.append(example)
    return examples


def load_examples_from_dataset_recipe(card: TaskCard, template_card_index: Any, debug: bool,
                                      **kwargs: Any) -> Optional[List[Dict[str, Any]]]:
    """Rows of the card with one of its templates (loader_limit 30 unless given): up to 5 of the test stream, or with
    `debug`, one instance after every step of the recipe; None when settings.test_card_disable is set."""
    from ..rendering.recipe import DatasetRecipe

    if settings.test_card_disable:
        get_logger().info("load_examples_from_dataset_recipe() is disabled by unitxt.settings.test_card_disable "
                          "(UNITXT_TEST_CARD_DISABLE).")
        return None
    kwargs.setdefault("loader_limit", 30)
    recipe = DatasetRecipe(card=card, template_card_index=template_card_index, **kwargs)
    get_logger().info(f"Using these card recipe parameters: {dict(kwargs, template_card_index=template_card_index)}")
    if not debug:
        return print_recipe_output(recipe, max_steps=_num_steps(recipe), num_examples=5, print_header=False,
                                   print_stream_size=False, streams=["test"])
    for max_steps in range(1, _num_steps(recipe) + 1):
        examples = print_recipe_output(recipe, max_steps=max_steps, num_examples=1, print_header=True,
                                       print_stream_size=True)
    return examples


def print_predictions(correct_predictions: List[Any], results: Any) -> None:
    """Log each prediction with its processed prediction and references, then the global and instance scores."""
    logger = get_logger()
    for result, prediction in zip(results, correct_predictions):
        logger.info(SHORT_SEPARATOR)
        logger.info(f"Prediction: ({type(prediction).__name__})     {prediction}")
        logger.info(f"Processed prediction: ({type(result['prediction']).__name__}) {result['processed_prediction']}")
        logger.info(f"Processed references: ({type(result['references']).__name__}) "
                    f"{result['processed_references']}")
    logger.info(SHORT_SEPARATOR)
    logger.info("Score output:")
    logger.info(json.dumps(results[0]["score"], sort_keys=True, indent=4, default=repr))


def _score_check(title: str, predictions: List[Any], examples: List[Dict[str, Any]]) -> Tuple[str, float]:
    from ..evaluation.in_memory import evaluate

    logger = get_logger()
    logger.info(SEPARATOR)
    logger.info(title)
    results = evaluate(predictions, examples)
    logger.info("Showing the output of the post processing:")
    print_predictions(predictions, results)
    scores = results[0]["score"]["global"]
    return scores["score_name"], scores["score"]


def _report(message: str, strict: bool) -> None:
    if strict:
        raise CardTestError(f"{message}In anycase, this requires a review.  If this is acceptable, set strict=False "
                            "in the call to test_card().", stage="test_card")
    get_logger().info("*" * 10)
    get_logger().info(f"{message}This is flagged as only as a warning because strict=False was set in the call to "
                      "test_card().")


def test_correct_predictions(examples: List[Dict[str, Any]], strict: bool, exact_match_score: float) -> None:
    """The main score with the rows' targets as predictions must be `exact_match_score` (CardTestError when strict,
    else a logged warning)."""
    predictions = [example["target"] for example in examples]
    name, score = _score_check("Running with the gold references as predictions.", predictions, examples)
    if not math.isclose(score, exact_match_score):
        _report(f"The results of running the main metric used in the card ({name}) over simulated predictions that "
                f"are equal to the references returns a different score than expected.\nOne would expect a perfect "
                f"score of {exact_match_score} in this case, but returned metric score was {score}.\n"
                f"The predictions passed to the metrics were:\n {predictions}\n", strict)


def test_wrong_predictions(examples: List[Dict[str, Any]], strict: bool, maximum_full_mismatch_score: float,
                           full_mismatch_prediction_values: List[Any]) -> None:
    """The main score with predictions drawn from `full_mismatch_prediction_values` (seeded by settings.seed) must
    be at most `maximum_full_mismatch_score` (CardTestError when strict, else a logged warning)."""
    import random

    draw = random.Random(settings.seed)
    predictions = [draw.choice(full_mismatch_prediction_values) for _ in examples]
    name, score = _score_check("Running with random values as predictions.", predictions, examples)
    if score > maximum_full_mismatch_score:
        _report(f"The results of running the main metric used in the card ({name}) over random predictions returns "
                f"a different score than expected.\nThe test expected a low score of atmost "
                f"{maximum_full_mismatch_score} in this case, but returned metric score was {score}.\n"
                f"The predictions passed to the metrics were:\n {predictions}\n", strict)


for _helper in (test_metrics_exist, test_loading_from_catalog, test_correct_predictions, test_wrong_predictions):
    _helper.__test__ = False  # helpers, not pytest tests, even when imported into a test module

test_card.__test__ = False  # not a pytest test despite the name
test_adding_to_catalog.__test__ = False

__all__ = ["test_card", "test_adding_to_catalog", "card_templates", "CardTestError",
           "DEFAULT_FULL_MISMATCH_PREDICTION_VALUES", "TEMP_NAME", "test_metrics_exist", "test_loading_from_catalog",
           "load_examples_from_dataset_recipe", "print_recipe_output", "print_predictions", "test_correct_predictions",
           "test_wrong_predictions"]


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
