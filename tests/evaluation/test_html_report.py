"""results.to_html: the numbers and CI bounds the report shows equal the results object (issue 18, item 2)."""

import json
import sys
from html.parser import HTMLParser

import pytest
from sklearn.metrics import confusion_matrix as sklearn_confusion_matrix

from unitxt import evaluate
from unitxt.errors import MissingRequirementError

from tests.evaluation.test_paired_comparison import HALF_RIGHT, LABELS, ROWS, row


class Tables(HTMLParser):
    """Collects every table by id: rows of (cell text, data-value or None), plus the signature code text."""

    def __init__(self):
        super().__init__()
        self.tables, self.current, self.cell, self.signature, self._in_signature = {}, None, None, None, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.current = self.tables.setdefault(attrs.get("id"), [])
        elif tag == "tr" and self.current is not None:
            self.current.append([])
        elif tag in ("td", "th") and self.current is not None:
            self.cell = ["", attrs.get("data-value")]
        elif tag == "code" and attrs.get("id") == "signature":
            self._in_signature = True

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.current[-1].append((self.cell[0].strip(), self.cell[1]))
            self.cell = None
        elif tag == "table":
            self.current = None
        elif tag == "code":
            self._in_signature = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[0] += data
        if self._in_signature:
            self.signature = (self.signature or "") + data


def parse(text):
    parser = Tables()
    parser.feed(text)
    return parser


def by_label(table):
    """{first cell text: {column header: data-value}} for a scores table."""
    headers = [text for text, _ in table[0]]
    return {cells[0][0]: {headers[i]: cells[i][1] for i in range(1, len(cells))} for cells in table[1:]}


def test_global_scores_and_cis_in_the_report_equal_the_results(tmp_path):
    results = evaluate(HALF_RIGHT, ROWS)
    text = results.to_html(str(tmp_path / "report.html"))
    assert (tmp_path / "report.html").read_text(encoding="utf-8") == text
    report = parse(text)
    shown = by_label(report.tables["global"])
    assert set(shown) == {"accuracy", "f1_macro", "f1_bird", "f1_cat", "f1_dog", "score"}
    for name, cells in shown.items():
        assert float(cells["score"]) == results.global_scores[name]
        low = results.global_scores.get(f"{name}_ci_low")
        if low is None:
            assert cells["ci_low"] is None
        else:
            assert float(cells["ci_low"]) == low and float(cells["ci_high"]) == results.global_scores[
                f"{name}_ci_high"]
        assert int(cells["num_of_instances"]) == 120
    assert report.signature == results.signature


def test_groups_and_subsets_tables_equal_the_results():
    results = evaluate(HALF_RIGHT, ROWS)
    groups = by_label(parse(results.to_html()).tables["group-domain"])
    for value in ("news", "web"):
        expected = results.groups_scores["domain"][value]
        assert float(groups[value]["score"]) == expected["score"]
        assert float(groups[value]["ci_low"]) == expected["score_ci_low"]
        assert float(groups[value]["ci_high"]) == expected["score_ci_high"]
    subset_rows = [row(label, subset=("first" if i < 60 else "second",)) for i, label in enumerate(LABELS)]
    subset_results = evaluate(HALF_RIGHT, subset_rows)
    subsets = by_label(parse(subset_results.to_html()).tables["subsets"])
    assert float(subsets["first"]["score"]) == subset_results.subsets_scores["first"]["score"]
    assert float(subsets["second"]["ci_high"]) == subset_results.subsets_scores["second"]["score_ci_high"]


def test_confusion_matrix_equals_sklearn():
    results = evaluate(HALF_RIGHT, ROWS)
    table = parse(results.to_html()).tables["confusion"]
    labels = [text for text, _ in table[0][1:]]
    assert labels == ["bird", "cat", "dog", "fish"]
    counts = [[int(value) for _, value in cells[1:]] for cells in table[1:]]
    expected = sklearn_confusion_matrix(LABELS, HALF_RIGHT, labels=labels)[:3]
    assert counts == expected.tolist()


def test_instance_browser_lists_every_instance_with_its_scores():
    results = evaluate(HALF_RIGHT, ROWS)
    table = parse(results.to_html()).tables["instances"]
    assert len(table) == 121
    first = table[1]
    assert first[2][0] == HALF_RIGHT[0] and first[4][0] == json.dumps([LABELS[0]])
    assert float(first[5][1]) == results[0]["score"]["instance"]["score"]
    capped = parse(results.to_html(max_instances=10))
    assert len(capped.tables["instances"]) == 11


def test_no_confusion_matrix_for_multi_reference_rows():
    rows = [dict(r, references=[r["target"], "other"]) for r in ROWS]
    assert "confusion" not in parse(evaluate(HALF_RIGHT, rows).to_html()).tables


def test_plot_without_matplotlib_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(MissingRequirementError, match=r"unitxt\[report\]"):
        evaluate(HALF_RIGHT, ROWS).plot()


def test_report_with_a_baseline_shows_the_paired_comparison():
    from unitxt import compare

    from tests.evaluation.test_paired_comparison import MOSTLY_RIGHT

    baseline, run = evaluate(HALF_RIGHT, ROWS), evaluate(MOSTLY_RIGHT, ROWS)
    report = parse(run.to_html(baseline=baseline))
    expected = compare(baseline, run)
    shown = by_label(report.tables["compare-global"])
    for name in ("accuracy", "f1_macro"):
        for column in ("difference", "ci_low", "ci_high", "p_value"):
            assert float(shown[name][column]) == expected["global"][name][column]
        assert float(shown[name]["baseline"]) == baseline.global_scores[name]
        assert float(shown[name]["this run"]) == run.global_scores[name]
    news = by_label(report.tables["compare-group-domain-news"])
    assert float(news["accuracy"]["difference"]) == expected["groups"]["domain"]["news"]["accuracy"][
        "difference"]
