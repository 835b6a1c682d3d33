import json
import logging

import pytest

from unitxt.errors import UnitxtError
from unitxt.loaders import LoadCSV, LoadFromDictionary, LoadFromFsspec, LoadHF, LoadJsonFile, MultipleSourceLoader

from tests.support.hub_mirror import make_hub_dataset


def test_dictionary_default_policy_limit_and_reiteration():
    loader = LoadFromDictionary(data={"test": [{"x": i} for i in range(10)]}, loader_limit=3)
    stream = loader()["test"]
    first = list(stream)
    assert first == [{"x": i, "data_classification_policy": ["proprietary"]} for i in range(3)]
    assert list(stream) == first
    assert loader.data == {"test": [{"x": i} for i in range(10)]}  # source data untouched


def test_load_hf_from_local_hub_layout(tmp_path, monkeypatch):
    rows = {"train": [{"sentence": f"s{i}", "label": i % 2} for i in range(7)], "validation": [{"sentence": "v", "label": 1}]}
    make_hub_dataset(tmp_path, "nyu-mll/glue", {"sst2": rows, "cola": {"train": [{"sentence": "c", "label": 0}]}})
    monkeypatch.chdir(tmp_path)
    multi_stream = LoadHF(path="nyu-mll/glue", name="sst2")()
    assert sorted(multi_stream) == ["train", "validation"]
    train = list(multi_stream["train"])
    assert [row["sentence"] for row in train] == [f"s{i}" for i in range(7)]
    assert train[0]["data_classification_policy"] == ["proprietary"]  # local files
    limited = LoadHF(path="nyu-mll/glue", name="sst2", loader_limit=2, data_classification_policy=["public"])()
    assert [row["sentence"] for row in limited["train"]] == ["s0", "s1"]
    assert list(limited["train"])[0]["data_classification_policy"] == ["public"]
    only = LoadHF(path="nyu-mll/glue", name="cola", split="train")()
    assert list(only) == ["train"] and list(only["train"])[0]["sentence"] == "c"


def test_load_hf_streaming(tmp_path, monkeypatch):
    make_hub_dataset(tmp_path, "org/data", {"default": {"test": [{"a": i} for i in range(5)]}})
    monkeypatch.chdir(tmp_path)
    streamed = LoadHF(path="org/data", streaming=True, loader_limit=3)()
    assert [row["a"] for row in streamed["test"]] == [0, 1, 2]


def test_load_hf_missing_dataset_is_clear_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UnitxtError, match="load_dataset"):
        LoadHF(path="no-such-org/no-such-data")()


def test_limit_notice_is_logged_once(caplog):
    from unitxt.loaders import base as loaders

    loaders._limit_notices_shown.discard("LoadFromDictionary")
    with caplog.at_level(logging.INFO, logger="unitxt"):
        LoadFromDictionary(data={"test": [{"x": 1}]}, loader_limit=1)()
        LoadFromDictionary(data={"test": [{"x": 1}]}, loader_limit=1)()
    assert caplog.text.count("Loading limited to 1 instances by setting LoadFromDictionary.loader_limit") == 1


def test_csv_and_json_and_jsonl(tmp_path):
    (tmp_path / "train.csv").write_text("text,label\nhello,1\n\"a, b\",0\n", encoding="utf-8")
    (tmp_path / "test.tsv").write_text("text\tlabel\nx\t1\n", encoding="utf-8")
    csv_streams = LoadCSV(files={"train": str(tmp_path / "train.csv")})()
    assert [dict(row, data_classification_policy=None) for row in csv_streams["train"]] == [
        {"text": "hello", "label": 1, "data_classification_policy": None},  # typed, as the original's pandas reader
        {"text": "a, b", "label": 0, "data_classification_policy": None},
    ]
    tsv = LoadCSV(files={"test": str(tmp_path / "test.csv")}, sep=";")
    (tmp_path / "test.csv").write_text("text;label\nx;1\n", encoding="utf-8")
    assert list(tsv()["test"])[0]["text"] == "x"

    (tmp_path / "data.json").write_text(json.dumps({"data": {"rows": [{"q": "a"}, {"q": "b"}]}}), encoding="utf-8")
    json_rows = list(LoadJsonFile(files={"test": str(tmp_path / "data.json")}, data_field="data/rows")()["test"])
    assert [row["q"] for row in json_rows] == ["a", "b"]
    (tmp_path / "data.jsonl").write_text('{"q": 1}\n\n{"q": 2}\n', encoding="utf-8")
    jsonl_rows = list(LoadJsonFile(files={"test": f"file://{tmp_path / 'data.jsonl'}"})()["test"])
    assert [row["q"] for row in jsonl_rows] == [1, 2]
    assert jsonl_rows[0]["data_classification_policy"] == ["proprietary"]
    (tmp_path / "bad.jsonl").write_text('{"q": 1}\nnot json\n', encoding="utf-8")
    with pytest.raises(UnitxtError, match="line 2 is not valid JSON"):
        list(LoadJsonFile(files={"test": str(tmp_path / "bad.jsonl")})()["test"])


