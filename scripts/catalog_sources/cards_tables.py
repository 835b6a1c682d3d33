"""Catalog: table cards — question answering over tables (TableBench; WikiTQ and FinQA
read GitHub files: cards_external_sources.py), fact verification (TabFact),
query-focused table summarization (QTSumm) and table-to-text generation (SciGen, NumericNLG).

Every card turns its dataset's table into the library's Table value ({"header": [...], "rows": [[...]]}), so a
serializer decides the layout: the cards' own templates use a markdown TableSerializer; with the generic catalog
templates the recipe's `serializer=` picks it (TableSerializer layouts: markdown, csv, json, indexed_rows).
"""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import (
    Copy,
    ExecuteExpression,
    FilterByCondition,
    LoadJson,
    MapHTMLTableToJSON,
    MapInstanceValues,
    Rename,
    Set,
    Wrap,
)
from unitxt.operators.struct_data import ParseCSV
from unitxt.serializers import TableSerializer
from unitxt.splitters import SplitRandomMix
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate, TemplatesList

ANSWER_PROCESSORS = ["processors.take_first_non_empty_line", "processors.to_string_stripped"]


def _tags(task, repo, paper=None, **extra):
    return card_tags(task, dataset_url=hf_url(repo), paper=paper, modality="table", **extra)


def _table(header, rows):
    """An expression building a Table value from two expressions (every cell as text)."""
    return f"{{'header': [str(c) for c in {header}], 'rows': [[str(c) for c in row] for row in {rows}]}}"


# FinQA: a financial report (text before and after a table) and a question needing arithmetic over both.
FIN_QA_TASK = Task(
    input_fields={"pre_text": "str", "table": "Table", "post_text": "str", "question": "str"},
    reference_fields={"program_re": "str", "answer": "str"},
    prediction_type="str",
    metrics=["metrics.squad"],
    augmentable_inputs=["pre_text", "post_text", "question"],
    __description__="Numerical question answering over a financial report: text before the table, the table and "
                    "text after it. The answer is the computed value; program_re is the gold reasoning program.",
    __tags__={"task": "table question answering", "modality": "table"},
)
FIN_QA_TEMPLATE = InputOutputTemplate(
    instruction="Read the financial report (text, table, text) and answer the question with the computed value only.",
    input_format="Text before the table: {pre_text}\nTable:\n{table}\nText after the table: {post_text}\n"
                 "Question: {question}",
    target_prefix="Answer: ",
    output_format="{answer}",
    postprocessors=ANSWER_PROCESSORS,
    serializer=TableSerializer(),
)

# TableBench (config table_bench, one test split over all its jsonl files): the table is a JSON string
# {"columns": [...], "data": [[...]]}; only the direct-prompting (DP) rows are used.
TABLEBENCH_TASK = Task(
    input_fields={"context": "Table", "context_type": "str", "question": "str", "answer_formatter": "str"},
    reference_fields={"answers": "str"},
    prediction_type="str",
    metrics=["metrics.rouge"],
    defaults={"context_type": "table", "answer_formatter": ""},
    __description__="Answer a question about a table; answer_formatter states the expected answer format.",
    __tags__={"task": "table question answering", "modality": "table"},
)
TABLEBENCH_TEMPLATE = InputOutputTemplate(
    instruction="You are a table analyst: answer the question from the content of the table.",
    input_format="{answer_formatter}\nTable:\n{context}\nQuestion: {question}",
    target_prefix="Final Answer: ",
    output_format="{answers}",
    postprocessors=["processors.to_string_stripped", "processors.lower_case"],
    serializer=TableSerializer(),
)
# the cards' own templates are their tasks' defaults (a recipe naming no template renders with them)
FIN_QA_TASK = FIN_QA_TASK.copy(default_template=FIN_QA_TEMPLATE)
TABLEBENCH_TASK = TABLEBENCH_TASK.copy(default_template=TABLEBENCH_TEMPLATE)
TABLEBENCH_QTYPES = {
    "fact_checking": "FactChecking",
    "numerical_reasoning": "NumericalReasoning",
    "data_analysis": "DataAnalysis",
    "visualization": "Visualization",
}


def _tablebench_card(qtype=None):
    steps = [FilterByCondition(values={"instruction_type": "DP"}, condition="eq")]
    if qtype:  # one question type: seeded 20% / 20% / 60% portions of its test rows, as the original's cards
        steps.append(FilterByCondition(values={"qtype": qtype}, condition="eq"))
        steps.append(SplitRandomMix(mix={"train": "test[20%]", "validation": "test[20%]", "test": "test[60%]"}))
    steps += [
        LoadJson(field="table"),
        Rename(field_to_field={"table/columns": "table/header", "table/data": "table/rows"}),  # cells as given
        Set(fields={"context_type": "Table"}),
        Rename(field_to_field={"table": "context", "answer": "answers"}),
    ]
    which = f"'{qtype}' questions" if qtype else "all question types"
    return TaskCard(
        loader=LoadHF(path="Multilingual-Multimodal-NLP/TableBench"),
        preprocess_steps=steps,
        task=TABLEBENCH_TASK,
        templates=TemplatesList([TABLEBENCH_TEMPLATE]),
        __description__=f"TableBench: complex table question answering ({which}; the direct-prompting rows, whose "
                        "instruction asks for the final answer only; answer_formatter states the expected format). "
                        "One published split (test); scored with ROUGE.",
        __tags__=_tags("table question answering", "Multilingual-Multimodal-NLP/TableBench",
                       "https://arxiv.org/abs/2408.09174"),
    )


