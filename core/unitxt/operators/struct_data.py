"""Structured data operators: table serializers (indexed rows, markdown, JSON, HTML, concatenation, a pandas
DataFrame literal, an image), table construction and parsing (CSV, HTML, row/column lists), key-value pairs,
triples, and serializers for dicts and SQL databases.

A table is {"header": [column names], "rows": [[cell, ...], ...]}.
"""

import ast
import csv
import io
import json
import random
from html.parser import HTMLParser
from typing import Any, Dict, List, Optional, Tuple

from ..dict_utils import dict_get
from ..errors import ArtifactConfigurationError, InstanceTypeError, UnitxtError, InstanceValueError
from ..operator import FieldOperator, InstanceOperator, PackageRequirementsMixin
from ..random_utils import new_random_generator
from ..serializers import ImageSerializer, SingleTypeSerializer
from ..types import definitions as data_types
from ..module_aliases import moved_classes


def _check_table(value: Any, owner: Any) -> Tuple[List[Any], List[List[Any]]]:
    if not isinstance(value, dict) or not value.get("header") or not value.get("rows"):
        raise InstanceTypeError(f"{type(owner).__name__} needs a table {{'header': [...], 'rows': [[...]]}} with a "
                                f"header and rows, got {str(value)[:120]!r}.", artifact=owner.artifact_name)
    return list(value["header"]), [list(row) for row in value["rows"]]


def _table_generator(table: Dict[str, Any], seed: Any) -> random.Random:
    """The original's generator for shuffling a table: seeded by the table's content and `seed`, so a table is
    shuffled the same way wherever it appears."""
    return new_random_generator({"table": table, "seed": seed})


def shuffle_table_rows(table: Dict[str, Any], seed: Any = 0) -> Dict[str, Any]:
    """The table with its rows in the original's shuffled order for `seed` (a random.Random: drawn from it)."""
    rng = seed if hasattr(seed, "shuffle") else _table_generator(table, seed)
    rows = [list(row) for row in table["rows"]]
    rng.shuffle(rows)
    return dict(table, rows=rows)


def shuffle_table_columns(table: Dict[str, Any], seed: Any = 0) -> Dict[str, Any]:
    """The table with its columns (names and cells) in the original's shuffled order for `seed`."""
    rng = seed if hasattr(seed, "shuffle") else _table_generator(table, seed)
    order = list(range(len(table["header"])))
    rng.shuffle(order)
    return dict(table, header=[table["header"][i] for i in order],
                rows=[[row[i] for i in order] for row in table["rows"]])


def shuffle_columns(table: Dict[str, Any], seed: int = 0) -> Dict[str, Any]:
    """The original's in-place column shuffle of a Table, seeded by the table itself and `seed`."""
    from ..random_utils import new_random_generator

    header, rows = table.get("header", []), table.get("rows", [])
    order = list(range(len(header)))
    new_random_generator({"table": table, "seed": seed}).shuffle(order)
    table["header"], table["rows"] = [header[i] for i in order], [[row[i] for i in order] for row in rows]
    return table


def shuffle_rows(table: Dict[str, Any], seed: int = 0) -> Dict[str, Any]:
    """The original's in-place row shuffle of a Table, seeded by the table itself and `seed`."""
    from ..random_utils import new_random_generator

    rows = table.get("rows", [])
    new_random_generator({"table": table, "seed": seed}).shuffle(rows)
    table["rows"] = rows
    return table


def truncate_cell(cell_value: Any, max_len: int) -> Optional[str]:
    """A text cell cut to `max_len` characters when longer; None when it needs no cut (numbers, blank, short)."""
    if cell_value is None or isinstance(cell_value, (int, float)) or cell_value.strip() == "":
        return None
    return cell_value[:max_len] if len(cell_value) > max_len else None


def extract_possible_json_str(text: str) -> str:
    """The text from the first "{" or "[" to the last "}" or "]" (drops wrappers such as <tool_call>)."""
    starts = [position for position in (text.find("{"), text.find("[")) if position != -1]
    ends = [position for position in (text.rfind("}"), text.rfind("]")) if position != -1]
    return text[min(starts) if starts else 0:(max(ends) if ends else len(text) - 1) + 1]


