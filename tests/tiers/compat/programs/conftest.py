"""The Hub-layout mirrors of the catalog's cards (tests/support/card_mirrors.py), written once per session."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]


@pytest.fixture(scope="session")
def card_mirror_root(tmp_path_factory):
    sys.path.insert(0, str(ROOT))
    from tests.support.card_mirrors import build_all

    return build_all(tmp_path_factory.mktemp("card_mirrors"))