def register(add):
    add("cards.tab_fact", TaskCard(
        # the Hub's Parquet conversion of the TabFact loading script (config folder tab_fact): no remote code
        loader=LoadHF(path="wenhu/tab_fact", revision="refs/convert/parquet", data_dir="tab_fact",
                      splits=["train", "test", "validation"], data_classification_policy=["public"]),
        preprocess_steps=[
            # table_text holds the table as lines of '#'-separated cells, header first
            ParseCSV(field="table_text", to_field="text_a", separator="#", dtype="str"),
            Rename(field="statement", to_field="text_b"),
            MapInstanceValues(mappers={"label": {"0": "refuted", "1": "entailed"}}),
            Set(fields={"type_of_relation": "entailment", "text_a_type": "Table", "text_b_type": "Statement",
                        "classes": ["refuted", "entailed"]}),
        ],
        task="tasks.classification.multi_class.relation",
        templates="templates.classification.multi_class.relation.all",
        __description__="TabFact: statements about Wikipedia tables labelled entailed or refuted by the table "
                        "(text_a is the table as a Table value, serialized by the template). Splits train / "
                        "validation / test, read from the Hub's Parquet conversion of wenhu/tab_fact.",
        __tags__=_tags("table fact verification", "wenhu/tab_fact", "https://arxiv.org/abs/1909.02164"),
    ))
    add("cards.qtsumm", TaskCard(
        loader=LoadHF(path="yale-nlp/QTSumm"),
        preprocess_steps=[
            Set(fields={"context_type": "table"}),
            Rename(field="table", to_field="context"),  # the whole table record (header, rows, title, id)
            Rename(field="query", to_field="question"),
            Wrap(field="summary", inside="list", to_field="answers"),
        ],
        task="tasks.qa.with_context.abstractive",
        templates="templates.qa.with_context.all",
        __description__="QTSumm: query-focused summarization of Wikipedia tables — a paragraph answering a user "
                        "query about the table. Splits train / validation / test; scored with ROUGE.",
        __tags__=_tags("query-focused table summarization", "yale-nlp/QTSumm", "https://arxiv.org/abs/2305.14303"),
    ))
    add("cards.scigen", TaskCard(
        loader=LoadHF(path="kasnerz/scigen"),
        preprocess_steps=[
            FilterByCondition(values={"table_content_values": "[]"}, condition="ne"),
            LoadJson(field="table_column_names"),
            LoadJson(field="table_content_values"),
            ExecuteExpression(_table("table_column_names", "table_content_values"), to_field="input_a"),
            Rename(field="table_caption", to_field="input_b"),
            Rename(field="text", to_field="output"),
            Set(fields={"type_of_input_a": "table", "type_of_input_b": "caption",
                        "type_of_output": "text description"}),
        ],
        task="tasks.generation.from_pair",
        templates="templates.generation.from_pair.all",
        __description__="SciGen: reasoning-aware table-to-text generation — describe a table of a scientific paper "
                        "(mostly numbers) given its caption. Splits train / validation / test.",
        __tags__=_tags("table-to-text generation", "kasnerz/scigen", "https://arxiv.org/abs/2104.08296"),
    ))
    add("cards.numeric_nlg", TaskCard(
        loader=LoadHF(path="kasnerz/numericnlg"),
        preprocess_steps=[
            Set(fields={"type_of_input_a": "table", "type_of_input_b": "caption", "type_of_output": "description"}),
            MapHTMLTableToJSON(field="table_html_clean", to_field="table_out"),
            Copy(field="table_out", to_field="input_a"),
            Rename(field="description", to_field="output"),
            Rename(field="caption", to_field="input_b"),
        ],
        task="tasks.generation.from_pair",
        templates=["templates.generation.from_pair.default[postprocessors=[processors.lower_case]]"],
        __description__="NumericNLG: numerical table-to-text generation — write the paragraph describing a table "
                        "of a scientific paper given the table (read from its cleaned HTML into a table value) and its caption; "
                        "answers are compared lower-cased. "
                        "Splits train / validation / test.",
        __tags__=_tags("table-to-text generation", "kasnerz/numericnlg",
                       "https://aclanthology.org/2021.acl-long.115/"),
    ))
    add("cards.tablebench", _tablebench_card())
    for suffix, qtype in TABLEBENCH_QTYPES.items():
        add(f"cards.tablebench_{suffix}", _tablebench_card(qtype))
