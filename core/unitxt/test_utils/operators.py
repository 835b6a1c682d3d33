"""check_operator: run an operator on instances and compare the outputs with the expected ones."""

from typing import Any, Dict, List, Optional

from ..operator import Operator


def check_operator(
    operator: Operator,
    inputs: List[Dict[str, Any]],
    targets: Optional[List[Dict[str, Any]]] = None,
    tester: Any = None,
    stream_name: str = "test",
) -> Any:
    """Run an operator on `inputs`; with `targets`, return True when outputs equal them (else AssertionError)."""
    outputs = operator.process_instances(inputs, stream_name=stream_name)
    if targets is None:
        return outputs
    if len(outputs) != len(targets):
        raise AssertionError(f"{type(operator).__name__} produced {len(outputs)} instances, expected {len(targets)}.")
    for index, (output, target) in enumerate(zip(outputs, targets)):
        if output != target:
            raise AssertionError(
                f"{type(operator).__name__} output {index} differs:\n got:      {output!r}\n expected: {target!r}"
            )
    return True
