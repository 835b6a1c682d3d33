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
            tools = {"tools": item.tools} if item.tools else {}
            return tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True,
                                                 **tools, **(self.chat_kwargs_dict or {}))
        return EngineInput("chat", messages).as_text()

    # ------------------------------------------------------------------ the original's generation steps
    def prepare_inputs(self, data: List[Any], tools: Optional[List[Any]] = None) -> Any:
        """The model's input batch for prompts (texts, or chat messages put through the tokenizer's chat template
        with their tools): token ids and attention mask on the engine's device."""
        model, tokenizer, device = self.load()
        encoder_decoder = model.config.is_encoder_decoder
        tools = tools or [None] * len(data)
        texts = [item if isinstance(item, str) else self.prompt_text(EngineInput("chat", item, tools=item_tools),
                                                                     tokenizer, encoder_decoder)
                 for item, item_tools in zip(data, tools)]
        return tokenizer(texts, return_tensors="pt", padding=True).to(device)

    def generation_kwargs(self) -> Dict[str, Any]:
        """`generate` arguments from the engine's settings (max_new_tokens 20 when unset, padding by the tokenizer's
        pad token)."""
        _, tokenizer, _ = self.load()
        pad = tokenizer.pad_token_id if self.pad_token_id is None else self.pad_token_id
        kwargs = dict(self.hf_generate_kwargs(), max_new_tokens=self.token_limit or 20, pad_token_id=pad)
        if "stop_strings" in kwargs:
            kwargs["tokenizer"] = tokenizer
        return kwargs

    def make_predictions(self, prepared_inputs: Any) -> Any:
        """`generate` on a prepared batch, with the scores of each step (return_dict_in_generate)."""
        torch, _ = _torch_and_transformers()
        model, _, _ = self.load()
        with torch.no_grad():
            return model.generate(**prepared_inputs, **self.generation_kwargs(), output_scores=True,
                                  return_dict_in_generate=True)

    def compute_transition_scores(self, sequences: Any, scores: Any, beam_indices: Optional[Any]) -> Any:
        """The log-probability of each generated token (transformers' compute_transition_scores, normalised)."""
        model, _, _ = self.load()
        return model.compute_transition_scores(sequences, scores, normalize_logits=True, beam_indices=beam_indices)

    def get_logprobs(self, predictions: Any, string_tokens: List[List[str]]) -> List[List[Dict[str, Any]]]:
        """Per sample, its generated tokens (as many as `string_tokens` lists, with their texts) with their
        log-probs and the `top_logprobs` (default 5) most likely tokens of each step."""
        torch, _ = _torch_and_transformers()
        _, tokenizer, _ = self.load()
        beams = predictions.beam_indices if (self.num_beams or 1) > 1 else None
        chosen = self.compute_transition_scores(predictions.sequences, predictions.scores, beams).detach().cpu()
        top = self.top_logprobs or 5
        samples = []
        for sample, texts in enumerate(string_tokens):
            tokens = []
            for step, text in enumerate(texts):
                distribution = torch.log_softmax(predictions.scores[step][sample].float(), dim=-1)
                values, ids = torch.topk(distribution, k=min(top, distribution.shape[-1]))
                tokens.append({"text": text, "logprob": float(chosen[sample][step]),
                               "top_tokens": [{"text": tokenizer.decode([i]), "logprob": float(v)}
                                              for v, i in zip(values.tolist(), ids.tolist())]})
            samples.append(tokens)
        return samples

    def get_return_object(self, output: Any, generated_text: Optional[str], output_tokens: Optional[int],
                          inp: Optional[str], inp_tokens: Optional[int], return_meta_data: bool) -> Any:
        """One answer: with return_meta_data a TextGenerationInferenceOutput (prediction, generated text, token
        counts, the prompt), else the prediction."""
        if not return_meta_data:
            return output
        return TextGenerationInferenceOutput(prediction=output, generated_text=generated_text,
                                             output_tokens=output_tokens, input_text=inp, input_tokens=inp_tokens,
                                             seed=self.seed, model_name=self.model_name,
                                             inference_type=self._inference_type)

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

    def _generate(self, inputs: List[EngineInput], log_probs: bool, answer: Optional[Any] = None
                  ) -> List[TextGenerationInferenceOutput]:
        """Batched generation; `answer(prediction, generated_text, output_tokens, prompt, input_tokens)` builds each
        output (default: get_return_object with meta data)."""
        answer = answer or (lambda *fields: self.get_return_object(*fields, True))
        torch, _ = _torch_and_transformers()
        model, tokenizer, device = self.load()
        encoder_decoder = model.config.is_encoder_decoder
        if self.seed is not None:
            torch.manual_seed(self.seed)
        outputs: List[TextGenerationInferenceOutput] = []
        for start, batch in self.batches(inputs):
            texts = [self.prompt_text(item, tokenizer, encoder_decoder) for item in batch]
            encoded = self.prepare_inputs(texts)
            generated = self.make_predictions(encoded)
            sequences = generated.sequences
            new_tokens = sequences if encoder_decoder else sequences[:, encoded["input_ids"].shape[1]:]
            if encoder_decoder:
                new_tokens = new_tokens[:, 1:]  # the decoder start token
            kept, finished = [], []
            for row in range(len(texts)):
                tokens = new_tokens[row].tolist()
                while tokens and tokens[-1] == tokenizer.pad_token_id and tokenizer.pad_token_id is not None:
                    tokens.pop()
                finished.append(bool(tokens) and tokens[-1] == tokenizer.eos_token_id)
                kept.append(tokens[:-1] if finished[-1] else tokens)
            token_logprobs = (self.get_logprobs(generated, [[tokenizer.decode([t]) for t in tokens]
                                                            for tokens in kept]) if log_probs else None)
            for row, (text, tokens) in enumerate(zip(texts, kept)):
                generated_text = tokenizer.decode(tokens, skip_special_tokens=True)
                prediction = token_logprobs[row] if log_probs else generated_text
                output = answer(prediction, generated_text, len(tokens), text, int(encoded["attention_mask"][row].sum()))
                if not isinstance(output, TextGenerationInferenceOutput):
                    output = TextGenerationInferenceOutput(prediction=output)
                output.stop_reason = output.stop_reason or ("stop" if finished[row] else "length")
                outputs.append(output)
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
            def answer(prediction, generated_text, output_tokens, prompt, input_tokens):
                output = self.get_return_object({"generated_text": prediction}, prompt, True)
                if isinstance(output, TextGenerationInferenceOutput):
                    output.input_tokens, output.output_tokens = input_tokens, output_tokens
                return output

            return HFAutoModelInferenceEngine._generate(self, inputs, log_probs=False, answer=answer)
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
                answer = dict(answer[0] if isinstance(answer, list) else answer)
                prediction = answer.get("generated_text", "")
                for stop in self.stop_list() or []:
                    prediction = prediction.split(stop)[0]
                output = self.get_return_object(dict(answer, generated_text=prediction), text, True)
                if not isinstance(output, TextGenerationInferenceOutput):
                    output = TextGenerationInferenceOutput(prediction=output)
                if isinstance(output.prediction, str):
                    output.input_tokens = len(tokenizer(text)["input_ids"])
                    output.output_tokens = len(tokenizer(output.prediction, add_special_tokens=False)["input_ids"])
                outputs.append(output)
                self.report(start + row, outputs[-1])
        return outputs

    def get_return_object(self, output: Dict[str, Any], inp: Optional[str], return_meta_data: bool) -> Any:
        """One pipeline answer ({"generated_text": ...}): with return_meta_data a TextGenerationInferenceOutput,
        else the generated text."""
        if not return_meta_data:
            return output["generated_text"]
        return TextGenerationInferenceOutput(prediction=output["generated_text"],
                                             generated_text=output["generated_text"], input_text=inp, seed=self.seed,
                                             model_name=self.model_name, inference_type=self._inference_type)


