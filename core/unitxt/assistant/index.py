"""Build the assistant's documentation index: the text of each document (Sphinx `.doctree` files, or `.rst` / `.md` /
`.txt` sources), cut into overlapping chunks of tokens, each with its embedding.

The index is two files in a folder, the layout the original's assistant reads: `metadata.parquet` (one row per chunk:
document, text, path, chunk_index, embedding_model) and `embeddings.npz` (`embeddings`, float32, one row per chunk).
`python -m unitxt.assistant.index DOCS_DIR [OUTPUT_DIR]` embeds with LiteLLM (the `litellm` package and the
credentials of its provider); `build_index(..., embed=...)` takes any embedding function.

Doctrees are pickles: they are read with an unpickler that builds only docutils / Sphinx node classes, so a doctree
file can not run code (README "Security model").
"""

import os
import pickle
import re
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence

from ..errors import MissingRequirementError, UnitxtError

DEFAULT_EMBEDDING_MODEL = "watsonx/intfloat/multilingual-e5-large"
TEXT_SUFFIXES = (".rst", ".md", ".txt")
_CONTAINERS = {("builtins", name) for name in ("set", "frozenset", "dict", "list", "tuple")} | {
    ("collections", name) for name in ("Counter", "OrderedDict", "deque")}


def _docutils_nodes() -> Any:
    try:
        from docutils import nodes
    except ImportError:
        raise MissingRequirementError("Reading Sphinx doctrees needs docutils: pip install docutils") from None
    return nodes


def extract_text(node: Any) -> str:
    """The text of a docutils node and everything under it ("" for anything else)."""
    nodes = _docutils_nodes()
    if isinstance(node, nodes.Text):
        return node.astext()
    if isinstance(node, nodes.Element):
        return "".join(extract_text(child) for child in node.children)
    return ""


# the modules a doctree's classes may come from, fixed here: a file never chooses a module to import. Only node
# classes (and docutils' settings object) of these are built; any other (module, name) is refused before any import.
_NODE_MODULES = ("docutils.nodes", "sphinx.addnodes", "sphinx.ext.autosummary", "sphinx.ext.graphviz",
                 "sphinx.ext.todo", "sphinx.ext.inheritance_diagram", "sphinx.ext.ifconfig")
_SETTINGS = {("docutils.frontend", "Values"), ("docutils.utils", "DependencyList")}  # a document's settings


class DoctreeError(UnitxtError):
    """A `.doctree` file names something that is not a docutils / Sphinx node class."""


class _NodeUnpickler(pickle.Unpickler):
    """Builds docutils / Sphinx node classes (and a document's settings object) and plain containers only: the
    (module, name) pair a file gives is checked against a fixed list before anything is imported, so no other class,
    no function and no module can be named by the file."""

    def __init__(self, file: Any, path: str):
        super().__init__(file)
        self.path = path

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _CONTAINERS:
            return super().find_class(module, name)
        if name.isidentifier() and not name.startswith("_"):
            if (module, name) in _SETTINGS:
                from docutils import frontend, utils

                return {"Values": frontend.Values, "DependencyList": utils.DependencyList}[name]
            if module in _NODE_MODULES:
                found = self._node_class(module, name)
                if found is not None:
                    return found
        raise DoctreeError(f"The doctree {self.path} names {module}.{name}; a doctree may hold docutils / Sphinx "
                           f"node classes only (of {', '.join(_NODE_MODULES)}), so it was not read.",
                           field="doctree")

    def _node_class(self, module: str, name: str) -> Any:
        import importlib

        nodes = _docutils_nodes()
        try:
            found = getattr(importlib.import_module(module), name, None)  # `module` is one of _NODE_MODULES
        except ImportError:
            raise MissingRequirementError(f"The doctree {self.path} holds {module}.{name}; reading it needs "
                                          f"{module.split('.')[0]}: pip install {module.split('.')[0]}") from None
        return found if isinstance(found, type) and issubclass(found, nodes.Node) else None


