"""How the `datasets` builder of recipes works (its class, `UnitxtDatasetBuilder`, is in dataset_builder.py): the
config, the splits, the Arrow tables of rendered rows, and the in-memory load.

The config name is the recipe string (or a catalog name of a recipe/benchmark); a recipe object can also be passed
as the `recipe` config field. One split per stream of the recipe.
"""

import hashlib
import re
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Tuple

import datasets

from ..version import version
from .row_arrow import (
    _inferred_table, _stored_media, _unified, row_features, source_texts, stored_row_features, typed_table,
)
from .recipe import ROW_KEYS, build_recipe

_UNSAFE = re.compile(r"[^A-Za-z0-9_.,=\-]+")


def cache_safe_id(name: str) -> str:
    """A short, filesystem-safe, collision-resistant directory name for a recipe string."""
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:16]
    readable = _UNSAFE.sub("_", name)[:60].strip("_") or "recipe"
    return f"{readable}-{digest}"


@dataclass
class UnitxtConfig(datasets.BuilderConfig):
    """Builder config whose name is a recipe string; any characters are allowed (the cache id is hashed)."""

    recipe: Any = None

    def __post_init__(self) -> None:  # the base class rejects characters common in recipe strings
        pass

    def create_config_id(self, config_kwargs: dict, custom_features: Any = None) -> str:
        return cache_safe_id(self.name)


