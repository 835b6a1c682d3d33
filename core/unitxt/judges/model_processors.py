"""Post-processors that ask a model (through an inference engine): translating a model's answer before it is scored.

The engine is resolved when the first value is processed, so catalog entries can name `engines.generic` and leave the
choice of model to the user (UNITXT_INFERENCE_ENGINE); answers go through the engine's cache.
"""

from typing import Any, Dict, Optional, Union

from ..errors import UnitxtError
from ..operator import FieldOperator


class TranslateWithEngine(FieldOperator):
    """The text translated into `target_language` by the engine's model (one request per distinct text).

    The text goes to the engine's model: like every post-processor, this one sees values, not rows, so the rows'
    data_classification_policy is not checked here (it is when the engine runs over rows); use a local engine for
    data that may not leave the machine."""

    engine: Union[str, Dict[str, Any], Any] = "engines.generic"
    target_language: str = "English"
    instruction: str = ("Translate the following text into {language}. Answer with the translation only, without "
                        "quotes or comments.\n\nText: {text}\n\nTranslation:")
    _engine: Optional[Any] = None

    def _resolved_engine(self) -> Any:
        if self._engine is None:
            from ..inference import load_engine

            self._engine = load_engine(self.engine)
        return self._engine

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise UnitxtError(f"TranslateWithEngine translates text, got {type(value).__name__} {repr(value)[:60]}.",
                              artifact=self.artifact_name, field=self.field or "value")
        if not value.strip():
            return value
        prompt = self.instruction.format(language=self.target_language, text=value)
        (answer,) = self._resolved_engine().infer([{"source": prompt}])
        return str(answer).strip()