def test_jsonl_lines_read_as_json_loads_reads_them(tmp_path):
    """Each non-blank line is json.loads(line) (JSON whitespace around it, CRLF endings, nested values); a line of
    other whitespace only (form feed, no-break space) is blank; trailing data or a bare value error names the line."""
    lines = ['  {"a": [1, {"b": null}], "c": "\\u00e9t\\u00e9"}\t', '\x0c', '\u00a0 ', '[1, 2]', '"text"', '{"q": 1.5e3}\r']
    (tmp_path / "rows.jsonl").write_text("\r\n".join(lines) + "\n", encoding="utf-8")
    got = list(LoadJsonFile(files={"test": str(tmp_path / "rows.jsonl")}, file_format="jsonl").load_generators()["test"]())
    assert got == [json.loads(line) for line in lines if line.strip()]
    assert got[0] == {"a": [1, {"b": None}], "c": "\u00e9t\u00e9"} and got[-1] == {"q": 1500.0}
    for text, line_number, reason in (('{"q": 1}\n{"q": 2} x\n', 2, "Extra data"), ('\n\n\x0c{"q": 1}\n', 3, "Expecting value"),
                                      ('{"q": 1}\n{"q": \n', 2, "Expecting value")):
        (tmp_path / "bad.jsonl").write_text(text, encoding="utf-8")
        with pytest.raises(UnitxtError, match=f"line {line_number} is not valid JSON: {reason}"):
            list(LoadJsonFile(files={"test": str(tmp_path / "bad.jsonl")})()["test"])


def test_fsspec_memory_urls_and_globs():
    import fsspec

    filesystem = fsspec.filesystem("memory")
    with filesystem.open("/unitxt-test/part-0.jsonl", "w") as handle:
        handle.write('{"a": 1}\n')
    with filesystem.open("/unitxt-test/part-1.jsonl", "w") as handle:
        handle.write('{"a": 2}\n')
    loader = LoadFromFsspec(files={"test": "memory://unitxt-test/part-*.jsonl"})
    assert [row["a"] for row in loader()["test"]] == [1, 2]
    with pytest.raises(UnitxtError, match="No files match"):
        list(LoadFromFsspec(files={"test": "memory://unitxt-test/none-*.jsonl"})()["test"])


def test_multiple_source_loader_concatenates():
    loader = MultipleSourceLoader(
        sources=[LoadFromDictionary(data={"test": [{"a": 1}]}), LoadFromDictionary(data={"test": [{"a": 2}]})]
    )
    assert [row["a"] for row in loader()["test"]] == [1, 2]


def test_dictionary_rows_must_be_dicts():
    with pytest.raises(UnitxtError, match=r"is not of type Dict\[str, List\[Dict"):
        LoadFromDictionary(data={"test": [1, 2]})


def test_dictionary_rows_of_one_split_share_their_fields():
    same_keys_in_another_order = {"dev": [{"q": "a", "n": 1}, {"n": 2, "q": "b"}]}
    assert [row["n"] for row in LoadFromDictionary(data=same_keys_in_another_order)()["dev"]] == [1, 2]
    with pytest.raises(UnitxtError, match="Not all instances in split 'dev' have the same fields") as info:
        LoadFromDictionary(data={"dev": [{"q": "a", "n": 1}, {"q": "b"}]})
    assert "{'q': 'b'}" in str(info.value) and info.value.field == "data"
    with pytest.raises(UnitxtError, match="Split dev has no instances"):
        LoadFromDictionary(data={"dev": []})


def test_csv_values_are_typed_as_pandas_types_them(tmp_path):
    import math

    (tmp_path / "t.csv").write_text('n,x,flag,day,word,gap\n7,0.5,TRUE,2024-02-03,"p, q",\n8,,false,2024-02-04,NA,4\n',
                                    encoding="utf-8")
    first, second = LoadCSV(files={"test": str(tmp_path / "t.csv")}, data_classification_policy=["public"])()["test"]
    assert (first["n"], first["x"], first["flag"], first["day"], first["word"]) == (7, 0.5, True, "2024-02-03", "p, q")
    assert isinstance(first["n"], int) and second["flag"] is False
    assert math.isnan(second["x"]) and math.isnan(second["word"]) and math.isnan(first["gap"])
    assert second["gap"] == 4.0 and isinstance(second["gap"], float)  # a whole-number column with a gap: floats
