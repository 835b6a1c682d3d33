"""Inference engines: run a model over unitxt rows (`engine(dataset)` / `engine.infer(dataset)`).

Remote engines speak the OpenAI protocol with the standard library only (OpenAI, Azure, vLLM servers, RITS,
Together AI, Ollama, LiteLLM proxies); CrossProviderInferenceEngine maps one model id to each provider; local
Hugging Face, vLLM, watsonx.ai and lmms-eval engines need their optional packages. Answers are cached on disk.
Layer 7 of README "Layout" (models, with judges): may import layers 1-6; never evaluation or entry points.
"""

from .base import EngineInput, InferenceEngine, InferenceError, TextGenerationInferenceOutput, engine_input, rows_of
from .cache import InferenceCache, default_cache_dir
from .concurrency import RequestError
from .cross_provider import PROVIDER_ENGINES, PROVIDER_MODEL_MAP, CrossProviderInferenceEngine, supported_models
from .hf_local import (  # noqa: F401 - HFInferenceEngineBase: the original's name of HFEngineBase
    HFAutoModelInferenceEngine,
    HFInferenceEngineBase,
    HFPeftInferenceEngine,
    HFLlavaInferenceEngine,
    HFOptionSelectingInferenceEngine,
    HFPipelineBasedInferenceEngine,
)
from .mock_generic import GenericInferenceEngine, MockInferenceEngine, load_engine, mock_logprobs_default_value_factory
from .openai_engines import (
    AzureOpenAIInferenceEngine,
    LiteLLMInferenceEngine,
    OllamaInferenceEngine,
    OpenAiInferenceEngine,
    RITSInferenceEngine,
    TogetherAiInferenceEngine,
    VLLMRemoteInferenceEngine,
)
from .option_selection import OpenAiOptionSelectingInferenceEngine, OptionSelectingByLogProbsInferenceEngine
from .optional_engines import (
    LMMSEvalInferenceEngine,
    VLLMInferenceEngine,
    WMLInferenceEngine,
    WMLInferenceEngineBase,
    WMLInferenceEngineChat,
    WMLInferenceEngineGeneration,
)
from .params import GenerationParamsMixin

__all__ = [
    "InferenceEngine", "TextGenerationInferenceOutput", "InferenceError", "RequestError", "EngineInput",
    "engine_input", "rows_of", "InferenceCache", "default_cache_dir", "GenerationParamsMixin",
    "OpenAiInferenceEngine", "AzureOpenAIInferenceEngine", "VLLMRemoteInferenceEngine", "RITSInferenceEngine",
    "TogetherAiInferenceEngine", "OllamaInferenceEngine", "LiteLLMInferenceEngine",
    "CrossProviderInferenceEngine", "PROVIDER_MODEL_MAP", "PROVIDER_ENGINES", "supported_models",
    "HFPipelineBasedInferenceEngine", "HFAutoModelInferenceEngine", "HFLlavaInferenceEngine",
    "HFOptionSelectingInferenceEngine", "HFPeftInferenceEngine", "WMLInferenceEngineBase", "OptionSelectingByLogProbsInferenceEngine",
    "OpenAiOptionSelectingInferenceEngine", "VLLMInferenceEngine", "WMLInferenceEngine", "WMLInferenceEngineChat",
    "WMLInferenceEngineGeneration", "LMMSEvalInferenceEngine", "MockInferenceEngine", "GenericInferenceEngine",
    "load_engine", "mock_logprobs_default_value_factory",
]
