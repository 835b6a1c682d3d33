"""Catalog: the original's LlamaIndex judge metrics (metrics.rag.<correctness|faithfulness>.llama_index_by_<model>).
The gpt-3.5-turbo judges need the llama-index packages and an OpenAI key when they score (the install hint says
which); the mock judges give the top grade without any package, for trying a pipeline."""

from _factory import make

TAGS = {"kind": "metric", "measure": "rag", "judge": "llama_index"}


def register(add):
    for measure, type_name in (("correctness", "llama_index_correctness"), ("faithfulness", "llama_index_faithfulness")):
        for model, suffix in (("gpt-3.5-turbo", "gpt_3_5_turbo"), ("mock", "mock")):
            add(f"metrics.rag.{measure}.llama_index_by_{suffix}", make(
                type_name, model_name=model,
                **({"data_classification_policy": ["public"]} if model != "mock" else {}),
                description=f"RAG {measure} graded by a LlamaIndex judge on {model}"
                            + (" (always the top grade; no package needed)." if model == "mock" else
                               " (needs llama-index-core, llama-index-llms-openai and an OpenAI key)."),
                tags=dict(TAGS, measure=measure)))
