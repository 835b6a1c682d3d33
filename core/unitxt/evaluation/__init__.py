"""Evaluation: predictions and rows -> template post-processors -> metrics -> scores per group and subset with CIs,
in memory or chunk by chunk over a stream, and what is made of results (reports, plots, paired comparisons).
Layer 8 of README "Layout": may import every lower layer (foundations ... models), never `api`, `explore`, `test_utils`.

`from unitxt.evaluation import evaluate` (and the names below) works; each name is imported on first use from the
module that defines it: `in_memory` (evaluate, post_process), `streamed`, `inputs`, `post_processing`, `results`,
`signature`, `paired_comparison` (compare), `html_report`, `plots`, `eval_utils`.
"""

from typing import Dict

from ..lazy_imports import lazy_exports

_EXPORTS: Dict[str, str] = {
    "evaluate": ".in_memory",
    "post_process": ".in_memory",
    "post_process_rows": ".post_processing",
    "EvaluationResults": ".results",
    "compare": ".paired_comparison",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, "evaluation.")
