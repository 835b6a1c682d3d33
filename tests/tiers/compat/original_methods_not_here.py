"""The original's public methods and properties that are deliberately not on the same-named class here, each with
the reason (issue 50: at most 5% of them). Keyed "module": {"Class.method": "reason"}; test_same_methods.py checks
that every entry is really missing here and that nothing else is.
"""

NOT_HERE = {
    # metrics: unitxt.metrics, unitxt.base_metric
    "unitxt.metrics": {
        "NormalizedSacrebleu.get_bleu_metric": "returns a cached sacrebleu BLEU object; BLEU statistics are counted "
                                               "here without sacrebleu (kernels/bleu.py), so there is no such object",
        "F1Strings.load_spacy": "F1Strings tokenises without spaCy here (same splits on plain text): no spaCy "
                                "model is loaded",
        "ReflectionToolCallingMetric.setup_pipeline": "builds llmevalkit's reflection pipeline; tool calls are "
                                                      "checked against their schemas here without llmevalkit",
        "F1MultiLabel.add_str_to_id": "multi-label classes are counted per (part, label) key so stream chunks merge "
                                      "by key (KeyedStatistics); there is no label-id table",
        "F1MultiLabel.get_one_hot_vector": "multi-label classes are counted per (part, label) key (KeyedStatistics), "
                                           "not as one-hot vectors over a label-id table",
    },

    # inference and judges: unitxt.inference, unitxt.llm_as_judge*, unitxt.processors

    # the rest: recipes, templates, operators, loaders, dialogs, dataclasses, ...
    "unitxt.standard": {
        "DatasetRecipe.set_pipelines": "the original assembles its recipe as SequentialOperator attributes (loading, "
                                       "metadata, standardization, processing, verbalization, finalize); here one "
                                       "InstanceRenderer built per run renders the rows, there are no stage "
                                       "pipelines to set",
        "DatasetRecipe.prepare_refiners": "the original appends train/validation/test StreamRefiners to its "
                                          "processing pipeline; here the max_*_instances limits cut the rendered "
                                          "streams and train_refiner is applied directly when the recipe runs",
    },
    "unitxt.loaders": {
        "LoadHF.is_in_cache": "the original keeps loaded datasets in a class-level in-memory cache keyed by loader "
                              "and split; here splits are read lazily from datasets' own disk cache on each run, "
                              "there is no in-memory loader cache to ask",
    },
    "unitxt.operator": {
        "PackageRequirementsMixin.prepare": "the original checks _requirements_list at construction; here a "
                                            "component checks its class requirements when first used (so catalog "
                                            "entries of engines and metrics load without their optional packages) "
                                            "and an operator's `requirements` when built (Operator.verify_field_types)",
    },

}
