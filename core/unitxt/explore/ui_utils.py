"""The callbacks of the original's explorer page (`unitxt.ui.ui_utils`): build a recipe from the page's choices, take
a few rendered instances, show the code that reproduces them, run a model on them and tabulate the scores.

The catalog as the page reads it (`data`, `jsons`, `formats_items`, `system_prompts_items`, from
`load_catalog_data.load_cards_data()`) is loaded on first use of one of those names, not at import. Callbacks that
return Gradio components import Gradio when called (the `unitxt[ui]` extra); `generate` runs a Hugging Face model
(transformers and torch).
"""

import traceback
from functools import lru_cache
from typing import Any, Dict, FrozenSet, List, Optional, Tuple

from ..errors import UnitxtError
from ..logging_utils import get_logger
from ..text_utils import print_dict
from . import settings as config
from .app import _gradio
from .load_catalog_data import get_catalog_items, load_cards_data

logger = get_logger()
_CATALOG_NAMES = ("data", "jsons", "formats_items", "system_prompts_items")


@lru_cache(maxsize=1)
def _catalog_data() -> Tuple[Any, ...]:
    return load_cards_data()


def __getattr__(name: str) -> Any:
    """`data`, `jsons`, `formats_items`, `system_prompts_items`: the catalog, read once on first use."""
    if name in _CATALOG_NAMES:
        value = _catalog_data()[_CATALOG_NAMES.index(name)]
        globals()[name] = value
        return value
    raise AttributeError(f"module '{__name__}' has no attribute '{name}'")


def conditionally_activate_button(conditional_element: Any, button: Any) -> Any:
    """An active button once a choice (a string) is made; else the button as it is."""
    return _gradio().Button(interactive=True) if isinstance(conditional_element, str) else button


def increase_num(current_num: int) -> int:
    """The next sample number, wrapping to 0 after PROMPT_SAMPLE_SIZE - 1."""
    return 0 if current_num == config.PROMPT_SAMPLE_SIZE - 1 else current_num + 1


def decrease_num(current_num: int) -> int:
    """The previous sample number, wrapping to PROMPT_SAMPLE_SIZE - 1 before 0."""
    return config.PROMPT_SAMPLE_SIZE - 1 if current_num == 0 else current_num - 1


def safe_add(parameter: Any, key: str, args: Dict[str, Any]) -> None:
    """Set args[key] to a chosen value (a string); no choice (None, a list...) leaves args as they are."""
    if isinstance(parameter, str):
        args[key] = parameter


@lru_cache
def get_prompts(dataset: str, template: str, num_demos: int, system_prompt: Optional[str], format: Optional[str],
                augmentor: Optional[str]) -> Tuple[List[Dict[str, Any]], Dict[str, Any]]:
    """(the first rendered instances, the recipe arguments) for the page's choices; demos come from a pool of
    DEMOS_POOL_SIZE, loaders read at most 300 rows."""
    prompt_args: Dict[str, Any] = {"card": dataset, "template": template, config.LOADER_LIMIT_STR: 300}
    if num_demos != 0:
        prompt_args.update(num_demos=num_demos, demos_pool_size=config.DEMOS_POOL_SIZE)
    safe_add(system_prompt, "system_prompt", prompt_args)
    safe_add(format, "format", prompt_args)
    safe_add(augmentor, "augmentor", prompt_args)
    return build_prompt(prompt_args), prompt_args


@lru_cache
def get_predictions_and_scores(prompts_hashable: Tuple[FrozenSet[Any], ...]) -> Tuple[List[str], Any]:
    """Predictions of FLAN_T5_BASE for the instances (given hashable, see hash_dict) and their evaluation."""
    from ..evaluation.in_memory import evaluate

    prompts_list = [unhash_dict(prompt) for prompt in prompts_hashable]
    predictions = generate(model_name=config.FLAN_T5_BASE,
                           prompts=[prompt[config.PROMPT_SOURCE_STR] for prompt in prompts_list])
    return predictions, evaluate(predictions=predictions, data=prompts_list)


def hash_dict(input_dict: Dict[str, Any]) -> FrozenSet[Any]:
    """A dict as a frozenset of (key, value) pairs (nested dicts likewise, lists as tuples), for lru_cache keys."""
    return frozenset((key, hash_dict(value) if isinstance(value, dict) else tuple(value) if isinstance(value, list)
                      else value) for key, value in input_dict.items())


def unhash_dict(input_frozenset: FrozenSet[Any]) -> Dict[str, Any]:
    """The dict hash_dict made (tuples back to lists)."""
    return {key: unhash_dict(value) if isinstance(value, frozenset) else list(value) if isinstance(value, tuple)
            else value for key, value in input_frozenset}


