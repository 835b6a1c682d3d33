"""Metrics combining other scores: MetricsEnsemble (weighted sum of several metrics' instance scores),
weighted_win_rate_correlation (agreement of pairwise win rates), rerank_recall (recall@k of reranking scores per
query) and is_code_mixed (a generative model asked which language a text is in).
"""

import math
from typing import Any, Dict, List, Optional, Union

from ..errors import MetricError
from .base import GlobalMetric, InstanceMetric, Metric, MetricScores


def _fetch(metric: Any) -> Metric:
    if isinstance(metric, str):
        from ..catalog import fetch_artifact

        return fetch_artifact(metric)[0]
    return metric


class MetricsEnsemble(InstanceMetric):
    """Several metrics combined into one score: `ensemble_score` = sum of weight_i * main instance score of metric i
    (weights default to equal). Each metric's instance scores are reported with the prefix `ensemble_<i>_`; globally,
    the mean ensemble score and each metric's own main global score as `ensemble_<i>_<main>` with its bootstrap CI
    (the original's global keys)."""

    main_score = "ensemble_score"
    reduction_map = {"mean": ["ensemble_score"]}
    ci_scores = ["ensemble_score"]
    metrics: List[Union[Metric, str]]
    weights: Optional[List[float]] = None

    def prepare(self) -> None:
        super().prepare()
        self.metrics = [_fetch(metric) for metric in self.metrics]

    def resolved_ci_scores(self) -> List[str]:
        """No bootstrap of its own: the CIs reported are each metric's, as it computes them alone (the original's)."""
        return []

    def verify(self) -> None:
        super().verify()
        if not self.metrics:
            raise MetricError("MetricsEnsemble needs at least one metric.", artifact=type(self).__name__,
                              field="metrics")
        if isinstance(self.weights, list) and len(self.weights) != len(self.metrics):
            raise MetricError(f"MetricsEnsemble has {len(self.metrics)} metrics but {len(self.weights)} weights.",
                              artifact=type(self).__name__, field="weights")

    @staticmethod
    def get_prefix_name(index: int) -> str:
        return f"ensemble_{index}_"

    def resolved_weights(self) -> List[float]:
        return list(self.weights) if self.weights is not None else [1 / len(self.metrics)] * len(self.metrics)

    def combine(self, instance_scores: List[List[float]]) -> List[Any]:
        """The ensemble score of each instance from its metrics' main scores (in `metrics` order): the weighted
        sum."""
        weights = self.resolved_weights()
        return [sum(weight * value for weight, value in zip(weights, values)) for values in instance_scores]

    def ensemble(self, instance: Dict[str, Any]) -> Any:
        """The ensemble score of one instance whose instance["score"]["instance"] holds its metrics' scores (under
        their `ensemble_<i>_` prefixes)."""
        scores = instance["score"]["instance"]
        values = []
        for index, metric in enumerate(self.metrics):
            value = scores[self.get_prefix_name(index) + metric.main_score]
            value = value[0] if isinstance(value, list) and len(value) == 1 else value
            values.append(math.nan if value is None else float(value))
        return self.combine([values])[0]

    def create_ensemble_scores(self, instance: Dict[str, Any]) -> Dict[str, Any]:
        """The instance with its ensemble score (`ensemble`) as its "prediction", the value this metric scores."""
        instance["prediction"] = self.ensemble(instance)
        return instance

    def score(self, predictions, references, task_data) -> MetricScores:
        combined: List[Dict[str, Any]] = [{} for _ in predictions]
        main_scores: List[List[float]] = [[] for _ in predictions]
        inner = []
        for index, metric in enumerate(self.metrics):
            scores = metric.evaluate(predictions, references, task_data)
            prefix = self.get_prefix_name(index)
            inner.append((prefix + metric.main_score, metric.main_score, scores))
            for position, instance in enumerate(metric.instance_results(scores)):
                value = instance.get("score", math.nan)
                value = value[0] if isinstance(value, list) and len(value) == 1 else value
                main_scores[position].append(math.nan if value is None else float(value))
                combined[position].update({prefix + name: item for name, item in instance.items()
                                           if name not in ("score", "score_name")})
        if type(self).ensemble is MetricsEnsemble.ensemble and \
                type(self).create_ensemble_scores is MetricsEnsemble.create_ensemble_scores:
            values = self.combine(main_scores)  # all instances at once (a forest predicts them in one call)
        else:  # a subclass's hook decides each instance's ensemble score
            values = [self.create_ensemble_scores({"prediction": prediction, "references": refs, "task_data": data,
                                                   "score": {"instance": dict(scores)}})["prediction"]
                      for prediction, refs, data, scores in zip(predictions, references, task_data, combined)]
        for position, value in enumerate(values):
            combined[position][self.main_score] = value
        ensemble = self.scores_from_instances(combined)
        own = ensemble.statistic

        def statistic(idx):  # the ensemble's mean and each metric's global main score, on the same resamples
            values = own(idx)
            for name, main, scores in inner:
                values[name] = scores.statistic(idx)[main]
            return values

        def nested_intervals(positions):  # each metric's own CI of its main score, by its own procedure
            intervals = {}
            for name, main, scores in inner:
                own_scores = scores.global_scores(positions, with_ci=self.return_confidence_interval
                                                  and self.confidence_interval_calculation)
                if f"{main}_ci_low" in own_scores:
                    intervals[name] = (own_scores[f"{main}_ci_low"], own_scores[f"{main}_ci_high"])
            return intervals

        ensemble.statistic = statistic
        ensemble.nested_intervals = nested_intervals
        ensemble.mean_values = None  # the inner global scores are not all means: no chunk-merging shortcut
        return ensemble


