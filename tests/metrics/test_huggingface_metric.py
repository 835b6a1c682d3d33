"""HuggingfaceMetric wraps an `evaluate` metric, here a local metric script the test writes (offline)."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from unitxt import add_to_catalog, evaluate, load_dataset
from unitxt.card import TaskCard
from unitxt.errors import MetricError, MissingRequirementError
from unitxt.loaders import LoadFromDictionary
from unitxt.metrics.huggingface import HuggingfaceMetric
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate

pytest.importorskip("evaluate")

METRIC_SCRIPT = '''
import datasets
import evaluate


class WordMatch(evaluate.Metric):
    """Share of predictions found among their references; optional weights and a constant bonus."""

    def _info(self):
        return evaluate.MetricInfo(
            description="test metric",
            citation="",
            inputs_description="predictions: texts; references: lists of texts",
            features=datasets.Features({
                "predictions": datasets.Value("string"),
                "references": datasets.Sequence(datasets.Value("string")),
            }),
        )

    def _compute(self, predictions, references, weight=None, bonus=0.0, case_sensitive=True):
        def norm(text):
            return text if case_sensitive else text.lower()

        hits = [float(norm(p) in [norm(r) for r in refs]) for p, refs in zip(predictions, references)]
        result = {"match": sum(hits) / len(hits) + bonus, "count": len(hits), "details": hits}
        if weight is not None:
            result["weighted"] = sum(h * w for h, w in zip(hits, weight)) / sum(weight)
        return result
'''

SINGLE_REFERENCE_SCRIPT = '''
import datasets
import evaluate


class ExactOne(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description="", citation="", inputs_description="",
            features=datasets.Features({"predictions": datasets.Value("string"),
                                        "references": datasets.Value("string")}),
        )

    def _compute(self, predictions, references):
        return {"exact": sum(p == r for p, r in zip(predictions, references)) / len(predictions)}
'''


@pytest.fixture(scope="module")
def metric_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("hf_metrics")
    folder = root / "word_match"
    folder.mkdir()
    (folder / "word_match.py").write_text(textwrap.dedent(METRIC_SCRIPT), encoding="utf-8")
    single = root / "exact_one"
    single.mkdir()
    (single / "exact_one.py").write_text(textwrap.dedent(SINGLE_REFERENCE_SCRIPT), encoding="utf-8")
    return root


PREDICTIONS = ["a", "b", "c", "D"]
REFERENCES = [["a"], ["x"], ["c", "y"], ["d"]]
TASK_DATA = [{"weight": w, "bonus": 0.0, "case": False} for w in (1, 2, 1, 1)]


def test_scores_with_renamed_main_score_and_passed_fields(metric_dir):
    metric = HuggingfaceMetric(
        hf_metric_name=str(metric_dir / "word_match"),
        main_score="word_match",
        hf_main_score="match",
        hf_additional_input_fields_pass=["weight"],
        hf_additional_input_fields_pass_one_value=["bonus"],
        n_resamples=20,
    )
    scores = metric.evaluate(PREDICTIONS, REFERENCES, TASK_DATA)
    global_scores = scores.global_scores()
    assert global_scores["score_name"] == "word_match" and global_scores["word_match"] == 0.5
    assert global_scores["weighted"] == pytest.approx(2 / 5) and global_scores["count"] == 4
    assert "details" not in global_scores and "match" not in global_scores  # non-numeric dropped, main renamed
    assert 0.0 <= global_scores["score_ci_low"] <= 0.5 <= global_scores["score_ci_high"] <= 1.0
    instances = metric.instance_results(scores)
    assert [instance["score"] for instance in instances] == [1.0, 0.0, 1.0, 0.0]
    assert instances[1]["weighted"] == 0.0


def test_compute_args_fields_filter_and_scale(metric_dir):
    metric = HuggingfaceMetric(hf_metric_name=str(metric_dir / "word_match"), main_score="match",
                               hf_compute_args={"case_sensitive": False}, hf_metric_fields=["count"], scale=100.0,
                               n_resamples=0)
    global_scores = metric.evaluate(PREDICTIONS, REFERENCES, TASK_DATA).global_scores()
    assert global_scores["match"] == 75.0 and global_scores["count"] == 400.0
    assert "score_ci_low" not in global_scores and "weighted" not in global_scores


def test_main_score_defaults():
    assert HuggingfaceMetric(hf_metric_name="bleu").main_score == "bleu"
    assert HuggingfaceMetric(hf_metric_name="/some/dir/word_match/").main_score == "word_match"
    assert HuggingfaceMetric(hf_metric_name="x", hf_main_score="match").main_score == "match"


def test_single_reference_metrics(metric_dir):
    metric = HuggingfaceMetric(hf_metric_name=str(metric_dir / "exact_one"), main_score="exact",
                               single_reference_per_prediction=True, n_resamples=0)
    assert metric.evaluate(["a", "b"], [["a"], ["c"]]).global_scores()["exact"] == 0.5
    with pytest.raises(MetricError, match="Expecting a list with a single reference per prediction"):
        metric.evaluate(["a"], [["a", "b"]])


def test_clear_errors(metric_dir):
    path = str(metric_dir / "word_match")
    with pytest.raises(MetricError, match="'weight'"):
        HuggingfaceMetric(hf_metric_name=path, main_score="match", hf_additional_input_fields_pass=["weight"],
                          n_resamples=0).evaluate(["a"], [["a"]], [{"other": 1}])
    with pytest.raises(MetricError, match="one value"):
        HuggingfaceMetric(hf_metric_name=path, main_score="match", hf_additional_input_fields_pass_one_value=["weight"],
                          n_resamples=0, process_single_instances=False).evaluate(
            PREDICTIONS, REFERENCES, TASK_DATA).global_scores()
    with pytest.raises(MetricError, match="returned no 'bleu'"):
        HuggingfaceMetric(hf_metric_name=path, main_score="bleu", n_resamples=0).evaluate(["a"], [["a"]])
    with pytest.raises(MetricError, match="Could not load"):
        HuggingfaceMetric(hf_metric_name=str(metric_dir / "missing_metric"), main_score="x",
                          n_resamples=0).evaluate(["a"], [["a"]])


def test_documented_use_in_the_catalog_and_evaluation(metric_dir, temp_catalog):
    metric = HuggingfaceMetric(
        hf_metric_name=str(metric_dir / "word_match"),  # the name of the metric (here a local script)
        main_score="match",  # the main score (the metric returns this score name)
        prediction_type=str,  # the type of the prediction and references
        hf_additional_input_fields_pass_one_value=["bonus"],
    )
    add_to_catalog(metric, "metrics.word_match", catalog_path=str(temp_catalog))
    assert json.loads((Path(temp_catalog) / "metrics" / "word_match.json").read_text())["prediction_type"] == "str"
    data = {"test": [{"question": f"q{i}", "answer": f"a{i}", "bonus": 0.0} for i in range(4)]}
    card = TaskCard(loader=LoadFromDictionary(data=data),
                    task=Task(input_fields={"question": str, "bonus": float}, reference_fields={"answer": str},
                              prediction_type=str, metrics=["metrics.word_match"]))
    dataset = load_dataset(card=card, template=InputOutputTemplate(input_format="{question}",
                                                                   output_format="{answer}"), split="test")
    results = evaluate(predictions=["a0", "a1", "no", "a3"], data=dataset)
    assert results.global_scores["score"] == 0.75 and results.global_scores["score_name"] == "match"
    assert [row["score"]["instance"]["score"] for row in results] == [1.0, 1.0, 0.0, 1.0]


def test_evaluate_is_imported_lazily_and_required_when_used(monkeypatch, metric_dir):
    code = "import sys, unitxt.metrics.huggingface, unitxt.metrics; print('evaluate' in sys.modules)"
    env = {"PYTHONPATH": str(Path(__file__).resolve().parents[2] / "core"), "PATH": "/usr/bin:/bin"}
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert output.stdout.strip() == "False"
    monkeypatch.setitem(sys.modules, "evaluate", None)
    metric = HuggingfaceMetric(hf_metric_name=str(metric_dir / "word_match"), main_score="match", n_resamples=0)
    with pytest.raises(MissingRequirementError, match="pip install evaluate"):
        metric.evaluate(["a"], [["a"]])


def test_scaled_fields_divide_as_in_the_original_format(metric_dir):
    metric = HuggingfaceMetric(hf_metric_name=str(metric_dir / "word_match"), main_score="match",
                               hf_compute_args={"case_sensitive": False}, hf_metric_fields=["count"], scale=4.0,
                               scaled_fields=["count"], n_resamples=0)
    global_scores = metric.evaluate(PREDICTIONS, REFERENCES, TASK_DATA).global_scores()
    assert global_scores["count"] == 1.0 and global_scores["match"] == 0.75  # only the scaled field is divided


ROUGE_SCRIPT = '''
import datasets
import evaluate
from rouge_score import rouge_scorer, scoring


class LocalRouge(evaluate.Metric):
    """The evaluate library's rouge, computed by rouge_score (a local copy: no download)."""

    def _info(self):
        return evaluate.MetricInfo(description="", citation="", inputs_description="", features=[
            datasets.Features({"predictions": datasets.Value("string"),
                               "references": datasets.Sequence(datasets.Value("string"))})])

    def _compute(self, predictions, references, rouge_types=None, use_aggregator=True):
        scorer = rouge_scorer.RougeScorer(rouge_types)
        scores = [scorer.score_multi(refs, pred) for refs, pred in zip(references, predictions)]
        return {key: [score[key].fmeasure for score in scores] for key in rouge_types}
