"""Assess the documentation assistant: `AssistantInferenceEngine` answers rows with the Assistant, so its answers
can be scored like any engine's (`python -m unitxt.assistant.assessment.assistant_inference_engine QA_CSV` scores a
question/answer CSV with an LLM judge of answer completeness and logs a table of the results)."""

import csv
import sys
from typing import Any, Dict, List

from ...inference.base import EngineInput, InferenceEngine, TextGenerationInferenceOutput
from ...logging_utils import get_logger
from .my_pretty_table import print_generic_table

logger = get_logger()
JUDGE = ("metrics.llm_as_judge.direct.rits.llama3_3_70b[criteria=metrics.llm_as_judge.direct.criteria."
         "answer_completeness, context_fields=[answers]]")


class AssistantInferenceEngine(InferenceEngine):
    """The assistant's answer to each row's source (a question, or a conversation), joined from its stream."""

    use_cache: bool = False  # the answer depends on the index, which is not part of the engine's settings

    def _load_assistant(self) -> None:
        """The Assistant (it needs the documentation index), made on first use, not when the engine is made."""
        from ..app import Assistant

        self.assistant = Assistant()

    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        if getattr(self, "assistant", None) is None:
            self._load_assistant()
        return [TextGenerationInferenceOutput(prediction="".join(self.assistant.generate_response(item.as_messages())),
                                              inference_type="assistant") for item in inputs]


def main(path: str) -> Any:
    """Score the assistant on a CSV of questions (`question`) and reference answers (`answers`)."""
    from ...api import create_dataset, evaluate

    with open(path, encoding="utf-8") as file:
        rows = [{key: [value] if key == "answers" else value for key, value in line.items()}
                for line in csv.DictReader(file)]
    dataset = create_dataset(task="tasks.qa.open", test_set=rows, metrics=[JUDGE], split="test")
    results = evaluate(predictions=AssistantInferenceEngine()(dataset), data=dataset)
    table = [{"score": row["score"]["instance"]["score"], "source": row["source"], "prediction": row["prediction"],
              "target": row["target"]} for row in results]
    print_generic_table(headers=["score", "source", "prediction", "target"], data=table,
                        col_widths={"score": 5, "source": 25, "prediction": 50, "target": 25})
    logger.info(results.global_scores.summary)
    return results


if __name__ == "__main__":
    main(sys.argv[1])
