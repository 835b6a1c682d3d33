"""retry_connection_with_exponential_backoff retries the requests library's network errors (also as a cause) and
defaults to 3 attempts, as the original does."""

from unittest.mock import patch

import pytest
import requests

from unitxt.utils import retry_connection_with_exponential_backoff


def _flaky(error: Exception, failures: int):
    calls = {"n": 0}

    @retry_connection_with_exponential_backoff()
    def call():
        calls["n"] += 1
        if calls["n"] <= failures:
            raise error
        return calls["n"]

    return call


@pytest.mark.parametrize("error", [requests.exceptions.ConnectionError("down"), requests.exceptions.Timeout("slow"),
                                   requests.exceptions.HTTPError("503")])
def test_requests_errors_are_retried_up_to_three_attempts(error):
    with patch("time.sleep") as sleep:
        assert _flaky(error, 2)() == 3
        assert sleep.call_count == 2
        with pytest.raises(type(error)):
            _flaky(error, 3)()


def test_a_wrapped_requests_error_is_retried_and_other_errors_are_not():
    wrapped = OSError("hub unreachable")
    wrapped.__cause__ = requests.exceptions.HTTPError("429")
    with patch("time.sleep"):
        assert _flaky(wrapped, 1)() == 2
        with pytest.raises(KeyError):
            _flaky(KeyError("k"), 1)()