def process_doctree_file(file_path: str) -> str:
    """The text of a Sphinx `.doctree` file."""
    _docutils_nodes()
    with open(file_path, "rb") as file:
        try:
            return extract_text(_NodeUnpickler(file, file_path).load())
        except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, IndexError) as error:
            raise DoctreeError(f"The doctree {file_path} can not be read ({type(error).__name__}: {error}).",
                               field="doctree") from None


def clean_html(text: str) -> str:
    """The text without HTML elements (a tag, its content and its closing tag)."""
    return re.sub(r"<[^>]*?>.*?</[^>]*?>", "", text, flags=re.DOTALL)


def split_into_chunks(text: str, max_tokens: int = 500, stride: int = 250,
                      tokenize: Callable[[str], List[str]] = str.split,
                      detokenize: Callable[[List[str]], str] = " ".join) -> List[str]:
    """Windows of at most `max_tokens` tokens starting every `stride` tokens; the last one reaches the end."""
    tokens = tokenize(text)
    chunks, start = [], 0
    while start < len(tokens):
        end = min(start + max_tokens, len(tokens))
        chunks.append(detokenize(tokens[start:end]))
        if end == len(tokens):
            break
        start += stride
    return chunks


def read_documents(docs_dir: str) -> Dict[str, str]:
    """{path relative to docs_dir without its suffix: cleaned text} of every doctree and text source below it."""
    documents = {}
    for root, _, names in sorted(os.walk(docs_dir)):
        for name in sorted(names):
            path = os.path.join(root, name)
            if name.endswith(".doctree"):
                text = process_doctree_file(path)
            elif name.endswith(TEXT_SUFFIXES):
                with open(path, encoding="utf-8") as file:
                    text = file.read()
            else:
                continue
            documents[os.path.splitext(os.path.relpath(path, docs_dir))[0]] = clean_html(text)
    return documents


def litellm_embed(model: str) -> Callable[[List[str]], List[List[float]]]:
    """An embedding function calling `litellm.embedding` with `model`."""
    try:
        import litellm
    except ImportError:
        raise MissingRequirementError("The assistant's embeddings use LiteLLM: pip install litellm") from None

    def embed(texts: List[str]) -> List[List[float]]:
        return [item["embedding"] for item in litellm.embedding(model=model, input=texts).data]

    return embed


def build_index(docs_dir: str, output_dir: str, embed: Optional[Callable[[List[str]], Sequence[Any]]] = None,
                embedding_model_name: str = DEFAULT_EMBEDDING_MODEL, max_tokens: int = 500, stride: int = 250,
                batch_size: int = 50) -> int:
    """Write metadata.parquet and embeddings.npz for the documents under `docs_dir` into `output_dir`; returns the
    number of chunks. `embed` maps a batch of texts to their vectors (default: LiteLLM with embedding_model_name)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    embed = embed or litellm_embed(embedding_model_name)
    chunks = [{"document": document, "text": text, "path": path, "chunk_index": index,
               "embedding_model": embedding_model_name}
              for path, document in read_documents(docs_dir).items()
              for index, text in enumerate(split_into_chunks(document, max_tokens, stride))]
    if not chunks:
        raise UnitxtError(f"No documents (.doctree, {', '.join(TEXT_SUFFIXES)}) under {docs_dir}.",
                          artifact="assistant index", field="docs_dir")
    vectors: List[Any] = []
    for start in range(0, len(chunks), batch_size):
        vectors.extend(embed([chunk["text"] for chunk in chunks[start:start + batch_size]]))
    os.makedirs(output_dir, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(chunks), os.path.join(output_dir, "metadata.parquet"), compression="gzip")
    np.savez_compressed(os.path.join(output_dir, "embeddings.npz"), embeddings=np.asarray(vectors, dtype=np.float32))
    return len(chunks)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: python -m unitxt.assistant.index DOCS_DIR [OUTPUT_DIR]")
    count = build_index(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else os.path.dirname(os.path.abspath(__file__)))
    print(f"{count} chunks indexed")
