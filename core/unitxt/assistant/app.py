"""The documentation assistant: `Assistant` finds the documents closest to a question in the index (`index.py`) and
streams a chat model's answer grounded in them; `App` is its Streamlit chat page (`streamlit run` this file, or
`unitxt.assistant.launch()`).

Embeddings and answers come through LiteLLM (`litellm`, with its provider's credentials), token counts from a
transformers tokenizer; each package is named in an install hint when first needed. Similarity is computed with numpy.
"""

import datetime
import json
import os
import uuid
from typing import Any, Dict, Iterator, List, Optional

if not __package__:  # run as a file (`streamlit run .../assistant/app.py`): its imports are the installed package's
    __package__ = "unitxt.assistant"

from ..errors import MissingRequirementError, UnitxtError
from ..logging_utils import get_logger

logger = get_logger()
DOCS_URL = "https://www.unitxt.ai/en/latest/{path}.html"
SYSTEM_PROMPT = ("You answer questions about the Unitxt library and its catalog, and decline anything else. Answer "
                 "only from the documentation below, and link each document you use as " + DOCS_URL + ".\n\n"
                 "# Documentation\n\n")


def _package(name: str, purpose: str) -> Any:
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        raise MissingRequirementError(f"The assistant's {purpose} needs {name}: pip install {name}") from None


class Assistant:
    """Answers questions from the documentation index in `assistant_dir` (default: this package's folder)."""

    def __init__(self, assistant_dir: Optional[str] = None,
                 model_name: str = "watsonx/meta-llama/llama-3-3-70b-instruct",
                 tokenizer_name: str = "nvidia/Llama-3.1-Nemotron-70B-Instruct-HF",
                 embedding_model_name: str = "watsonx/intfloat/multilingual-e5-large") -> None:
        import numpy as np
        import pyarrow.parquet as pq

        folder = assistant_dir or os.path.dirname(os.path.abspath(__file__))
        files = [os.path.join(folder, name) for name in ("metadata.parquet", "embeddings.npz")]
        if not all(os.path.exists(path) for path in files):
            raise UnitxtError(f"No documentation index in {folder}: build one with `python -m unitxt.assistant.index "
                              f"DOCS_DIR {folder}`.", artifact="Assistant", field="assistant_dir")
        self.metadata = pq.read_table(files[0]).to_pylist()
        self.embeddings = np.load(files[1])["embeddings"].astype(np.float32)
        self.model_name = model_name
        self.tokenizer_name = tokenizer_name
        self.embedding_model_name = embedding_model_name
        self._tokenizer = None

    def embed(self, texts: List[str]) -> Any:
        """The embedding vectors of texts (LiteLLM with embedding_model_name)."""
        import numpy as np

        answer = _package("litellm", "search").embedding(model=self.embedding_model_name, input=texts)
        return np.asarray([item["embedding"] for item in answer.data], dtype=np.float32)

    def count_tokens(self, text: str) -> int:
        """Tokens of a text by the model's tokenizer (transformers)."""
        if self._tokenizer is None:
            transformers = _package("transformers", "token counting")
            self._tokenizer = transformers.AutoTokenizer.from_pretrained(self.tokenizer_name)
        return len(self._tokenizer.tokenize(text))

    def complete(self, messages: List[Dict[str, str]], max_tokens: int) -> Iterator[str]:
        """The chat model's answer to messages, streamed in pieces (LiteLLM with model_name)."""
        stream = _package("litellm", "answers").completion(model=self.model_name, messages=messages,
                                                            max_tokens=max_tokens, stream=True)
        for chunk in stream:
            yield chunk.choices[0].delta.content or ""

    def search(self, query: str, max_tokens: int = 5000, min_text_length: int = 50) -> Dict[str, Dict[str, Any]]:
        """{path: {"count", "text", "path", "similarity"}}: whole documents, most similar chunk first (cosine),
        while their tokens fit in max_tokens; `count` is how many of a document's chunks ranked before the search
        stopped. Documents shorter than min_text_length characters are skipped."""
        import numpy as np

        query_vector = self.embed([query])[0]
        norms = np.linalg.norm(self.embeddings, axis=1) * np.linalg.norm(query_vector)
        similarities = self.embeddings @ query_vector / np.where(norms == 0, 1, norms)
        results: Dict[str, Dict[str, Any]] = {}
        total = 0
        for index in np.argsort(-similarities, kind="stable"):
            row = self.metadata[index]
            if row["path"] in results:
                results[row["path"]]["count"] += 1
                continue
            text = row["document"]
            if len(text) < min_text_length:
                continue
            tokens = self.count_tokens(text)
            if total + tokens > max_tokens:
                break
            total += tokens
            results[row["path"]] = {"count": 1, "text": text, "path": row["path"],
                                    "similarity": float(similarities[index])}
        return results

    def generate_response(self, messages: List[Dict[str, str]], max_tokens: int = 5000) -> Iterator[str]:
        """The answer to the conversation's last (user) message, grounded in the documents it finds."""
        found = self.search(messages[-1]["content"], max_tokens=max_tokens)
        context = "\n\n".join(f"Path: {item['path']}\nText: {item['text']}" for item in found.values())
        yield from self.complete([{"role": "system", "content": SYSTEM_PROMPT + context}, *messages], max_tokens)

    def save_to_disk(self, data: Any, file_path: str) -> None:
        """Write data as JSON (folders created)."""
        os.makedirs(os.path.dirname(file_path) or ".", exist_ok=True)
        with open(file_path, "w", encoding="utf-8") as file:
            json.dump(data, file, ensure_ascii=False, indent=4)


