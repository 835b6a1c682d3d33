"""The documentation assistant (the original's `unitxt.assistant`): a chat page that answers questions about unitxt
from an index of its documentation (retrieval by embedding similarity, then a chat model through LiteLLM).

`index` builds the index (text chunks of the documents and their embeddings), `app` holds the `Assistant` (search +
answer) and its Streamlit page, `assessment` scores the assistant's answers with unitxt. The page and the model calls
need optional packages (streamlit, litellm; transformers for token counts), each named in an install hint when used.
Layer 9 of README "Layout" (entry points).
"""

import os

from ..errors import MissingRequirementError

current_dir = os.path.dirname(os.path.abspath(__file__))
app_file = os.path.join(current_dir, "app.py")
INSTALL_HINT = "pip install streamlit litellm transformers"


def launch() -> None:
    """Serve the assistant's chat page (`streamlit run` of app.py; blocking)."""
    try:
        from streamlit.web import cli
    except ImportError:
        raise MissingRequirementError(f"The assistant's page needs Streamlit: {INSTALL_HINT}") from None
    cli.main_run([app_file])
