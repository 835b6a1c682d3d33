"""Loaders subclassed the original's way (overriding LoadHF's load_dataset / is_streaming / filter_load, the file
loaders' read_dataframe, LoadFromIBMCloud's lazy_verify) load with the override in effect."""

import pandas
import pytest

from unitxt.errors import UnitxtError
from unitxt.loaders import LoadCSV, LoadFromDictionary, LoadFromIBMCloud, LoadHF, LoadJsonFile

from tests.support.hub_mirror import make_hub_dataset


@pytest.fixture
def hub(tmp_path, monkeypatch):
    rows = {"train": [{"text": f"t{i}", "label": i % 3} for i in range(6)], "test": [{"text": "x", "label": 1}]}
    make_hub_dataset(tmp_path, "org/data", {"default": rows})
    monkeypatch.chdir(tmp_path)
    return rows


def test_load_dataset_and_is_streaming(hub):
    loader = LoadHF(path="org/data")
    assert loader.is_streaming() is False
    assert loader.load_dataset("test")["text"] == ["x"]
    assert sorted(loader.load_dataset(None)) == ["test", "train"]
    streamed = loader.load_dataset("train", streaming=True)
    assert [row["text"] for row in streamed] == [f"t{i}" for i in range(6)]

    class Streaming(LoadHF):
        def is_streaming(self):
            return True

    import datasets

    assert isinstance(Streaming(path="org/data").load_dataset("train"), datasets.IterableDataset)
    assert [row["text"] for row in Streaming(path="org/data", loader_limit=2)()["train"]] == ["t0", "t1"]


def test_overridden_load_dataset_feeds_the_loader(hub):
    class OnlyTest(LoadHF):
        def load_dataset(self, split, streaming=None, disable_memory_caching=False):
            loaded = super().load_dataset(split, streaming, disable_memory_caching)
            return {"test": loaded["test"]} if split is None else loaded

    assert list(OnlyTest(path="org/data")()) == ["test"]


def test_filter_load(hub):
    kept = LoadHF(path="org/data", filtering_lambda="lambda row: row['label'] == 0")()
    assert [row["text"] for row in kept["train"]] == ["t0", "t3"]

    class Reversed(LoadHF):
        def filter_load(self, dataset):
            return reversed(list(super().filter_load(dataset)))

    out = Reversed(path="org/data", filtering_lambda="lambda row: row['label'] != 2")()
    assert [row["text"] for row in out["train"]] == ["t4", "t3", "t1", "t0"]


def test_read_dataframe(tmp_path):
    csv = tmp_path / "d.csv"
    csv.write_text("a,b\n1,x\n2,y\n", encoding="utf-8")
    frame = LoadCSV(files={"test": str(csv)}).read_dataframe(str(csv))
    assert isinstance(frame, pandas.DataFrame) and frame.to_dict("records") == [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}]

    class Doubled(LoadCSV):
        def read_dataframe(self, file):
            frame = super().read_dataframe(file)
            return frame.assign(a=frame["a"] * 2)

    rows = list(Doubled(files={"test": str(csv)})()["test"])
    assert [(row["a"], row["b"]) for row in rows] == [(2, "x"), (4, "y")]

    jsonl = tmp_path / "d.jsonl"
    jsonl.write_text('{"q": "a"}\n{"q": "b"}\n', encoding="utf-8")

    class FromPandas(LoadJsonFile):
        def read_dataframe(self, file):
            return pandas.read_json(file, lines=True).assign(seen=True)

    assert [row["seen"] for row in FromPandas(files={"test": str(jsonl)})()["test"]] == [True, True]


def test_lazy_verify_runs_when_loading(monkeypatch):
    loader = LoadFromIBMCloud(endpoint_url_env="NO_SUCH_ENDPOINT_VAR", aws_access_key_id_env="K",
                              aws_secret_access_key_env="S", bucket_name="b", data_files=["train.jsonl"])
    with pytest.raises(UnitxtError, match="Please set the NO_SUCH_ENDPOINT_VAR environmental variable"):
        loader.lazy_verify()
    monkeypatch.setenv("NO_SUCH_ENDPOINT_VAR", "http://127.0.0.1:9")
    monkeypatch.setenv("K", "k")
    monkeypatch.setenv("S", "s")
    loader.lazy_verify()  # all set: nothing to refuse

    class Refusing(LoadFromIBMCloud):
        def lazy_verify(self):
            raise UnitxtError("bucket is frozen")

    with pytest.raises(UnitxtError, match="bucket is frozen"):
        Refusing(endpoint_url_env="E", aws_access_key_id_env="K", aws_secret_access_key_env="S", bucket_name="b",
                 data_files=["train.jsonl"])._credentials()


def test_get_splits():
    assert LoadFromDictionary(data={"train": [{"x": 1}], "test": [{"x": 2}]}).get_splits() == ["train", "test"]