class App:
    """The Streamlit chat page: a sidebar (model, context size, feedback), the conversation, each one saved as JSON
    in history_dir (feedback in feedback_dir)."""

    def __init__(self, assistant: Assistant, history_dir: str = "history", feedback_dir: str = "feedback") -> None:
        self.st = _package("streamlit", "page")
        self.assistant = assistant
        self.history_dir = history_dir
        self.feedback_dir = feedback_dir
        self.model = assistant.model_name
        self.max_tokens = 10000

    def _save(self, folder: str, data: Dict[str, Any]) -> None:
        session = self.st.session_state.session_id
        data = {**data, "session_id": session, "timestamp": str(datetime.datetime.now())}
        self.assistant.save_to_disk(data, os.path.join(folder, f"{session}.json"))

    def render_sidebar(self) -> None:
        st = self.st
        with st.sidebar:
            st.title("Assistant Settings")
            self.model = st.selectbox("Model", [self.assistant.model_name])
            self.max_tokens = st.number_input("Context Tokens", min_value=5000, max_value=100000, value=10000,
                                              step=5000)
            feedback = st.text_area("Your Feedback", placeholder="Write feedback here...")
            if st.button("Submit Feedback") and feedback.strip():
                self._save(self.feedback_dir, {"feedback": feedback})
                st.success("Feedback submitted. Thank you!")

    def render_chat(self) -> None:
        st = self.st
        question = st.chat_input("Ask anything about Unitxt...")
        if question:
            st.session_state.messages.append({"role": "user", "content": question})
        for message in st.session_state.messages:
            with st.chat_message(message["role"]):
                st.write(message["content"])
        if question:
            with st.chat_message("assistant"):
                answer = st.write_stream(self.assistant.generate_response(st.session_state.messages,
                                                                          max_tokens=self.max_tokens))
            st.session_state.messages.append({"role": "assistant", "content": answer})
            self._save(self.history_dir, {"messages": st.session_state.messages,
                                          "config": {"model": self.model, "max_tokens": self.max_tokens}})

    def run(self) -> None:
        st = self.st
        st.session_state.setdefault("messages", [])
        st.session_state.setdefault("session_id", str(uuid.uuid4()))
        self.render_sidebar()
        self.render_chat()


def main() -> None:
    """The page (what `streamlit run` executes)."""
    st = _package("streamlit", "page")
    st.set_page_config(page_title="Unitxt Assistant", initial_sidebar_state="collapsed")
    App(st.cache_resource(Assistant)()).run()


if __name__ == "__main__":
    main()
