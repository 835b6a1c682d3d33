"""Catalog: system prompts (system_prompts.*): task-independent opening texts placed by the format."""

from unitxt.system_prompts import EmptySystemPrompt, TextualSystemPrompt

TAGS = {"kind": "system_prompt", "modality": "text", "language": "english"}

PROMPTS = {
    "general.be_concise": (
        "Answer briefly and directly; do not add explanations unless asked.",
        "Ask the model for short answers.",
    ),
    "general.helpful_assistant": (
        "You are a helpful assistant. Answer the user's requests accurately and clearly.",
        "A short, neutral helpful-assistant persona.",
    ),
    "general.follow_the_format": (
        "Follow the instructions exactly and answer in the format that is asked for, without extra text.",
        "Ask the model to stick to the requested answer format (helps post-processing).",
    ),
    "general.think_step_by_step": (
        "Think through the problem step by step before you give your final answer.",
        "Encourage step-by-step reasoning before the answer.",
    ),
    "models.llama2": (
        "You are a helpful and honest assistant. Be as useful as you can while staying safe: never produce "
        "harmful, unethical, hateful, dangerous or illegal content, and keep your answers fair and free of bias.\n\n"
        "If a question makes no sense or is not factually coherent, explain what is wrong with it rather than "
        "giving an incorrect answer. If you do not know the answer, say so instead of making something up.",
        "A helpful, honest and safe assistant persona in the spirit of the Llama 2 chat system prompt (wording ours).",
    ),
}


def register(add):
    add("system_prompts.empty", EmptySystemPrompt(__description__="No system prompt.", __tags__=dict(TAGS)))
    for name, (text, description) in PROMPTS.items():
        add(f"system_prompts.{name}", TextualSystemPrompt(text, __description__=description, __tags__=dict(TAGS)))
    add("system_prompts.boolqa", TextualSystemPrompt(
        "You answer yes/no questions about a passage. Read the passage and the question carefully, decide, and "
        "reply with a single word: yes or no. Do not explain.",
        __description__="Legacy task-specific prompt for yes/no questions over a passage.",
        __deprecated_msg__="This legacy system prompt holds a task-specific instruction; put such text in the "
                           "template's 'instruction' instead.",
        __tags__=dict(TAGS),
    ))
