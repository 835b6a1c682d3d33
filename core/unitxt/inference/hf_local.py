"""Local Hugging Face engines (optional `transformers` + `torch`, imported only when an engine runs).

HFPipelineBasedInferenceEngine uses a transformers pipeline; HFAutoModelInferenceEngine batches `generate` itself
(chat sources through the tokenizer's chat template, log-probs from the scores); HFOptionSelectingInferenceEngine
scores task options by log-likelihood; HFLlavaInferenceEngine answers chat rows with images.
"""

from typing import Any, Dict, List, Optional, Tuple

from ..artifact_registry import register_type_names
from ..errors import MissingRequirementError
from .base import EngineInput, InferenceEngine, InferenceError, TextGenerationInferenceOutput
from .option_selection import OptionSelectingByLogProbsInferenceEngine
from .params import GenerationParamsMixin
from ..artifact import InertField

_HINT = "pip install transformers torch (or: pip install 'unitxt[models]')"


def _torch_and_transformers():
    try:
        import torch
        import transformers
    except ImportError:
        raise MissingRequirementError(f"Local Hugging Face engines need transformers and torch: {_HINT}.") from None
    return torch, transformers


def pick_device(requested: Optional[str]) -> str:
    """`requested`, else cuda, else mps, else cpu."""
    torch, _ = _torch_and_transformers()
    if requested:
        return requested
    if torch.cuda.is_available():
        return "cuda"
    if getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
        return "mps"
    return "cpu"



def _generation_tokenizer(transformers: Any, name: str, trust_remote_code: bool, encoder_decoder: bool) -> Any:
    """A model's tokenizer set up for batched generation: EOS as padding when it has none, left padding for
    decoder-only models (so every prompt ends where generation starts)."""
    tokenizer = transformers.AutoTokenizer.from_pretrained(name, trust_remote_code=trust_remote_code)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    if not encoder_decoder:
        tokenizer.padding_side = "left"
    return tokenizer

class HFEngineBase(InferenceEngine, GenerationParamsMixin):
    """Shared fields of local Hugging Face engines."""

    label: Optional[str] = None  # names the engine in results (engine id)
    device_map: Any = InertField(default=None, reason="models load with transformers' defaults here")
    lazy_load: Any = InertField(default=False, reason="models load with transformers' defaults here")
    low_cpu_mem_usage: Any = InertField(default=True, reason="models load with transformers' defaults here")
    n_top_tokens: Any = InertField(default=5, reason="models load with transformers' defaults here")
    tokenizer_name: Any = InertField(default=None, reason="models load with transformers' defaults here")
    torch_dtype: Any = InertField(default='torch.float16', reason="models load with transformers' defaults here")
    use_fast_tokenizer: Any = InertField(default=True, reason="models load with transformers' defaults here")

    __abstract__ = True

    model_name: str
    device: Optional[str] = None
    use_fp16: bool = True
    batch_size: int = 8
    trust_remote_code: bool = False
    show_progress: bool = True
    chat_kwargs_dict: Optional[Dict[str, Any]] = None  # extra arguments of the tokenizer's chat template
    _requirements_list = {"transformers": _HINT, "torch": _HINT}
    _positional_args = ("model_name",)

    def prepare(self) -> None:
        super().prepare()
        self._loaded = None

    def dtype(self, torch: Any, device: str) -> Any:
        return torch.float16 if self.use_fp16 and device.startswith("cuda") else torch.float32

    def load(self) -> Tuple[Any, Any, str]:
        """(model, tokenizer, device), loaded once."""
        if self._loaded is None:
            torch, transformers = _torch_and_transformers()
            device = pick_device(self.device)
            config = transformers.AutoConfig.from_pretrained(self.model_name, trust_remote_code=self.trust_remote_code)
            model_class = (transformers.AutoModelForSeq2SeqLM if getattr(config, "is_encoder_decoder", False)
                           else transformers.AutoModelForCausalLM)
            model = model_class.from_pretrained(self.model_name, dtype=self.dtype(torch, device),
                                                trust_remote_code=self.trust_remote_code).to(device)
            model.eval()
            tokenizer = _generation_tokenizer(transformers, self.model_name, self.trust_remote_code,
                                              model.config.is_encoder_decoder)
            self._loaded = (model, tokenizer, device)
        return self._loaded

    def prompt_text(self, item: EngineInput, tokenizer: Any, is_encoder_decoder: bool) -> str:
        """Text prompts as they are; chat through the tokenizer's chat template when it has one."""
        if item.kind == "text":
            return item.value
        messages = [dict(m, content=m["content"] if isinstance(m["content"], str) else
                         " ".join(p.get("text", "") for p in m["content"] if p.get("type") == "text"))
                    for m in item.value]
        if not is_encoder_decoder and getattr(tokenizer, "chat_template", None):
            return tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True,
                                                 **(self.chat_kwargs_dict or {}))
        return EngineInput("chat", messages).as_text()

    def batches(self, items: List[Any]):
        from .concurrency import progress_bar

        bar = progress_bar(len(items), type(self).__name__, self.show_progress and len(items) > self.batch_size)
        try:
            for start in range(0, len(items), self.batch_size):
                yield start, items[start:start + self.batch_size]
                bar.update(len(items[start:start + self.batch_size]))
        finally:
            bar.close()


