"""The wording of criteria-judge prompts (our own) and the parsing of judge answers.

A judge is asked twice: first for a free-text assessment (no verdict), then, shown its assessment, for exactly one
option. Answers are parsed leniently (case, quotes, a trailing period, an "Answer:" prefix) but never guessed: an
answer naming no option, or several, is unparseable (None) and the judge scores it NaN.
"""

import re
from typing import Dict, List, Optional, Sequence, Tuple

from ..module_aliases import moved_classes

VERDICT_REQUEST = "Reply with exactly one of the following, and nothing else:"


def _context_block(context: Dict[str, str]) -> str:
    if not context:
        return ""
    lines = "\n".join(f"{name}: {value}" for name, value in context.items())
    return f"Context:\n{lines}\n\n"


def direct_assessment_prompt(criteria_name: str, description: str, options: Sequence[Tuple[str, str]],
                             context: Dict[str, str], prediction_field: str, response: str) -> str:
    """Stage 1 of a direct judge: an assessment of one response against the criteria and its options."""
    option_lines = "\n".join(f"- {name}: {text}" if text else f"- {name}" for name, text in options)
    return (f"You are judging a {prediction_field} on one criterion.\n\n"
            f"Criterion ({criteria_name}): {description}\n\n"
            f"Possible verdicts:\n{option_lines}\n\n"
            f"{_context_block(context)}"
            f"The {prediction_field} to judge:\n<<<\n{response}\n>>>\n\n"
            f"Write a short assessment of how the {prediction_field} fares on the criterion. "
            f"Do not give your verdict yet.")


Messages = List[Dict[str, str]]


def user_turn(text: str) -> Messages:
    """A prompt as the chat messages it is sent as: one user turn."""
    return [{"role": "user", "content": text}]


def verdict_request(options: Sequence[str]) -> str:
    """Stage 2 (direct and pairwise): the request for the verdict that follows the judge's own assessment."""
    return f"Now give your verdict on the criterion. {VERDICT_REQUEST} {', '.join(options)}"


def verdict_conversation(assessment_messages: Messages, assessment: str, options: Sequence[str]) -> Messages:
    """The verdict step as the original sends it: the assessment conversation continued (user, assistant, user)."""
    return [*assessment_messages, {"role": "assistant", "content": assessment},
            {"role": "user", "content": verdict_request(options)}]


def pairwise_assessment_prompt(criteria_name: str, description: str, context: Dict[str, str],
                               prediction_field: str, first: Tuple[str, str], second: Tuple[str, str]) -> str:
    """Stage 1 of a pairwise judge: compare two (name, response) pairs on the criteria; each response is shown as
    "Response <name>", the option that names it (as the original)."""
    return (f"You are comparing two {prediction_field}s on one criterion.\n\n"
            f"Criterion ({criteria_name}): {description}\n\n"
            f"{_context_block(context)}"
            f"{response_option(first[0])}:\n<<<\n{first[1]}\n>>>\n\n"
            f"{response_option(second[0])}:\n<<<\n{second[1]}\n>>>\n\n"
            f"Write a short assessment comparing the two on the criterion. Do not give your verdict yet.")


def response_option(name: str) -> str:
    """The option naming a response in a pairwise verdict ("Response <name>": "Response 1", "Response system_a")."""
    return f"Response {name}"


def summary_prompt(assessment: str) -> str:
    return f"Summarise the following assessment in one sentence:\n\n{assessment}"


def _clean(text: str) -> str:
    text = text.strip()
    text = re.sub(r"^(final\s+)?(answer|verdict|option|choice)\s*[:\-]\s*", "", text, flags=re.IGNORECASE)
    return text.strip().strip("\"'`*[]().").strip()


_NEGATION = re.compile(r"(\bnot|\bno|\bnever|n't)[\s*\"'`\[(]*$")


def parse_option(answer: str, options: Sequence[str]) -> Optional[str]:
    """The option an answer names, or None when it names none or several."""
    if not isinstance(answer, str):
        return None
    lowered = {option.lower(): option for option in options}
    cleaned = _clean(answer).lower()
    if cleaned in lowered:
        return lowered[cleaned]
    last_line = _clean(answer.strip().splitlines()[-1]).lower() if answer.strip() else ""
    if last_line in lowered:
        return lowered[last_line]
    lowered_answer = answer.lower()
    # a negated mention ("Not Excellent", "is not B") names no option
    spans = {option: [m.span() for m in re.finditer(r"(?<![\w])" + re.escape(option.lower()) + r"(?![\w])",
                                                   lowered_answer)
                      if not _NEGATION.search(lowered_answer[max(0, m.start() - 12):m.start()])]
             for option in options}
    # a mention inside a longer option's mention ("correct" in "partially correct") does not count by itself
    found = [option for option, own in spans.items()
             if any(not any(other != option and start >= s and end <= e and (e - s) > (end - start)
                            for other in options for s, e in spans[other]) for start, end in own)]
    return found[0] if len(found) == 1 else None


def competition_ranking(values: List[float]) -> List[float]:
    """Rank 1 for the highest value; ties share the best rank ("1224"); NaN values get NaN."""
    import math

    ranks = []
    for value in values:
        if value is None or math.isnan(value):
            ranks.append(math.nan)
        else:
            ranks.append(float(1 + sum(1 for other in values if other is not None and not math.isnan(other)
                                       and other > value)))
    return ranks


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
