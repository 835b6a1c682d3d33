"""Operators that apply a template chosen per instance: ApplySingleTemplate (always the same one) and
ApplyRandomTemplate (one of several, drawn with a seed derived from the instance's fields, so the same instance gets
the same template in every run). The instance and each of its demos (`demos_field`) are rendered in full, and the
template used is recorded in `recipe_metadata/template`."""

from typing import Any, Dict, List, Optional

from ..dict_utils import dict_set
from ..errors import MissingFieldError
from ..operator import InstanceOperator
from ..random_utils import new_random_generator
from .base import Template


class ApplyTemplate(InstanceOperator):
    """Base: `get_template(instance)` picks the template; demos in `demos_field` (when set) are rendered with it."""

    __abstract__ = True

    demos_field: Optional[str] = None

    def get_template(self, instance: Dict[str, Any]) -> Template:
        raise NotImplementedError(f"{type(self).__name__} must implement get_template(instance)")

    def apply(self, template: Template, instance: Dict[str, Any], stream_name: Optional[str] = None
              ) -> Dict[str, Any]:
        """The instance rendered by the template (in place)."""
        return template.process(instance, stream_name)

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        template = self.get_template(instance)
        demos = None
        if self.demos_field is not None:
            if self.demos_field not in instance:
                raise MissingFieldError(
                    f"{type(self).__name__} renders the demos in '{self.demos_field}', which the instance lacks "
                    f"(fields: {', '.join(sorted(instance))}).", artifact=self.artifact_name, field="demos_field")
            demos = [self.apply(template, dict(demo)) for demo in instance.pop(self.demos_field)]
        dict_set(instance, "recipe_metadata/template", template)
        rendered = self.apply(template, instance, stream_name)
        if demos is not None:
            rendered[self.demos_field] = demos
        return rendered


class ApplySingleTemplate(ApplyTemplate):
    """Renders every instance with `template`."""

    template: Template

    def get_template(self, instance: Dict[str, Any]) -> Template:
        return self.template


class ApplyRandomTemplate(ApplyTemplate):
    """Renders each instance with one of `templates`, drawn with a seed from its input and reference fields."""

    templates: List[Template]

    def get_template(self, instance: Dict[str, Any]) -> Template:
        seed = {**instance["input_fields"], **instance["reference_fields"]}
        return new_random_generator(seed).choice(self.templates)

