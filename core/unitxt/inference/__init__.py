"""Inference engines: run a model over unitxt rows (`engine(dataset)` / `engine.infer(dataset)`).

Remote engines speak the OpenAI protocol with the standard library only (OpenAI, Azure, vLLM servers, RITS,
Together AI, Ollama, LiteLLM proxies); CrossProviderInferenceEngine maps one model id to each provider; local
Hugging Face, vLLM, watsonx.ai and lmms-eval engines need their optional packages. Answers are cached on disk.
Layer 7 of README "Layout" (models, with judges): may import layers 1-6; never evaluation or entry points.
"""

from .base import (
    EngineInput,
    InferenceEngine,
    InferenceError,
    ListWithMetadata,
    T,
    TextGenerationInferenceOutput,
    engine_input,
    get_model_and_label_id,
    rows_of,
)
from .cache import InferenceCache, default_cache_dir
from .concurrency import AsyncTokenBucket, RequestError, batched, run_with_imap
from .cross_provider import PROVIDER_ENGINES, PROVIDER_MODEL_MAP, CrossProviderInferenceEngine, supported_models
from .hf_local import (  # noqa: F401 - HFInferenceEngineBase: the original's name of HFEngineBase
    HFAutoModelInferenceEngine,
    HFInferenceEngineBase,
    HFPeftInferenceEngine,
    HFLlavaInferenceEngine,
    HFOptionSelectingInferenceEngine,
    HFPipelineBasedInferenceEngine,
)
from .lmms_eval import (
    LMMSEvalBaseInferenceEngine,
    LMMSEvalInferenceEngine,
    LMMSEvalLoglikelihoodInferenceEngine,
    get_images_without_text,
    get_text_without_images,
)
from .metric_engine import MetricInferenceEngine
from .mixins import LazyLoadMixin, LogProbInferenceEngine, MockModeMixin, TorchDeviceMixin
from .mock_generic import GenericInferenceEngine, MockInferenceEngine, load_engine, mock_logprobs_default_value_factory
from .openai_engines import CredentialsOpenAi, OpenAiInferenceEngine
from .openai_providers import (
    AzureOpenAIInferenceEngine,
    LiteLLMInferenceEngine,
    OllamaInferenceEngine,
    RITSInferenceEngine,
    TogetherAiInferenceEngine,
    VLLMRemoteInferenceEngine,
)
from .option_selection import OpenAiOptionSelectingInferenceEngine, OptionSelectingByLogProbsInferenceEngine
from .optional_engines import (
    VLLMInferenceEngine,
    WMLInferenceEngine,
    WMLInferenceEngineBase,
    WMLInferenceEngineChat,
    WMLInferenceEngineGeneration,
)
from .params import (
    GenerationParamsMixin,
    HFGenerationParamsMixin,
    OpenAiInferenceEngineParams,
    OpenAiInferenceEngineParamsMixin,
    StandardAPIParamsMixin,
    TogetherAiInferenceEngineParamsMixin,
    VLLMParamsMixin,
    WMLChatParamsMixin,
    WMLGenerationParamsMixin,
    WMLInferenceEngineParams,
    WMLInferenceEngineParamsMixin,
)
from ..module_aliases import moved_classes

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
    "load_engine", "mock_logprobs_default_value_factory", "LMMSEvalBaseInferenceEngine",
    "LMMSEvalLoglikelihoodInferenceEngine", "MetricInferenceEngine", "LogProbInferenceEngine", "LazyLoadMixin",
    "MockModeMixin", "TorchDeviceMixin", "ListWithMetadata", "CredentialsOpenAi", "AsyncTokenBucket", "batched",
    "run_with_imap", "get_images_without_text", "get_text_without_images", "get_model_and_label_id",
    "HFGenerationParamsMixin", "OpenAiInferenceEngineParams", "OpenAiInferenceEngineParamsMixin",
    "StandardAPIParamsMixin", "TogetherAiInferenceEngineParamsMixin", "VLLMParamsMixin", "WMLChatParamsMixin",
    "WMLGenerationParamsMixin", "WMLInferenceEngineParams", "WMLInferenceEngineParamsMixin",
]


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
