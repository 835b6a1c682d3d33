"""The original's public methods and properties that are deliberately not on the same-named class here, each with
the reason (issue 50: at most 5% of them). Keyed "module": {"Class.method": "reason"}; test_same_methods.py checks
that every entry is really missing here and that nothing else is.
"""

NOT_HERE = {
    # metrics: unitxt.metrics, unitxt.base_metric

    # inference and judges: unitxt.inference, unitxt.llm_as_judge*, unitxt.processors

    # the rest: recipes, templates, operators, loaders, dialogs, dataclasses, ...

}