'''


def test_instance_and_bulk_evaluate_metrics_score_instances_with_the_script(metric_dir):
    from unitxt.metrics import HuggingfaceBulkMetric, HuggingfaceInstanceMetric

    class WordMatchPerInstance(HuggingfaceInstanceMetric):
        hf_metric_name = str(metric_dir / "word_match")
        hf_metric_fields = ["match"]
        main_score = "match"

    class WordMatchBulk(HuggingfaceBulkMetric):
        hf_metric_name = str(metric_dir / "word_match")
        hf_metric_fields = ["details"]
        main_score = "details"
        hf_additional_input_fields = ["weight"]

    instance = WordMatchPerInstance(n_resamples=None)
    scores = instance.evaluate(PREDICTIONS, REFERENCES, TASK_DATA)
    assert [row["match"] for row in instance.instance_results(scores)] == [1.0, 0.0, 1.0, 0.0]
    assert scores.global_scores()["match"] == 0.5
    bulk = WordMatchBulk(n_resamples=None)
    scores = bulk.evaluate(PREDICTIONS, REFERENCES, TASK_DATA)
    assert [row["details"] for row in bulk.instance_results(scores)] == [1.0, 0.0, 1.0, 0.0]
    with pytest.raises(MetricError, match="'weight' field required"):
        bulk.evaluate(PREDICTIONS, REFERENCES, [{} for _ in PREDICTIONS])


def test_rouge_hf_reports_rouge_scores_per_instance_and_their_means(tmp_path):
    from rouge_score import rouge_scorer

    from unitxt.metrics import RougeHF

    (tmp_path / "rouge").mkdir()
    (tmp_path / "rouge" / "rouge.py").write_text(textwrap.dedent(ROUGE_SCRIPT), encoding="utf-8")
    metric = RougeHF(hf_metric_name=str(tmp_path / "rouge"), sent_split_newline=False, n_resamples=None)
    predictions = ["the cat sat on the mat", "a dog barked", "hello world"]
    references = [["the cat is on the mat"], ["the dog barked loudly", "a dog"], ["goodbye"]]
    scores = metric.evaluate(predictions, references)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    expected = [scorer.score_multi(refs, pred) for pred, refs in zip(predictions, references)]
    rows = metric.instance_results(scores)
    for name in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        values = [score[name].fmeasure for score in expected]
        assert [row[name] for row in rows] == pytest.approx(values)
        assert scores.global_scores()[name] == pytest.approx(sum(values) / 3)
    assert scores.global_scores()["score_name"] == "rougeL"
