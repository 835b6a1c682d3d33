"""Catalog: formats (formats.*) and system prompts (system_prompts.*)."""

from unitxt.formats import ChatAPIFormat, SystemFormat
from unitxt.system_prompts import EmptySystemPrompt, TextualSystemPrompt


def _tags(**extra):
    return {"kind": "format", **extra}


def register(add):
    add("formats.empty", SystemFormat(
        model_input_format="{system_prompt}\\N{instruction}\\N{demos}{source}\\N{target_prefix}",
        __description__="Plain text: system prompt, instruction, demos, the query and the target prefix, one per line.",
        __tags__=_tags(),
    ))
    add("formats.chat_api", ChatAPIFormat(
        __description__="OpenAI-style chat messages: system turn, demos as user/assistant turns, then the query.",
        __tags__=_tags(modality="chat"),
    ))
    add("formats.user_agent", SystemFormat(
        demo_format="User: {source}\nAgent: {target_prefix}{target}\n\n",
        model_input_format="{system_prompt}\\N{instruction}\\N{demos}User: {source}\nAgent: {target_prefix}",
        __description__="Text dialogue with 'User:' and 'Agent:' turn labels.",
        __tags__=_tags(),
    ))
    add("system_prompts.empty", EmptySystemPrompt(
        __description__="No system prompt.", __tags__={"kind": "system_prompt"},
    ))
    add("system_prompts.general.be_concise", TextualSystemPrompt(
        "Answer briefly and directly; do not add explanations unless asked.",
        __description__="Ask the model for short answers.", __tags__={"kind": "system_prompt"},
    ))
