"""Disk use helpers for tests (e.g. checking that a dataset was, or was not, written to a cache directory)."""

import os


def get_directory_size(directory: str) -> int:
    """The total size in bytes of the files under `directory`, recursively."""
    total = 0
    for root, _, files in os.walk(directory):
        total += sum(os.path.getsize(os.path.join(root, name)) for name in files
                     if os.path.isfile(os.path.join(root, name)))
    return total
