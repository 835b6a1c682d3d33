"""loaders.LoadWithPandas (the original's pandas-reading base: subclasses give read_dataframe) and
metrics.RandomForestMetricsEnsemble (metric scores combined by a scikit-learn forest stored as a dictionary): both
real, their optional packages imported only when used. The forest's answers are checked against scikit-learn's own
predict on the same scores."""

import gzip
import json
import sys

import pytest

from unitxt.errors import MissingRequirementError, UnitxtError
from unitxt.loaders import LoadWithPandas
from unitxt.metrics import RandomForestMetricsEnsemble


class CsvWithPandas(LoadWithPandas):
    sep: str = ","

    def read_dataframe(self, file):
        import pandas

        return pandas.read_csv(file, sep=self.sep, **self.get_args())


class JsonLinesWithPandas(LoadWithPandas):
    def read_dataframe(self, file):
        import pandas

        args = self.get_args()
        args.pop("nrows", None)  # pandas reads nrows of JSON only in chunks; the loader cuts to the limit itself
        return pandas.read_json(file, lines=True, **args)


def test_load_with_pandas_reads_each_split_with_the_subclass_reader(tmp_path):
    train = tmp_path / "train.csv"
    train.write_text("text,label\nhello,1\nbye,0\nagain,1\n", encoding="utf-8")
    test = tmp_path / "test.tsv"
    test.write_text("text\tlabel\nx\t0\n", encoding="utf-8")
    loader = CsvWithPandas(files={"train": str(train)})
    rows = list(loader()["train"])
    assert [(row["text"], row["label"]) for row in rows] == [("hello", 1), ("bye", 0), ("again", 1)]
    assert rows[0]["data_classification_policy"] == ["proprietary"]  # local files, as the original classifies them
    assert loader.get_splits() == ["train"] and loader.streaming is True and loader.chunksize == 1000
    limited = CsvWithPandas(files={"train": str(train)}, loader_limit=2)
    assert limited.get_args() == {"nrows": 2} and [row["text"] for row in limited()["train"]] == ["hello", "bye"]
    assert [row["text"] for row in CsvWithPandas(files={"test": str(test)}, sep="\t")()["test"]] == ["x"]
    packed = tmp_path / "data.jsonl.gz"
    packed.write_bytes(gzip.compress(b'{"a": 3}\n{"a": 4}\n{"a": 5}\n'))
    loaded = JsonLinesWithPandas(files={"test": str(packed)}, compression="gzip", loader_limit=2)()
    assert [row["a"] for row in loaded["test"]] == [3, 4]


def test_load_with_pandas_refusals(tmp_path, monkeypatch):
    with pytest.raises(TypeError, match="abstract method read_dataframe"):
        LoadWithPandas(files={"train": "x.csv"})
    with pytest.raises(UnitxtError, match="Can not read split 'train' from .*missing.csv"):
        list(CsvWithPandas(files={"train": str(tmp_path / "missing.csv")})()["train"])
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(MissingRequirementError, match="pip install pandas"):
        list(CsvWithPandas(files={"train": str(tmp_path / "any.csv")})()["train"])


def _tree_as_dict(tree):
    """A fitted DecisionTreeClassifier in the original's dictionary form."""
    state = tree.tree_.__getstate__()
    nodes = state["nodes"]
    return {
        "params": tree.get_params(), "n_features_in_": tree.n_features_in_, "n_outputs_": tree.n_outputs_,
        "max_features_": tree.max_features_, "n_classes_": int(tree.n_classes_), "classes_": tree.classes_.tolist(),
        "tree_": {"max_depth": state["max_depth"], "node_count": state["node_count"],
                  "nodes": [list(node) for node in nodes.tolist()],
                  "nodes_dtype": [nodes.dtype[name].str for name in nodes.dtype.names],
                  "values": state["values"].tolist()},
    }


def _forest_as_dict(forest):
    return json.loads(json.dumps({
        "params": forest.get_params(), "estimators_": [_tree_as_dict(tree) for tree in forest.estimators_],
        "n_features_in_": forest.n_features_in_, "feature_names_in_": forest.feature_names_in_.tolist(),
        **{name: getattr(forest, name) for name in ("min_samples_split", "max_depth", "min_samples_leaf",
                                                    "min_weight_fraction_leaf", "max_features", "max_leaf_nodes",
                                                    "min_impurity_decrease", "n_outputs_")},
        "classes_": forest.classes_.tolist(), "n_classes_": int(forest.n_classes_),
    }, default=lambda value: value.item()))


def test_random_forest_ensemble_predicts_as_scikit_learn(tmp_path):
    import numpy
    import pandas
    from sklearn.ensemble import RandomForestClassifier

    from unitxt.metrics import Accuracy, StringContainment

    rng = numpy.random.default_rng(0)
    features = pandas.DataFrame(rng.integers(0, 2, size=(60, 2)).astype(float), columns=["accuracy", "containment"])
    labels = (features["accuracy"] + features["containment"] >= 1).astype(int) * 2  # classes 0 and 2
    forest = RandomForestClassifier(n_estimators=5, max_depth=3, random_state=0).fit(features, labels)
    weights_file = tmp_path / "forest.json"
    weights_file.write_text(json.dumps(_forest_as_dict(forest)), encoding="utf-8")

    predictions = ["a", "b", "c", "dd"]
    references = [["a"], ["xbx"], ["z"], ["d"]]
    metric = RandomForestMetricsEnsemble(metrics=[Accuracy(), StringContainment()],
                                         weights=RandomForestMetricsEnsemble.load_weights(str(weights_file)),
                                         n_resamples=0)
    scores = metric.evaluate(predictions, references)
    instances = metric.instance_results(scores)
    pairs = [[row["ensemble_0_accuracy"], row["ensemble_1_string_containment"]] for row in instances]
    assert pairs == [[1.0, 1.0], [0.0, 0.0], [0.0, 0.0], [0.0, 1.0]]
    expected = forest.predict(pandas.DataFrame(pairs, columns=["accuracy", "containment"])).tolist()
    assert [row["ensemble_score"] for row in instances] == expected == [2, 0, 0, 2]
    with pytest.raises(UnitxtError, match="needs weights"):
        RandomForestMetricsEnsemble(metrics=[Accuracy()]).evaluate(["a"], [["a"]])
