"""Redaction of credentials in what the library shows or writes (results files, logs, an engine's repr): values under
a secret-looking key become "***", and the known secret values are cut out of free text (a command line, a message).

Why one helper: credentials reach many outputs (`--model_args api_key=...` lands in every results file and the INFO
log; an engine's `credentials` in its repr and in Ray's serialization errors), and each must hide them the same way.
"""

import re
from typing import Any, Iterable, List, Set

REDACTED = "***"
# a key is secret when its last word is one of these (api_key, hf_token, credentials; not max_tokens) or it mentions
# a secret or password anywhere (aws_secret_access_key, db_password)
_SECRET_KEY = re.compile(r"(^|[_\-.])(api[_-]?key|apikey|key|token|access[_-]?token|credentials?|authorization|bearer|"
                         r"cookie|private[_-]?key)$|secret|passw", re.IGNORECASE)


def is_secret_key(name: Any) -> bool:
    """Whether a field or option named `name` holds a credential (api_key, token, credentials, password...)."""
    return isinstance(name, str) and bool(_SECRET_KEY.search(name.strip()))


def secret_values(value: Any) -> Set[str]:
    """Every non-empty text found under a secret-looking key anywhere in `value` (dicts, lists, tuples)."""
    found: Set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if is_secret_key(key):
                found |= _texts(item)
            else:
                found |= secret_values(item)
    elif isinstance(value, (list, tuple, set)):
        for item in value:
            found |= secret_values(item)
    return found


def _texts(value: Any) -> Set[str]:
    if isinstance(value, dict):
        return set().union(*(_texts(item) for item in value.values())) if value else set()
    if isinstance(value, (list, tuple, set)):
        return set().union(*(_texts(item) for item in value)) if value else set()
    return {str(value)} if value not in (None, "") and str(value) else set()


def redact(value: Any, secrets: Iterable[str] = ()) -> Any:
    """A copy of `value` with every item under a secret-looking key replaced by "***", and the texts `secrets` cut
    out of every string (so a key also given on the command line is hidden there)."""
    known = sorted({text for text in secrets if len(text) >= 4}, key=len, reverse=True)
    return _redact(value, known)


def _redact(value: Any, known: List[str]) -> Any:
    if isinstance(value, dict):
        return {key: (REDACTED if is_secret_key(key) and value[key] not in (None, "", {}) else _redact(item, known))
                for key, item in value.items()}
    if isinstance(value, list):
        return [_redact(item, known) for item in value]
    if isinstance(value, tuple):
        return tuple(_redact(item, known) for item in value)
    if isinstance(value, str):
        return redact_text(value, known)
    return value


def redact_text(text: str, secrets: Iterable[str]) -> str:
    """`text` with each of `secrets` (at least 4 characters) replaced by "***"."""
    for secret in sorted({s for s in secrets if len(s) >= 4}, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    return text
