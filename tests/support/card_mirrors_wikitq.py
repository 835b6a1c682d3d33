"""Synthetic WikiTableQuestions files in the layout of the project's GitHub repository (ppasupat/WikiTableQuestions),
for cards.wikitq, which reads its split files and, per question, the question's table file by URL.

Split files (data/random-split-1-train.tsv, data/random-split-1-dev.tsv, data/pristine-unseen-tables.tsv): tab
separated, header `id utterance context targetValue`; `context` names the table as `csv/<batch>-csv/<n>.csv`;
`targetValue` lists the answers separated by `|`. Table files (`csv/<batch>-csv/<n>.tsv`): tab separated, header row
first, one line per table row. Texts are synthetic; one table per split has more than 200 cells (the card drops it).
"""

import random
from typing import Dict, List, Optional

from tests.support.card_mirrors import WORDS, words

REPOSITORY = "https://raw.githubusercontent.com/ppasupat/WikiTableQuestions/"
SPLIT_FILES = {"random-split-1-train.tsv": ("train", 12), "random-split-1-dev.tsv": ("validation", 8),
               "pristine-unseen-tables.tsv": ("test", 8)}
BATCH = {"train": 200, "validation": 201, "test": 203}
SPLIT_FILES_SIZE = {split: size for split, size in SPLIT_FILES.values()}


def _table(split: str, index: int) -> List[List[str]]:
    """Header and rows of one question's table; the last table of each split is large (70 rows x 3 columns)."""
    r = random.Random(f"wikitq-table|{split}|{index}")
    count = 70 if index == SPLIT_FILES_SIZE[split] - 1 else r.randint(2, 5)
    header = [name.capitalize() for name in r.sample(WORDS, 3)]
    rows = [[words(r, 1, 2), str(1950 + r.randint(0, 70)), r.choice(["Gold", "Silver", "3", "12.5", "n/a"])]
            for _ in range(count)]
    return [header, *rows]


def _context(split: str, index: int) -> str:
    return f"csv/{BATCH[split]}-csv/{index}.csv"


def _tsv(lines: List[List[str]]) -> str:
    return "".join("\t".join(cells) + "\n" for cells in lines)


def split_file_text(split: str) -> str:
    """A split file: one question per row on its table, answers joined with `|`."""
    lines = [["id", "utterance", "context", "targetValue"]]
    for index in range(SPLIT_FILES_SIZE[split]):
        header, *rows = _table(split, index)
        r = random.Random(f"wikitq-question|{split}|{index}")
        # a year or a name (the column mixes numbers and text, as the real one); two answers for some training questions (the references of test questions stay single, so a gold
        # prediction, the template's first reference, scores the maximum)
        answers = [rows[0][index % 2]] + ([rows[1][0]] if split == "train" and index % 3 == 0 and len(rows) > 1 else [])
        question = f"which {header[1].lower()} did {rows[0][0]} have {words(r, 1, 3)}"
        lines.append([f"nt-{BATCH[split]}{index}", question, _context(split, index), "|".join(answers)])
    return _tsv(lines)


def table_file_text(path: str) -> Optional[str]:
    """The TSV file of a table named `csv/<batch>-csv/<n>.tsv`, or None for a table no question names."""
    for split, batch in BATCH.items():
        prefix = f"csv/{batch}-csv/"
        if path.startswith(prefix) and path.endswith(".tsv"):
            index = int(path[len(prefix):-len(".tsv")])
            return _tsv(_table(split, index)) if index < SPLIT_FILES_SIZE[split] else None
    return None


def wikitq_text(url: str) -> Optional[str]:
    """The text served for a URL of the repository (a split file or a table file), None for other URLs."""
    if not url.startswith(REPOSITORY):
        return None
    name = url.rsplit("/", 1)[-1]
    if "/data/" in url and name in SPLIT_FILES:
        return split_file_text(SPLIT_FILES[name][0])
    path = url.split("/master/", 1)[-1]
    return table_file_text(path)


def wikitq_sources(card) -> Optional[List[Dict]]:
    """The compat tier's sources of a card reading the repository's files: the split files (local copies) and every
    table file its questions name ({url: text}, served in place of the download); None for other cards."""
    files = getattr(card.loader, "files", None)
    if type(card.loader).__name__ != "LoadCSV" or not isinstance(files, dict) \
            or not all(isinstance(url, str) and url.startswith(REPOSITORY) for url in files.values()):
        return None
    local = {split: {"name": url.rsplit("/", 1)[-1], "text": wikitq_text(url)} for split, url in files.items()}
    tables = {}
    for split, size in SPLIT_FILES.values():
        for index in range(size):
            path = _context(split, index).replace(".csv", ".tsv")
            tables[f"{REPOSITORY}refs/heads/master/{path}"] = table_file_text(path)
    return [{"local_files": local, "url_files": tables}]


def serve_wikitq(monkeypatch) -> None:
    """Serve the repository's URLs from these files for a test: the loader's split files (its text opener) and the
    table files ReadFile fetches (urllib); other URLs go to the openers as before."""
    import io
    import urllib.request

    from unitxt.loaders import hub_and_files

    open_text, urlopen = hub_and_files._open_text, urllib.request.urlopen

    def served_open_text(url, *args, **kwargs):
        text = wikitq_text(url)
        return io.StringIO(text, newline="") if text is not None else open_text(url, *args, **kwargs)

    def served_urlopen(url, *args, **kwargs):
        text = wikitq_text(url) if isinstance(url, str) else None
        return io.BytesIO(text.encode("utf-8")) if text is not None else urlopen(url, *args, **kwargs)

    monkeypatch.setattr(hub_and_files, "_open_text", served_open_text)
    monkeypatch.setattr(urllib.request, "urlopen", served_urlopen)
