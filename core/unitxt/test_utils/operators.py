"""check_operator: save and reload an operator, run it on instances and compare the outputs with the expected ones;
apply_operator and check_operator_exception for the other checks card and operator authors write."""

import json
from typing import Any, Dict, List, Optional, Sequence, Union

from ..operator import Operator
from ..stream import MultiStream
from .artifact import test_artifact_saving_and_loading
from ..module_aliases import moved_classes


def apply_operator(operator: Operator, inputs: List[Dict[str, Any]], return_multi_stream: bool = False,
                   return_stream: bool = False) -> Any:
    """Run an operator over `inputs` as the "test" stream (a source operator, with inputs=None, on nothing): the
    output instances (or the stream / multi-stream)."""
    multi_stream = operator() if inputs is None else operator(MultiStream.from_iterables({"test": list(inputs)}))
    if return_multi_stream:
        return multi_stream
    if return_stream:
        return multi_stream["test"]
    return list(multi_stream["test"])


def check_operator(
    operator: Operator,
    inputs: List[Dict[str, Any]],
    targets: Optional[List[Dict[str, Any]]] = None,
    tester: Any = None,
    sort_outputs_by: Optional[str] = None,
    stream_name: str = "test",
) -> Any:
    """Save and reload the operator through a catalog (it must come back the same), run it on `inputs` and return
    the outputs, as the original does; with `targets`, first check that the outputs (sorted by the field
    `sort_outputs_by`, if given) equal them - as JSON, so a tuple equals a list, or through `tester.assertDictEqual`
    when a unittest.TestCase is given - and raise AssertionError if not. With inputs=None the operator is a source:
    its own `stream_name` split is compared."""
    test_artifact_saving_and_loading(operator, tester=tester)
    if inputs is None:
        outputs = list(operator()[stream_name])
    else:
        outputs = operator.process_instances(inputs, stream_name=stream_name)
    if targets is None:
        return outputs
    if sort_outputs_by is not None:
        outputs = sorted(outputs, key=lambda instance: instance[sort_outputs_by])
    if tester is not None:
        tester.assertEqual(len(outputs), len(targets))
        for output, target in zip(outputs, targets):
            tester.assertDictEqual(output, target)
        return outputs
    if len(outputs) != len(targets):
        raise AssertionError(f"{type(operator).__name__} produced {len(outputs)} instances, expected {len(targets)}.")
    for index, (output, target) in enumerate(zip(outputs, targets)):
        if output != target and _as_json(output) != _as_json(target):
            raise AssertionError(
                f"{type(operator).__name__} output {index} differs:\n got:      {output!r}\n expected: {target!r}"
            )
    return outputs


def _as_json(value: Any) -> Optional[str]:
    """The value as sorted JSON text (None if it has no JSON form): the original compares outputs this way."""
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return None


def check_operator_exception(operator: Operator, inputs: List[Dict[str, Any]],
                             exception_texts: Union[str, Sequence[str]], tester: Any = None) -> None:
    """Run the operator on `inputs` and check that it fails with an error saying every one of `exception_texts` (one
    string or several): the i-th text in the error's message or in the i-th error of its chain of causes (the
    original's layout: the context first, the cause below it); AssertionError when it does not fail or says something
    else."""
    texts = [exception_texts] if isinstance(exception_texts, str) else list(exception_texts)
    try:
        apply_operator(operator, inputs)
    except Exception as error:  # noqa: BLE001 - any failure is what is being checked
        message, cause = str(error), error
        missing = []
        for text in texts:
            if text not in message and (cause is None or text not in str(cause)):
                missing.append(text)
            cause = cause.__cause__ if cause is not None else None
        if missing:
            raise AssertionError(f"{type(operator).__name__} failed, but its error does not contain "
                                 f"{json.dumps(missing)}: {message}") from error
        return
    raise AssertionError(f"Did not receive expected exception: {texts[0]}")  # the original's words


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
