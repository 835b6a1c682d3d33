"""Render every task/card/template of the catalog with 0 and 5 demos through the explorer page's run_unitxt and log
each outcome to a CSV file (the original's `unitxt.ui.ui_tester`): `python -m unitxt.ui.ui_tester`."""

import csv
from typing import Any, List, Optional

from ..logging_utils import get_logger

logger = get_logger()

output_file = "ui_tester.csv"
headers = ["task", "dataset", "template", "num_shots", "prompt", "is_failed"]


def main(path: Optional[str] = None, shots: tuple = (0, 5)) -> List[List[Any]]:
    """Append a header and one row per (task, card, template, shots) to `path` (default `output_file`); return the
    rows. A row is failed when the rendered prompt is an exception message."""
    from . import ui_utils
    from .run import run_unitxt

    path = path or output_file
    with open(path, "a", newline="", encoding="utf-8") as file:
        csv.writer(file).writerow(headers)
    rows = []
    for task, cards in ui_utils.data.items():
        cards.pop("augmentable_inputs", None)
        for card, templates in cards.items():
            for template in templates:
                for num_shots in shots:
                    prompt_text = run_unitxt(dataset=card, template=template, num_demos=num_shots)[0]
                    row = [task, card, template, num_shots, prompt_text, "Exception:" in prompt_text]
                    logger.info(row)
                    with open(path, "a", newline="", encoding="utf-8") as file:
                        csv.writer(file).writerow(row)
                    rows.append(row)
    return rows


if __name__ == "__main__":
    main()