def unique_column_names(header: List[Any]) -> List[str]:
    """Repeated column names get a suffix with their repetition count: [a, a, b] -> [a, a_1, b]."""
    return [f"{name}_{header[:index].count(name)}" if header[:index].count(name) else str(name)
            for index, name in enumerate(header)]


class SerializeTable(SingleTypeSerializer):
    """Base of the table serializers: `serialize_table(header, rows)`, after optionally shuffling the rows and/or
    columns with `seed`."""

    __abstract__ = True

    serialized_type = data_types.Table
    seed: int = 0
    shuffle_rows: bool = False
    shuffle_columns: bool = False

    def _prepared(self, value: Any) -> Tuple[List[Any], List[List[Any]]]:
        header, rows = _check_table(value, self)
        table = dict(value, header=header, rows=rows) if isinstance(value, dict) else {"header": header, "rows": rows}
        if self.shuffle_columns:
            table = shuffle_table_columns(table, self.seed)
        if self.shuffle_rows:
            table = shuffle_table_rows(table, self.seed)
        return table["header"], table["rows"]

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        return self.serialize_table(*self._prepared(value))

    def serialize_table(self, header: List[Any], rows: List[List[Any]]) -> str:
        raise NotImplementedError(f"{type(self).__name__}.serialize_table(header, rows)")

    def process_header(self, header: List[Any]) -> str:
        """The original's hook: the header's text (serializers built of a header and rows implement it)."""
        raise NotImplementedError(f"{type(self).__name__}.process_header(header)")

    def process_row(self, row: List[Any], row_index: int) -> str:
        """The original's hook: one row's text (`row_index` counts from 1)."""
        raise NotImplementedError(f"{type(self).__name__}.process_row(row, row_index)")


class SerializeTableAsIndexedRowMajor(SerializeTable):
    """"col : a | b row 1 : 1 | 2 row 2 : 3 | 4" (one line)."""

    def serialize_table(self, header, rows):
        parts = [self.process_header(header)]
        parts += [self.process_row(row, row_index=index) for index, row in enumerate(rows, start=1)]
        return " ".join(parts).strip()

    def process_header(self, header):
        return "col : " + " | ".join(str(name) for name in header)

    def process_row(self, row, row_index):
        return f"row {row_index} : " + " | ".join(str(cell) for cell in row)


class SerializeTableAsMarkdown(SerializeTable):
    """"|a|b|\\n|---|---|\\n|1|2|" (no padding)."""

    def serialize_table(self, header, rows):
        text = self.process_header(header)
        for index, row in enumerate(rows, start=1):
            text += self.process_row(row, row_index=index)
        return text.strip()

    def process_header(self, header):
        return "|" + "|".join(str(name) for name in header) + "|\n|" + "|".join("---" for _ in header) + "|\n"

    def process_row(self, row, row_index):
        return "|" + "|".join(str(cell) for cell in row) + "|\n"


class SerializeTableAsJson(SerializeTable):
    """{"0": {column: cell, ...}, "1": ...} as JSON."""

    def serialize_table(self, header, rows):
        return json.dumps({index: dict(zip(header, row)) for index, row in enumerate(rows)})


class SerializeTableAsHTML(SerializeTable):
    """An HTML <table> with a <thead> row of <th> and a <tbody> of <td> rows (indented, one row per line)."""

    def serialize_table(self, header, rows):
        return f"<table>\n{self.process_header(header)}\n{self.process_rows(rows)}\n</table>"

    def process_header(self, header):
        return "  <thead>\n    <tr>" + "".join(f"<th>{name}</th>" for name in header) + "</tr>\n  </thead>"

    def process_rows(self, rows):
        """The original's hook: the <tbody> of all rows."""
        return "  <tbody>" + "".join("\n    <tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>"
                                     for row in rows) + "\n  </tbody>"


class SerializeTableAsConcatenation(SerializeTable):
    """Header then rows, every cell separated by a space."""

    def serialize_table(self, header, rows):
        return " ".join(str(cell) for cell in [*header, *(cell for row in rows for cell in row)])


