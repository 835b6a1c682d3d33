"""CompiledFormat.head_memo: the leading chunks' text kept per value tuple gives the text `render` gives."""

import itertools

from unitxt.sandbox.format_strings import RepeatMemo, compile_format

VARYING = ("demos", "source")
TEXTS = ("", "a", "a\n", "a\n\n", "\n", "\n\nb")
FORMATS = (
    "{system_prompt}\\N{instruction}\\N{demos}{source}\\N{target_prefix}",  # SystemFormat's default
    "{system_prompt}\\N\\N{instruction}\\N{demos}\\N{source}\\N{target_prefix}\\N",
    "<<SYS>>{system_prompt}<</SYS>>\\N{instruction:>3}\\N{demos}Q: {source}\\NA: {target_prefix}",
    "{instruction}\\N{system_prompt}{demos}\\N{source}{target_prefix}",
)


def test_the_head_memo_renders_what_render_gives_for_every_mix_of_empty_and_newline_texts():
    for text in FORMATS:
        compiled = compile_format(text, allow_newline_marker=True)
        render = compiled.head_memo(VARYING)
        assert render is not None, text
        for _ in range(2):  # the second pass renders every head from the memo
            for system_prompt, instruction, demos, source, target_prefix in itertools.product(TEXTS, repeat=5):
                values = {"system_prompt": system_prompt, "instruction": instruction, "demos": demos,
                          "source": source, "target_prefix": target_prefix}
                assert render(values) == compiled.render(values), (text, values)


def test_the_head_memo_keeps_one_text_per_value_tuple_and_renders_non_text_values_each_time():
    compiled = compile_format("{system_prompt}\\N{instruction:>4}\\N{demos}{source}", allow_newline_marker=True)
    render = compiled.head_memo(VARYING)
    rows = [{"system_prompt": "S", "instruction": instruction, "demos": "d\n", "source": f"row {index}"}
            for index, instruction in enumerate(["ab", "ab", 7, "ab", 7])]
    assert [render(row) for row in rows] == ["S\n  ab\nd\nrow 0", "S\n  ab\nd\nrow 1", "S\n   7\nd\nrow 2",
                                             "S\n  ab\nd\nrow 3", "S\n   7\nd\nrow 4"]
    head = next(cell.cell_contents for cell in render.__closure__ if isinstance(cell.cell_contents, RepeatMemo))
    assert head._texts == {("S", "ab"): "S\n  ab\n"} and head._hits == 2  # the number 7 is not kept


def test_no_head_memo_without_markers_or_when_the_first_chunk_varies():
    assert compile_format("{instruction}{demos}{source}", allow_newline_marker=True).head_memo(VARYING) is None
    assert compile_format("{demos}\\N{instruction}{source}", allow_newline_marker=True).head_memo(VARYING) is None
    assert compile_format("{system_prompt}{source}\\N{x}", allow_newline_marker=True).head_memo(VARYING) is None
