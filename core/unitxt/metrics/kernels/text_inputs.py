"""Input checks shared by the text kernels (BLEU, chrF, ROUGE): a list of prediction strings and a same-length list of
reference lists, every item a string."""

from typing import List, Optional, Sequence

from ...errors import MetricError


def checked_text_inputs(predictions: Sequence[str], references: Sequence[Sequence[Optional[str]]],
                        drop_missing_references: bool = False) -> List[List[str]]:
    """Per instance, its references; MetricError naming the instance otherwise. With `drop_missing_references`
    (sacrebleu's padding of unequal reference counts) None references are left out, else they are an error."""
    if isinstance(predictions, str) or not isinstance(predictions, (list, tuple)):
        raise MetricError(
            f"predictions must be a list of strings, got {type(predictions).__name__}", field="prediction"
        )
    if isinstance(references, str) or not isinstance(references, (list, tuple)):
        raise MetricError(
            f"references must be a list of lists of strings, got {type(references).__name__}", field="references"
        )
    if len(predictions) != len(references):
        raise MetricError(
            f"got {len(predictions)} predictions but {len(references)} reference lists", field="references"
        )
    cleaned = []
    for index, (prediction, refs) in enumerate(zip(predictions, references)):
        if not isinstance(prediction, str):
            raise MetricError(
                f"prediction #{index} must be a string, got {type(prediction).__name__}", field="prediction"
            )
        if isinstance(refs, str) or not isinstance(refs, (list, tuple)):
            raise MetricError(
                f"references of instance #{index} must be a list of strings, got {type(refs).__name__}",
                field="references",
            )
        present = [ref for ref in refs if ref is not None] if drop_missing_references else list(refs)
        if not present:
            raise MetricError(f"instance #{index} has no references", field="references")
        for ref in present:
            if not isinstance(ref, str):
                raise MetricError(
                    f"references of instance #{index} must be strings, got {type(ref).__name__}",
                    field="references",
                )
        cleaned.append(present)
    return cleaned
