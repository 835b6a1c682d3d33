"""String-matching metrics: exact match, token overlap, SQuAD EM/F1, character edit distance, ANLS, corpus WER.

Instance metrics score each prediction against its best reference (global = mean of instance scores). WER is a
corpus ratio (total word edits / total reference words), so it is a GlobalMetric whose bootstrap resamples re-sum
per-instance edit and length counts. All scores are on a 0..1 scale.
"""

from typing import Any, Dict, List, Optional

from .base import GlobalMetric, InstanceMetric, Statistic
from ..lazy_imports import numpy_module as _np
from ..artifact import InertField


class ExactMatch(InstanceMetric):
    """1 when the prediction string equals one of the references exactly, else 0."""

    main_score = "exact_match"
    prediction_type = str
    ci_scores = ["exact_match"]

    def compute(self, references: List[str], prediction: str, task_data: Dict[str, Any]) -> Dict[str, float]:
        return {"exact_match": 1.0 if prediction in references else 0.0}

    def compute_all(self, predictions, references, task_data):
        return [{"exact_match": 1.0 if p in refs else 0.0} for p, refs in zip(predictions, references)]


def token_overlap_scores(references: List[str], prediction: str, normalize: bool = True) -> Dict[str, float]:
    """Bag-of-words precision, recall and f1 of the prediction's tokens, each the best over the references.

    With `normalize`, texts are SQuAD-normalised first (lowercase, no punctuation, no articles a/an/the).
    """
    from .kernels.text_match import normalize_squad_answer, token_overlap

    if normalize:
        prediction = normalize_squad_answer(prediction)
        references = [normalize_squad_answer(reference) for reference in references]
    best = {"precision": 0.0, "recall": 0.0, "f1": 0.0}
    for reference in references:
        scores = token_overlap([reference], prediction)
        for name, value in scores.items():
            if value > best[name]:
                best[name] = value
    return best


class TokenOverlap(InstanceMetric):
    """Token precision, recall and f1 between the prediction and its references (best reference per score).

    Tokens are whitespace words of the SQuAD-normalised texts (normalize=False keeps the raw words).
    """

    main_score = "f1"
    prediction_type = str
    normalize: bool = True
    ci_scores = ["f1", "precision", "recall"]
    reduction_map = {"mean": ["f1", "precision", "recall"]}

    def compute(self, references: List[str], prediction: str, task_data: Dict[str, Any]) -> Dict[str, float]:
        return token_overlap_scores(references, prediction, self.normalize)


class Squad(InstanceMetric):
    """SQuAD v1.1 exact match and token F1 (best reference, SQuAD normalisation), on a 0..1 scale."""

    hf_additional_input_fields: Any = InertField(default=None, reason='computed here without the HF `evaluate` metric')
    hf_additional_input_fields_pass_one_value: Any = InertField(
        default=None, reason='computed here without the HF `evaluate` metric')
    hf_compute_args: Any = InertField(default=None, reason='computed here without the HF `evaluate` metric')
    hf_main_score: Any = InertField(default=None, reason='computed here without the HF `evaluate` metric')
    hf_metric_name: Any = InertField(default='squad', reason='computed here without the HF `evaluate` metric')
    scale: Any = InertField(default=100.0, reason='computed here without the HF `evaluate` metric')
    scaled_fields: Any = InertField(default=None, reason='computed here without the HF `evaluate` metric')

    main_score = "f1"
    prediction_type = str
    ci_scores = ["f1"]  # as the original: the CI of f1 only
    ci_style = "global"  # the original recomputes HF squad per resample
    reduction_map = {"mean": ["f1", "exact_match"]}

    def compute(self, references: List[str], prediction: str, task_data: Dict[str, Any]) -> Dict[str, float]:
        from .kernels.text_match import squad_exact_match, squad_f1

        return {"exact_match": squad_exact_match(references, prediction) / 100.0,
                "f1": squad_f1(references, prediction) / 100.0}


class CharEditDistance(InstanceMetric):
    """Character Levenshtein distance (an edit count) from the prediction to the closest reference, whitespace removed
    from both first; global: the mean count (lower is better). As the original system's metrics.char_edit_distance."""

    main_score = "char_edit_distance"
    prediction_type = str
    single_reference_per_prediction = True  # as in the original: the distance to the one reference
    ci_scores = ["char_edit_distance"]

    def compute(self, references: List[str], prediction: str, task_data: Dict[str, Any]) -> Dict[str, float]:
        from .kernels.text_match import char_edit_distance

        return {self.main_score: char_edit_distance(_without_whitespace(references), "".join(str(prediction).split()),
                                                    normalized=False)}


