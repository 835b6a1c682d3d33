"""The documented batched multi-class example (a template serializer for its EnumeratedList labels) run on both
libraries with gold answers: the same targets, the same parsed references and F1 1.0 on both (issue 47: ours joined
the labels with commas, so the references parsed to nothing and F1 was 0)."""

from pathlib import Path

from .run_program import both

PROGRAM = Path(__file__).with_name("serializer_example_program.py")


def _summary(report):
    """What both libraries must agree on: the card's split mix draws its test rows differently by design (see
    test_same_cards.py), so the collated batches hold the same labels in another order and grouping."""
    pairs = [pair for references in report["processed_references"] for pair in references[0]]
    return {"num_of_instances": report["num_of_instances"], "score": report["score"],
            "labels": sorted(label for _, label in pairs),
            "numbering": sorted([number for number, _ in references[0]] for references in report["processed_references"])}


def test_serializer_example_gives_the_same_references_and_scores(card_mirror_root):
    original, ours = both(PROGRAM, card_mirror_root)
    assert {size: _summary(report) for size, report in ours.items()} == {
        size: _summary(report) for size, report in original.items()}
    for report in ours.values():
        assert report["score"] == 1.0
        assert all(target.startswith("1. ") for target in report["targets"])
        assert all(len(references[0]) == target.count("\n") + 1
                   for references, target in zip(report["processed_references"], report["targets"]))
