"""CSV text to rows with typed values, read with pyarrow: whole-number columns become ints, decimal ones floats,
True/False columns booleans, the rest strings, and empty or NA cells NaN — the values the original's pandas reader
gives (dates stay strings, as pandas leaves them)."""

import math
from typing import Any, Dict, Iterator, List

_TRUE = ["True", "TRUE", "true"]
_FALSE = ["False", "FALSE", "false"]


def _table(data: bytes, sep: str, as_text: List[str]) -> Any:
    import pyarrow as pa
    from pyarrow import csv as pa_csv

    return pa_csv.read_csv(
        pa.BufferReader(data),
        parse_options=pa_csv.ParseOptions(delimiter=sep, newlines_in_values=True),
        convert_options=pa_csv.ConvertOptions(
            strings_can_be_null=True, true_values=_TRUE, false_values=_FALSE, timestamp_parsers=[],
            column_types={name: pa.string() for name in as_text},
        ),
    )


def _is_temporal(arrow_type: Any) -> bool:
    import pyarrow.types as kinds

    return kinds.is_temporal(arrow_type)


def typed_csv_rows(text: str, sep: str) -> Iterator[Dict[str, Any]]:
    """The rows of CSV `text` (first line the header) as dicts of typed values; a missing value is NaN, and a
    whole-number column with missing values holds floats (as pandas)."""
    import pyarrow.types as kinds

    data = text.encode("utf-8")
    if not data.strip():
        return
    table = _table(data, sep, [])
    dated = [field.name for field in table.schema if _is_temporal(field.type)]
    if dated:
        table = _table(data, sep, dated)
    columns = {}
    for field, column in zip(table.schema, table.columns):
        values = column.to_pylist()
        if kinds.is_integer(field.type) and column.null_count:
            values = [math.nan if value is None else float(value) for value in values]
        else:
            values = [math.nan if value is None else value for value in values]
        columns[field.name] = values
    names = list(columns)
    for index in range(table.num_rows):
        yield {name: columns[name][index] for name in names}
