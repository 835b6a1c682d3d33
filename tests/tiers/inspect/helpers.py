"""Helpers of the Inspect tier: the demo recipes (the catalog's cards.demo.sentiment, a TaskCard over
LoadFromDictionary shipped inside the catalog: local data), a mock model whose outputs exercise post-processing, and
the check every test makes: the log's metrics are unitxt.evaluate's global scores of the log's outputs."""

import hashlib
import math
from typing import Any, Dict, List

PLAIN = ("card=cards.demo.sentiment,template=templates.classification.multi_class.default,num_demos=2,"
         "demos_pool_size=20")
CHAT = ("card=cards.demo.sentiment,template=templates.classification.multi_class.default,format=formats.chat_api,"
        "system_prompt=system_prompts.models.llama2,num_demos=1,demos_pool_size=10")


def rows_of(recipe: str, limit: int, split: str = "test") -> List[Dict[str, Any]]:
    import unitxt

    dataset = unitxt.load_dataset(recipe, split=split)
    return [dict(dataset[index]) for index in range(min(limit, len(dataset)))]


def last_text(messages: Any) -> str:
    """The text of the last message of a rendered row (plain prompt: the prompt itself)."""
    if isinstance(messages, str):
        return messages
    last = messages[-1]
    return last["content"] if isinstance(last, dict) else last.text


def kind_of(key: str) -> str:
    """How the mock answers a prompt: right, right only after post-processing, or wrong (a stable function of it)."""
    return ("right", "fixable", "wrong")[int(hashlib.sha256(key.encode()).hexdigest(), 16) % 3]


def answer_for(target: str, key: str) -> str:
    kind = kind_of(key)
    if kind == "right":
        return target
    if kind == "fixable":  # take_first_non_empty_line + lower_case_till_punc make it the target
        return f"\n{target.capitalize()}. I am fairly sure.\nThe review says so."
    return {"negative": "positive", "neutral": "negative", "positive": "neutral"}[target]


def answers_by_prompt(rows: List[Dict[str, Any]]) -> Dict[str, str]:
    """The mock's answer for each prompt's last message (every row's answer is decided by its own prompt)."""
    answers: Dict[str, str] = {}
    for row in rows:
        key = last_text(row["source"])
        answers[key] = answer_for(row["target"], key)
    return answers


def mock_model(rows: List[Dict[str, Any]]) -> Any:
    """Inspect's mockllm/model answering from the rows. Each output carries its token usage (words), so the mock never
    counts tokens with tiktoken (whose vocabulary is a download)."""
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    answers = answers_by_prompt(rows)

    def respond(messages, tools, tool_choice, config):
        text = answers[last_text(messages)]
        output = ModelOutput.from_content(model="mockllm/model", content=text)
        prompt_words = sum(len(message.text.split()) for message in messages)
        output.usage = ModelUsage(input_tokens=prompt_words, output_tokens=len(text.split()),
                                  total_tokens=prompt_words + len(text.split()))
        return output

    return get_model("mockllm/model", custom_outputs=respond)


def outputs_in_row_order(log: Any) -> List[str]:
    samples = sorted(log.samples, key=lambda sample: int(sample.id))
    assert [int(sample.id) for sample in samples] == list(range(len(samples)))
    return [sample.output.completion for sample in samples]


def assert_metrics_are_unitxt_global_scores(log: Any, rows: List[Dict[str, Any]]) -> Dict[str, float]:
    """The log's metrics are the global scores unitxt.evaluate gives the log's outputs (to 1e-9), named as unitxt
    names them, the main score first. Returns them."""
    import unitxt

    assert log.status == "success", log.error
    (scores,) = log.results.scores
    metrics = {name: metric.value for name, metric in scores.metrics.items()}
    expected = dict(unitxt.evaluate(predictions=outputs_in_row_order(log), data=rows).global_scores)
    numeric = {name: value for name, value in expected.items()
               if isinstance(value, (int, float)) and not isinstance(value, bool)}
    assert set(metrics) == set(numeric)
    assert next(iter(metrics)) == expected["score_name"]
    for name, value in numeric.items():
        assert math.isclose(metrics[name], value, rel_tol=0, abs_tol=1e-9) or (
            math.isnan(value) and math.isnan(metrics[name])), name
    return metrics
