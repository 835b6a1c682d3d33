"""Files published once and never replaced (results files, batch input files): written privately, then linked into
place, so a planted link or an existing file is never followed or overwritten."""

import os
import tempfile
from pathlib import Path


def publish_new_file(text: str, path: Path) -> bool:
    """Write `text` to a new file at `path` atomically: a private temporary file (unpredictable name, created
    exclusively) hard-linked to `path`, which fails instead of replacing or following anything already there.
    False when `path` exists."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o644 & ~_umask())
        try:
            os.link(temporary, path)
        except FileExistsError:
            return False
        except OSError:  # a file system without hard links: create the name exclusively, never through a link
            try:
                target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
            except FileExistsError:
                return False
            with os.fdopen(target, "w", encoding="utf-8") as stream:
                stream.write(text)
        return True
    finally:
        os.unlink(temporary)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
