"""The documented batched multi-class classification example (a template with its own serializer for the
EnumeratedList type), run as written up to inference; the model's answers are replaced by the gold targets so that
it runs offline. Run from a folder holding PolyAI/banking77 in the Hub layout. Prints one JSON line."""

import json
import re
from typing import Any, Dict, List, NewType, Tuple

from unitxt.api import evaluate, load_dataset
from unitxt.artifact import fetch_artifact
from unitxt.operators import CollateInstances, Copy, FieldOperator, Rename
from unitxt.processors import PostProcess
from unitxt.serializers import MultiTypeSerializer, SingleTypeSerializer
from unitxt.task import Task
from unitxt.templates import InputOutputTemplate
from unitxt.type_utils import register_type


class ParseEnumeratedList(FieldOperator):
    def process_value(self, text: Any) -> Any:
        result = []
        for line in text.split("\n"):
            found = re.findall(r"(\d+)\.\s*(.*)", line)
            if len(found) == 1:
                result.append(found[0])
        return result


EnumeratedList = NewType("EnumeratedList", List[str])
register_type(EnumeratedList)


class EnumeratedListSerializer(SingleTypeSerializer):
    serialized_type = EnumeratedList

    def serialize(self, value: EnumeratedList, instance: Dict[str, Any]) -> str:
        return "\n".join([f"{i + 1}. {v}" for i, v in enumerate(value)])


task = Task(
    input_fields={"texts": EnumeratedList, "text_type": str, "classes": EnumeratedList, "type_of_class": str},
    reference_fields={"labels": EnumeratedList},
    prediction_type=List[Tuple[str, str]],
    metrics=["metrics.ner"],
    augmentable_inputs=["texts"],
    defaults={"text_type": "text"},
)

template = InputOutputTemplate(
    input_format="Classify each of the texts to its corresponding {type_of_class} from one of these options:\n"
    "{classes}\nReturn for each index the correspond class in a separate line.\nTexts:\n{texts}",
    target_prefix="Answer:\n",
    output_format="{labels}",
    postprocessors=["processors.lower_case", PostProcess(ParseEnumeratedList())],
    serializer=MultiTypeSerializer(serializers=[EnumeratedListSerializer()]),
)

report = {}
for batch_size in [4, 2, 1]:  # the example's sizes scaled to the mirror's rows
    card, _ = fetch_artifact("cards.banking77")
    card.preprocess_steps.extend([
        CollateInstances(batch_size=batch_size),
        Rename(field_to_field={"text": "texts", "label": "labels"}),
        Copy(field="text_type/0", to_field="text_type"),
        Copy(field="classes/0", to_field="classes"),
        Copy(field="type_of_class/0", to_field="type_of_class"),
    ])
    card.task = task
    card.templates = [template]
    dataset = load_dataset(card=card, template_card_index=0, format="formats.chat_api", num_demos=1,
                           demos_pool_size=2, loader_limit=1000, max_test_instances=8 / batch_size)
    test_dataset = dataset["test"]
    predictions = [row["target"] for row in test_dataset]  # the gold answers stand in for the model's
    results = evaluate(predictions=predictions, data=test_dataset)
    report[batch_size] = {
        "targets": list(test_dataset["target"]),
        "processed_references": [json.loads(json.dumps(instance["processed_references"]))
                                 for instance in results.instance_scores],
        "score": round(results.global_scores["score"], 6),
        "num_of_instances": results.global_scores["num_of_instances"],
    }
print(json.dumps(report, sort_keys=True))