class RandomForestMetricsEnsemble(MetricsEnsemble):
    """The metrics' main scores combined by a trained scikit-learn random forest classifier: `weights` is the
    forest in the original's dictionary form (`load_weights(path)` reads it from JSON); the ensemble score is the
    class the forest predicts from the instance's scores. Needs scikit-learn, imported when scoring."""

    weights: Optional[Dict[str, Any]] = None
    _requirements_list = {"sklearn": "pip install scikit-learn"}

    @staticmethod
    def load_weights(json_file: str) -> Dict[str, Any]:
        """The forest dictionary stored in a JSON file."""
        import json

        with open(json_file, encoding="utf-8") as file:
            return json.load(file)

    def decode_tree(self, tree_dict: Dict[str, Any], n_features: int, n_classes: Any, n_outputs: int) -> Any:
        """A scikit-learn Tree from its state dictionary (nodes as lists of the node fields, values as lists)."""
        import numpy as np
        from sklearn.tree._tree import Tree

        state = dict(tree_dict)
        names = ["left_child", "right_child", "feature", "threshold", "impurity", "n_node_samples",
                 "weighted_n_node_samples", "missing_go_to_left"]
        state["values"] = np.array(state["values"])
        state["nodes"] = np.array([tuple(node) for node in state["nodes"]],
                                  dtype=np.dtype({"names": names, "formats": state["nodes_dtype"]}))
        tree = Tree(n_features, np.array([n_classes], dtype=np.intp), n_outputs)
        tree.__setstate__(state)
        return tree

    def decode_decision_tree(self, model_dict: Dict[str, Any]) -> Any:
        """A fitted DecisionTreeClassifier from its dictionary form."""
        import numpy as np
        from sklearn.tree import DecisionTreeClassifier

        model = DecisionTreeClassifier(**model_dict["params"])
        model.n_features_in_ = model_dict["n_features_in_"]
        model.n_outputs_ = model_dict["n_outputs_"]
        model.max_features_ = model_dict["max_features_"]
        model.n_classes_ = model_dict["n_classes_"]
        model.classes_ = np.array(model_dict["classes_"])
        model.tree_ = self.decode_tree(model_dict["tree_"], model_dict["n_features_in_"], model_dict["n_classes_"],
                                       model_dict["n_outputs_"])
        return model

    def decode_forest(self, model_dict: Dict[str, Any]) -> Any:
        """A fitted RandomForestClassifier from its dictionary form (its trees, fitted attributes and settings)."""
        import numpy as np
        from sklearn.ensemble import RandomForestClassifier

        model = RandomForestClassifier(**model_dict["params"])
        model.estimators_ = np.array([self.decode_decision_tree(tree) for tree in model_dict["estimators_"]])
        model.n_features_in_ = model_dict["n_features_in_"]
        model.feature_names_in_ = np.array(model_dict["feature_names_in_"])
        for name in ("min_samples_split", "max_depth", "min_samples_leaf", "min_weight_fraction_leaf",
                     "max_features", "max_leaf_nodes", "min_impurity_decrease", "n_outputs_"):
            setattr(model, name, model_dict[name])
        model.classes_ = np.array(model_dict["classes_"])
        n_classes = model_dict["n_classes_"]
        model.n_classes_ = np.array(n_classes) if isinstance(n_classes, list) else n_classes
        for name in ("oob_score_", "oob_decision_function_"):
            if name in model_dict:
                setattr(model, name, model_dict[name])
        return model

    def combine(self, instance_scores: List[List[float]]) -> List[Any]:
        """The forest's predicted class for each instance's scores."""
        if not isinstance(self.weights, dict):
            raise MetricError("RandomForestMetricsEnsemble needs weights: the forest dictionary "
                              "(RandomForestMetricsEnsemble.load_weights(path) reads it).",
                              artifact=self.artifact_name, field="weights")
        self.check_missing_requirements()
        forest = self.decode_forest(self.weights)
        if not instance_scores:
            return []
        try:  # named as the forest's features (the original passes a bare list: scikit-learn warns about names)
            import pandas

            features = pandas.DataFrame(instance_scores, columns=list(forest.feature_names_in_))
        except ImportError:
            features = instance_scores
        return forest.predict(features).tolist()


