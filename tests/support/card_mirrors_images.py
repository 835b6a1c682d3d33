"""Synthetic sources of the image cards (ChartQA, AI2D, InfographicVQA, SEED-Bench, DocVQA, doc-vqa, WebSRC,
REAL-MM-RAG) for the card comparison, in each dataset's real schema.

A source is `{"path", "name", "data_dir", "splits", "image_columns"}` and travels as JSON to the original's run: an
image cell is `{"bytes": <base64 of a PNG>, "path": None}` (a list of them for a list-of-images column), and
`image_columns` maps such a column to "image" or "images". Both sides' in-memory Hub answer
(`typed_split` of tests/tiers/compat/image_sources.py) decodes them into a Dataset whose column is a `datasets.Image` (or a
sequence of them), as on the Hub, so a card's steps see PIL images. WebSRC holds its screenshots as base64 JPEG text
(a string column, as on the Hub); the card decodes them itself.
"""

import base64
import io
from typing import Any, Dict, List, Optional

from tests.support.card_mirrors import MIRRORS, N, TRAIN_N, _rng, words
from tests.support.card_mirrors_docs import IMAGE_COLUMNS

Rows = List[Dict[str, Any]]
COLORS = ["red", "green", "blue", "white", "black", "yellow"]
REAL_MM_RAG = ("FinReport", "FinSlides", "TechReport", "TechSlides")


def _image_bytes(index: int, image_format: str = "PNG") -> bytes:
    """A small image, different per index (color and width)."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (8 + index % 3, 6), COLORS[index % len(COLORS)]).save(buffer, format=image_format)
    return buffer.getvalue()


def _cell(raw: bytes) -> Dict[str, Any]:
    return {"bytes": base64.b64encode(raw).decode("ascii"), "path": None}


def _encoded(value: Any) -> Any:
    """A mirror's image cell ({"bytes": raw, "path"}) or list of cells, with base64 text for the raw bytes."""
    if isinstance(value, list):
        return [_encoded(item) for item in value]
    return {"bytes": base64.b64encode(value["bytes"]).decode("ascii"), "path": value.get("path")}


def _doc_vqa_rows() -> Dict[str, Rows]:
    """cmarkea/doc-vqa: id, image, qa {"en": [{question, answer}], "fr": [...]} per page; train and test."""
    splits = {}
    for split, count in (("train", TRAIN_N), ("test", N)):
        rows = []
        for index in range(count):
            r = _rng("cmarkea/doc-vqa", split, index)
            color = COLORS[index % len(COLORS)]
            rows.append({"id": f"{split}_{index}", "image": _cell(_image_bytes(index)),
                         "qa": {"en": [{"question": "What color is the page?", "answer": color},
                                       {"question": words(r, 3, 6) + "?", "answer": words(r, 1, 3)}],
                                "fr": [{"question": "De quelle couleur est la page ?", "answer": color}]}})
        splits[split] = rows
    return splits


def _real_mm_rag_rows(name: str) -> Dict[str, Rows]:
    """ibm-research/REAL-MM-RAG_<name>: one test split; a page repeats per question, and pages without a question
    hold None in query (and its rephrasings)."""
    rows = []
    for index in range(12):
        r = _rng(name, index)
        asked = index % 5 != 4
        query = words(r, 3, 6) + "?" if asked else None
        rows.append({"id": index, "image": _cell(_image_bytes(index // 2)), "image_filename": f"page_{index // 2}.png",
                     "query": query, "rephrase_level_1": query, "rephrase_level_2": query, "rephrase_level_3": query,
                     "answer": words(r, 1, 3) if asked else None})
    return {"test": rows}


def _websrc_rows() -> Dict[str, Rows]:
    """rootsautomation/websrc: domain, page_id, question, answer, image (base64 JPEG text); train and dev."""
    domains = ["auto", "book", "camera", "game", "jobs", "movie", "phone", "restaurant", "sports", "university"]
    splits = {}
    for split, count in (("train", TRAIN_N), ("dev", N)):
        rows = []
        for index in range(count):
            r = _rng("rootsautomation/websrc", split, index)
            rows.append({"domain": domains[index % len(domains)], "page_id": f"{index:02d}0000{index:02d}",
                         "question": words(r, 3, 6) + "?", "answer": words(r, 1, 3),
                         "image": base64.b64encode(_image_bytes(index, "JPEG")).decode("ascii")})
        splits[split] = rows
    return splits


def _from_mirror(load) -> Optional[Dict[str, Rows]]:
    """The default-tier mirror's rows of an image dataset (its config, or its only one), images as base64."""
    configs = MIRRORS.get(load.path)
    if not configs or load.data_dir is not None:
        return None
    splits = configs.get(load.name) if load.name is not None else (
        next(iter(configs.values())) if len(configs) == 1 else configs.get("default"))
    if splits is None:
        return None
    columns = IMAGE_COLUMNS[load.path]
    return {split: [{key: _encoded(value) if key in columns and value is not None else value
                     for key, value in row.items()} for row in rows] for split, rows in splits.items()}


def image_source(load) -> Optional[Dict[str, Any]]:
    """The synthetic source of an image dataset's Hub load, or None when the load is not one of them."""
    path = getattr(load, "path", None)
    splits, columns = None, {}
    if path in IMAGE_COLUMNS:
        splits = _from_mirror(load)
        columns = {column: "images" if path == "lmms-lab/SEED-Bench" else "image" for column in IMAGE_COLUMNS[path]}
    elif path == "cmarkea/doc-vqa":
        splits, columns = _doc_vqa_rows(), {"image": "image"}
    elif path in {f"ibm-research/REAL-MM-RAG_{name}" for name in REAL_MM_RAG} and load.name in (None, "default"):
        splits, columns = _real_mm_rag_rows(path.split("_", 1)[1]), {"image": "image"}
    elif path == "rootsautomation/websrc":
        splits = _websrc_rows()
    if splits is None:
        return None
    return {"path": path, "name": load.name, "data_dir": load.data_dir, "splits": splits, "image_columns": columns}