class SerializeTableAsDFLoader(SerializeTable):
    """A pandas DataFrame literal: 'pd.DataFrame({"a": [1, 3], "b": [2, 4]},\\nindex=[0, 1])' (repeated column
    names get suffixes)."""

    def serialize_table(self, header, rows):
        columns = unique_column_names(header)
        data = {name: [row[index] if index < len(row) else None for row in rows] for index, name in enumerate(columns)}
        return "pd.DataFrame({\n" + json.dumps(data)[1:-1] + "},\nindex=" + str(list(range(len(rows)))) + ")"


class SerializeTableAsImage(PackageRequirementsMixin, SerializeTable):
    """The table drawn as an image (matplotlib and Pillow, optional), placed in the instance's media like any image."""

    _requirements_list = {"matplotlib": "pip install matplotlib", "PIL": "pip install pillow"}

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        self.check_missing_requirements()
        header, rows = self._prepared(value)
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from PIL import Image

        figure, axes = plt.subplots(figsize=(max(1.0, len(header) * 1.5), max(1.0, len(rows) * 0.5)))
        axes.axis("off")
        drawn = axes.table(cellText=[[str(cell) for cell in row] for row in rows],
                           colLabels=unique_column_names(header), loc="center", cellLoc="center")
        drawn.auto_set_column_width(col=list(range(len(header))))
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", bbox_inches="tight", dpi=150)
        plt.close(figure)
        buffer.seek(0)
        return ImageSerializer().serialize({"image": Image.open(buffer), "format": "png"}, instance)


class DictAsJsonSerializer(SingleTypeSerializer):
    """A dict as JSON text."""

    serialized_type = dict

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        return json.dumps(value)


class SQLDatabaseAsSchemaSerializer(SingleTypeSerializer):
    """An SQLDatabase as its schema ("CREATE TABLE ..." statements): an in-memory database from its `data`
    ({table: {"columns": [...], "rows": [...]}}, every column TEXT), a local one from the SQLite file `db_id`
    (opened read-only)."""

    serialized_type = data_types.SQLDatabase

    def serialize(self, value: Any, instance: Dict[str, Any]) -> str:
        kind = value.get("db_type")
        if kind == "in_memory":
            return "\n\n".join(
                f"CREATE TABLE `{table}` (" + ", ".join(f"`{column}` TEXT" for column in spec.get("columns", [])) + ");"
                for table, spec in (value.get("data") or {}).items())
        if kind == "local" and value.get("db_id"):
            import os
            import sqlite3

            path = value["db_id"]
            if not os.path.isfile(path):
                raise UnitxtError(f"Local SQLite database '{path}' not found.", artifact=self.artifact_name)
            connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                statements = [row[0] for row in connection.execute(
                    "SELECT sql FROM sqlite_master WHERE type='table' AND sql IS NOT NULL ORDER BY name")]
            finally:
                connection.close()
            return "\n\n".join(statement + ";" for statement in statements)
        raise InstanceValueError(f"SQLDatabaseAsSchemaSerializer supports in_memory databases and local SQLite files, got "
                          f"db_type={kind!r}.", artifact=self.artifact_name)


class ParseCSV(FieldOperator):
    """CSV (or TSV, `separator`) text -> table. Without a header (`has_header=False`, or `skip_header`), columns
    are named col_0, col_1, ...; `strip_cells` turns newlines in cells into spaces and strips them."""

    separator: str = ","
    has_header: bool = True
    skip_header: bool = False
    dtype: Optional[str] = None
    strip_cells: bool = False

    def process_value(self, value: Any) -> Any:
        records = list(csv.reader(io.StringIO(str(value)), delimiter=self.separator, quotechar='"'))
        header: List[str] = records[0] if records and self.has_header else []
        rows = records[1:] if self.has_header else records
        if not self.has_header or self.skip_header:
            header = [f"col_{index}" for index in range(len(rows[0]) if rows else 0)]
        if self.strip_cells:
            def clean(cell: Any) -> Any:
                return cell.replace("\n", " ").strip() if isinstance(cell, str) else cell

            header = [clean(name) for name in header]
            rows = [[clean(cell) for cell in row] for row in rows]
        return {"header": header, "rows": rows}