class CharEditDistAccuracy(CharEditDistance):
    """1 - character edit distance / length of the longer text, whitespace removed from prediction and reference
    first (higher is better; both empty: 0; as the original system's metrics.char_edit_dist_accuracy)."""

    main_score = "char_edit_dist_accuracy"
    ci_scores = ["char_edit_dist_accuracy"]

    def compute(self, references: List[str], prediction: str, task_data: Dict[str, Any]) -> Dict[str, float]:
        from .kernels.text_match import char_edit_distance

        gold, predicted = _without_whitespace(references), "".join(str(prediction).split())
        if not predicted and not any(gold):
            return {self.main_score: 0.0}  # the original scores two empty texts 0, not 1
        return {self.main_score: 1.0 - char_edit_distance(gold, predicted, normalized=True)}


def _without_whitespace(texts: List[str]) -> List[str]:
    return ["".join(str(text).split()) for text in texts]


class ANLS(InstanceMetric):
    """Average Normalized Levenshtein Similarity (DocVQA): best 1 - NL over references, 0 when NL > threshold (an NL
    of exactly the threshold keeps 1 - NL, as the original system's metrics.anls)."""

    main_score = "anls"
    prediction_type = str
    threshold: float = 0.5
    ci_scores: Optional[List[str]] = []  # the original reports no CI of ANLS

    def compute(self, references: List[str], prediction: str, task_data: Dict[str, Any]) -> Dict[str, float]:
        from .kernels.text_match import anls

        return {"anls": anls(references, prediction, threshold=self.threshold)}

    @staticmethod
    def preprocess_text(text: str) -> tuple:
        """(the text lowercased, stripped and whitespace-squeezed, the raw text's length) as ANLS compares them."""
        return " ".join(text.strip().lower().split()), len(text.upper())

    @staticmethod
    def levenshtein_distance(s1: str, s2: str) -> int:
        """Character edit distance."""
        from .kernels.text_match import levenshtein_distance

        return levenshtein_distance(s1, s2)

    def distance(self, prediction: str, reference: str) -> float:
        """The normalised texts' edit distance over the longer raw length (0 for two empty texts)."""
        processed_reference, reference_length = self.preprocess_text(reference)
        processed_prediction, prediction_length = self.preprocess_text(prediction)
        longest = max(reference_length, prediction_length)
        return 0.0 if longest == 0 else self.levenshtein_distance(processed_reference, processed_prediction) / longest


class Wer(GlobalMetric):
    """Corpus word error rate: total word edits / total reference words (like jiwer.wer); lower is better.

    Needs exactly one reference per prediction. Instance scores are the per-instance WER (NaN for an empty
    reference with a non-empty prediction, where WER is undefined).
    """

    hf_additional_input_fields: Any = InertField(default=None, reason='computed here without the HF `evaluate` metric')
    hf_additional_input_fields_pass_one_value: Any = InertField(
        default=None, reason='computed here without the HF `evaluate` metric')
    hf_compute_args: Any = InertField(default=None, reason='computed here without the HF `evaluate` metric')
    hf_main_score: Any = InertField(default=None, reason='computed here without the HF `evaluate` metric')
    hf_metric_name: Any = InertField(default='wer', reason='computed here without the HF `evaluate` metric')
    scale: Any = InertField(default=1.0, reason='computed here without the HF `evaluate` metric')
    scaled_fields: Any = InertField(default=None, reason='computed here without the HF `evaluate` metric')

    main_score = "wer"
    prediction_type = str
    single_reference_per_prediction = True
    ci_scores = ["wer"]

    def fast_statistic(self, predictions, references, task_data) -> Optional[Statistic]:
        from .kernels.text_match import resampled_corpus_wer, word_edit_counts

        edits, lengths = word_edit_counts([refs[0] for refs in references], list(predictions))
        main = self.main_score

        def statistic(idx):
            return {main: resampled_corpus_wer(edits, lengths, idx)}

        statistic.counts = (edits, lengths)
        return statistic

    def additive_statistics(self, predictions, references, task_data):
        """Per instance: word edits and reference words (corpus WER is the ratio of their totals)."""
        from .kernels.text_match import word_edit_counts

        edits, lengths = word_edit_counts([refs[0] for refs in references], list(predictions))
        return _np().column_stack([edits, lengths])

    def scores_of_totals(self, totals, exact, keys=None):
        from .kernels.text_match import _wer_ratio

        return {self.main_score: _wer_ratio(totals[:, 0], totals[:, 1])}

    def single_instance_scores(self, predictions, references, task_data, statistic) -> Dict[str, Any]:
        np = _np()
        from .kernels.text_match import resampled_corpus_wer

        edits, lengths = statistic.counts
        return {self.main_score: resampled_corpus_wer(edits, lengths, np.arange(len(edits))[:, None])}

    def compute(self, references: List[List[str]], predictions: List[str], task_data: List[Dict[str, Any]]
                ) -> Dict[str, float]:
        from .kernels.text_match import corpus_wer

        return {self.main_score: corpus_wer([refs[0] for refs in references], list(predictions))}