# ---------------------------------------------------------------- win-rate correlation
def _win_counts(outcome: float):
    """(wins of model a, wins of model b) from a signed outcome: +k a won k times, -k b won k times, 0 a tie."""
    if outcome > 0:
        return outcome, 0.0
    if outcome < 0:
        return 0.0, -outcome
    return 1.0, 1.0


def win_rates(pairs: List[tuple], outcomes: List[float]) -> Dict[str, float]:
    """Each model's wins / battles over the (model_a, model_b) pairs and their outcomes."""
    wins: Dict[str, float] = {}
    battles: Dict[str, float] = {}
    for (a, b), outcome in zip(pairs, outcomes):
        wins_a, wins_b = _win_counts(outcome)
        for model, won in ((a, wins_a), (b, wins_b)):
            wins[model] = wins.get(model, 0.0) + won
            battles[model] = battles.get(model, 0.0) + wins_a + wins_b
    return {model: wins[model] / battles[model] if battles[model] else math.nan for model in wins}


class WeightedWinRateCorrelation(GlobalMetric):
    """Pairwise comparisons (task_data model_a, model_b; predictions and references signed outcomes, see
    _win_counts) turned into each model's win rate, predicted vs gold; reports their Pearson and Spearman
    correlations (main: spearman_corr). An instance alone has no score (None), as in the original."""

    main_score = "spearman_corr"
    prediction_type = "Union[float, int]"

    def compute(self, references, predictions, task_data):
        from .kernels.correlation import pearson, spearman

        if len(predictions) == 1:
            return {"loss": abs(float(predictions[0]) - float(references[0][0]))}
        for index, data in enumerate(task_data):
            if "model_a" not in data or "model_b" not in data:
                raise MetricError(f"WeightedWinRateCorrelation needs task_data model_a and model_b (instance {index}).",
                                  artifact=self.artifact_name, field="task_data")
        pairs = [(str(d["model_a"]), str(d["model_b"])) for d in task_data]
        predicted = win_rates(pairs, [float(p) for p in predictions])
        gold = win_rates(pairs, [float(int(r[0])) for r in references])
        models = sorted(set(predicted) & set(gold))
        x = [predicted[m] for m in models]
        y = [gold[m] for m in models]
        return {"pearson_corr": pearson(y, x), "spearman_corr": spearman(y, x)}

    def _finish_instance(self, scores):
        """As the original: an instance alone has no correlation, so its main score (and `score`) is None."""
        main = self.score_prefix + self.main_score
        return {"score": None, "score_name": main, main: None}


