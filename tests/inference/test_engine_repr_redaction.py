"""An engine's repr (in logs, error messages and Ray's serialization errors) never shows its credentials."""

from unitxt.inference import CrossProviderInferenceEngine, OpenAiInferenceEngine, VLLMRemoteInferenceEngine

SECRET = "sk-VERY-SECRET-0193"


def test_credentials_and_auth_headers_are_redacted_in_repr():
    engine = VLLMRemoteInferenceEngine(model_name="m", base_url="http://127.0.0.1:9/v1",
                                       credentials={"api_key": SECRET},
                                       default_headers={"Authorization": f"Bearer {SECRET}", "X-Team": "eval"})
    text = repr(engine)
    assert SECRET not in text and SECRET not in str(engine) and SECRET not in f"{engine!r}"
    assert text == ("VLLMRemoteInferenceEngine(model_name='m', base_url='http://127.0.0.1:9/v1', credentials='***', "
                    "default_headers={'Authorization': '***', 'X-Team': 'eval'})")
    assert engine.credentials == {"api_key": SECRET}  # only the repr hides it
    for other in (OpenAiInferenceEngine(model_name="gpt-4o-mini", credentials={"api_key": SECRET}),
                  CrossProviderInferenceEngine(model="llama-3-8b-instruct", provider="watsonx",
                                               credentials={"api_key": SECRET, "project_id": "p1"})):
        assert SECRET not in repr(other) and "credentials='***'" in repr(other)
