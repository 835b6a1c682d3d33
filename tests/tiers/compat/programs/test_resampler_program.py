"""The prompt-resampling study (resampler_program.py: several templates and demo counts, rendered rows read back from
to_dict() with chat sources evaluated from their stored text, a gold answer set scored with unitxt.evaluate) runs
unchanged on the original and on ours with the same output (issue 47)."""

from pathlib import Path

from .run_program import both

PROGRAM = Path(__file__).with_name("resampler_program.py")


def test_resampler_program_gives_the_same_report(card_mirror_root):
    original, ours = both(PROGRAM, card_mirror_root)
    # the original stores a chat source as text and reads it back as messages
    assert original["produced"]["one_source_stored_as"] == "str" and original["produced"]["many_read_as"] == "list"
    assert all(study["score"] == 1.0 for study in original["single"].values())
    assert ours == original
