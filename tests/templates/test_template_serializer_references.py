"""A template's own serializer verbalises its reference fields too (issue 47): the documented batched
multi-class example serialises its EnumeratedList labels as "1. x" lines, its post-processor parses them back, and a
gold prediction scores F1 1.0 (it scored 0 when the labels were joined with commas)."""

import re
from typing import Any, Dict, List, NewType, Tuple

from unitxt.api import evaluate, load_dataset
from unitxt.card import TaskCard
from unitxt.loaders import LoadFromDictionary
from unitxt.operators import FieldOperator
from unitxt.processors import PostProcess
from unitxt.serializers import ListSerializer, MultiTypeSerializer, SingleTypeSerializer
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate
from unitxt.type_utils import register_type

EnumeratedList = NewType("EnumeratedList", List[str])
register_type(EnumeratedList)


class ParseEnumeratedList(FieldOperator):
    """"1. a\\n2. b" -> [("1", "a"), ("2", "b")] (the example's parser)."""

    def process_value(self, text: Any) -> Any:
        pairs = []
        for line in text.split("\n"):
            found = re.findall(r"(\d+)\.\s*(.*)", line)
            if len(found) == 1:
                pairs.append(found[0])
        return pairs


class EnumeratedListSerializer(SingleTypeSerializer):
    serialized_type = EnumeratedList

    def serialize(self, value: EnumeratedList, instance: Dict[str, Any]) -> str:
        return "\n".join(f"{index + 1}. {item}" for index, item in enumerate(value))


TASK = Task(
    input_fields={"texts": EnumeratedList, "text_type": str, "classes": EnumeratedList, "type_of_class": str},
    reference_fields={"labels": EnumeratedList},
    prediction_type=List[Tuple[str, str]],
    metrics=["metrics.ner"],
    defaults={"text_type": "text"},
)
ROWS = [
    {"texts": ["I lost my card", "Top up failed"], "classes": ["card_lost", "top_up_failed"],
     "type_of_class": "intent", "labels": ["card_lost", "top_up_failed"]},
    {"texts": ["Where is my card?"], "classes": ["card_lost", "card_arrival"], "type_of_class": "intent",
     "labels": ["card_arrival"]},
]


def _template(serializer):
    return InputOutputTemplate(
        input_format="Classify each text to its {type_of_class}, one of:\n{classes}\nTexts:\n{texts}",
        target_prefix="Answer:\n",
        output_format="{labels}",
        postprocessors=["processors.lower_case", PostProcess(ParseEnumeratedList())],
        serializer=serializer,
    )


def _dataset(template):
    card = TaskCard(loader=LoadFromDictionary(data={"test": ROWS}, data_classification_policy=["public"]), task=TASK)
    return load_dataset(card=card, template=template, format="formats.chat_api", split="test")


def test_template_serializer_verbalises_the_list_reference():
    dataset = _dataset(_template(MultiTypeSerializer(serializers=[EnumeratedListSerializer()])))
    assert dataset["target"] == ["1. card_lost\n2. top_up_failed", "1. card_arrival"]
    assert dataset["references"] == [["1. card_lost\n2. top_up_failed"], ["1. card_arrival"]]
    assert "1. I lost my card\n2. Top up failed" in dataset[0]["source"][-1]["content"]


def test_gold_predictions_parse_and_score_one():
    dataset = _dataset(_template(MultiTypeSerializer(serializers=[EnumeratedListSerializer()])))
    results = evaluate(predictions=list(dataset["target"]), data=dataset)
    assert results.instance_scores[0]["processed_references"] == [[("1", "card_lost"), ("2", "top_up_failed")]]
    assert results.global_scores["score"] == 1.0


def test_a_list_serializer_on_the_template_joins_references_its_way():
    dataset = _dataset(_template(ListSerializer()))
    assert dataset["target"] == ["card_lost, top_up_failed", "card_arrival"]


def test_without_a_serializer_list_references_stay_comma_joined_as_documented():
    template = InputOutputTemplate(input_format="{texts}", output_format="{labels}")
    assert template.reference_fields_to_target_and_references({"labels": ["happy", "angry"]}) == (
        "happy,angry", ["happy,angry"])
