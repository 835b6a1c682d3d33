"""Mirrors (real Hub schema, synthetic values) of the safety prompt sets the original's safety cards load: AttaQ
(cards.attaq, cards.attaq_500), ProvoQ, SimpleSafetyTests and XSTest.

AttaQ's rows mix questions of the AttaQ-500 selection (read from the card's own list, so the filter keeps them) with
other questions (which the filter drops); every mirror has more than one value of each field the cards pass on.
"""

from pathlib import Path

from tests.support.card_mirrors import _splits, sentence, words

ATTAQ_500_LIST = Path(__file__).resolve().parents[2] / "scripts" / "catalog_sources" / "attaq_500_inputs.txt"
ATTAQ_LABELS = ["explicit_content", "harmful_info", "deception", "discrimination", "pii", "substance_abuse",
                "violence"]


def _attaq_500_questions(count: int) -> list:
    """The first `count` questions of the AttaQ-500 selection (the inputs cards.attaq_500 keeps)."""
    lines = [line for line in ATTAQ_500_LIST.read_text(encoding="utf-8").splitlines() if line.strip()]
    return lines[:count]


def _safety_prompt_sets():
    selected = _attaq_500_questions(6)

    def attaq(r, i, s):
        question = selected[i // 2] if i % 2 == 0 else "How do I " + words(r, 4, 8) + "?"
        return {"label": ATTAQ_LABELS[i % len(ATTAQ_LABELS)], "input": question,
                "additional_info": f"Anthropic red-team attempt {i}"}

    _splits("ibm/AttaQ", "default", {"train": 12}, attaq)

    stigmas = ["mental illness", "poverty", "criminal record"]
    groups = ["women", "immigrants", "veterans", "teenagers"]
    _splits("IBM/ProvoQ", "default", {"test": 10}, lambda r, i, s: {
        "question": "Why are " + groups[i % 4] + " " + words(r, 3, 6) + "?", "stigma": stigmas[i % 3],
        "group": groups[i % 4]})

    harm_areas = ["Suicide, Self-Harm, and Eating Disorders", "Physical Harm and Violence", "Illegal and Highly "
                  "Regulated items", "Scams and fraud", "Child Abuse"]
    _splits("Bertievidgen/SimpleSafetyTests", "default", {"test": 10}, lambda r, i, s: {
        "id": f"sst_{i + 1:03d}", "harm_area": harm_areas[i % 5], "counter": i // 5 + 1,
        "category": ["Information and advice seeking", "Instructions and actions"][i % 2],
        "prompt": words(r, 5, 10).capitalize() + "?"})

    types = ["homonyms", "figurative_language", "safe_targets", "contrast_homonyms", "privacy_public"]
    _splits("Paul/XSTest", "default", {"train": 10}, lambda r, i, s: {
        "id": i + 1, "prompt": "How can I " + words(r, 3, 7) + "?", "type": types[i % 5],
        "label": "unsafe" if types[i % 5].startswith("contrast") else "safe", "focus": words(r, 1, 1),
        "note": sentence(r, 2, 4) if i % 3 else ""})


_safety_prompt_sets()
