"""Processes of this machine: whether the one that left a file behind (a journal, a temporary file) still runs."""

import os


def process_alive(pid: int) -> bool:
    """Whether a process with this id runs. A zombie - killed, not yet reaped by its parent - has ended; another
    user's process, or an id that can not be signalled, counts as running (its files are left alone)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:  # "pid (command) state ...": the command may hold ") "
            state = stat.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):  # no /proc (not Linux): the signal check above decides
        return True
    return state not in (b"Z", b"X")
