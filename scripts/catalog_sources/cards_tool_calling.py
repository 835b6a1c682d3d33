"""Catalog: tool-calling cards of the original catalog - the Berkeley Function Calling Leaderboard (BFCL v3) categories
and Salesforce's xLAM function-calling 60k.

Facts from the BFCL repository (ShishirPatil/gorilla, berkeley-function-call-leaderboard/data, pinned commit): each
category is a JSON Lines file `BFCL_v3_<category>.json` of {id, question: [[{role, content}, ...]] (turns of messages),
function: [{name, description, parameters: {type, properties, required}}]} with Python/Java/JavaScript type names;
categories with gold calls have `possible_answer/BFCL_v3_<category>.json` of {id, ground_truth: [{function name:
{argument: [acceptable values...]}}]}. Relevance / irrelevance categories have no answer file (the gold is no call).
Salesforce/xlam-function-calling-60k (one train split): query, tools and answers, the last two JSON strings; a tool's
`parameters` maps each parameter to {type, description, default} and optional ones say "optional" in their type.
"""

from _shared import card_tags
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF, LoadJsonFile
from unitxt.operators import (
    Copy,
    ExecuteExpression,
    FixJsonSchemaOfParameterTypes,
    LoadJson,
    Move,
    Set,
)
from unitxt.splitters import RenameSplits
from unitxt.stream_operators import JoinStreams

SAMPLED_ON_MIRRORS = True  # compared with the original's cards in the compat tier (tests/support/card_family_files.py)

BFCL_DATA = ("https://raw.githubusercontent.com/ShishirPatil/gorilla/70b6a4a2144597b1f99d1f4d3185d35d7ee532a4/"
             "berkeley-function-call-leaderboard/data")
# category -> (readable name, has a possible_answer file)
BFCL_CATEGORIES = {
    "simple": ("Simple", True), "multiple": ("Multiple", True), "parallel": ("Parallel", True),
    "parallel_multiple": ("Parallel Multiple", True), "java": ("Java", True), "javascript": ("JavaScript", True),
    "live_simple": ("Live Simple", True), "live_multiple": ("Live Multiple", True),
    "live_parallel": ("Live Parallel", True), "live_parallel_multiple": ("Live Parallel Multiple", True),
    "live_relevance": ("Live Relevance", False), "live_irrelevance": ("Live Irrelevance", False),
}
# every combination of the acceptable argument values of a gold call, one reference call each
ALL_GOLD_CALLS = ('[{"name": k, "arguments": dict(zip(v.keys(), vals))} for d in ground_truth for k, v in d.items() '
                  'for vals in itertools.product(*v.values())]')
BFCL_ABOUT = ("Berkeley Function Calling Leaderboard (BFCL v3), {name} category: user requests with the function "
              "(tool) schemas on offer; the gold is the call(s) to make, each combination of accepted argument values "
              "a reference. {setup}")


def _bfcl_tags(*task_ids, **extra):
    return card_tags("tool calling", dataset_url="https://github.com/ShishirPatil/gorilla/tree/main/"
                     "berkeley-function-call-leaderboard", paper="https://openreview.net/forum?id=2GmDdhBdDk",
                     license="apache-2.0", task_ids=["tool-calling", *task_ids], **extra)


def _bfcl_card(category: str, dialog: bool) -> TaskCard:
    name, answered = BFCL_CATEGORIES[category]
    questions = f"{BFCL_DATA}/BFCL_v3_{category}.json"
    if answered:
        files = {"questions": questions, "answers": f"{BFCL_DATA}/possible_answer/BFCL_v3_{category}.json"}
        first = [JoinStreams(left_stream="questions", right_stream="answers", how="inner", on="id",
                             new_stream_name="test")]
        gold = ExecuteExpression(expression=ALL_GOLD_CALLS, imports_list=["itertools"], to_field="reference_calls")
    else:
        files, first = {"test": questions}, []
        gold = Set(fields={"reference_calls": []})
    asked = (Copy(field="question/*/0", to_field="dialog") if dialog
             else Copy(field="question/0/0/content", to_field="query"))
    setup = ("Every turn's first message becomes the dialog." if dialog
             else "The first user message is the query.")
    return TaskCard(
        loader=LoadJsonFile(files=files, lines=True, data_classification_policy=["public"]),
        preprocess_steps=[*first, asked, Copy(field="function", to_field="tools"), "operators.fix_json_schema", gold],
        task="tasks.tool_calling.multi_turn" if dialog else "tasks.tool_calling.supervised",
        templates=["templates.tool_calling.multi_turn" if dialog else "templates.tool_calling.base"],
        __description__=BFCL_ABOUT.format(name=name, setup=setup) + " One test split.",
        __tags__=_bfcl_tags(*(["multi-turn-tool-calling"] if dialog else []), category=category),
    )


def _xlam(add):
    add("cards.xlam_function_calling_60k", TaskCard(
        loader=LoadHF(path="Salesforce/xlam-function-calling-60k", split="train", data_classification_policy=["public"]),
        preprocess_steps=[
            RenameSplits(mapper={"train": "test"}),
            Set(fields={"dialog": [{"role": "user"}]}, use_deepcopy=True),
            Copy(field="query", to_field="dialog/0/content"),
            LoadJson(field="answers", to_field="reference_calls"),
            LoadJson(field="tools"),
            # xLAM's `parameters` is the properties map itself: wrap it as a JSON-schema object
            Move(field="tools/*/parameters", to_field="properties"),
            Copy(field="properties", to_field="tools/*/parameters/properties", set_every_value=True),
            Set(fields={"tools/*/parameters/type": "object"}, use_deepcopy=True),
            ExecuteExpression(expression="[[p for p, c in tool['parameters']['properties'].items() "
                                         "if 'optional' not in c['type'].lower()] for tool in tools]",
                              to_field="required"),
            Copy(field="required", to_field="tools/*/parameters/required", set_every_value=True),
            FixJsonSchemaOfParameterTypes(main_field="tools"),
        ],
        task="tasks.tool_calling.multi_turn", templates=["templates.tool_calling.multi_turn"],
        __description__="xLAM function-calling 60k (APIGen): 60,000 queries with the tools on offer and the verified "
                        "calls answering them (checked for format, by execution and semantically). The query is a "
                        "one-message dialog; parameters whose type says 'optional' are not required. One split "
                        "(train), used as test.",
        __tags__=card_tags("tool calling", dataset_url="https://huggingface.co/datasets/Salesforce/"
                           "xlam-function-calling-60k", paper="https://arxiv.org/abs/2406.18518",
                           license="cc-by-4.0", task_ids=["tool-calling", "multi-turn-tool-calling"]),
    ))


def register(add):
    add("cards.bfcl.simple_v3", _bfcl_card("simple", dialog=False))
    for category in BFCL_CATEGORIES:
        add(f"cards.bfcl.multi_turn.{category}_v3", _bfcl_card(category, dialog=True))
    _xlam(add)
