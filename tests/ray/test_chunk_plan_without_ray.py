"""What the Ray path builds on, without Ray: chunks scored apart and merged in order give the streamed evaluation's
exact states; the chunk plan of any block layout; the default path never imports Ray, and unitxt.ray asks for it."""

import json
import sys

import pytest

from unitxt import evaluate
from unitxt.errors import UnitxtError
from unitxt.evaluation.post_processing import _Resolver
from unitxt.evaluation.signature import StreamSignature
from unitxt.evaluation.streamed import _results, evaluate_in_chunks, merge_chunk, score_chunk
from unitxt.ray.scoring import chunk_spans

from tests.evaluation.test_columnar_evaluation import random_rows


def flat(scores):
    return json.loads(json.dumps(scores, default=str))


@pytest.mark.parametrize("seed, options", [(0, {}), (1, {"with_groups": True, "subsets": ([],)})])
def test_chunks_scored_apart_and_merged_in_order_are_the_streamed_evaluation(seed, options):
    predictions, rows = random_rows(900, seed, **options)
    streamed = evaluate_in_chunks(predictions, rows, chunk_size=200)
    # each chunk scored by itself (as a Ray task does: its own resolver, no kinds from earlier chunks), last first
    chunks = [score_chunk(predictions[start:start + 200], rows[start:start + 200], _Resolver(), True, start // 200,
                          start) for start in reversed(range(0, 900, 200))]
    partitions, signature, non_text = {}, StreamSignature(), None
    for chunk in sorted(chunks, key=lambda chunk: chunk.index):
        non_text = merge_chunk(partitions, signature, chunk, non_text)
    metrics = [metric for partition in partitions.values() for metric in partition.metrics]
    merged = _results(partitions, 900, True, lambda: signature.signature(metrics, True, 200))
    for part in ("global_scores", "subsets_scores", "groups_scores"):
        assert flat(getattr(merged, part)) == flat(getattr(streamed, part)), part
    assert merged.signature == streamed.signature


def test_streamed_confidence_intervals_still_bracket_the_in_memory_scores():
    predictions, rows = random_rows(1500, 4, subsets=([],))
    streamed = evaluate_in_chunks(predictions, rows, chunk_size=300)
    in_memory = evaluate(predictions, rows)
    scores, reference = streamed.global_scores, in_memory.global_scores
    assert scores["score"] == pytest.approx(reference["score"], abs=1e-12)
    assert scores["score_ci_low"] < scores["score"] < scores["score_ci_high"]
    assert scores["score_ci_low"] == pytest.approx(reference["score_ci_low"], abs=0.02)
    assert scores["score_ci_high"] == pytest.approx(reference["score_ci_high"], abs=0.02)


@pytest.mark.parametrize("blocks", [[10], [3, 3, 4], [1] * 10, [7, 0, 3], [4, 6]])
def test_chunk_spans_cover_every_row_once_in_order(blocks):
    plan = chunk_spans(blocks, 4)
    starts = [sum(blocks[:block]) for block in range(len(blocks))]
    covered = [starts[block] + start + offset for _, spans in plan for block, start, length in spans
               for offset in range(length)]
    assert covered == list(range(10))
    assert [first for first, _ in plan] == [0, 4, 8]
    assert all(sum(length for _, _, length in spans) == (4 if first < 8 else 2) for first, spans in plan)


def test_the_default_path_never_imports_ray_and_unitxt_ray_says_how_to_install_it(monkeypatch):
    predictions, rows = random_rows(50, 5)
    evaluate(predictions, rows)
    evaluate_in_chunks(predictions, rows, chunk_size=20)
    assert "ray" not in sys.modules
    import unitxt.ray as uray

    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    with pytest.raises(UnitxtError, match=r"pip install 'unitxt\[ray\]'"):
        uray.connect()
    assert not uray.is_ray_dataset(rows)