class HFAutoModelInferenceEngine(HFEngineBase):
    """Batched `generate` with an AutoModel (causal or seq2seq), device auto-selected; exposes log-probs."""

    load_in_8bit: Any = InertField(default=False, reason="models load with transformers' defaults here")
    padding: Any = InertField(default=True, reason="models load with transformers' defaults here")
    padding_side: Any = InertField(default='left', reason="models load with transformers' defaults here")
    truncation: Any = InertField(default=True, reason="models load with transformers' defaults here")

    _inference_type = "hf-automodel"
    label: str = "hf_auto_model"  # names the engine in results (engine id)

    def _generate(self, inputs: List[EngineInput], log_probs: bool) -> List[TextGenerationInferenceOutput]:
        torch, _ = _torch_and_transformers()
        model, tokenizer, device = self.load()
        encoder_decoder = model.config.is_encoder_decoder
        limit = self.token_limit or 20
        pad = tokenizer.pad_token_id if self.pad_token_id is None else self.pad_token_id
        kwargs = dict(self.hf_generate_kwargs(), max_new_tokens=limit, pad_token_id=pad)
        if "stop_strings" in kwargs:
            kwargs["tokenizer"] = tokenizer
        if self.seed is not None:
            torch.manual_seed(self.seed)
        top = self.top_logprobs or 5
        outputs: List[TextGenerationInferenceOutput] = []
        for start, batch in self.batches(inputs):
            texts = [self.prompt_text(item, tokenizer, encoder_decoder) for item in batch]
            encoded = tokenizer(texts, return_tensors="pt", padding=True).to(device)
            with torch.no_grad():
                generated = model.generate(**encoded, **kwargs, output_scores=log_probs, return_dict_in_generate=True)
            sequences = generated.sequences
            new_tokens = sequences if encoder_decoder else sequences[:, encoded["input_ids"].shape[1]:]
            if encoder_decoder:
                new_tokens = new_tokens[:, 1:]  # the decoder start token
            step_logprobs = ([torch.log_softmax(score.float(), dim=-1) for score in generated.scores]
                             if log_probs else None)
            for row, text in enumerate(texts):
                tokens = [t for t in new_tokens[row].tolist()]
                while tokens and tokens[-1] == tokenizer.pad_token_id and tokenizer.pad_token_id is not None:
                    tokens.pop()
                finished = bool(tokens) and tokens[-1] == tokenizer.eos_token_id
                if tokens and tokens[-1] == tokenizer.eos_token_id:
                    tokens = tokens[:-1]
                if log_probs:
                    prediction = []
                    for step, token in enumerate(tokens):
                        distribution = step_logprobs[step][row]
                        values, ids = torch.topk(distribution, k=min(top, distribution.shape[-1]))
                        prediction.append({"text": tokenizer.decode([token]), "logprob": float(distribution[token]),
                                           "top_tokens": [{"text": tokenizer.decode([i]), "logprob": float(v)}
                                                          for v, i in zip(values.tolist(), ids.tolist())]})
                else:
                    prediction = tokenizer.decode(tokens, skip_special_tokens=True)
                outputs.append(TextGenerationInferenceOutput(
                    prediction=prediction, input_tokens=int(encoded["attention_mask"][row].sum()),
                    output_tokens=len(tokens), stop_reason="stop" if finished else "length", seed=self.seed,
                    input_text=text, model_name=self.model_name, inference_type=self._inference_type))
                self.report(start + row, outputs[-1])
        return outputs

    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        return self._generate(inputs, log_probs=False)

    def _infer_log_probs(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]
                         ) -> List[TextGenerationInferenceOutput]:
        return self._generate(inputs, log_probs=True)


