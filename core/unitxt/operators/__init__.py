"""Operators that prepare data: `fields` (instance and field operators), `streams` (stream operators), `fusion`
(several sources as one: FixedFusion, WeightedFusion, IterableSource), `field_edits`
(arithmetic, text and collection edits of a field), `splits_and_streams` (split joins, balancing, numbering, Apply),
`label_spans` (class lists from data, BIO/IOB tags to spans), `dialog`, `struct_data` (tables, key-value pairs,
triples), `images`, `external` (files, URLs, Wikipedia, tool schemas), `value_edits` (dividing, flattening,
encoding, intersecting, perturbing values) and `applying` (operators named in the data; ApplyMetric lives in
metrics/lists). The base classes are in `unitxt.operator`.
Layer 3 of README "Layout" (data): may import layers 1-2 and the other data modules; never task, templates or above.

`from unitxt.operators import X` works for every built-in operator class and the base classes; names are imported
lazily, on first use, from the one module that defines them.
"""

from typing import Dict

from ..lazy_imports import lazy_exports

_EXPORTS: Dict[str, str] = {
    "fast_copy": ".fields",
    "flatten": ".field_edits",  # the original's collections_operators.flatten
    **{name: "..operator" for name in ("Operator", "FieldOperator", "InstanceFieldOperator", "InstanceOperator", "StreamOperator",
                                      "MultiStreamOperator", "PagedStreamOperator", "SequentialOperator",
                                      "SourceOperator")},
    "LiteralEval": "..processors",  # one literal_eval type, also importable from here
    "ApplyMetric": "..metrics.lists",  # scores with metrics named in the data: lives with MetricsList
    # more of the original's helpers of unitxt.operators, from the module of their concept
    "ArtifactFetcherMixin": "..catalog",
    "DefaultPlaceHolder": "..dict_utils",
    "DownloadError": ".external",
    "UnexpectedHttpCodeError": ".external",
    "recursive_key_value_replace": ".field_edits",
    "update_scores_of_stream_instances": ".streams",
}


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, "operators.")
