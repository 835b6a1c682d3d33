"""The recipe of recipe_throughput.py run by the ORIGINAL unitxt package (the compat oracle venv's python runs this
file; never imported by the library or its tests). argv[1]: the folder holding train.jsonl and test.jsonl.

Prints one JSON line {"rows", "seconds", "cpu"}: the time of the original's load_dataset(card=..., template=..., num_demos=5,
demos_pool_size=100) end to end (its catalog and modules already imported).
"""

import json
import sys
import time


def main() -> None:
    folder = sys.argv[1]
    from unitxt import load_dataset
    from unitxt.card import TaskCard
    from unitxt.loaders import LoadJsonFile
    from unitxt.operators import Rename, Set
    from unitxt.task import Task
    from unitxt.templates import InputOutputTemplate

    task = Task(
        input_fields={"text_a": str, "text_a_type": str, "text_b": str, "text_b_type": str, "classes": "List[str]",
                      "type_of_relation": str},
        reference_fields={"label": str},
        prediction_type=str,
        metrics=["metrics.f1_micro", "metrics.accuracy", "metrics.f1_macro"],
    )
    template = InputOutputTemplate(
        instruction="Given a {text_a_type} and {text_b_type} classify the {type_of_relation} of the {text_b_type} to "
                    "one of {classes}.",
        input_format="{text_a_type}: {text_a}\n{text_b_type}: {text_b}",
        target_prefix="The {type_of_relation} class is ",
        output_format="{label}",
    )
    card = TaskCard(
        loader=LoadJsonFile(files={"train": f"{folder}/train.jsonl", "test": f"{folder}/test.jsonl"}, lines=True),
        preprocess_steps=[
            Rename(field_to_field={"premise": "text_a", "hypothesis": "text_b"}),
            Set(fields={"text_a_type": "premise", "text_b_type": "hypothesis", "type_of_relation": "entailment",
                        "classes": ["entailment", "not entailment"]}),
        ],
        task=task,
        templates=[template],
    )
    start, cpu = time.perf_counter(), time.process_time()
    dataset = load_dataset(card=card, template=template, num_demos=5, demos_pool_size=100)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(json.dumps({"rows": sum(len(split) for split in dataset.values()), "seconds": seconds, "cpu": cpu}))


if __name__ == "__main__":
    main()