class HFPeftInferenceEngine(HFAutoModelInferenceEngine):
    """HFAutoModelInferenceEngine over a PEFT adapter (`model_name`: its directory or Hub id); the base model is the
    one the adapter's config names (needs `peft`, imported when the engine runs)."""

    label: str = 'hf_peft_auto_model'  # names the engine in results (engine id)

    _requirements_list = {"transformers": _HINT, "torch": _HINT, "peft": "pip install peft"}
    _inference_type = "hf-peft-automodel"

    def load(self) -> Tuple[Any, Any, str]:
        if self._loaded is None:
            self.check_missing_requirements()
            torch, transformers = _torch_and_transformers()
            import peft

            try:
                config = peft.PeftConfig.from_pretrained(self.model_name)
            except ValueError as error:
                raise InferenceError(f"Specified model '{self.model_name}' is not the PEFT model. Use a regular "
                                     "instance of the `HFAutoModelInferenceEngine` instead.") from error
            device = pick_device(self.device)
            base_config = transformers.AutoConfig.from_pretrained(config.base_model_name_or_path,
                                                                  trust_remote_code=self.trust_remote_code)
            encoder_decoder = getattr(base_config, "is_encoder_decoder", False)
            model_class = peft.AutoPeftModelForSeq2SeqLM if encoder_decoder else peft.AutoPeftModelForCausalLM
            model = model_class.from_pretrained(self.model_name, torch_dtype=self.dtype(torch, device),
                                                trust_remote_code=self.trust_remote_code).to(device)
            model.eval()
            tokenizer = _generation_tokenizer(transformers, config.base_model_name_or_path, self.trust_remote_code,
                                              encoder_decoder)
            self._loaded = (model, tokenizer, device)
        return self._loaded


HFInferenceEngineBase = HFEngineBase  # the original's name of the shared base
register_type_names(HFEngineBase, "HFInferenceEngineBase")


class HFPipelineBasedInferenceEngine(HFEngineBase):
    """A transformers pipeline (`task` text-generation or text2text-generation, chosen from the model when unset)."""

    load_in_8bit: Any = InertField(default=False, reason="models load with transformers' defaults here")

    task: Optional[str] = None
    batch_size: int = 1
    _inference_type = "hf-pipeline"
    label: str = "hf_pipeline"  # names the engine in results (engine id)

    def pipeline(self) -> Any:
        """The pipeline, or False when this transformers has no pipeline for the task (transformers 5 dropped
        text2text-generation: encoder-decoder models then generate directly, with the same parameters)."""
        if getattr(self, "_pipe", None) is None:
            torch, transformers = _torch_and_transformers()
            model, tokenizer, device = HFEngineBase.load(self)
            task = self.task or ("text2text-generation" if model.config.is_encoder_decoder else "text-generation")
            from transformers.pipelines import SUPPORTED_TASKS

            self._task = task
            self._pipe = (transformers.pipeline(task, model=model, tokenizer=tokenizer, device=device)
                          if task in SUPPORTED_TASKS else False)
        return self._pipe

    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        pipe = self.pipeline()
        if pipe is False:
            return HFAutoModelInferenceEngine._generate(self, inputs, log_probs=False)
        model, tokenizer, _ = self._loaded
        encoder_decoder = model.config.is_encoder_decoder
        kwargs = dict(self.hf_generate_kwargs(), max_new_tokens=self.token_limit or 20)
        kwargs.pop("stop_strings", None)
        if self._task == "text-generation":
            kwargs["return_full_text"] = False
        outputs = []
        for start, batch in self.batches(inputs):
            texts = [self.prompt_text(item, tokenizer, encoder_decoder) for item in batch]
            answers = pipe(texts, batch_size=self.batch_size, **kwargs)
            for row, (text, answer) in enumerate(zip(texts, answers)):
                answer = answer[0] if isinstance(answer, list) else answer
                prediction = answer.get("generated_text", "")
                for stop in self.stop_list() or []:
                    prediction = prediction.split(stop)[0]
                outputs.append(TextGenerationInferenceOutput(
                    prediction=prediction, input_tokens=len(tokenizer(text)["input_ids"]),
                    output_tokens=len(tokenizer(prediction, add_special_tokens=False)["input_ids"]), seed=self.seed,
                    input_text=text, model_name=self.model_name, inference_type=self._inference_type))
                self.report(start + row, outputs[-1])
        return outputs