def create_dataframe(scores: Dict[str, Any]) -> List[Tuple[str, Any]]:
    """Score rows (name, value rounded to 3 places) without score / score_name / groups_mean_score (they are removed
    from `scores`); EMPTY_SCORES_FRAME when `scores` is not a dict."""

    def rounded(value: Any) -> Any:
        try:
            return round(value, 3)
        except Exception:  # noqa: BLE001 - a text or list score is shown as it is
            return value

    try:
        for name in ("score_name", "score", "groups_mean_score"):
            scores.pop(name, None)
        return [(key, rounded(value)) for key, value in scores.items()]
    except Exception:  # noqa: BLE001 - the page shows an empty table instead of failing
        logger.info("An exception occurred:\n%s", traceback.format_exc())
        return config.EMPTY_SCORES_FRAME


def collect(dataset: Any, split: str, n: int) -> List[Dict[str, Any]]:
    """The first instances of a split: up to n + 1 of them (indices 0..n), as the original."""
    results = []
    for i, instance in enumerate(dataset[split]):
        if i > n:
            break
        results.append(instance)
    return results


def build_prompt(prompt_args: Dict[str, Any]) -> List[Dict[str, Any]]:
    """Instances of the recipe's train split; when that fails (no train split, too few rows for the demos), of its
    test split with the demos taken from test."""
    from ..rendering.recipe import build_recipe

    logger.info("loading args:")
    print_dict(prompt_args, log_level="debug")
    try:
        return collect(build_recipe(None, **prompt_args)(), "train", config.PROMPT_SAMPLE_SIZE)
    except (KeyError, RuntimeError, ValueError, UnitxtError):
        logger.info("An exception occurred:\n%s", traceback.format_exc())
        prompt_args["demos_taken_from"] = "test"
        logger.info("trying again with loading args:")
        print_dict(prompt_args, log_level="debug")
        return collect(build_recipe(None, **prompt_args)(), "test", config.PROMPT_SAMPLE_SIZE)


def build_command(prompt_data: Dict[str, Any], with_prediction: bool) -> str:
    """Python code that loads the same instances from the Hub's `unitxt/data` (and, `with_prediction`, runs the model
    and scores it); the loader limit is left out, at most 5 train instances are loaded."""
    recipe = ",".join(f"{key}={value}" for key, value in prompt_data.items()
                      if key != config.LOADER_LIMIT_STR).replace("'", "")
    load_line = (f"dataset = load_dataset('unitxt/data', '{recipe},max_train_instances=5', split='train', "
                 "trust_remote_code=True)")
    if not with_prediction:
        return f"\n{config.DATASET_IMPORT_STR}\n\n{load_line}\n"
    imports = f"{config.PREDICTIONS_IMPORTS_STR}\n{config.DATASET_IMPORT_STR}"
    return f"\n{imports}\n\n{load_line}\n{config.PREDICTION_CODE_STR}"


def get_datasets(task_choice: str) -> List[str]:
    """The cards of a task, sorted."""
    return sorted(name for name in _module_data()[task_choice] if name != config.AUGMENTABLE_STR)


def get_augmentors(task_choice: str) -> List[Optional[str]]:
    """None and every catalog augmentor when the task has augmentable inputs; else none."""
    if _module_data()[task_choice][config.AUGMENTABLE_STR]:
        return [None, *get_catalog_items("augmentors")[0]]
    return []


def get_templates(task_choice: str, dataset_choice: Any) -> Any:
    """A dropdown update offering the card's templates (None before a card is chosen)."""
    if not isinstance(dataset_choice, str):
        return None
    return _gradio().update(choices=sorted(_module_data()[task_choice][dataset_choice]))


def update_choices_per_task(task_choice: Any) -> Tuple[Any, Any, Any]:
    """(cards update, templates update, augmentors update) for a chosen task; Nones before a known task is chosen."""
    if not isinstance(task_choice, str) or task_choice not in _module_data():
        return None, None, None
    gr = _gradio()
    return gr.update(choices=get_datasets(task_choice)), None, gr.update(choices=get_augmentors(task_choice))


def generate(model_name: str, prompts: List[str], max_new_tokens: int = config.MAX_NEW_TOKENS) -> List[str]:
    """The texts `google/<model_name>` generates for the prompts (a transformers pipeline; needs transformers and
    torch, else an install hint)."""
    from ..inference.hf_local import HFPipelineBasedInferenceEngine

    engine = HFPipelineBasedInferenceEngine(model_name=f"google/{model_name}", max_new_tokens=max_new_tokens)
    return [str(text) for text in engine.infer([{"source": prompt} for prompt in prompts])]


def _module_data() -> Dict[str, Any]:
    return globals()["data"] if "data" in globals() else __getattr__("data")