# ---------------------------------------------------------------- reranking
def recall_at_k(scored: Dict[str, float], relevant: set, k: int) -> float:
    """Share of the relevant passages among the k best scored (ties: larger passage id first, as trec_eval)."""
    if not relevant:
        return 0.0
    ranked = sorted(scored, key=lambda pid: (scored[pid], pid), reverse=True)
    return len(relevant & set(ranked[:k])) / len(relevant)


class RerankRecall(GlobalMetric):
    """Recall@k of reranking: instances are (query, passage) pairs (task_data `query_id_field`, `passage_id_field`)
    with a predicted relevance score and a 0/1 reference; per query, the share of gold passages ranked in the top
    k, averaged over queries (recall_at_<k> for each k of `at_k`)."""

    main_score = "recall_at_5"
    query_id_field: str = "query_id"
    passage_id_field: str = "passage_id"
    at_k: List[int] = [1, 2, 5]
    n_resamples = 0

    def prepare(self) -> None:
        super().prepare()
        if self.main_score not in {f"recall_at_{k}" for k in self.at_k}:  # e.g. at_k=[1, 2]: main is the largest k
            self.main_score = f"recall_at_{max(self.at_k)}"

    def compute(self, references, predictions, task_data):
        results: Dict[Any, Dict[str, float]] = {}
        gold: Dict[Any, Dict[str, int]] = {}
        for refs, prediction, data in zip(references, predictions, task_data):
            for field in (self.query_id_field, self.passage_id_field):
                if field not in data:
                    raise MetricError(f"RerankRecall needs task_data '{field}'.", artifact=self.artifact_name,
                                      field="task_data")
            qid, pid = data[self.query_id_field], str(data[self.passage_id_field])
            try:
                score = float(prediction)
            except (TypeError, ValueError):
                score = math.nan
            # a (query, passage) pair given twice: its last row counts, as in trec_eval's run and qrels
            results.setdefault(qid, {})[pid] = -math.inf if math.isnan(score) else score
            gold.setdefault(qid, {})[pid] = int(refs[0])
        relevant = {qid: {pid for pid, level in levels.items() if level > 0} for qid, levels in gold.items()}
        return {f"recall_at_{k}": float(sum(recall_at_k(results[q], relevant[q], k) for q in results) / len(results))
                for k in self.at_k}


# ---------------------------------------------------------------- code mixing (model-backed)
class IsCodeMixed(InstanceMetric):
    """1 when a generative model, asked in which language the prediction is written, answers with a number of
    languages ("The text is written in 2 languages") — i.e. the text is code-mixed. Needs `inference_model` (an
    inference engine; the original uses Nexusflow/Starling-LM-7B-beta through transformers)."""

    main_score = "is_code_mixed"
    reduction_map = {"mean": ["is_code_mixed"]}
    prediction_type = str
    inference_model: Optional[Any] = None
    _requirements_list = {"transformers": "runs the language-identification model", "torch": "model runtime"}

    def compute_all(self, predictions, references, task_data):
        if self.inference_model is None:
            raise MetricError("IsCodeMixed asks a generative model which language each text is in: set "
                              "inference_model to an inference engine (e.g. one serving Nexusflow/Starling-LM-7B-beta).",
                              artifact=self.artifact_name, field="inference_model")
        prompts = [{"source": f"Text: {text}\nIdentify the language of the text.\nThe text is written in",
                    "data_classification_policy": ["public"]} for text in predictions]
        answers = self.inference_model.infer(prompts)
        return [{self.main_score: float(str(answer).strip().split(" ")[0].isnumeric())} for answer in answers]
