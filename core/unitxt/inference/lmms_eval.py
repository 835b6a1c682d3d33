"""Multimodal models through lmms-eval (`pip install lmms-eval`, imported only when a request is sent): generation
(`LMMSEvalInferenceEngine`) and picking the option with the best log-likelihood
(`LMMSEvalLoglikelihoodInferenceEngine`). Rows give lmms-eval their text with an image token where each image was,
and the images as RGB PIL images."""

import json
import re
import sys
import uuid
from typing import Any, Dict, List, Literal, Optional, Union

from ..artifact import Field
from ..errors import InstanceTypeError
from ..settings_utils import get_constants
from .base import EngineInput, InferenceEngine, InferenceError, TextGenerationInferenceOutput, get_model_and_label_id
from .mixins import LazyLoadMixin, TorchDeviceMixin


def _image_tag_pattern() -> str:
    """An image tag of a text source: the original's `<unitxt-img src=...>` and this library's `<img src=...>`."""
    tags = sorted({get_constants().image_tag, "img"})
    return r"<(?:" + "|".join(re.escape(tag) for tag in tags) + r")\s+src=[\"'](.*?)[\"']\s*/?>"


def _flat(row: Dict[str, Any]) -> Dict[str, Any]:
    """A row as a table row of lmms-eval's temporary task: nested values (chat sources, task_data dicts, media) as
    JSON text, so rows of any shape form one table."""
    return {key: value if value is None or isinstance(value, (str, int, float, bool)) else
            json.dumps(value, default=str, sort_keys=True) for key, value in row.items()}


def get_images_without_text(instance: Dict[str, Any]) -> List[Any]:
    """The images of a row as RGB PIL images: those its text source points at, or the image parts of its chat
    messages (needs Pillow)."""
    from ..dict_utils import dict_get
    from ..image_utils import decode_image

    source = instance["source"]
    if isinstance(source, str):
        images = [dict_get(instance, path) for path in re.findall(_image_tag_pattern(), source)]
    elif isinstance(source, list):
        images = [part["image_url"]["url"] for turn in source if isinstance(turn["content"], list)
                  for part in turn["content"] if part["type"] == "image_url"]
    else:
        raise InstanceTypeError(f"A row's source must be text or chat messages, got {type(source).__name__}.",
                                field="source")
    return [decode_image(image, "get_images_without_text").convert("RGB") for image in images]


def get_text_without_images(instance: Dict[str, Any], image_token: str = "<image>") -> str:
    """The text of a row with `image_token` where each image was (chat messages concatenated)."""
    source = instance["source"]
    if isinstance(source, str):
        return re.sub(_image_tag_pattern(), lambda _: image_token, source)
    if isinstance(source, list):
        text = ""
        for turn in source:
            content = turn["content"]
            if isinstance(content, str):
                text += content
                continue
            for part in content:
                if part["type"] == "text":
                    text += part["text"]
                if part["type"].startswith("image"):
                    text += image_token
        return text
    raise InstanceTypeError(f"A row's source must be text or chat messages, got {type(source).__name__}.",
                            field="source")


