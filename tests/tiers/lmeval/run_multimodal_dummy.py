"""`lm_eval` as on the command line, with its `dummy` model declared multimodal.

lm-evaluation-harness refuses multimodal tasks (its `doc_vqa` unitxt task) for models that do not declare
MULTIMODAL, and its multimodal models need weights. The dummy model ignores the images it is handed, so declaring it
multimodal runs the whole task path (images decoded from our rows by the task's `doc_to_image`) with no model.
"""

import sys

from lm_eval.__main__ import cli_evaluate
from lm_eval.models.dummy import DummyLM

DummyLM.MULTIMODAL = True

if __name__ == "__main__":
    sys.exit(cli_evaluate())
