import logging

import pytest

import unitxt
from unitxt.settings_utils import settings


def test_settings_read_environment_and_coerce(monkeypatch):
    monkeypatch.setenv("UNITXT_SEED", "7")
    monkeypatch.setenv("UNITXT_ALLOW_UNVERIFIED_CODE", "true")
    assert settings.seed == 7 and settings.allow_unverified_code is True
    monkeypatch.setenv("UNITXT_DEFAULT_PROVIDER", "open-ai")
    assert unitxt.settings.default_provider == "open-ai"


def test_assignment_and_context_manager(monkeypatch):
    monkeypatch.setenv("UNITXT_SEED", "7")
    with settings.context(seed=11):
        assert settings.seed == 11
        with settings.context(seed=12):
            assert settings.seed == 12
        assert settings.seed == 11
    assert settings.seed == 7
    settings.default_provider = "watsonx"
    try:
        assert settings.default_provider == "watsonx"
    finally:
        del settings.default_provider


def test_unknown_setting():
    with pytest.raises(AttributeError, match="no setting"):
        _ = settings.no_such_setting


def test_logger_is_named_unitxt():
    logger = unitxt.get_logger()
    assert isinstance(logger, logging.Logger) and logger.name == "unitxt"
