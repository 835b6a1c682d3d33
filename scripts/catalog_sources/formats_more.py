r"""Catalog: more model formats (formats.*) of the original's names.

Each layout is the model family's chat or prompt markup (a fact of the model, compared with the original in the compat
tier); where a layout carries prose (Labradorite's few-shot lead-in) the words are ours. Tokenizer-rendered formats
(hf_system_format, granite_documents_format) need `transformers` and download the model's tokenizer on first use.
"""

from _factory import make


def _tags(model, url=None, **extra):
    tags = {"kind": "format", "modality": "text", "model": model, **extra}
    if url:
        tags["urls"] = {"chat_template": url}
    return tags


FORMATS = {
    "llama": dict(
        type="system_format", demo_format="{source}\n{target_prefix}{target}\n\n",
        model_input_format="[INST] {system_prompt}{instruction}\n{demos}\n{source}\n[/INST]{target_prefix}",
        description="A single Llama [INST] ... [/INST] turn holding the system prompt, instruction, plain-text demos "
                    "and the query.",
        tags=_tags("llama", "https://huggingface.co/blog/llama2#how-to-prompt-llama-2")),
    "llamaguard2": dict(
        type="system_format", demo_format="", model_input_format="[INST] {source} [/INST]",
        description="Llama Guard 2: the query (a template writes the whole moderation prompt) in one [INST] turn; "
                    "no demos.",
        tags=_tags("llama-guard-2", "https://huggingface.co/meta-llama/Meta-Llama-Guard-2-8B")),
    "models.alpaca_instruct": dict(
        type="system_format",
        demo_format="### Instruction:\n{source}\n\n\n### Response: {target_prefix}{target}\n\n",
        model_input_format="{system_prompt}{instruction}{demos}### Instruction:\n{source}\n\n\n### Response: "
                           "{target_prefix}",
        description="Alpaca instruction markup: '### Instruction:' and '### Response:' sections.",
        tags=_tags("alpaca", "https://github.com/tatsu-lab/stanford_alpaca#data-release")),
    "models.flan.few_shot": dict(
        type="system_format", demo_format="{source}\n{target_prefix}{target}\n\n",
        model_input_format="{demos}{source}\n{target_prefix}",
        description="FLAN few-shot layout: demos then the query, each followed by its answer line; no system "
                    "prompt or instruction.", tags=_tags("flan")),
    "models.labradorite.zero_shot": dict(
        type="system_format",
        model_input_format="<|system|>\n{system_prompt}\n<|user|>\n{instruction}\n{source}\n<|assistant|>\n"
                           "{target_prefix}",
        description="Labradorite (IBM) markup: <|system|>, <|user|> and <|assistant|> turns, zero-shot.",
        tags=_tags("labradorite")),
    "models.labradorite.few_shot": dict(
        type="system_format", demo_format="{source}\n{target_prefix}{target}\n\n",
        model_input_format="<|system|>\n{system_prompt}\n<|user|>\n{instruction}\nReply with the answer alone, "
                           "without explanation.\n\nExamples follow; complete the last one:\n{demos}{source}\n"
                           "{target_prefix}<|assistant|>\n",
        description="Labradorite markup with the demos inside the user turn, before the query.",
        tags=_tags("labradorite")),
    "models.mistral.instruction.with_system_prompt": dict(
        type="system_format", demo_format="{source} [/INST]{target_prefix}{target}</s> [INST] ",
        model_input_format="[INST] {system_prompt}\n{instruction}{demos}{source} [/INST]{target_prefix}",
        description="Mistral instruct markup with the system prompt written at the start of the first [INST] turn.",
        tags=_tags("mistral", "https://docs.mistral.ai/guides/prompting_capabilities/")),
    "models.phi_3": dict(
        type="system_format",
        demo_format="<|user|>\n{instruction}{source}<|end|>\n<|assistant|>\n{target_prefix}{target}<|end|>\n",
        model_input_format="<|user|>\n{system_prompt}<|end|>\n{demos}<|user|>\n{instruction}{source}<|end|>\n"
                           "<|assistant|>\n{target_prefix}",
        description="Phi-3 markup: <|user|> ... <|end|> and <|assistant|> turns; the system prompt in its own user "
                    "turn.", tags=_tags("phi-3", "https://huggingface.co/microsoft/Phi-3-mini-4k-instruct")),
    "models.starling": dict(
        type="system_format", demo_format="{source}\n\n{target_prefix}{target}\n\n",
        model_input_format="GPT4 Correct User: {instruction}{demos}\\N{source}<|end_of_turn|>GPT4 Correct "
                           "Assistant: {target_prefix}",
        description="Starling / OpenChat markup: 'GPT4 Correct User:' and 'GPT4 Correct Assistant:' turns closed by "
                    "<|end_of_turn|>.", tags=_tags("starling", "https://huggingface.co/Nexusflow/Starling-LM-7B-beta")),
    "chat_api_with_tokenizer_chat_template": dict(
        type="hf_system_format", model_name="ibm-granite/granite-3.1-2b-instruct",
        description="Chat messages rendered by the chat template of ibm-granite/granite-3.1-2b-instruct's "
                    "tokenizer (needs transformers).", tags=_tags("granite-3.1")),
    "models.llava": dict(
        type="hf_system_format", model_name="llava-hf/llava-1.5-7b-hf",
        description="Chat messages rendered by the chat template of llava-hf/llava-1.5-7b-hf (needs "
                    "transformers).", tags=_tags("llava-1.5", modality="image")),
    "models.granite_3_1_documents": dict(
        type="granite_documents_format", model="ibm-granite/granite-3.1-8b-instruct",
        description="Granite 3.1 grounded generation: the contexts passed as the chat template's documents "
                    "(needs transformers).", tags=_tags("granite-3.1")),
}


def register(add):
    for name, settings in FORMATS.items():
        settings = dict(settings)
        add(f"formats.{name}", make(settings.pop("type"), **settings))
