"""Bearer tokens of the metrics service: HS256 JSON Web Tokens signed with the master key
(UNITXT_METRICS_MASTER_KEY_TOKEN; make one with `openssl rand -hex 32`), claims iss/sub/iat/exp as the original's.

Written with the standard library (hmac, base64, json). Without a master key the service accepts any token as
"Anonymous". `python -m unitxt.service.tokens NAME` prints a token for NAME.
"""

import base64
import hashlib
import hmac
import json
import sys
import time
from typing import Any, Dict, Optional

from ..settings_utils import settings

ALGORITHM = "HS256"
ACCESS_TOKEN_EXPIRE_DAYS = 360
ISSUER = "Unitxt Metrics"
MAX_TOKEN_CHARS = 8192  # a real token is ~200 characters


class InvalidTokenError(Exception):
    """The token is malformed, badly signed, expired or has no subject."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sign(message: bytes, key: str) -> str:
    return _b64(hmac.new(key.encode("utf-8"), message, hashlib.sha256).digest())


def create_token(name: str, key: Optional[str] = None, days: int = ACCESS_TOKEN_EXPIRE_DAYS) -> str:
    """A token for `name`, signed with `key` (default: the master key setting), valid for `days`."""
    key = key or settings.metrics_master_key_token
    if not key:
        raise InvalidTokenError("Set UNITXT_METRICS_MASTER_KEY_TOKEN (e.g. `openssl rand -hex 32`) to create tokens.")
    now = int(time.time())
    header = _b64(json.dumps({"alg": ALGORITHM, "typ": "JWT"}, separators=(",", ":")).encode("utf-8"))
    payload = _b64(json.dumps({"iss": ISSUER, "sub": name, "iat": now, "exp": now + days * 86400},
                              separators=(",", ":")).encode("utf-8"))
    signing_input = f"{header}.{payload}"
    return f"{signing_input}.{_sign(signing_input.encode('ascii'), key)}"


def verify_token(token: str, key: Optional[str] = None) -> Dict[str, Any]:
    """The token's claims when it is valid for `key` (default: the master key setting); without a key
    {"sub": "Anonymous"}."""
    key = key if key is not None else settings.metrics_master_key_token
    if not key:
        return {"sub": "Anonymous"}
    if not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS or not token.isascii():
        raise InvalidTokenError("malformed token (not ASCII, or too long)")
    try:
        header_part, payload_part, signature = token.split(".")
        header = json.loads(_unb64(header_part))
        payload = json.loads(_unb64(payload_part))
    except (ValueError, TypeError, RecursionError):  # RecursionError: JSON nested too deeply
        raise InvalidTokenError("malformed token") from None
    if not isinstance(header, dict) or header.get("alg") != ALGORITHM or not isinstance(payload, dict):
        raise InvalidTokenError("unsupported token")
    expected = _sign(f"{header_part}.{payload_part}".encode("ascii"), key)
    if not hmac.compare_digest(expected.encode("ascii"), signature.encode("ascii")):
        raise InvalidTokenError("bad signature")
    if not isinstance(payload.get("exp"), (int, float)) or payload["exp"] < time.time():
        raise InvalidTokenError("token expired")
    if not payload.get("sub"):
        raise InvalidTokenError("token subject claim is empty")
    return payload


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "unitxt-metrics-service-tester"
    print(create_token(name))


if __name__ == "__main__":
    main()