class RecipeArrowBuilder(datasets.ArrowBasedBuilder):
    """Generates the rows of a unitxt recipe, written to Arrow in batches (the workings of UnitxtDatasetBuilder).

    An ArrowBasedBuilder (like HF's packaged json/csv builders) rather than a GeneratorBasedBuilder: encoding rows one
    by one through `Features.encode_example` cost ~100 us per row, five times the whole pipeline.
    """

    BATCH_SIZE = 1000

    VERSION = datasets.Version(version)
    BUILDER_CONFIG_CLASS = UnitxtConfig
    DEFAULT_CONFIG_NAME = None

    def _get_recipe(self) -> Any:
        cached = self.__dict__.get("_recipe_object")
        if cached is None:
            if self.config.recipe is not None:
                cached = self.config.recipe
            else:
                name = self.config.name
                if not name or name == "default":
                    from ..errors import RecipeError

                    raise RecipeError(
                        "Give a recipe as the config name, e.g. "
                        "load_dataset('unitxt/data', 'card=cards.wnli,template=templates.classification.multi_class.relation.default')"
                    )
                cached = build_recipe(name)
            self.__dict__["_recipe_object"] = cached
        return cached

    @property
    def generators(self) -> Any:
        """The recipe's MultiStream (split name -> stream of rows), made once per builder."""
        cached = self.__dict__.get("_multi_stream_object")
        if cached is None:
            cached = self._get_recipe()()
            self.__dict__["_multi_stream_object"] = cached
        return cached

    def _produces_media(self) -> bool:
        return bool(getattr(self._get_recipe(), "produces_media", lambda: False)())

    def _info(self) -> datasets.DatasetInfo:
        """Rows of recipes that produce images have declared features (images stored for `datasets.Image`); other
        rows' features are inferred from the first rows written, as the original's builder declares none (chat
        sources as text, lists empty in every row as Sequence(Value("null")))."""
        return datasets.DatasetInfo(
            description=f"unitxt {version} recipe: {self.config.name}",
            features=stored_row_features() if self._produces_media() else None,
            version=self.VERSION,
        )

    def as_dataset(self, *args: Any, **kwargs: Any) -> Any:
        """As `datasets`' as_dataset, rows read through `loads_batch` (chat sources decoded on read), as the
        original's builder returns them."""
        from .schema import loads_batch

        return super().as_dataset(*args, **kwargs).with_transform(loads_batch)

    def as_streaming_dataset(self, *args: Any, **kwargs: Any) -> Any:
        """As `datasets`' as_streaming_dataset, each row read through `loads_instance` (as the original's)."""
        from .schema import loads_instance

        return super().as_streaming_dataset(*args, **kwargs).map(loads_instance)

    def _split_generators(self, dl_manager: Any) -> list:
        return [
            datasets.SplitGenerator(name=name, gen_kwargs={"split_name": name}) for name in self.generators
        ]

    def _generate_tables(self, split_name: str) -> Iterator[Tuple[int, Any]]:
        schema = None if self.info.features is None else self.info.features.arrow_schema
        stored_images = self._produces_media()
        stream = self.generators[split_name]
        iter_columns = getattr(stream, "iter_columns", None)
        if iter_columns is not None:  # a recipe split: rendered and converted column by column
            for batch_index, columns in enumerate(iter_columns(self.BATCH_SIZE)):
                if stored_images:
                    columns["media"] = [_stored_media(media) for media in columns["media"]]
                columns["source"] = source_texts(columns["source"])
                yield batch_index, _inferred_table(columns) if schema is None else typed_table(columns, schema)
            return
        batch: List[Dict[str, Any]] = []
        batch_index = 0

        def table() -> Any:
            columns = {name: [row.get(name) for row in batch] for name in ROW_KEYS}
            columns["source"] = source_texts(columns["source"])
            return _inferred_table(columns) if schema is None else typed_table(columns, schema)

        for row in stream:
            if stored_images:
                row = dict(row, media=_stored_media(row["media"]))
            batch.append(row)
            if len(batch) >= self.BATCH_SIZE:
                yield batch_index, table()
                batch_index += 1
                batch = []
        if batch:
            yield batch_index, table()

    def in_memory_dataset(self, split: Optional[str] = None) -> Any:
        """Every split generated straight into memory: the `DatasetDict` (or the `split`'s `Dataset`) that
        `download_and_prepare()` + `as_dataset(in_memory=True)` give, without writing the Arrow cache and reading it
        back (load_dataset's default, disable_cache=True). Returns None when `split` is not a plain split name
        (a slice such as "test[:10]"): the caller then goes through the cache."""
        import copy

        import pyarrow
        from datasets.table import InMemoryTable

        generators = self._split_generators(None)
        names = [str(generator.name) for generator in generators]
        split = None if split is None else str(split)  # a datasets.Split names itself
        if split is not None and split not in names:
            return None
        declared = self.info.features
        parts = {}
        for generator in generators:
            name = str(generator.name)
            if split is not None and name != split:
                continue
            parts[name] = [table for _, table in self._generate_tables(**generator.gen_kwargs)]
        schema = declared.arrow_schema if declared is not None else _unified(parts)
        if schema is None:  # no row in any split: the features of rows as the original infers them from none
            schema = row_features(chat_source=False).arrow_schema
        tables = {name: pyarrow.concat_tables([table.cast(schema) for table in tables]) if tables
                  else schema.empty_table() for name, tables in parts.items()}
        info = copy.deepcopy(self.info)
        if declared is None:
            info.features = datasets.Features.from_arrow_schema(schema)
        info.builder_name, info.config_name, info.version = self.name, self.config.name, self.VERSION
        info.splits = datasets.SplitDict(dataset_name=self.dataset_name)
        for name in names:  # every split is generated (as download_and_prepare does); the info lists them all
            if name in tables:
                info.splits.add(datasets.SplitInfo(name=name, num_bytes=tables[name].nbytes,
                                                   num_examples=tables[name].num_rows, dataset_name=self.dataset_name))
        result = {  # a fingerprint given: datasets would otherwise hash every row of the table to make one
            name: datasets.Dataset(InMemoryTable(table), info=info, split=datasets.Split(name),  # (it copies info)
                                   fingerprint=hashlib.sha256(f"{cache_safe_id(self.config.name)}/{version}/{name}"
                                                              .encode("utf-8")).hexdigest()[:16])
            for name, table in tables.items()
        }
        from .schema import loads_batch

        for dataset in result.values():  # the datasets are new: with_transform's deep copy of each is not needed
            dataset.set_transform(loads_batch)
        return result[split] if split is not None else datasets.DatasetDict(result)



# the row schema of text recipes, and what the evaluate metric takes (the original's constants of these names)
UNITXT_DATASET_SCHEMA = row_features(chat_source=False)
UNITXT_METRIC_SCHEMA = datasets.Features({"predictions": datasets.Value("string"), "references": UNITXT_DATASET_SCHEMA})
