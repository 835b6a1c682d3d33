"""Each test of the Inspect tier keeps Inspect's logs and data in its own folder."""

import pytest


@pytest.fixture(autouse=True)
def inspect_home(tmp_path, monkeypatch):
    """Inspect's logs and data go to the test's own folder."""
    monkeypatch.setenv("INSPECT_LOG_DIR", str(tmp_path / "logs"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.setenv("INSPECT_DISPLAY", "none")
    return tmp_path
