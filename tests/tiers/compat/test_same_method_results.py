"""The original's public methods of templates, dialog and table operators, recipes and samplers give the same results
here and there: one program calling them (written against the original's API) runs in the oracle and here, and the
results are compared call by call."""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .conftest import ORACLE_PYTHON

PROGRAM = r'''
import json
import sys

from unitxt.dialog_operators import SerializeDialog, SerializeOpenAiFormatDialog
from unitxt.operators import FixJsonSchemaOfParameterTypes
from unitxt.splitters import DiverseLabelsSampler
from unitxt.standard import DatasetRecipe
from unitxt.struct_data_operators import MapHTMLTableToJSON, MapTableListsToStdTableJSON, TruncateTableCells
from unitxt.templates import (KeyValTemplate, MultipleChoiceTemplate, PairwiseChoiceTemplate,
                              SpanLabelingJsonTemplate, SpanLabelingTemplate)

results = {}
choices = {"question": "Sky?", "choices": ["red", "blue", "green"]}
for enumerator in ("capitals", "numbers", "roman", "lowercase"):
    template = MultipleChoiceTemplate(input_format="{question} {choices}", target_field="answer",
                                      enumerator=enumerator)
    results[f"mc {enumerator} choices"] = template.inputs_to_choices(choices, "{choice_numeral}. {choice_text}")
    results[f"mc {enumerator} targets"] = template.inputs_to_choices(choices, "{choice_text} ({choice_numeral})")
    results[f"mc {enumerator} numerals"] = template.inputs_to_numerals(choices)
    results[f"mc {enumerator} prepared"] = template.prepare_multiple_choice_inputs(choices)
    results[f"mc {enumerator} index of text"] = template.outputs_to_target_index({**choices, "answer": "green"})
    results[f"mc {enumerator} index of int"] = template.outputs_to_target_index({**choices, "answer": 1})

fixer = FixJsonSchemaOfParameterTypes(main_field="tools")
for type_str in ("int", "List[str]", "Tuple[int, str]", "Union[int, str, bool]", "Callable[[int], str]",
                 "str, optional", "int, default=5", "float, optional, default 0.5", "Foo", "", "Dict"):
    results[f"schema {type_str!r}"] = fixer.type_str_to_jsonschema_dict(type_str)
tree = {"a": {"type": "List[int]", "b": [{"type": "str, optional"}]}, "c": [{"type": "bool"}]}
fixer.recursive_trace_for_type_fields(tree)
results["schema tree"] = tree

dialog = [{"role": "user", "content": "a"}, {"role": "user", "content": "b"},
          {"role": "assistant", "content": "c"}, {"role": "user", "content": "d"}]
results["merged dialog"] = SerializeOpenAiFormatDialog.merge_dialog_entries([dict(turn) for turn in dialog])
openai = SerializeOpenAiFormatDialog(field="d", to_field="t")
results["standard dialog"] = openai.transform_dialog_to_standard_format([dict(turn) for turn in dialog])
serializer = SerializeDialog(field="d", to_field="t", last_response_to_field="last")
layout = serializer.standardize_format("<s>[INST] {source} [/INST] {target_prefix}{target}</s>")
results["turn layout"] = layout
for step, length in ((0, 3), (1, 3), (2, 3), (0, 1)):
    results[f"turn {step}/{length}"] = serializer.get_turn_format(layout, step, length)

results["key val"] = KeyValTemplate().process_dict({"a": 1, "b": "x y"}, key_val_sep=": ", pairs_sep=", ",
                                                   use_keys=True)
results["key val values"] = KeyValTemplate().process_dict({"a": 1, "b": "x y"}, key_val_sep=": ", pairs_sep="|",
                                                          use_keys=False)
pairs = [("Rome:", "LOC"), ("a,b", "ORG"), ("Oslo", "LOC")]
results["spans"] = SpanLabelingTemplate(input_format="{text}").span_label_pairs_to_targets(pairs)
results["spans json"] = SpanLabelingJsonTemplate(input_format="{text}").span_label_pairs_to_targets(pairs)
results["spans json empty"] = SpanLabelingJsonTemplate(input_format="{text}").span_label_pairs_to_targets([])
pairwise = PairwiseChoiceTemplate(input_format="{a} {b}", output_format="{w}", shuffle=False, choice_a_field="a", choice_b_field="b",
                                  answer_field="w", choice_a_label="A", choice_b_label="B", choice_tie_label="tie")
results["verbalized"] = [pairwise.verbalize_answer_field({"w": answer})["w"]
                         for answer in ("choice_a", "choice_b", "tie")]
results["unshuffled"] = pairwise.shuffle_values({"a": 1, "b": 2}, {"w": "A"})

results["table lists"] = MapTableListsToStdTableJSON(field="t").map_tablelists_to_stdtablejson_util(
    [["city", "n"], ["Rome", 3], ["Oslo", 1]])
html = ("<table><thead><tr><th>City</th><th>Population</th></tr></thead><tbody><tr><td>Rome</td><td>2.8m</td></tr>"
        "<tr><td>Oslo</td><td>0.7m</td></tr></tbody></table>")
results["html table"] = MapHTMLTableToJSON(field="t").convert_to_json(html)
table = {"header": ["h", "n"], "rows": [["abcdefghij", 12345678], ["short", 1], [" ", 2]]}
answers = ["abcdefghij", "short", "other"]
TruncateTableCells(max_length=4, table="t").truncate_table(table, answers)
results["truncated"] = [table, answers]

recipe = DatasetRecipe(card="cards.wnli", template_card_index=0, num_demos=[1, 3], demos_pool_size=10)
results["recipe demos"] = [recipe.max_demos_size, recipe.use_demos, recipe.has_custom_demos_pool,
                           recipe.has_no_templates, recipe.has_card_templates]
plain = DatasetRecipe(card="cards.wnli", template_card_index=0)
results["recipe plain"] = [plain.max_demos_size, plain.use_demos, plain.has_custom_demos_pool,
                           plain.has_no_templates, plain.has_card_templates]

pool = [{"input_fields": {"choices": ["a", "b", "c"], "text": str(index)},
         "reference_fields": {"labels": labels}} for index, labels in enumerate([["a"], ["b", "a"], [], ["a"], ["c"]])]
for include in (True, False):
    groups = DiverseLabelsSampler(include_empty_label=include).divide_by_repr(pool)
    results[f"labels include_empty={include}"] = {label: [item["input_fields"]["text"] for item in items]
                                                  for label, items in groups.items()}

json.dump(results, open(sys.argv[1], "w"), default=str)
'''


def run_with(python, folder):
    output = Path(folder) / "results.json"
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", PYTHONWARNINGS="ignore")
    env.pop("PYTHONPATH", None)
    completed = subprocess.run([str(python), "-c", PROGRAM, str(output)], capture_output=True, text=True, env=env,
                               cwd=folder, timeout=600)
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(output.read_text(encoding="utf-8"))


def test_the_original_methods_give_the_same_results():
    with tempfile.TemporaryDirectory() as folder:
        theirs = run_with(ORACLE_PYTHON, folder)
        ours = run_with(sys.executable, folder)
    assert sorted(ours) == sorted(theirs)
    different = {key: (ours[key], theirs[key]) for key in theirs if ours[key] != theirs[key]}
    assert not different, different
