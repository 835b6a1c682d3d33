"""The fast per-row render of a plain InputOutputTemplate (InputOutputTemplate._row_renderer decides when it applies):
the same dict as `render`, built in one call with the template's compiled strings read once."""

from typing import Any, Callable, Dict, Optional

from ..serializers import default_serialize


def plain_row_renderer(template: Any, full: Callable[..., Dict[str, Any]]) -> Callable[..., Dict[str, Any]]:
    """A render(input_fields, reference_fields, instance, with_references) for `template`; any row with an unusual value
    (a reference that is not text, a missing field) or any error goes through `full` (the template's render)."""
    input_names, spec_names = template._input_names, template._spec_names
    render_input, render_output = template._input.render, template._output.render
    output_fields, only_output = template._output.fields, template._output._only  # "{label}": the text is the target
    render_instruction, render_target_prefix = template._instruction_memo.render, template._target_prefix_memo.render

    def render_row(input_fields: Dict[str, Any], reference_fields: Dict[str, Any],
                   instance: Optional[Dict[str, Any]] = None, with_references: bool = True) -> Dict[str, Any]:
        if not with_references:
            return full(input_fields, reference_fields, instance, with_references)
        try:
            values = {}
            for name in input_names:
                value = input_fields[name]
                if type(value) is str:
                    values[name] = value
                elif name in spec_names and isinstance(value, (int, float)) and not isinstance(value, bool):
                    values[name] = value
                else:
                    values[name] = default_serialize(value)
            if only_output is not None:
                target = reference_fields[only_output]
                if type(target) is not str:
                    return full(input_fields, reference_fields, instance, with_references)
            else:
                targets = {}
                for name in output_fields:
                    value = reference_fields[name]
                    if type(value) is not str:
                        return full(input_fields, reference_fields, instance, with_references)
                    targets[name] = value
                target = render_output(targets, "output_format")
            return {
                "source": render_input(values, "input_format"),
                "target": target,
                "references": [target],
                "instruction": render_instruction(values, "instruction"),
                "target_prefix": render_target_prefix(values, "target_prefix"),
            }
        except Exception:  # noqa: BLE001 - render raises the error, with its context
            return full(input_fields, reference_fields, instance, with_references)

    return render_row
