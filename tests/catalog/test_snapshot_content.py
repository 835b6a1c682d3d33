"""Content checks of the shipped catalog (catalog_snapshot/): every artifact loads and round-trips, the snapshot and
its index are up to date, every catalog name an artifact refers to exists, every artifact is described and tagged,
every template renders a synthetic instance of its task, and formats reproduce the documented prompts."""

import json
import re
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any, Dict, List

import pytest

from unitxt.artifact import Artifact, ArtifactLink, from_serializable
from unitxt.catalog import get_from_catalog
from unitxt.card import TaskCard
from unitxt.task import Task
from unitxt.templates import Template, TemplatesDict, TemplatesList

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = ROOT / "catalog_snapshot"
sys.path.insert(0, str(ROOT / "scripts"))

import build_catalog_index  # noqa: E402

ENTRIES: Dict[str, Dict[str, Any]] = build_catalog_index.load_snapshot(SNAPSHOT)
NAMES = sorted(ENTRIES)
FAMILIES = ("cards", "tasks", "templates", "formats", "system_prompts", "processors", "splitters", "augmentors",
            "metrics", "benchmarks", "serializers", "samplers")
NAME_PATTERN = re.compile(r"(?<![\w./-])(?:" + "|".join(FAMILIES) + r")\.[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*")
SPECIAL_KEYS = ("__description__", "__tags__", "__deprecated_msg__")


def _as_json(data: Dict[str, Any]) -> Any:
    """What a catalog file holds for `data` (JSON has lists where to_dict may keep a tuple, e.g. Apply's _argv)."""
    return json.loads(json.dumps(data))


def _load(name: str) -> Artifact:
    return get_from_catalog(name)


# ---------------------------------------------------------------- loading and round trips
def test_catalog_is_not_trivially_small():
    assert len(NAMES) > 200
    for family in ("tasks", "templates", "formats", "system_prompts", "splitters", "processors", "metrics"):
        assert any(name.startswith(family + ".") for name in NAMES), family


@pytest.mark.parametrize("name", NAMES)
def test_artifact_loads_and_round_trips(name):
    data = ENTRIES[name]
    raw = from_serializable(json.loads(json.dumps(data)))  # the entry itself (links are not followed)
    assert isinstance(raw, Artifact)
    assert _as_json(raw.to_dict()) == data, "the JSON file is not what to_dict() writes"
    again = Artifact.from_dict(raw.to_dict())
    assert again == raw
    assert _as_json(again.to_dict()) == data
    resolved = _load(name)  # through the catalog, following links
    assert isinstance(resolved, Artifact)
    if not isinstance(raw, ArtifactLink):
        assert Artifact.from_dict(resolved.to_dict()) == resolved


def test_snapshot_is_up_to_date():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_catalog.py"), "--check"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_index_and_tasks_md_are_up_to_date():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_catalog_index.py"), "--check"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_index_lists_every_name_with_its_description():
    index = (SNAPSHOT / "README.md").read_text(encoding="utf-8")
    for name in NAMES:
        assert f"| `{name}` |" in index, name
    assert build_catalog_index.render_index(ENTRIES) == index  # deterministic


