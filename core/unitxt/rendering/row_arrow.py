"""The Arrow form of rendered rows: the row features (text or chat sources, content parts, media) and the conversion
of the columnar renderer's batches into Arrow arrays, with the types the original's builder infers."""

import functools
import itertools
import json
from typing import Any, Dict, List

import datasets

from .batch_render import ConstantColumn
from .row_json import ROW_KEYS


def string_list() -> Any:
    return [datasets.Value("string")]


def content_part_features() -> Dict[str, Any]:
    """One OpenAI content part: {"type", "text"} or {"type", "image_url": {"url"}} or {"type", "input_audio"}.

    Arrow stores every key of the struct, so parts read back from a saved dataset carry None for the keys of the other
    part kinds (`image_utils.clean_content_parts` drops them).
    """
    string = datasets.Value("string")
    return {
        "type": string,
        "text": string,
        "image_url": {"url": string},
        "input_audio": {"data": string, "format": string},
    }


def row_features(chat_source: bool, content_parts: bool = False, media_images: bool = False) -> datasets.Features:
    """The schema of rows as read back (chat sources decoded), e.g. what the Hub metric accepts as references; the
    builder stores `source` as text (`stored_row_features`, or features inferred from the rows).

    Chat rows have `source` = [{"role", "content"}]; content is a string, or (multimodal recipes, `content_parts`) a
    list of content parts in every message, so one schema fits rows with and without images. Rows of recipes that
    produce images (`media_images`) store `media.images` as `datasets.Image(decode=False)`: {"bytes", "path"}, the
    form `datasets.Image().decode_example` (and clients such as lm-evaluation-harness) read; text recipes keep the
    plain string lists.
    """
    if chat_source:
        content = [content_part_features()] if content_parts else datasets.Value("string")
        source = [{"role": datasets.Value("string"), "content": content}]
    else:
        source = datasets.Value("string")
    features = {
        "source": source,
        "target": datasets.Value("string"),
        "references": string_list(),
        "metrics": string_list(),
        "postprocessors": string_list(),
        "task_data": datasets.Value("string"),
        "groups": string_list(),
        "subset": string_list(),
        "media": {"images": [datasets.Image(decode=False)] if media_images else string_list(),
                  "audios": string_list()},
        "data_classification_policy": string_list(),
    }
    assert tuple(features) == ROW_KEYS
    return datasets.Features(features)


def stored_row_features() -> datasets.Features:
    """The declared schema of stored rows of recipes that produce images: as `row_features`, with `source` as text
    (chat messages are stored as their JSON text, as the original stores them, and read back by `loads_batch`)."""
    features = row_features(chat_source=False, media_images=True)
    return datasets.Features({name: features[name] for name in ROW_KEYS})


def source_text(source: Any) -> Any:
    """A row's source as stored: text as is, chat messages as `json.dumps` text (the original's encoding: ASCII
    escapes, ", " / ": " separators), so `to_dict()`, Arrow and Parquet exports carry the string."""
    return source if isinstance(source, str) else json.dumps(source)


def _only_text(value: Any) -> bool:
    """Whether `value` is text, or lists / dicts (with text keys) holding only such values: a value that equals it
    then has the same Arrow type (unlike e.g. 1, 1.0 and True, which are equal but typed apart)."""
    kind = type(value)
    if kind is str:
        return True
    if kind is list:
        return all(_only_text(item) for item in value)
    if kind is dict:
        return all(type(key) is str and _only_text(item) for key, item in value.items())
    return False


