"""An engine subclassed the original's way (overriding `prepare_engine`) runs here: the hook runs once when the
engine is made (not under mock inference mode, as in the original) and what it sets is there when inferring."""

from unitxt.inference import MockInferenceEngine
from unitxt.settings_utils import settings


class PreparedEngine(MockInferenceEngine):
    """Written against the original's hook: prepare_engine makes the 'client' the answers come from."""

    def prepare_engine(self):
        self.calls = getattr(self, "calls", 0) + 1
        self.client = {"answer": f"prepared {self.default_inference_value}"}

    def _infer(self, inputs, rows):
        outputs = super()._infer(inputs, rows)
        for output in outputs:
            output.prediction = self.client["answer"]
        return outputs


def test_prepare_engine_runs_once_when_the_engine_is_made():
    engine = PreparedEngine(default_inference_value="yes")
    assert engine.calls == 1
    assert engine.infer([{"source": "Is it?"}, {"source": "And this?"}]) == ["prepared yes", "prepared yes"]
    assert engine.calls == 1


def test_prepare_engine_is_skipped_in_mock_mode():
    with settings.context(mock_inference_mode=True):
        engine = PreparedEngine(default_inference_value="yes")
    assert not hasattr(engine, "client")