# ---------------------------------------------------------------- references between artifacts
def _referenced_names(value: Any, found: List[str]) -> List[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in SPECIAL_KEYS:
                continue
            _referenced_names(item, found)
    elif isinstance(value, list):
        for item in value:
            _referenced_names(item, found)
    elif isinstance(value, str):
        for match in NAME_PATTERN.finditer(value):
            found.append(match.group(0).rstrip("."))
    return found


@pytest.mark.parametrize("name", NAMES)
def test_every_referenced_name_exists(name):
    missing = sorted({ref for ref in _referenced_names(ENTRIES[name], []) if ref not in ENTRIES})
    assert not missing, f"{name} refers to catalog names that do not exist: {missing}"


def test_the_build_refuses_a_dangling_reference_and_an_unknown_override():
    """scripts/catalog_references.py (run by build_catalog.py): a name that is no entry, or an override key the
    referenced artifact lacks, is reported with the entry and the place it occurs."""
    import catalog_references

    entries = {"metrics.ner": ENTRIES["metrics.ner"], "tasks.x": {
        "__type__": "task", "input_fields": {"a": "str"}, "reference_fields": {"b": "str"},
        "metrics": ["metrics.ner[zero_division=1.0]", "metrics.ner[zero_divison=1.0]", "metrics.absent"]},
        "recipes.r": {"__type__": "dataset_recipe", "card": "cards.absent", "template": "templates.absent"},
        "benchmarks.b": {"__type__": "benchmark", "subsets": {"s": "card=cards.gone,template=templates.none"}}}
    problems = catalog_references.problems(entries)
    assert len(problems) == 6, problems
    assert any("tasks.x (metrics[1])" in line and "zero_divison" in line and "not a field of NER" in line
               for line in problems)
    assert any("tasks.x (metrics[2]): 'metrics.absent' names no catalog entry" in line for line in problems)
    assert any(line.startswith("recipes.r (card): 'cards.absent'") for line in problems)
    assert any(line.startswith("benchmarks.b (subsets.s): 'cards.gone'") for line in problems)
    assert not catalog_references.problems({name: ENTRIES[name] for name in ("metrics.ner",)})


def test_reference_walk_sees_the_important_kinds_of_references():
    refs = set()
    for name in NAMES:
        refs.update(_referenced_names(ENTRIES[name], []))
    assert "metrics.spearman" in refs  # task metrics
    assert "processors.to_span_label_pairs" in refs  # template postprocessors
    assert "templates.qa.with_context.default" in refs  # TemplatesList items
    assert "formats.llama3_instruct" in refs  # ArtifactLink targets


def test_catalog_names_used_in_the_documentation_exist():
    listed = (Path(__file__).parent / "doc_catalog_names.txt").read_text(encoding="utf-8").splitlines()
    used = [line for line in listed if line and not line.startswith("#")]
    assert len(used) == 110 and len(set(used)) == len(used)
    missing = sorted(name for name in used if name not in ENTRIES)
    assert not missing, missing


# ---------------------------------------------------------------- descriptions and tags
@pytest.mark.parametrize("name", NAMES)
def test_every_artifact_has_description_and_tags(name):
    data = ENTRIES[name]
    assert isinstance(data.get("__description__"), str) and data["__description__"].strip(), name
    assert isinstance(data.get("__tags__"), dict) and data["__tags__"], name


# ---------------------------------------------------------------- templates render synthetic task instances
def _dummy(field: str, declared: Any) -> Any:
    """A plausible value of a declared field type (spans are consistent with the synthetic text)."""
    special = {"text": "Anna flew from Paris to Rome.", "spans_starts": [0, 15], "spans_ends": [4, 20],
               "labels": ["Person", "Location"], "answer": 1, "label": "positive", "winner": "A",
               # untyped (Any) in tasks.grammatical_error_correction, as the original's; its templates want a list
               "corrected_texts": ["Anna flew from Paris to Rome."]}
    if field in special and _accepts(declared, special[field]):
        return special[field]
    origin, args = typing.get_origin(declared), typing.get_args(declared)
    if getattr(declared, "__name__", None) == "Table":  # the library's Table (or one a test re-registered by name)
        return {"header": ["city", "population"], "rows": [["Paris", "2.1M"], ["Rome", "2.8M"]]}
    if declared is str:
        return f"sample {field.replace('_', ' ')}"
    if declared is bool:
        return True
    if declared is int:
        return 2
    if declared is float:
        return 3.5
    if origin is typing.Union:
        return _dummy(field, [arg for arg in args if arg is not type(None)][0])
    if origin in (list, tuple):
        item = args[0] if args else str
        if origin is tuple and args:
            return tuple(_dummy(field, arg) for arg in args)
        return [_dummy(field, item), _dummy(field, item) if item is not str else f"other {field}"]
    if origin is dict:
        return {"key": "value"}
    return f"sample {field}"


def _accepts(declared: Any, value: Any) -> bool:
    from unitxt.type_utils import make_checker

    return make_checker(declared)(value)


# tasks whose 'winner' holds the original's choice names (MT-Bench pairwise comparison), not 'A' / 'B' / 'tie'
CHOICE_WINNER_TASKS = "tasks.response_assessment.pairwise_comparison."
CHOICE_WINNERS = ["choice_a", "choice_b", "tie"]


def _synthetic(task: Task) -> Dict[str, Any]:
    instance = {field: _dummy(field, declared) for field, declared in task.input_types.items()}
    instance.update({field: _dummy(field, declared) for field, declared in task.reference_types.items()})
    if str(task.__dict__.get("__id__") or "").startswith(CHOICE_WINNER_TASKS):
        instance["winner"] = CHOICE_WINNERS[0]
    for field, value in instance.items():
        declared = {**task.input_types, **task.reference_types}[field]
        assert _accepts(declared, value), (field, declared, value)
    return task.process(dict(instance))


def _templates_of(spec: Any) -> List[Template]:
    if spec is None:
        return []
    if isinstance(spec, str):
        spec = _load(spec)
    if isinstance(spec, Template):
        return [spec]
    if isinstance(spec, (TemplatesDict, dict)):
        return [item if isinstance(item, Template) else _load(item) for item in spec.values()]
    if isinstance(spec, (TemplatesList, list)):
        result = []
        for item in spec:
            result.extend(_templates_of(item))
        return result
    raise AssertionError(f"not a template spec: {spec!r}")


def _postprocess(template: Template, text: str) -> Any:
    value = text
    for item in template.postprocessors:
        operator = _load(item) if isinstance(item, str) else item
        value = operator.process_value(value) if hasattr(operator, "process_value") else value
    return value


def _check_renders(task: Task, templates: List[Template], label: str) -> int:
    processed = _synthetic(task)
    for template in templates:
        rendered = template.render(processed["input_fields"], processed["reference_fields"], {})
        assert isinstance(rendered["source"], str) and rendered["source"].strip(), (label, template.__id__)
        assert "{" not in rendered["source"].replace("{\"", "").replace("{'", ""), (label, template.__id__)
        for reference in rendered["references"]:
            _postprocess(template, reference)
        instance = template.process({**processed, "demos": [dict(processed)]})
        assert instance["postprocessors"] == template.postprocessor_names()
    return len(templates)


# Tasks of the original (issue 28) whose template families keep the original's names and lists (no ".default"), or
# whose fields the synthetic generators here can not fill (SQL databases, untyped list-form fields, an index into
# two choices), or that have no templates at all. Each of their templates is rendered on a realistic instance and
# compared with the original in tests/tiers/compat/test_same_catalog_templates.py; the tasks there too.
ORIGINAL_LAYOUT_TASKS = {
    "tasks.completion.abstractive": "the original's family lists empty and standard, no .default",
    "tasks.completion.extractive": "the original has no templates for it",
    "tasks.completion.multiple_choice": "the original's family has no .default",
    "tasks.evaluation.preference": "output_choice indexes the choices; synthetic ints run past two choices",
    "tasks.key_value_extraction": "a single template (its default_template), no family",
    "tasks.qa.extractive.multi_turn": "conversation is a Conversation (id, dialog) the generator can not fill; the "
                                      "original has no family for it (templates.qa.multi_turn.*)",
    "tasks.qa.multiple_choice.with_context.with_topic": "the original's family has no .default; its 'match' "
                                                        "template scores partial matches",
    "tasks.rag.corpora": "a corpus-loading task without templates or gold answers",
    "tasks.qa.extractive.multi_turn": "a Conversation input (id and dialog); a single template, no family",
    "tasks.selection.by_attribute": "untyped (list-form) fields: the generator can not know choices_texts is a list",
    "tasks.text2sql": "db is an SQLDatabase; the original's family has no .default",
    "tasks.text2sql_logic": "db is an SQLDatabase; no family of its own",
    "tasks.tool_calling.multi_turn": "a single template (its default_template), no family",
    "tasks.tool_calling.supervised": "a single template (its default_template), no family",
    "tasks.targeted_sentiment_extraction.all_sentiment_classes": "declares 'text' as a str input and a List[str] "
                                                                 "reference: refuses every instance, as the original's",
    "tasks.targeted_sentiment_extraction.single_sentiment_class": "declares 'text' as a str input and a List[str] "
                                                                  "reference: refuses every instance, as the original's",
}
TASK_NAMES = [name for name in NAMES if name.startswith("tasks.") and ENTRIES[name]["__type__"] == "task"
              and name not in ORIGINAL_LAYOUT_TASKS]
# cards whose task the synthetic generator can not fill (the tasks above, or an inline task with untyped list-form
# fields), or whose templates only render inside an evaluation; compared with the original in the compat tier
CARDS_NOT_SYNTHESIZED = {
    "cards.pop_qa_robust": "inline task with untyped (list-form) fields: possible_answers is a list",
    "cards.safety.truthful_qa": "its templates.qa.multiple_choice.match post-processor needs the task data",
    **{f"cards.rag.benchmark.{name}.en": "templates.rag.end_to_end.json_predictions has an empty input_format (the "
                                         "predictions come from a RAG system, not from a prompt)"
       for name in ("bioasq", "clap_nq", "hotpotqa", "miniwiki", "real_mm_rag_fin_report", "real_mm_rag_fin_slides",
                    "real_mm_rag_tech_report", "real_mm_rag_tech_slides", "watsonxqa")},
    "cards.rag.mtrag": "templates.rag.end_to_end.json_predictions has an empty input_format (RAG system predictions)",
    **{f"cards.rag_eval.faithfulness.ragbench.{subset}": "a NullTemplate (empty source): the judged data is scored, "
                                                         "not prompted"
       for subset in ("covidqa", "cuad", "delucionqa", "emanual", "expertqa", "finqa", "hagrid", "hotpotqa",
                      "msmarco", "pubmedqa", "tatqa", "techqa")},
}


def _task_name(name: str) -> str:
    task = ENTRIES[name].get("task")
    return task.split("[")[0] if isinstance(task, str) else ""


CARD_NAMES = [name for name in NAMES if name.startswith("cards.") and ENTRIES[name]["__type__"] == "task_card"
              and name not in CARDS_NOT_SYNTHESIZED and _task_name(name) not in ORIGINAL_LAYOUT_TASKS]
GENERIC = ["templates.key_val", "templates.key_val_with_new_lines"]


@pytest.mark.parametrize("name", TASK_NAMES)
def test_every_template_of_a_task_renders_a_synthetic_instance(name):
    task = _load(name)
    family = build_catalog_index.template_family(ENTRIES, name)
    assert family is not None, f"{name} has no templates family (templates.<...>.all)"
    members = build_catalog_index.family_members(ENTRIES, family)
    assert f"{family}.default" in members or family == "templates.qa.open", f"{family} has no .default"
    count = _check_renders(task, _templates_of(f"{family}.all") + _templates_of(GENERIC), name)
    assert count >= 3


@pytest.mark.parametrize("name", CARD_NAMES)
def test_card_templates_render_a_synthetic_instance_of_the_card_task(name):
    card = _load(name)
    assert isinstance(card, TaskCard)
    task = card.task if isinstance(card.task, Task) else _load(card.task)
    templates = _templates_of(card.templates)
    if not templates:
        family = build_catalog_index.template_family(ENTRIES, card.task if isinstance(card.task, str) else "")
        templates = _templates_of(f"{family}.all") if family else []
    if templates:
        _check_renders(task, templates, name)


def test_every_task_has_default_title_or_instruction_variants():
    for name in TASK_NAMES:
        family = build_catalog_index.template_family(ENTRIES, name)
        members = build_catalog_index.family_members(ENTRIES, family)
        assert len(members) >= 1, name
    for family in ("classification.multi_class", "qa.open", "qa.with_context", "translation.directed",
                   "summarization.abstractive", "regression.two_texts", "generation", "span_labeling.extraction"):
        for variant in ("default", "title", "instruction", "empty", "all"):
            assert f"templates.{family}.{variant}" in ENTRIES, (family, variant)


# ---------------------------------------------------------------- specific documented behaviour
def test_span_labeling_identify_renders_the_documented_universal_ner_example():
    template = _load("templates.span_labeling.extraction.identify")
    task = _load("tasks.span_labeling.extraction")
    processed = task.process({
        "text": "What is this Miramar?", "text_type": "text",
        "entity_types": ["Person", "Organization", "Location"], "spans_starts": [13], "spans_ends": [20],
        "labels": ["Location"],
    })
    rendered = template.render(processed["input_fields"], processed["reference_fields"])
    assert rendered["source"] == ("From the following text, identify spans with entity type:Person, Organization, "
                                  "Location.\ntext: What is this Miramar?")
    assert rendered["target"] == "Miramar: Location"
    assert rendered["references"] == ["Miramar: Location"]
    assert template.postprocessor_names() == ["processors.to_span_label_pairs"]
    assert _postprocess(template, "Miramar: Location") == [("Miramar", "Location")]
    assert _postprocess(template, "None") == []


def test_llama2_format_reproduces_the_adding_format_example_byte_for_byte():
    from tests.formats.test_formats import LLAMA2_DOC_TEXT, LLAMA2_SYSTEM_PROMPT

    expected = LLAMA2_DOC_TEXT
    system_prompt = LLAMA2_SYSTEM_PROMPT
    instruction = ("Classify the grammatical acceptability of the following text to one of these options: "
                   "unacceptable, acceptable.\n")
    instance = {
        "source": "text: They drank the pub.",
        "instruction": instruction,
        "target_prefix": "The grammatical acceptability is ",
        "system_prompt": system_prompt,
        "demos": [{"source": "text: The more we study verbs, the crazier they get.", "target": "acceptable",
                   "target_prefix": "The grammatical acceptability is ", "instruction": instruction}],
    }
    result = _load("formats.llama2").process(instance)["source"]
    # the documentation page strips trailing whitespace; the format ends with the target prefix "... is "
    assert result == expected + " "
    # and the format equals the code shown in the tutorial
    data = ENTRIES["formats.llama2"]
    assert data["demo_format"] == "{source} [/INST] {target_prefix}{target} </s><s>[INST] "
    assert data["model_input_format"] == ("[INST] <<SYS>>\n{system_prompt}\n\n{instruction}<<SYS>>\n\n\n{demos}"
                                          "{source} [/INST]{target_prefix}")


TOKENIZER_FORMATS = ("hf_system_format", "granite_documents_format")


@pytest.mark.parametrize("name", [name for name in NAMES if name.startswith("formats.")])
def test_formats_render_with_and_without_demos(name):
    if ENTRIES[name]["__type__"] in TOKENIZER_FORMATS:
        return  # rendered by a model's tokenizer (transformers and a download): tests/tiers/models
    fmt = _load(name)
    layout = ENTRIES[name].get("model_input_format")
    # a model's markup may have no system prompt (Starling, Llama Guard 2, FLAN few-shot) or no demos (zero-shot)
    has_system_prompt = layout is None or "{system_prompt}" in layout
    has_demos = layout is None or "{demos}" in layout
    demo = {"source": "2+2?", "target": "4", "target_prefix": "A: ", "instruction": "Add."}
    for demos in ([], [demo, demo]):
        instance = {"source": "3+3?", "instruction": "Add.", "target_prefix": "A: ", "system_prompt": "Be exact.",
                    "demos": list(demos)}
        out = fmt.process(instance)["source"]
        text = out if isinstance(out, str) else json.dumps(out)
        assert "3+3?" in text and ("Be exact." in text or not has_system_prompt)
        if demos and has_demos:
            assert text.count("2+2?") == 2
    if getattr(fmt, "model_input_format", None):
        bare = fmt.process({"source": "q", "instruction": "", "target_prefix": "", "system_prompt": ""})["source"]
        assert "\n\n\n\n" not in bare


def test_deprecated_system_prompt_warns_and_still_works(caplog):
    data = ENTRIES["system_prompts.boolqa"]
    assert data["__deprecated_msg__"]
    prompt = _load("system_prompts.boolqa")
    assert "yes or no" in prompt.process({})["system_prompt"]


def test_splitters_produce_the_described_splits():
    from unitxt.stream import ListStream, MultiStream

    def data(n, split):
        return [{"i": index, "split": split} for index in range(n)]

    small = _load("splitters.small_no_dev")
    result = small(MultiStream({"train": ListStream(data(100, "train")), "test": ListStream(data(10, "test"))}))
    sizes = {name: len(list(stream)) for name, stream in result.items()}
    assert sizes == {"train": 95, "validation": 5, "test": 10}
    no_test = _load("splitters.large_no_test")
    result = no_test(MultiStream({"train": ListStream(data(200, "train")),
                                  "validation": ListStream(data(7, "validation"))}))
    sizes = {name: len(list(stream)) for name, stream in result.items()}
    assert sizes == {"train": 198, "validation": 2, "test": 7}
    train_ids = {item["i"] for item in result["train"]}
    assert not train_ids & {item["i"] for item in result["validation"]}
    only = _load("splitters.test_only")(MultiStream({"train": ListStream(data(3, "train"))}))
    assert list(only) == ["test"]
    sampler = _load("splitters.diverse_labels_sampler")
    assert type(sampler).__name__ == "DiverseLabelsSampler"


def test_metric_defaults_of_tasks_are_catalog_metrics():
    for name in TASK_NAMES + list(ORIGINAL_LAYOUT_TASKS):
        for metric in ENTRIES[name].get("metrics", []):
            base = metric.split("[", 1)[0]  # a catalog metric with overrides, e.g. name[reference_field=...]
            assert base in ENTRIES and base.startswith("metrics."), (name, metric)


# ---------------------------------------------------------------- every task passes test_card on synthetic data
WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split()
# tasks whose main metric can not reach the default expectations on arbitrary data
TEST_CARD_SETTINGS = {
    # character edit-distance accuracy gives partial credit to any string
    "tasks.grammatical_error_correction": {"maximum_full_mismatch_score": 0.2},
    # predictions are RAG response dicts ({"answer", "contexts", "contexts_id"}), not the textual references
    "tasks.rag.end_to_end": {"test_exact_match_score_when_predictions_equal_references": False,
                             "test_full_mismatch_score_with_full_mismatch_prediction_values": False},
}


def _varied(field: str, declared: Any, index: int) -> Any:
    """Values that differ between instances (so correlations and rankings are defined)."""
    origin, args = typing.get_origin(declared), typing.get_args(declared)
    if field == "text" and declared is str:
        return f"Anna met Bob in Rome on {WORDS[index % 12]} day"
    if field == "spans_starts":
        return [0, 9]
    if field == "spans_ends":
        return [4, 12]
    if field == "labels" and "spans_starts" in _CURRENT_FIELDS:
        return ["Person", "Person"]
    if field == "choices":
        return [f"choice {WORDS[index % 12]}", f"choice {WORDS[(index + 1) % 12]}"]
    if field == "answer" and declared is not str:
        return index % 2
    if field == "winner":
        return ["A", "B", "tie"][index % 3]
    if field == "corrected_texts":  # one correction per text, as the GEC cards give: char_edit_dist_accuracy takes
        # exactly one reference (the original's rule)
        return [f"corrected {WORDS[index % 12]} {WORDS[(index * 7) % 12]} text"]
    if field == "number_val":  # the human label of a RAG judge task: yes / no as 1 / 0 (binary metrics need 0/1)
        return index % 2
    if declared is str:
        return (f"{field} {WORDS[index % 12]} {WORDS[(index * 7) % 12]} and then {WORDS[(index * 5) % 12]} with "
                f"{WORDS[(index * 3) % 12]} more")
    if declared is bool:
        return True
    if declared is int:
        return index
    if declared is float:
        return float(index % 5) + 1.0
    if origin is typing.Union:
        return _varied(field, [arg for arg in args if arg is not type(None)][0], index)
    if origin in (list, tuple):
        return [_varied(field, args[0], index), _varied(field, args[0], index + 3)]
    if origin is dict:
        return {"key": WORDS[index % 12]}
    return f"{field} {index}"


_CURRENT_FIELDS: Dict[str, Any] = {}


@pytest.mark.parametrize("name", TASK_NAMES)
def test_every_task_and_its_templates_pass_test_card_on_synthetic_data(name, capsys):
    from unitxt.test_utils.card import test_card
    from unitxt.loaders import LoadFromDictionary

    task = _load(name)
    fields = {**task.input_types, **task.reference_types}
    _CURRENT_FIELDS.clear()
    _CURRENT_FIELDS.update(fields)

    def rows(count, offset):
        rows = [{field: _varied(field, declared, index + offset) for field, declared in fields.items()}
                for index in range(count)]
        if name.startswith(CHOICE_WINNER_TASKS):
            for index, row in enumerate(rows):
                row["winner"] = CHOICE_WINNERS[index % 3]
        return rows

    family = build_catalog_index.template_family(ENTRIES, name)
    templates = f"{family}.all"
    if name.startswith("tasks.rag_eval.") and name.endswith(".binary"):
        # a 0-10 rating prompt scales the gold 0/1 label to 0.1 as well (as the original), which a binary metric
        # refuses: the yes/no prompts are the binary task's
        templates = TemplatesList([t for t in _load(templates).items if not any(
            "scale_0_10" in str(p) or "rating_judgment" in str(p)
            for p in getattr(_load(t), "postprocessors", []) or [])])
    card = TaskCard(loader=LoadFromDictionary(data={"train": rows(10, 0), "test": rows(8, 20)}), task=name,
                    templates=templates)
    problems = test_card(card, num_demos=1, demos_pool_size=3, **TEST_CARD_SETTINGS.get(name, {}))
    assert problems == []
    assert "test_card: all checks passed." in capsys.readouterr().out
