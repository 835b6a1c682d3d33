r"""Catalog: formats (formats.*).

Model-specific formats follow each model family's published chat markup (special tokens are facts of the model, the
descriptions are ours). `\N` is the conditional newline of format strings (see unitxt.format_utils): a newline only
after non-empty text that does not already end with one.
"""

from unitxt.artifact import ArtifactLink
from unitxt.formats import ChatAPIFormat, SystemFormat

PREFIX = "{system_prompt}\\N{instruction}\\N"  # system prompt and instruction, each on its own line when present


def _tags(**extra):
    return {"kind": "format", "modality": "text", **extra}


def _model_tags(model, url, **extra):
    return _tags(model=model, urls={"chat_template": url}, **extra)


FORMATS = {
    # ---------------------------------------------------------------- generic text layouts
    "empty": SystemFormat(
        model_input_format="{system_prompt}\\N{instruction}\\N{demos}{source}\\N{target_prefix}",
        __description__="Plain text: system prompt, instruction, demos, the query and the target prefix, one per "
                        "line.",
        __tags__=_tags(),
    ),
    "empty_input_output_separator": SystemFormat(
        demo_format="{source}{target_prefix}{target}\n\n",
        model_input_format=PREFIX + "{demos}{source}{target_prefix}",
        __description__="Plain text where the target prefix (and target) follow the query directly, with no "
                        "newline between input and output.",
        __tags__=_tags(),
    ),
    "user_agent": SystemFormat(
        demo_format="User: {source}\nAgent: {target_prefix}{target}\n\n",
        model_input_format="{system_prompt}\\N{instruction}\\N{demos}User: {source}\nAgent: {target_prefix}",
        __description__="Text dialogue with 'User:' and 'Agent:' turn labels.",
        __tags__=_tags(),
    ),
    "user_assistant": SystemFormat(
        demo_format="User: {source}\nAssistant: {target_prefix}{target}\n\n",
        model_input_format=PREFIX + "{demos}User: {source}\nAssistant: {target_prefix}",
        __description__="Text dialogue with 'User:' and 'Assistant:' turn labels.",
        __tags__=_tags(),
    ),
    "human_assistant": SystemFormat(
        demo_format="Human: {source}\n\nAssistant: {target_prefix}{target}\n\n",
        model_input_format=PREFIX + "{demos}Human: {source}\n\nAssistant: {target_prefix}",
        __description__="Text dialogue with 'Human:' and 'Assistant:' turns separated by blank lines (the layout of "
                        "Anthropic-style completion prompts).",
        __tags__=_tags(),
    ),
    "textual_assistant": SystemFormat(
        demo_format="<|user|>\n{source}\n<|assistant|>\n{target_prefix}{target}\n",
        model_input_format="<|system|>\n{system_prompt}\\N{instruction}\\N{demos}<|user|>\n{source}\n"
                           "<|assistant|>\n{target_prefix}",
        __description__="Role markers written as text (<|system|>, <|user|>, <|assistant|>), each followed by its "
                        "turn on the next line; demos are user/assistant turn pairs.",
        __tags__=_tags(),
    ),
    "chat_api": ChatAPIFormat(
        __description__="OpenAI-style chat messages: system turn, demos as user/assistant turns, then the query.",
        __tags__=_tags(modality="chat"),
    ),
    "chat_api_all_demos_in_one_turn": ChatAPIFormat(
        demos_in_one_turn=True,
        __description__="Chat messages with every demo written in the single user turn before the query (no "
                        "assistant turns for demos).",
        __tags__=_tags(modality="chat"),
    ),
    # ---------------------------------------------------------------- model families
    "llama2": SystemFormat(
        demo_format="{source} [/INST] {target_prefix}{target} </s><s>[INST] ",
        model_input_format="[INST] <<SYS>>\n{system_prompt}\n\n{instruction}<<SYS>>\n\n\n{demos}{source} "
                           "[/INST]{target_prefix}",
        __description__="Llama 2 chat markup as in the formats tutorial: system prompt and instruction in the "
                        "<<SYS>> block of the first [INST] turn, demos as [INST] ... [/INST] answer </s><s> turns.",
        __tags__=_model_tags("llama2", "https://huggingface.co/blog/llama2#how-to-prompt-llama-2"),
    ),
    "llama3_instruct": SystemFormat(
        demo_format="<|start_header_id|>user<|end_header_id|>\n\n{source}<|eot_id|>"
                    "<|start_header_id|>assistant<|end_header_id|>\n\n{target_prefix}{target}<|eot_id|>",
        model_input_format="<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n"
                           "{system_prompt}\\N{instruction}<|eot_id|>{demos}"
                           "<|start_header_id|>user<|end_header_id|>\n\n{source}<|eot_id|>"
                           "<|start_header_id|>assistant<|end_header_id|>\n\n{target_prefix}",
        __description__="Llama 3 instruct header markup: a system turn (system prompt and instruction), each demo "
                        "as a user turn and an assistant turn, then the query and an open assistant turn.",
        __tags__=_model_tags("llama3", "https://www.llama.com/docs/model-cards-and-prompt-formats/meta-llama-3/"),
    ),
    "llama3_instruct_all_demos_in_one_turn": SystemFormat(
        demo_format="{source}\n{target_prefix}{target}\n\n",
        model_input_format="<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n"
                           "{system_prompt}\\N{instruction}<|eot_id|>"
                           "<|start_header_id|>user<|end_header_id|>\n\n{demos}{source}<|eot_id|>"
                           "<|start_header_id|>assistant<|end_header_id|>\n\n{target_prefix}",
        __description__="Llama 3 instruct markup with all demos written as plain text inside the single user turn "
                        "before the query.",
        __tags__=_model_tags("llama3", "https://www.llama.com/docs/model-cards-and-prompt-formats/meta-llama-3/"),
    ),
    "models.mistral.instruction": SystemFormat(
        demo_format="{source} [/INST] {target_prefix}{target}</s>[INST] ",
        model_input_format="<s>[INST]\\N{system_prompt}\\N{instruction}\\N{demos}{source} [/INST]{target_prefix}",
        __description__="Mistral instruct markup: <s>[INST] ... [/INST] turns; Mistral has no system role, so the "
                        "system prompt and instruction open the first user turn (on their own lines after [INST]); "
                        "demos are [INST] turns answered before </s>.",
        __tags__=_model_tags("mistral", "https://docs.mistral.ai/guides/prompting_capabilities/"),
    ),
    "models.mistral.instruction.all_demos_in_one_turn": SystemFormat(
        demo_format="{source}\n{target_prefix}{target}\n\n",
        model_input_format="<s>[INST]\\N{system_prompt}\\N{instruction}\\N{demos}{source} [/INST]{target_prefix}",
        __description__="Mistral instruct markup with the demos written as plain text inside the single [INST] "
                        "turn.",
        __tags__=_model_tags("mistral", "https://docs.mistral.ai/guides/prompting_capabilities/"),
    ),
    "models.flan.exq_exa": SystemFormat(
        demo_format="Q: {source}\nA: {target_prefix}{target}\n\n",
        model_input_format=PREFIX + "{demos}Q: {source}\nA: {target_prefix}",
        __description__="FLAN-style few-shot layout: each example as 'Q:' question and 'A:' answer lines, then the "
                        "query as an open 'Q:'/'A:' pair (for instruction-tuned encoder-decoders such as Flan-T5).",
        __tags__=_tags(model="flan"),
    ),
    "deepseek_coder": SystemFormat(
        demo_format="### Instruction:\n{source}\n### Response:\n{target_prefix}{target}\n<|EOT|>\n",
        model_input_format=PREFIX + "{demos}### Instruction:\n{source}\n### Response:\n{target_prefix}",
        __description__="DeepSeek Coder instruct markup: system text, then '### Instruction:' / '### Response:' "
                        "sections, each answer closed by <|EOT|>.",
        __tags__=_model_tags("deepseek-coder", "https://huggingface.co/deepseek-ai/deepseek-coder-6.7b-instruct"),
    ),
    "chatml": SystemFormat(
        demo_format="<|im_start|>user\n{source}<|im_end|>\n<|im_start|>assistant\n{target_prefix}{target}"
                    "<|im_end|>\n",
        model_input_format="<|im_start|>system\n{system_prompt}\\N{instruction}<|im_end|>\n{demos}"
                           "<|im_start|>user\n{source}<|im_end|>\n<|im_start|>assistant\n{target_prefix}",
        __description__="ChatML markup (<|im_start|>role ... <|im_end|>) used by Qwen and many open chat models.",
        __tags__=_model_tags("chatml", "https://huggingface.co/docs/transformers/main/chat_templating"),
    ),
    "models.llava_interleave": SystemFormat(
        demo_format="<|im_start|>user\n{source}<|im_end|>\n<|im_start|>assistant\n{target_prefix}{target}"
                    "<|im_end|>\n",
        model_input_format="<|im_start|>system\n{system_prompt}\\N{instruction}<|im_end|>\n{demos}"
                           "<|im_start|>user\n{source}<|im_end|>\n<|im_start|>assistant\n{target_prefix}",
        __description__="LLaVA-Interleave (Qwen based) markup: ChatML turns; images stay inline in the user turn "
                        "as the template placed them.",
        __tags__=_model_tags("llava-interleave", "https://huggingface.co/llava-hf/llava-interleave-qwen-0.5b-hf",
                             modality="image"),
    ),
}

LINKS = {
    "formats.llama3": ("formats.llama3_instruct", "Short name of formats.llama3_instruct.", None),
    "formats.models.llama3": ("formats.llama3_instruct", "Model-path name of formats.llama3_instruct.", None),
    "formats.models.llama2": ("formats.llama2", "Model-path name of formats.llama2.", None),
    "formats.textual": ("formats.empty", "Old name of formats.empty.",
                        "'formats.textual' is deprecated; use 'formats.empty' instead."),
}


def register(add):
    for name, artifact in FORMATS.items():
        add(f"formats.{name}", artifact)
    for name, (target, description, deprecated) in LINKS.items():
        extra = {"__deprecated_msg__": deprecated} if deprecated else {}
        add(name, ArtifactLink(to=target, __description__=description, __tags__=_tags(), **extra))
