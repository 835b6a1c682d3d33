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


def test_context_manager_nests_and_restores(monkeypatch):
    monkeypatch.delenv("UNITXT_SEED", raising=False)
    with settings.context(seed=11):
        assert settings.seed == 11
        with settings.context(seed=12):
            assert settings.seed == 12
        assert settings.seed == 11
    assert settings.seed == 42
    settings.default_provider = "watsonx"
    try:
        assert settings.default_provider == "watsonx"
    finally:
        del settings.default_provider


def test_environment_wins_over_assignment_and_context(monkeypatch):
    """The original's order: a UNITXT_<NAME> variable beats a value assigned in code or given to context()."""
    monkeypatch.setenv("UNITXT_SEED", "7")
    with settings.context(seed=11):
        assert settings.seed == 7
    settings.default_provider = "rits"
    monkeypatch.setenv("UNITXT_DEFAULT_PROVIDER", "open-ai")
    try:
        assert settings.default_provider == "open-ai"
        monkeypatch.delenv("UNITXT_DEFAULT_PROVIDER")
        assert settings.default_provider == "rits"
    finally:
        del settings.default_provider


def test_environment_value_of_a_declared_type_is_cast(monkeypatch):
    settings.declared_count_for_test = (int, 3)
    monkeypatch.setenv("UNITXT_DECLARED_COUNT_FOR_TEST", "9")
    assert settings.declared_count_for_test == 9
    monkeypatch.setenv("UNITXT_DECLARED_COUNT_FOR_TEST", "nine")
    with pytest.raises(ValueError, match="declared_count_for_test"):
        _ = settings.declared_count_for_test


def test_unknown_setting():
    with pytest.raises(AttributeError, match="no setting"):
        _ = settings.no_such_setting


def test_logger_is_named_unitxt():
    logger = unitxt.get_logger()
    assert isinstance(logger, logging.Logger) and logger.name == "unitxt"


def test_a_typed_declaration_takes_only_int_float_or_bool():
    with pytest.raises(ValueError, match="int, float or bool"):
        settings.declared_text_for_test = (str, "x")
    settings.declared_flag_for_test = (bool, "False")
    assert settings.declared_flag_for_test is False
    with pytest.raises(ValueError, match="True or False"):
        settings.declared_flag_for_test = "yes"
