"""Catalog: table serializers (serializers.table.*), table augmentors (augmentors.table.*), the TORR recipes
(recipes.torr.<card>.<serializer>.<augmentation>_<n>_demos) and benchmarks.torr.

TORR measures how table-reasoning scores move with the table's written layout and with perturbations of the table:
every table card x seven layouts (csv = the card's own serializer) x five perturbations, 5 demos (WikiTQ: 1), demos
drawn from the whole train split, at most 10,000 source rows and 100 test instances per subset.
"""

from unitxt.benchmark import Benchmark
from unitxt.operators.struct_data import (
    SerializeTableAsConcatenation,
    SerializeTableAsDFLoader,
    SerializeTableAsHTML,
    SerializeTableAsImage,
    SerializeTableAsIndexedRowMajor,
    SerializeTableAsJson,
    SerializeTableAsMarkdown,
    TruncateTableRows,
)
from unitxt.recipe import DatasetRecipe
from unitxt.table_augmentors import (
    DuplicateTableColumns,
    DuplicateTableRows,
    InsertEmptyTableRows,
    MaskColumnsNames,
    ShuffleColumnsNames,
    ShuffleTableColumns,
    ShuffleTableRows,
    TransposeTable,
)

SERIALIZERS = {  # catalog label -> (serializer, what the table looks like)
    "concat": (SerializeTableAsConcatenation, "the header then the rows, concatenated as plain text"),
    "df": (SerializeTableAsDFLoader, "Python code building a pandas DataFrame"),
    "html": (SerializeTableAsHTML, "an HTML <table>"),
    "image": (SerializeTableAsImage, "a rendered image (needs Pillow)"),
    "indexed_row_major": (SerializeTableAsIndexedRowMajor, "indexed rows ('row 1 : ...')"),
    "json": (SerializeTableAsJson, "JSON records keyed by row index"),
    "markdown": (SerializeTableAsMarkdown, "a Markdown table"),
}
AUGMENTORS = {  # catalog label -> (augmentor, what it does)
    "duplicate_columns": (DuplicateTableColumns, "repeats every column"),
    "duplicate_rows": (DuplicateTableRows, "repeats every row"),
    "insert_empty_rows": (InsertEmptyTableRows, "inserts empty rows at random places"),
    "mask_cols_names": (MaskColumnsNames, "replaces the column names by placeholders"),
    "shuffle_cols": (ShuffleTableColumns, "shuffles the columns (with their cells)"),
    "shuffle_cols_names": (ShuffleColumnsNames, "shuffles the column names only"),
    "shuffle_rows": (ShuffleTableRows, "shuffles the rows"),
    "transpose": (TransposeTable, "swaps rows and columns"),
}

TORR_CARDS = {"fin_qa": 5, "numeric_nlg": 5, "qtsumm": 5, "scigen": 5, "tab_fact": 5, "tablebench_data_analysis": 5,
              "tablebench_fact_checking": 5, "tablebench_numerical_reasoning": 5, "turl_col_type": 5, "wikitq": 1}
TORR_LAYOUTS = ["concat", "csv", "df", "html", "indexed_row_major", "json", "markdown"]  # csv: the card's default
TORR_PERTURBATIONS = {  # variant -> the augmentor reference of the recipe (None: none)
    "no_augmentation": None,
    "insert_empty_rows_augmentation": "augmentors.table.insert_empty_rows[times=2]",
    "shuffle_cols_augmentation": "augmentors.table.shuffle_cols",
    "shuffle_rows_augmentation": "augmentors.table.shuffle_rows",
    "transpose_augmentation": "augmentors.table.transpose",
}
TORR_TEST_INSTANCES = 100


def _torr_recipe(card: str, layout: str, augmentor, demos: int) -> DatasetRecipe:
    return DatasetRecipe(
        card=f"cards.{card}", serializer=None if layout == "csv" else f"serializers.table.{layout}",
        num_demos=demos, demos_pool_size=-1, loader_limit=10000, template_card_index=0,
        augmentor=None if augmentor is None else [augmentor],
        __description__=f"TORR subset: {card} with the table written as {layout}, {demos} demo(s)"
                        + (f", augmented by {augmentor}." if augmentor else ", no augmentation."),
        __tags__={"kind": "recipe", "benchmark": "torr", "modality": "table"})


def register(add):
    for label, (cls, looks) in SERIALIZERS.items():
        add(f"serializers.table.{label}", cls(__description__=f"Writes a table as {looks}.",
                                               __tags__={"kind": "serializer", "serializes": "table"}))
    for label, (cls, does) in AUGMENTORS.items():
        add(f"augmentors.table.{label}", cls(__description__=f"Table augmentor: {does} of every table input.",
                                             __tags__={"kind": "augmentor", "augments": "table"}))
    add("augmentors.table.truncate_rows", TruncateTableRows(
        __description__="Keeps at most rows_to_keep (10) rows of a table, dropping seeded random others.",
        __tags__={"kind": "augmentor", "augments": "table"}))

    subsets = {}
    for card, demos in TORR_CARDS.items():
        per_layout = {}
        for layout in TORR_LAYOUTS:
            recipes = {}
            for variant, augmentor in sorted(TORR_PERTURBATIONS.items()):
                name = f"recipes.torr.{card}.{layout}.{variant}_{demos}_demos"
                add(name, _torr_recipe(card, layout, augmentor, demos))
                recipes[f"{variant}_{demos}_demos"] = name
            per_layout[layout] = Benchmark(subsets=recipes, max_samples_per_subset=TORR_TEST_INSTANCES)
        subsets[card] = Benchmark(subsets=per_layout, max_samples_per_subset=None)
    add("benchmarks.torr", Benchmark(
        subsets=subsets,
        __description__="TORR: robustness of table reasoning — ten table tasks (financial and numerical QA, "
                        "fact checking, table-to-text, column typing), each with the table in seven layouts and five "
                        "perturbations; 100 test instances per subset. Scores average per layout, card and overall.",
        __tags__={"kind": "benchmark", "language": "en", "modality": "table"}))
