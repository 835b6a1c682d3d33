"""The documentation assistant (the original's `unitxt.assistant`): the pretty table (as unitxt 1.26.10 prints it),
building an index of local documents, retrieval within a token budget, grounded prompts, the assessment engine, and
install hints for the optional packages (litellm, streamlit, docutils, transformers)."""

import hashlib
import logging
import os
import pickle
import sys

import numpy as np
import pyarrow.parquet as pq
import pytest

from unitxt.assistant import launch
from unitxt.assistant.app import Assistant
from unitxt.assistant.assessment.assistant_inference_engine import AssistantInferenceEngine
from unitxt.assistant.assessment.my_pretty_table import print_generic_table, table_lines
from unitxt.assistant.index import build_index, clean_html, process_doctree_file, split_into_chunks
from unitxt.errors import MissingRequirementError, UnitxtError

DOCS = {
    "docs/loaders.rst": "Loaders read data. LoadHF reads a Hugging Face dataset; LoadCSV reads csv files from disk. "
                        "Every loader has a loader_limit.",
    "docs/metrics.md": "Metrics score predictions. Accuracy compares a prediction with its references; rouge counts "
                       "overlapping words. Confidence intervals come from bootstrap resampling.",
    "docs/tiny.txt": "Too short.",
    "docs/notes.html": "<b>not indexed</b>",
}


def bag_of_words(texts):
    """A deterministic embedding: word counts hashed into 64 buckets."""
    vectors = np.zeros((len(texts), 64), dtype=np.float32)
    for row, text in enumerate(texts):
        for word in text.lower().replace(".", " ").replace(";", " ").split():
            vectors[row, int(hashlib.md5(word.encode()).hexdigest(), 16) % 64] += 1
    return vectors


class LocalAssistant(Assistant):
    """The assistant with the provider calls replaced: bag-of-words embeddings, word counts, an echoing model."""

    def embed(self, texts):
        return bag_of_words(texts)

    def count_tokens(self, text):
        return len(text.split())

    def complete(self, messages, max_tokens):
        self.sent = messages
        yield "Use "
        yield "LoadCSV."


@pytest.fixture
def index_dir(tmp_path):
    for name, text in DOCS.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    count = build_index(str(tmp_path / "docs"), str(tmp_path / "index"), embed=bag_of_words, embedding_model_name="bow",
                        max_tokens=8, stride=6)
    assert count == 7  # 20 words each -> windows at 0, 6, 12; 2 words -> one
    return str(tmp_path / "index")


def test_pretty_table_as_the_original(caplog):
    rows = [{"a": "short", "b": "a much longer cell that will need to be wrapped over lines", "c": 3.5},
            {"a": "x" * 12, "b": "", "c": None}]
    assert table_lines(["a", "b", "c"], rows, {"a": 5, "b": 15, "c": 4}) == [
        "=" * 35, "| a     | b               | c    |", "=" * 35,
        "| short | a much longer   | 3.5  |", "|       | cell that will  |      |", "|       | need to be      |      |",
        "|       | wrapped over    |      |", "|       | lines           |      |", "=" * 35,
        "| xxxxx |                 | None |", "| xxxxx |                 |      |", "| xx    |                 |      |",
        "=" * 35]
    with caplog.at_level(logging.INFO, logger="unitxt"):
        print_generic_table(["a", "c"], rows)
    assert [record.getMessage() for record in caplog.records][:4] == [
        "=" * 48, "| a                    | c                    |", "=" * 48, "| short                | 3.5 " + " " * 16 + " |"]


def test_the_index_holds_chunks_and_their_embeddings(index_dir):
    rows = pq.read_table(os.path.join(index_dir, "metadata.parquet")).to_pylist()
    embeddings = np.load(os.path.join(index_dir, "embeddings.npz"))["embeddings"]
    assert embeddings.shape == (7, 64) and embeddings.dtype == np.float32
    assert [(row["path"], row["chunk_index"]) for row in rows] == [
        ("loaders", 0), ("loaders", 1), ("loaders", 2), ("metrics", 0), ("metrics", 1), ("metrics", 2), ("tiny", 0)]
    assert rows[0]["text"] == "Loaders read data. LoadHF reads a Hugging Face"
    assert rows[0]["document"] == DOCS["docs/loaders.rst"] and rows[0]["embedding_model"] == "bow"
    np.testing.assert_array_equal(embeddings[3], bag_of_words([rows[3]["text"]])[0])
    assert split_into_chunks("a b c d e", max_tokens=2, stride=2) == ["a b", "c d", "e"]
    assert clean_html("keep <b>bold</b> this <i>x\ny</i>!") == "keep  this !"


def test_search_ranks_documents_and_keeps_the_token_budget(index_dir):
    assistant = LocalAssistant(assistant_dir=index_dir)
    found = assistant.search("which loader reads csv files", max_tokens=100)
    assert list(found) == ["loaders", "metrics"]  # "tiny" is shorter than min_text_length
    assert found["loaders"]["text"] == DOCS["docs/loaders.rst"] and found["loaders"]["count"] == 3
    assert found["loaders"]["similarity"] > found["metrics"]["similarity"]
    assert list(assistant.search("which loader reads csv files", max_tokens=20)) == ["loaders"]  # the next document's 20 words would pass 20
    assert list(assistant.search("bootstrap confidence intervals for metrics", max_tokens=100))[0] == "metrics"
    answer = "".join(assistant.generate_response([{"role": "user", "content": "How do I read csv files?"}]))
    assert answer == "Use LoadCSV."
    system, user = assistant.sent
    assert system["role"] == "system" and "https://www.unitxt.ai/en/latest/{path}.html" in system["content"]
    assert f"Path: loaders\nText: {DOCS['docs/loaders.rst']}" in system["content"]
    assert user == {"role": "user", "content": "How do I read csv files?"}


def test_the_assessment_engine_answers_with_the_assistant(index_dir):
    engine = AssistantInferenceEngine()
    engine.assistant = LocalAssistant(assistant_dir=index_dir)
    assert engine.infer([{"source": "How do I read csv files?"}, {"source": "And metrics?"}]) == ["Use LoadCSV."] * 2
    assert engine.assistant.sent[-1] == {"role": "user", "content": "And metrics?"}


def test_missing_index_and_packages_are_explained(tmp_path, index_dir, monkeypatch):
    with pytest.raises(UnitxtError, match="python -m unitxt.assistant.index DOCS_DIR"):
        Assistant(assistant_dir=str(tmp_path))
    for package in ("litellm", "streamlit", "docutils", "transformers"):
        monkeypatch.setitem(sys.modules, package, None)
    assistant = Assistant(assistant_dir=index_dir)
    with pytest.raises(MissingRequirementError, match="pip install litellm"):
        assistant.search("anything")
    with pytest.raises(MissingRequirementError, match="pip install transformers"):
        assistant.count_tokens("anything")
    with pytest.raises(MissingRequirementError, match="Streamlit"):
        launch()
    doctree = tmp_path / "page.doctree"
    doctree.write_bytes(pickle.dumps({"not": "a doctree"}))
    with pytest.raises(MissingRequirementError, match="pip install docutils"):
        process_doctree_file(str(doctree))