class ListToKeyValPairs(InstanceOperator):
    """`to_field` = dict(zip(keys field, values field)) for `fields` = [keys, values]."""

    fields: List[str]
    to_field: str

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        instance[self.to_field] = dict(zip(dict_get(instance, self.fields[0]), dict_get(instance, self.fields[1])))
        return instance


class SerializeKeyValPairs(FieldOperator):
    """{"name": "Ann", "age": 3} -> "name is Ann, age is 3"."""

    def serialize_kvpairs(self, kvpairs: Any) -> Any:
        """The original's name of this operator's work on one value (its process_value)."""
        return self.process_value(kvpairs)

    def process_value(self, value: Any) -> Any:
        return ", ".join(f"{key} is {item}" for key, item in value.items())


class SerializeTriples(FieldOperator):
    """[[subject, relation, object], ...] -> "subject : relation (lower-cased) : object | ..."."""

    def serialize_triples(self, tripleset: Any) -> Any:
        """The original's name of this operator's work on one value (its process_value)."""
        return self.process_value(tripleset)

    def process_value(self, value: Any) -> Any:
        return " | ".join(f"{subject} : {relation.lower()} : {obj}" for subject, relation, obj in value)


class ConstructTableFromRowsCols(InstanceOperator):
    """A table from `fields` = [header text, rows text] (Python literals) and optionally a caption field."""

    fields: List[str]
    to_field: str

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        def literal(name: str) -> Any:
            value = dict_get(instance, name)
            try:
                return ast.literal_eval(value) if isinstance(value, str) else value
            except (ValueError, SyntaxError):
                raise InstanceTypeError(f"Field '{name}' is not a Python literal list: {str(value)[:120]!r}.",
                                        artifact=self.artifact_name, field=name) from None

        table = {"header": literal(self.fields[0]), "rows": literal(self.fields[1])}
        if len(self.fields) >= 3:
            table["caption"] = dict_get(instance, self.fields[2])
        instance[self.to_field] = table
        return instance


