"""Loader fields of the original catalog format (LoadHF.filtering_lambda / splits, LoadJsonFile.lines /
compression, LoadCSV.indirect_read) and its other loaders (IOB files, optional-package loaders)."""

import bz2
import gzip
import json
import zipfile

import pytest

from unitxt.artifact import from_serializable
from unitxt.errors import MissingRequirementError, UnitxtError
from unitxt.loaders import LoadCSV, LoadHF, LoadJsonFile
from unitxt.loaders.other_sources import LoadFromKaggle, LoadFromSklearn, LoadIOB, parse_iob_sentences, turl_table

from tests.support.hub_mirror import make_hub_dataset


@pytest.fixture
def subjects_dataset(tmp_path, monkeypatch):
    rows = {"test": [{"subject": s, "q": i} for i, s in enumerate(["virology", "law", "virology", "art"])],
            "validation": [{"subject": "law", "q": 9}], "dev": [{"subject": "virology", "q": 7}]}
    make_hub_dataset(tmp_path, "cais/mmlu", {"all": rows})
    monkeypatch.chdir(tmp_path)


def test_filtering_lambda_keeps_matching_rows(subjects_dataset):
    loader = LoadHF(path="cais/mmlu", name="all", filtering_lambda="lambda x: x['subject'] == 'virology'")
    loaded = loader()
    assert [row["q"] for row in loaded["test"]] == [0, 2]
    assert [row["q"] for row in loaded["dev"]] == [7]
    assert list(loaded["validation"]) == []
    limited = LoadHF(path="cais/mmlu", name="all", loader_limit=1,
                     filtering_lambda='lambda instance: instance["subject"] in ["law", "art"]')()
    assert [row["q"] for row in limited["test"]] == [1]  # the limit counts kept rows


def test_filtering_lambda_from_catalog_json_and_refusals():
    loader = from_serializable({"__type__": "load_hf", "path": "cais/mmlu",
                                "filtering_lambda": "lambda x: x['subject'] == 'virology'"})
    assert loader.filtering_lambda == "lambda x: x['subject'] == 'virology'"
    for bad in ["lambda x, y: True", "lambda x: __import__('os').system('true')", "x['a'] == 1",
                "lambda x: open('/etc/passwd')", "lambda x: y"]:
        with pytest.raises(UnitxtError, match="filtering_lambda"):
            LoadHF(path="a/b", filtering_lambda=bad)


def test_splits_selects_and_checks_splits(subjects_dataset):
    loaded = LoadHF(path="cais/mmlu", name="all", splits=["test", "dev"])()
    assert sorted(loaded) == ["dev", "test"]
    with pytest.raises(UnitxtError, match=r"\['train'\].*not in the dataset"):
        LoadHF(path="cais/mmlu", name="all", splits=["train"])()


def test_json_lines_and_compression(tmp_path):
    lines = tmp_path / "data.txt"
    lines.write_text('{"a": 1}\n{"a": 2}\n', encoding="utf-8")
    assert [row["a"] for row in LoadJsonFile(files={"test": str(lines)}, lines=True)()["test"]] == [1, 2]
    single = tmp_path / "one.json"
    single.write_text('{"a": 5}', encoding="utf-8")
    assert [row["a"] for row in LoadJsonFile(files={"test": str(single)}, lines=False)()["test"]] == [5]
    packed = tmp_path / "data.jsonl.gz"
    packed.write_bytes(gzip.compress(b'{"a": 3}\n{"a": 4}\n'))
    loaded = LoadJsonFile(files={"test": str(packed)}, lines=True, compression="gzip")()
    assert [row["a"] for row in loaded["test"]] == [3, 4]
    archive = tmp_path / "data.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("inner.json", json.dumps([{"a": 7}, {"a": 8}]))
    loaded = LoadJsonFile(files={"test": str(archive)}, lines=False, compression="zip")()
    assert [row["a"] for row in loaded["test"]] == [7, 8]
    with pytest.raises(UnitxtError, match="data_field"):
        LoadJsonFile(files={"test": "x"}, lines=True, data_field="items")


def test_csv_compression_and_indirect_read_field(tmp_path):
    packed = tmp_path / "t.csv.bz2"
    packed.write_bytes(bz2.compress(b"x,y\n1,2\n"))
    loader = LoadCSV(files={"train": str(packed)}, compression="bz2", indirect_read=True)
    assert list(loader()["train"]) == [{"x": 1, "y": 2, "data_classification_policy": ["proprietary"]}]


CONLL = """# sent_id = s1
# text = Ann lives in Rome
1\tAnn\tB-PER\t_\tA1
2\tlives\tO\t_\tA1
3\tin\tO\t_\tA1
4\tRome\tB-LOC\t_\tA1

1\tHi\tB-OTH\t_\t_
2\tBob\tB-O\t_\t_
"""


def test_load_iob_reads_sentences_with_metadata_and_fixes_tags(tmp_path):
    path = tmp_path / "data.iob"
    path.write_text(CONLL, encoding="utf-8")
    rows = [{k: v for k, v in row.items() if k != "data_classification_policy"}
            for row in LoadIOB(files={"test": str(path)})()["test"]]
    assert rows == [
        {"idx": "s1", "text": "Ann lives in Rome", "tokens": ["Ann", "lives", "in", "Rome"],
         "ner_tags": ["B-PER", "O", "O", "B-LOC"], "annotator": ["A1", "A1", "A1", "A1"]},
        {"idx": "1", "text": "Hi Bob", "tokens": ["Hi", "Bob"], "ner_tags": ["O", "O"], "annotator": ["", ""]},
    ]
    unfixed = list(LoadIOB(files={"test": str(path)}, fix_tags=False)()["test"])
    assert unfixed[1]["ner_tags"] == ["B-OTH", "B-O"]
    sentences = list(parse_iob_sentences(CONLL.splitlines(True), ["id", "token"]))
    assert [sentence["metadata"] for sentence in sentences] == [{"sent_id": "s1", "text": "Ann lives in Rome"}, {}]


def test_turl_table_rebuilds_rows_from_columns():
    record = [None, "page", None, "section", "caption", ["a", "b"],
              [[[[0, 0], [1, "x"]], [[1, 0], [2, "y"]]], [[[0, 1], [3, "z"]]]], [["t1"], ["t2"]]]
    assert turl_table(record) == {"header": ["a", "b"], "rows": [["x", "z"]]}


def test_optional_package_loaders_load_as_artifacts_and_explain_missing_packages():
    sklearn_loader = from_serializable({"__type__": "load_from_sklearn", "dataset_name": "20newsgroups",
                                        "streaming": False})
    assert sklearn_loader.splits == ["train", "test"]
    kaggle = LoadFromKaggle(url="https://www.kaggle.com/datasets/a/b")
    with pytest.raises(MissingRequirementError, match="pip install opendatasets"):
        kaggle()
    assert isinstance(sklearn_loader, LoadFromSklearn)
