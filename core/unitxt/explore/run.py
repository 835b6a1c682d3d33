"""The original explorer page's entry callbacks (`unitxt.ui.run`): render the chosen instance of a card/template
choice as HTML, with the code that reproduces it and, on request, a model's prediction and scores.

`demo` is the explorer page here (explore.app, built on first use of the name; needs the `unitxt[ui]` extra), and
`python -m unitxt.ui.run` starts it.
"""

import html
import re
import traceback
from functools import lru_cache
from typing import Any, Dict, Optional, Tuple

from ..dict_utils import dict_get
from ..logging_utils import get_logger
from . import settings as config
from .ui_utils import build_command, create_dataframe, get_predictions_and_scores, get_prompts, hash_dict

logger = get_logger()
_BUBBLE = '<div class="unitxt-bubble"><h3>{title}</h3><p>{text}</p></div>'


def __getattr__(name: str) -> Any:
    """`demo`: the explorer's Gradio page, built on first use."""
    if name == "demo":
        from .app import build_app

        globals()["demo"] = build_app(header_visible=config.HEADER_VISIBLE)
        return globals()["demo"]
    raise AttributeError(f"module '{__name__}' has no attribute '{name}'")


def run_unitxt_entry(task: Any, dataset: Any, template: Any, system_prompt: Any = None, format: Any = None,
                     num_demos: Any = 0, augmentor: Any = None, index: Any = 1, run_model: bool = False) -> Tuple:
    """run_unitxt for the page's raw widget values: a missing card or template gives a message; values of the wrong
    type fall back to their defaults."""
    if not isinstance(dataset, str) or not isinstance(template, str):
        message = ("Please select a template" if isinstance(dataset, str)
                   else "Please select Dataset Card and a template")
        return message, "", "", config.EMPTY_SCORES_FRAME, config.EMPTY_SCORES_FRAME, ""
    return run_unitxt(dataset, template, system_prompt if isinstance(system_prompt, str) else None,
                      format if isinstance(format, str) else None, num_demos if isinstance(num_demos, int) else 0,
                      augmentor if isinstance(augmentor, str) else None, run_model,
                      index if isinstance(index, int) else 1)


def img_tag_to_markdown(img_tag: str, instance: Dict[str, Any]) -> str:
    """An `<img src="<field path>">` tag of a prompt as an inline PNG of the image stored at that path of the
    instance."""
    import base64
    from io import BytesIO

    found = re.search(r'src=["\']([^"\']+)["\']', img_tag)
    buffer = BytesIO()
    dict_get(instance, found.group(1) if found else "").save(buffer, format="PNG")
    return f'<img src="data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode("utf-8")}">'


def fix_images(content: str, instance: Dict[str, Any]) -> str:
    """The prompt with each `<img ...>` tag replaced by img_tag_to_markdown's inline image."""
    return re.sub(r"<img\b[^>]*?>", lambda match: img_tag_to_markdown(match.group(0), instance), content)


@lru_cache
def run_unitxt(dataset: str, template: str, system_prompt: Optional[str] = None, format: Optional[str] = None,
               num_demos: int = 0, augmentor: Optional[str] = None, run_model: bool = False,
               index: int = 1) -> Tuple:
    """(source HTML, target HTML, prediction, instance scores, global scores, code) of the index-th (from 1)
    instance; a failing choice gives a message in place of the source, a failing model one in place of the
    prediction."""
    index = index - 1
    prompts_list = []
    try:
        prompts_list, prompt_args = get_prompts(dataset, template, num_demos, system_prompt, format, augmentor)
        selected = prompts_list[index]
        source = selected[config.PROMPT_SOURCE_STR]
        source = fix_images(source, selected) if "<img src=" in source else source
        prompt_text = _BUBBLE.format(title="Source:", text=source.replace("\n", "<br>"))
        prompt_target = _BUBBLE.format(title="Target:", text=selected[config.PROMPT_TARGET_STR].replace("\n", "<br>"))
        command = build_command(prompt_args, with_prediction=run_model)
    except Exception as error:  # noqa: BLE001 - the page shows the reason instead of failing
        logger.info("An exception occurred:\n%s", traceback.format_exc())
        prompt_text = ("\nThis combination could not be rendered; try another one.\n\n"
                       f"Exception: {html.escape(repr(error))}\n")
        prompt_target, command = "", ""
    prediction, instance_result, global_result = "", config.EMPTY_SCORES_FRAME, config.EMPTY_SCORES_FRAME
    if run_model:
        try:
            predictions, results = get_predictions_and_scores(tuple(hash_dict(prompt) for prompt in prompts_list))
            prediction = predictions[index]
            instance_result = create_dataframe(dict(results[index]["score"]["instance"]))
            global_result = create_dataframe(dict(results[index]["score"]["global"]))
        except Exception as error:  # noqa: BLE001 - shown in the page
            prediction = f"\nAn exception has occurred:\n\n{error!r}\n"
    return prompt_text, prompt_target, prediction, instance_result, global_result, command


if __name__ == "__main__":
    from . import launch

    launch()
