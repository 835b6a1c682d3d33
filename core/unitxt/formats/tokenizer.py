"""Formats that lay out the model input with a Hugging Face tokenizer's chat template (the `transformers` package,
optional: loading the artifact works without it, formatting needs it and says how to install it).
"""

from typing import Any, Dict, List, Optional

from ..errors import MissingRequirementError, UnitxtError
from ..operator import PackageRequirementsMixin
from .base import ChatAPIFormat, Format

_TOKENIZERS: Dict[str, Any] = {}


def load_tokenizer(model_name: str, component: str) -> Any:
    """`transformers.AutoTokenizer.from_pretrained(model_name)`, cached per model."""
    if model_name not in _TOKENIZERS:
        try:
            from transformers import AutoTokenizer
        except ImportError:
            raise MissingRequirementError(f"{component} needs the transformers package to apply the chat template of "
                                          f"'{model_name}'. Install it with: pip install transformers jinja2",
                                          artifact=component) from None
        _TOKENIZERS[model_name] = AutoTokenizer.from_pretrained(model_name)
    return _TOKENIZERS[model_name]


class HFSystemFormat(PackageRequirementsMixin, ChatAPIFormat):
    """The chat messages ChatAPIFormat would build, rendered to one string by the chat template of `model_name`'s
    tokenizer (with a generation prompt and `chat_kwargs_dict`), followed by the target prefix."""

    produces_chat_messages = False
    model_name: str
    chat_kwargs_dict: Dict[str, Any] = {}
    _requirements_list = {"transformers": "pip install transformers jinja2"}

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        target_prefix = instance.get("target_prefix", "") or ""
        instance = super().process(instance, stream_name)
        tokenizer = load_tokenizer(self.model_name, self.artifact_name)
        instance["source"] = tokenizer.apply_chat_template(instance["source"], tokenize=False,
                                                           add_generation_prompt=True,
                                                           **self.chat_kwargs_dict) + target_prefix
        return instance


class GraniteDocumentsFormat(PackageRequirementsMixin, Format):
    """Granite's RAG layout: the question as the user turn and the `context` (or each of `contexts`) as documents,
    rendered by `model`'s chat template with citations / length controls."""

    model: str = "ibm-granite/granite-3.1-8b-instruct"
    citations: bool = True
    length: str = "long"
    _requirements_list = {"transformers": "pip install transformers jinja2"}

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        inputs = instance.get("input_fields") or {}
        if "question" not in inputs or ("context" not in inputs and "contexts" not in inputs):
            raise UnitxtError("GraniteDocumentsFormat needs the task fields 'question' and 'context' or 'contexts'.",
                              artifact=self.artifact_name)
        texts: List[Any] = inputs["contexts"] if "contexts" in inputs else [inputs["context"]]
        tokenizer = load_tokenizer(self.model, self.artifact_name)
        self.take_parts(instance)
        instance["source"] = tokenizer.apply_chat_template(
            [{"role": "user", "content": inputs["question"]}],
            documents=[{"title": "", "text": text} for text in texts],
            controls={"citations": self.citations, "length": self.length},
            add_generation_prompt=True, tokenize=False)
        return instance


__all__ = ["HFSystemFormat", "GraniteDocumentsFormat", "load_tokenizer"]