def _inferred_array(values: List[Any]) -> Any:
    """One column as an Arrow array with its type inferred from the values. A column holding one text-like value in
    every row (metrics, postprocessors, empty groups / subset / media / policy lists) is converted once and repeated
    by index: the same array at a fraction of the per-value conversion. A column of texts, or of lists of texts (not
    all empty), is converted with the type inference would give it, without inferring it value by value."""
    import pyarrow

    if isinstance(values, ConstantColumn) and values.is_constant and _only_text(values.value):
        return _repeated(values.value, len(values))
    pool = arrow_pool()
    kinds = set(map(type, values))
    if kinds == {str}:
        return pyarrow.array(values, type=pyarrow.string(), memory_pool=pool)
    if len(kinds) == 1 and len(values) > 1:
        first = values[0]
        if _only_text(first):
            try:
                constant = values.count(first) == len(values)
            except (TypeError, ValueError):  # a value whose comparison does not give a truth value (an array)
                constant = False
            if constant:
                return _repeated(first, len(values))
    if kinds == {list} and set(map(type, itertools.chain.from_iterable(values))) == {str}:
        return pyarrow.array(values, type=pyarrow.list_(pyarrow.string()), memory_pool=pool)
    return pyarrow.array(values, memory_pool=pool)


@functools.lru_cache(maxsize=1)
def arrow_pool() -> Any:
    """The memory pool row tables are built in: the C library's allocator. pyarrow's default pool (mimalloc or
    jemalloc) asks the kernel for transparent huge pages, and where the kernel compacts memory to provide them at once
    (its THP defrag setting "madvise", a common default) building a split's tens of MB stalls for 0.1-0.2 s at
    random; the system pool's ordinary pages cost a steady few hundredths."""
    import pyarrow

    return pyarrow.system_memory_pool()


def _repeated(value: Any, count: int) -> Any:
    """`value` in `count` rows: converted once and repeated by index."""
    import pyarrow
    import pyarrow.compute

    pool = arrow_pool()
    return pyarrow.compute.take(pyarrow.array([value], memory_pool=pool), _zeros(count), memory_pool=pool)


@functools.lru_cache(maxsize=8)
def _zeros(count: int) -> Any:
    """An Arrow int32 array of `count` zeros (indices that repeat an array's first value)."""
    import numpy
    import pyarrow

    return pyarrow.array(numpy.zeros(count, dtype=numpy.int32), memory_pool=arrow_pool())


def _inferred_table(columns: Dict[str, List[Any]]) -> Any:
    """The batch's columns as an Arrow table with types inferred from the values, as the original's builder (which
    declares no features) gets them: lists that are empty in every row are list<null>."""
    import pyarrow

    return pyarrow.Table.from_arrays([_inferred_array(columns[name]) for name in ROW_KEYS], names=list(ROW_KEYS))


def typed_table(columns: Dict[str, List[Any]], schema: Any) -> Any:
    """The batch's columns as an Arrow table of `schema` (the builder's declared features)."""
    import pyarrow

    pool = arrow_pool()
    return pyarrow.Table.from_arrays(
        [pyarrow.array(columns[field.name], type=field.type, memory_pool=pool) for field in schema], schema=schema)


def source_texts(sources: List[Any]) -> List[Any]:
    """`source_text` of each source (the list itself when every source is text already)."""
    if set(map(type, sources)) <= {str}:
        return sources
    return [source_text(source) for source in sources]


def _unified(tables: Dict[str, List[Any]]) -> Any:
    """The one schema of all splits' tables (a list<null> column of one batch takes the item type another batch
    has: what the original's writer gives when its first batch holds the typed values)."""
    import pyarrow

    schemas = [table.schema for parts in tables.values() for table in parts]
    if not schemas:
        return None
    return pyarrow.unify_schemas(schemas, promote_options="permissive")


def image_storage(url: Any) -> Dict[str, Any]:
    """A row image (a data URL) as `datasets.Image` stores it: {"bytes": the encoded file, "path": None}."""
    from ..image_utils import parse_data_url

    if isinstance(url, dict):
        return url
    return {"bytes": parse_data_url(url)[1], "path": None}


def _stored_media(media: Dict[str, Any]) -> Dict[str, Any]:
    """A row's media with its images in datasets.Image's stored form."""
    if not media["images"]:
        return media
    return dict(media, images=[image_storage(url) for url in media["images"]])
