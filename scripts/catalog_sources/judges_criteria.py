"""Catalog: predefined criteria of LLM judges (metrics.llm_as_judge.direct.criteria.*, .pairwise.criteria.*)."""

from unitxt.llm_as_judge_constants import direct_criteria, pairwise_criteria


def register(add):
    for name, criteria in direct_criteria().items():
        criteria.__dict__["__description__"] = f"Direct-judge criteria '{name}': {criteria.description}"
        criteria.__dict__["__tags__"] = {"kind": "criteria", "judge": "direct"}
        add(f"metrics.llm_as_judge.direct.criteria.{name}", criteria)
    for name, criteria in pairwise_criteria().items():
        criteria.__dict__["__description__"] = f"Pairwise-judge criteria '{name}': {criteria.description}"
        criteria.__dict__["__tags__"] = {"kind": "criteria", "judge": "pairwise"}
        add(f"metrics.llm_as_judge.pairwise.criteria.{name}", criteria)