class HFOptionSelectingInferenceEngine(OptionSelectingByLogProbsInferenceEngine, HFEngineBase):
    """Picks, per row, the task option with the highest log-likelihood under a local causal LM."""

    _inference_type = "hf-option-selection"
    label = "hf_option_selection"

    def get_log_probs(self, texts: List[Any]) -> List[float]:
        """The log-probability of each text under the model (the sum over its tokens after the first; chat
        messages through the tokenizer's chat template)."""
        torch, _ = _torch_and_transformers()
        model, tokenizer, device = self.load()
        scores = []
        for _, batch in self.batches(texts):
            for text in batch:
                if not isinstance(text, str):
                    text = tokenizer.apply_chat_template(text, tokenize=False)
                ids = torch.tensor([tokenizer(text)["input_ids"]], device=device)
                with torch.no_grad():
                    logprobs = torch.log_softmax(model(ids).logits[0, :-1].float(), dim=-1)
                scores.append(float(logprobs[torch.arange(ids.shape[1] - 1), ids[0, 1:]].sum()))
        return scores

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

    def load(self) -> Tuple[Any, Any, str]:
        """(model, processor, device), loaded once."""
        if self._loaded is None:
            torch, transformers = _torch_and_transformers()
            device = pick_device(self.device)
            processor = transformers.AutoProcessor.from_pretrained(self.model_name)
            model_class = (getattr(transformers, "AutoModelForImageTextToText", None)
                           or transformers.AutoModelForVision2Seq)
            model = model_class.from_pretrained(self.model_name, dtype=self.dtype(torch, device)).to(device)
            self._loaded = (model, processor, device)
        return self._loaded

    @staticmethod
    def conversation(item: EngineInput) -> List[Dict[str, Any]]:
        """Chat messages with content parts, images as {"type": "image"} (the processor's chat template form)."""
        messages = []
        for message in item.as_messages():
            content = message["content"]
            parts = ([{"type": "text", "text": content}] if isinstance(content, str) else
                     [{"type": "image"} if p.get("type") == "image_url" else p for p in content])
            messages.append({"role": message["role"], "content": parts})
        return messages

    def prepare_inputs(self, data: Dict[str, Any], tools: Optional[List[Any]] = None) -> Any:
        """The model's input for one row (its chat source and media images) on the engine's device."""
        from ..image_utils import decode_image

        _, processor, device = self.load()
        images = [decode_image(image) for image in ((data.get("media") or {}).get("images") or [])]
        prompt = processor.apply_chat_template(self.conversation(self.request_input(data)), add_generation_prompt=True)
        return processor(images=images or None, text=prompt, return_tensors="pt").to(device)

    def compute_transition_scores(self, sequences: Any, scores: Any, beam_indices: Optional[Any]) -> Any:
        """As the base, with the vocabulary size the image-text model keeps in its text config."""
        model, _, _ = self.load()
        if not hasattr(model.config, "vocab_size"):
            text_config = getattr(model.config, "text_config", None)
            model.config.vocab_size = getattr(model, "vocab_size", None) or text_config.vocab_size
        return super().compute_transition_scores(sequences, scores, beam_indices)

    def _infer(self, inputs: List[EngineInput], rows: List[Dict[str, Any]]) -> List[TextGenerationInferenceOutput]:
        torch, _ = _torch_and_transformers()
        model, processor, _ = self.load()
        kwargs = dict(self.hf_generate_kwargs(), max_new_tokens=self.token_limit or 20)
        outputs = []
        for index, (item, row) in enumerate(zip(inputs, rows)):
            prompt = processor.apply_chat_template(self.conversation(item), add_generation_prompt=True)
            encoded = self.prepare_inputs(row)
            with torch.no_grad():
                generated = model.generate(**encoded, **kwargs)
            tokens = generated[0, encoded["input_ids"].shape[1]:]
            prediction = processor.decode(tokens, skip_special_tokens=True)
            output = self.get_return_object(prediction, prediction, len(tokens), prompt,
                                            int(encoded["input_ids"].shape[1]), True)
            outputs.append(output if isinstance(output, TextGenerationInferenceOutput)
                           else TextGenerationInferenceOutput(prediction=output))
            self.report(index, outputs[-1])
        return outputs