class _TableHTMLParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.header: List[str] = []
        self.rows: List[List[str]] = []
        self._section: Optional[str] = None
        self._cell: Optional[List[str]] = None

    def handle_starttag(self, tag, attrs):
        if tag in ("thead", "tbody"):
            self._section = tag
        elif tag == "tr" and self._section == "tbody":
            self.rows.append([])
        elif tag in ("th", "td"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self._cell is not None:
            text = "".join(self._cell)
            if self._section == "thead" and tag == "th":
                self.header.append(text)
            elif self._section == "tbody" and tag == "td" and self.rows:
                self.rows[-1].append(text)
            self._cell = None
        elif tag in ("thead", "tbody"):
            self._section = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


class MapHTMLTableToJSON(FieldOperator):
    """An HTML table -> table: the <th> texts of <thead> and the <td> texts of each <tbody> row (standard library
    HTML parser)."""

    def process_value(self, value: Any) -> Any:
        return self.convert_to_json(table_content=value)

    def convert_to_json(self, table_content: str) -> Dict[str, Any]:
        """Hook: one HTML table -> {"header": [...], "rows": [[...], ...]}."""
        parser = _TableHTMLParser()
        parser.feed(str(table_content))
        return {"header": parser.header, "rows": parser.rows}


class MapTableListsToStdTableJSON(FieldOperator):
    """[[header...], [row...], ...] -> table."""

    def process_value(self, value: Any) -> Any:
        return self.map_tablelists_to_stdtablejson_util(table_content=value)

    def map_tablelists_to_stdtablejson_util(self, table_content: List[List[Any]]) -> Dict[str, Any]:
        """Hook: [[header...], [row...], ...] -> {"header": [...], "rows": [...]}."""
        return {"header": table_content[0], "rows": table_content[1:]}


class GetNumOfTableCells(FieldOperator):
    """rows x columns of a table."""

    def process_value(self, value: Any) -> Any:
        return len(value["rows"]) * len(value["header"])


class TruncateTableRows(FieldOperator):
    """Keep `rows_to_keep` rows of a table, dropping randomly chosen others (seeded by the table's content)."""

    rows_to_keep: int = 10

    def truncate_table_rows(self, table_content: Any) -> Any:
        """The original's name of this operator's work on one value (its process_value)."""
        return self.process_value(table_content)

    def process_value(self, value: Any) -> Any:
        rows = value.get("rows", [])
        if len(rows) <= self.rows_to_keep:
            return value
        rng = random.Random(json.dumps(value, sort_keys=True, default=str))
        dropped = set(rng.sample(range(len(rows)), len(rows) - self.rows_to_keep))
        return dict(value, rows=[row for index, row in enumerate(rows) if index not in dropped])


class SerializeTableRowAsText(InstanceOperator):
    """"<field> is <value>, " for each of `fields` (texts longer than `max_cell_length` are cut)."""

    fields: List[str]
    to_field: str
    max_cell_length: Optional[int] = None

    separator = " is "

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        text = ""
        for field in self.fields:
            value = dict_get(instance, field)
            if self.max_cell_length is not None and isinstance(value, str) and len(value) > self.max_cell_length:
                value = value[:self.max_cell_length]
            text += f"{field}{self.separator}{value}, "
        instance[self.to_field] = text
        return instance


class SerializeTableRowAsList(SerializeTableRowAsText):
    """"<field>: <value>, " for each of `fields` (texts longer than `max_cell_length` are cut)."""

    separator = ": "


class TruncateTableCells(InstanceOperator):
    """Cut the text cells of the table in field `table` to `max_length` characters (numbers are kept); answers in
    the list field `text_output` that were such cells are cut the same way, so they still match the table."""

    max_length: int = 15
    table: Optional[str] = None
    text_output: Optional[str] = None

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        if self.table is None:
            raise ArtifactConfigurationError("TruncateTableCells needs `table`, the field holding the table.",
                              artifact=self.artifact_name, field="table")
        answers = dict_get(instance, self.text_output) if self.text_output is not None else []
        self.truncate_table(table_content=dict_get(instance, self.table), answers=answers)
        return instance

    def truncate_table(self, table_content: Dict[str, Any], answers: Optional[List[Any]]) -> None:
        """Hook: cut the table's long text cells in place, and the answers that were such cells."""
        cut: Dict[str, str] = {}
        for row in table_content.get("rows", []):
            for index, cell in enumerate(row):
                if isinstance(cell, str) and cell.strip() and len(cell) > self.max_length:
                    cut[cell] = row[index] = cell[:self.max_length]
        for index, answer in enumerate(answers or []):
            answers[index] = cut.get(answer, answer)


class ConvertTableColNamesToSequential(FieldOperator):
    """Replace a table's column names with col_0, col_1, ... (the rows are kept)."""

    def replace_header(self, table_content: Any) -> Any:
        """The original's name of this operator's work on one value (its process_value)."""
        return self.process_value(table_content)

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, dict) or not value.get("header"):
            raise InstanceTypeError(f"{type(self).__name__} needs a table with a non-empty 'header', got "
                                    f"{type(value).__name__}.", field=self.field)
        return {**value, "header": [f"col_{index}" for index in range(len(value["header"]))]}


class JsonStrToDict(FieldOperator):
    """JSON object text -> {str(key): str(value)} without null values ({} when the text is not a JSON object)."""

    def process_value(self, value: Any) -> Any:
        try:
            parsed = json.loads(value)
        except (TypeError, ValueError):
            return {}
        if not isinstance(parsed, dict):
            return {}
        return {str(key): str(item) for key, item in parsed.items() if item is not None}


__all__ = [
    "SerializeTable", "SerializeTableAsIndexedRowMajor", "SerializeTableAsMarkdown", "SerializeTableAsJson",
    "SerializeTableAsHTML", "SerializeTableAsConcatenation", "SerializeTableAsDFLoader", "SerializeTableAsImage",
    "DictAsJsonSerializer", "SQLDatabaseAsSchemaSerializer", "ParseCSV", "ListToKeyValPairs", "SerializeKeyValPairs",
    "SerializeTriples", "ConstructTableFromRowsCols", "MapHTMLTableToJSON", "MapTableListsToStdTableJSON",
    "GetNumOfTableCells", "TruncateTableRows", "SerializeTableRowAsText", "JsonStrToDict",
    "shuffle_table_rows", "shuffle_table_columns", "unique_column_names",
]


__getattr__ = moved_classes(__name__)  # the original kept more classes here: found where they live now