class LMMSEvalBaseInferenceEngine(InferenceEngine, LazyLoadMixin, TorchDeviceMixin):
    """An lmms-eval model: `model_type` names its class in lmms-eval's registry, `model_args` its constructor
    arguments (a dict, or lmms-eval's "k=v,k=v" string); loaded on the first request."""

    __abstract__ = True

    model_type: str
    model_args: Union[Dict[str, Any], str]
    batch_size: int = 1
    image_token: str = "<image>"
    _requirements_list = {"lmms_eval": "Install llms-eval package using 'pip install lmms-eval==0.2.4'"}
    _inference_type = "lmms-eval"
    label = "lmms-eval"

    def get_engine_id(self) -> str:
        return get_model_and_label_id(self.model_type, self.label)

    def _is_loaded(self) -> bool:
        return getattr(self, "_model", None) is not None

    def model_argument_string(self) -> str:
        """`model_args` as lmms-eval's "key=value,key=value" string."""
        if isinstance(self.model_args, dict):
            return ",".join(f"{key}={value}" for key, value in self.model_args.items())
        return self.model_args

    def load_model(self) -> Any:
        """The lmms-eval model, created once."""
        if not self._is_loaded():
            from lmms_eval.models import get_model

            device = self.get_device_id()
            self._model = get_model(self.model_type).create_from_arg_string(
                self.model_argument_string(), {"batch_size": self.batch_size, "device": device, "device_map": device})
        return self._model

    def lmms_request(self, request_type: str, row: Dict[str, Any], argument: Any, index: int, task: str) -> Any:
        """One lmms-eval Instance for a row (its text with image tokens, its images through a doc callback)."""
        from lmms_eval.api.instance import Instance

        return Instance(request_type=request_type,
                        arguments=(get_text_without_images(row, image_token=self.image_token), argument,
                                   lambda doc, row=row: get_images_without_text(row), index, task, "test"),
                        idx=index, metadata={"task": task, "doc_id": index, "repeats": 1})

    def run_task(self, rows: List[Dict[str, Any]], requests_of, run) -> Any:
        """Register the rows as a temporary lmms-eval task, run the requests, unregister it."""
        from datasets import Dataset, DatasetDict

        model = self.load_model()
        task = str(uuid.uuid4())
        requests = requests_of(task)
        model.task_dict[task] = DatasetDict({"test": Dataset.from_list([_flat(row) for row in rows])})
        try:
            return requests, run(model, requests)
        finally:
            model.task_dict.pop(task, None)


class LMMSEvalInferenceEngine(LMMSEvalBaseInferenceEngine):
    """Generation with an lmms-eval model (greedy, 32 new tokens, stop at a blank line by default)."""

    max_new_tokens: int = 32
    temperature: float = 0.0
    do_sample: bool = False
    generate_until: List[str] = Field(default_factory=lambda: ["\n\n"])

    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        settings = {"max_new_tokens": self.max_new_tokens, "temperature": self.temperature,
                    "do_sample": self.do_sample, "until": self.generate_until}
        _, answers = self.run_task(
            rows, lambda task: [self.lmms_request("generate_until", row, settings, index, task)
                                for index, row in enumerate(rows)],
            lambda model, requests: model.generate_until(requests))
        return [TextGenerationInferenceOutput(prediction=answer, model_name=self.model_type,
                                              inference_type=self._inference_type) for answer in answers]


class LMMSEvalLoglikelihoodInferenceEngine(LMMSEvalBaseInferenceEngine):
    """Multiple choice with an lmms-eval model: per row, the option of task_data["options"] with the best
    log-likelihood score (the lowest, as the original compares lmms-eval's scores)."""

    request_type: Literal["loglikelihood"] = "loglikelihood"

    def make_instance(self, instance: Dict[str, Any], special_args: Any, index: int, task_name: str) -> Any:
        """The lmms-eval request scoring one option of a row."""
        return self.lmms_request(self.request_type, instance, special_args, index, task_name)

    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        def requests_of(task: str) -> List[Any]:
            requests = []
            for index, row in enumerate(rows):
                task_data = row.get("task_data") or {}
                if isinstance(task_data, str):
                    task_data = json.loads(task_data)
                if not task_data.get("options"):
                    raise InferenceError(f"Row {index}: {type(self).__name__} needs task_data['options'].",
                                         field="task_data")
                requests.extend(self.make_instance(row, option, index, task) for option in task_data["options"])
            return requests

        def run(model: Any, requests: List[Any]) -> Any:
            model.metadata = {}
            return model.loglikelihood(requests)

        requests, responses = self.run_task(rows, requests_of, run)
        best_scores = [sys.float_info.max] * len(rows)
        best: List[Optional[Any]] = [None] * len(rows)
        for request, (score, _) in zip(requests, responses):
            if score < best_scores[request.idx]:
                best_scores[request.idx] = score
                best[request.idx] = request.arguments[1]
        return [TextGenerationInferenceOutput(prediction=answer, model_name=self.model_type,
                                              inference_type=self._inference_type) for answer in best]