class HFOptionSelectingInferenceEngine(OptionSelectingByLogProbsInferenceEngine, HFEngineBase):
    """Picks, per row, the task option with the highest log-likelihood under a local causal LM."""

    _inference_type = "hf-option-selection"
    label = "hf_option_selection"

    def options_log_probs(self, pairs: List[Tuple[str, str]]) -> List[float]:
        torch, _ = _torch_and_transformers()
        model, tokenizer, device = self.load()
        if model.config.is_encoder_decoder:
            raise InferenceError("HFOptionSelectingInferenceEngine needs a causal (decoder-only) model.",
                                 artifact=self.artifact_name, field="model_name")
        scores: List[float] = []
        for _, batch in self.batches(pairs):
            for context, option in batch:
                context_ids = tokenizer(context)["input_ids"]
                full_ids = tokenizer(context + option)["input_ids"]
                shared = 0
                while shared < min(len(context_ids), len(full_ids)) and context_ids[shared] == full_ids[shared]:
                    shared += 1
                shared = max(shared, 1)
                ids = torch.tensor([full_ids], device=device)
                with torch.no_grad():
                    logits = model(ids).logits.float()
                logprobs = torch.log_softmax(logits[0, :-1], dim=-1)
                targets = ids[0, 1:]
                picked = logprobs[torch.arange(targets.shape[0]), targets]
                scores.append(float(picked[shared - 1:].sum()))
        return scores


class HFLlavaInferenceEngine(HFEngineBase):
    """A LLaVA-style image-text model (AutoProcessor + AutoModelForImageTextToText) on rows with images."""

    lazy_load: Any = InertField(default=True, reason="models load with transformers' defaults here")
    image_token: Any = InertField(default='<image>', reason="models load with transformers' defaults here")

    _inference_type = "hf-llava"
    label: str = "hf_lava"  # names the engine in results (engine id)

    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        torch, transformers = _torch_and_transformers()
        from ..image_utils import decode_image

        device = pick_device(self.device)
        if self._loaded is None:
            processor = transformers.AutoProcessor.from_pretrained(self.model_name)
            model_class = (getattr(transformers, "AutoModelForImageTextToText", None)
                           or transformers.AutoModelForVision2Seq)
            model = model_class.from_pretrained(self.model_name, dtype=self.dtype(torch, device)).to(device)
            self._loaded = (model, processor, device)
        model, processor, device = self._loaded
        kwargs = dict(self.hf_generate_kwargs(), max_new_tokens=self.token_limit or 20)
        outputs = []
        for index, (item, row) in enumerate(zip(inputs, rows)):
            images = [decode_image(image) for image in ((row.get("media") or {}).get("images") or [])]
            messages = []
            for message in item.as_messages():
                content = message["content"]
                parts = ([{"type": "text", "text": content}] if isinstance(content, str) else
                         [{"type": "image"} if p.get("type") == "image_url" else p for p in content])
                messages.append({"role": message["role"], "content": parts})
            prompt = processor.apply_chat_template(messages, add_generation_prompt=True)
            encoded = processor(images=images or None, text=prompt, return_tensors="pt").to(device)
            with torch.no_grad():
                generated = model.generate(**encoded, **kwargs)
            tokens = generated[0, encoded["input_ids"].shape[1]:]
            prediction = processor.decode(tokens, skip_special_tokens=True)
            outputs.append(TextGenerationInferenceOutput(
                prediction=prediction, input_tokens=int(encoded["input_ids"].shape[1]), output_tokens=len(tokens),
                input_text=prompt, model_name=self.model_name, inference_type=self._inference_type))
            self.report(index, outputs[-1])
        return outputs
