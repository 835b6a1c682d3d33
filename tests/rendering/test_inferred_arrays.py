"""The Arrow builder's column conversion (row_arrow._inferred_array) gives the array pyarrow's own inference
gives, on the shortcuts it takes (texts, lists of texts, one value in every row, ConstantColumn) and around them."""

import pyarrow
import pytest

from unitxt.rendering.batch_render import ConstantColumn
from unitxt.rendering.row_arrow import _inferred_array

COLUMNS = [
    [], ["a"], ["a", "b", "a"], ["a", None], [None, None], ["x", 1], [1, 2], [1, 1.5], [True, False],
    [["a"], ["b", "c"]], [["a"], []], [[], []], [["a"], None], [["a", None]], [["a", 1]], [["a"], ["a"]],
    [[["a"]], [["b"]]], [{"images": [], "audios": []}] * 3, [{"k": "v"}, {"k": "w"}], [["é"], ["\u2028"]],
    [b"x", b"y"], [[b"x"], [b"y"]],
]


def test_each_column_is_the_array_pyarrow_infers():
    for values in COLUMNS:
        try:
            expected = pyarrow.array(list(values))
        except pyarrow.ArrowException as error:  # mixed texts and numbers: the same error
            with pytest.raises(type(error)):
                _inferred_array(list(values))
            continue
        got = _inferred_array(list(values))
        assert got.type == expected.type and got.to_pylist() == expected.to_pylist(), values


def test_a_constant_column_is_converted_once_and_a_replaced_row_is_converted_as_any_other():
    column = ConstantColumn(["metrics.accuracy"], 4)
    assert column.is_constant and _inferred_array(column).to_pylist() == [["metrics.accuracy"]] * 4
    column[2] = ["metrics.f1"]
    assert not column.is_constant
    assert _inferred_array(column).to_pylist() == [["metrics.accuracy"]] * 2 + [["metrics.f1"], ["metrics.accuracy"]]
    empty = ConstantColumn([], 3)
    assert _inferred_array(empty).type == pyarrow.array([[], [], []]).type  # list<null>, as inferred


def test_rows_are_built_in_the_system_memory_pool():
    """A recipe's rows live in the C library's allocator, not in pyarrow's default pool (whose huge-page requests
    stall while the kernel compacts memory): the system pool grows by the dataset's bytes, the default pool does not."""
    from unitxt import load_dataset
    from unitxt.rendering.recipe import DatasetRecipe

    from ..support.recipe_fixtures import wnli_like_card

    recipe = DatasetRecipe(card=wnli_like_card(train=300, test=2000), template_card_index=0, num_demos=3,
                           demos_pool_size=50)
    system, default = pyarrow.system_memory_pool(), pyarrow.default_memory_pool()
    before_system, before_default = system.bytes_allocated(), default.bytes_allocated()
    dataset = load_dataset(recipe, split="test")
    held = dataset.data.nbytes
    assert len(dataset) == 2000 and held > 1_000_000
    assert system.bytes_allocated() - before_system >= held
    assert default.bytes_allocated() - before_default < held // 20
