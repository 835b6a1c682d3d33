"""A prompt-resampling study written the way third-party tools use unitxt: load one dataset under several
templates and demo counts, read the rendered rows back from `to_dict()` (chat sources are evaluated from their
stored text), check them against the rows read one by one, and score a gold answer set with `unitxt.evaluate`.

Run from a folder holding the GLUE WNLI data in the Hugging Face Hub layout (nyu-mll/glue). Prints one JSON line.
"""

import json
from collections import Counter

from unitxt import evaluate, load_dataset, produce

CARD = "cards.wnli"
METRICS = ["metrics.accuracy"]  # the study's own metric (the card's F1 needs the HF evaluate hub)
TEMPLATES = ["templates.classification.multi_class.relation.default", "templates.key_val"]
DEMOS = [0, 1, 3]


def messages_of(source):
    """The chat messages of a stored row: its source is the text of a list of messages."""
    return eval(source) if isinstance(source, str) else source  # noqa: S307 - how such scripts read the rows


def study_one(template, num_demos, chat):
    kwargs = {"card": CARD, "template": template, "num_demos": num_demos, "demos_pool_size": 10,
              "max_test_instances": 20, "metrics": METRICS, "split": "test"}
    if chat:
        kwargs["format"] = "formats.chat_api"
    dataset = load_dataset(**kwargs)
    columns = dataset.to_dict()
    shapes = []
    for index in range(len(columns["source"])):
        task_data = json.loads(columns["task_data"][index])
        row = dataset[index]
        if chat:
            messages = messages_of(columns["source"][index])
            assert messages == row["source"], "the stored text and the row read disagree"
            shape = [message["role"] for message in messages]
        else:
            assert columns["source"][index] == row["source"]
            shape = ["text"]
        shapes.append({"roles": shape, "demos": len(task_data.get("demos", [])),
                       "template": task_data["metadata"]["template"], "num_demos": task_data["metadata"]["num_demos"],
                       "target": columns["target"][index], "references": columns["references"][index]})
    gold = [references[0] for references in columns["references"]]
    results = evaluate(predictions=gold, data=dataset)
    scores = results.global_scores
    return {"rows": shapes, "score_name": scores["score_name"], "score": round(scores["score"], 6),
            "num_of_instances": scores["num_of_instances"],
            "instance_scores": [round(instance["score"], 6) for instance in results.instance_scores]}


def resampled(chat):
    """All templates and demo counts drawn per instance in one dataset, scored per template and demo count."""
    kwargs = {"card": CARD, "template": TEMPLATES, "num_demos": DEMOS, "demos_pool_size": 10,
              "max_test_instances": 30, "group_by": ["template", "num_demos", ["template", "num_demos"]],
              "metrics": METRICS, "split": "test"}
    if chat:
        kwargs["format"] = "formats.chat_api"
    dataset = load_dataset(**kwargs)
    columns = dataset.to_dict()
    drawn, demo_counts = Counter(), set()
    for index in range(len(columns["task_data"])):
        metadata = json.loads(columns["task_data"][index])["metadata"]
        drawn[metadata["template"]] += 1
        demo_counts.add(metadata["num_demos"])
        if chat:
            assert messages_of(columns["source"][index])[-1]["role"] == "user"
    results = evaluate(predictions=[row[0] for row in columns["references"]], data=dataset)
    by_template = {str(name): _scores(group) for name, group in results.groups_scores.items() if name == "template"}
    return {"drawn": dict(sorted(drawn.items())), "demo_counts_drawn_from": sorted(demo_counts) <= DEMOS,
            "score": round(results.global_scores["score"], 6), "by_template": by_template,
            "groups_per_row": sorted({len(groups) for groups in columns["groups"]})}


def _scores(group):
    """A group's scores by value, as plain JSON (names as text, scores rounded)."""
    if isinstance(group, dict):
        return {str(key): _scores(value) for key, value in group.items()}
    return round(group, 6) if isinstance(group, float) else group if isinstance(group, (int, str)) else str(group)


def produced():
    """Rows produced for new instances: one instance gives a row, a list gives a dataset of rows."""
    instance = {"text_a": "The cat sat.", "text_a_type": "premise", "text_b": "A cat sat.",
                "text_b_type": "hypothesis", "classes": ["entailment", "not entailment"],
                "type_of_relation": "entailment"}
    recipe = f"card={CARD},template={TEMPLATES[0]},format=formats.chat_api"
    one = produce(instance, recipe)
    many = produce([instance, dict(instance, text_b="No cat.")], recipe)
    return {"one_source_stored_as": type(one["source"]).__name__,
            "one_roles": [message["role"] for message in messages_of(one["source"])],
            "many": len(many), "many_read_as": type(many[0]["source"]).__name__,
            "many_features_source": many.features["source"].dtype}


def main():
    report = {"single": {f"{template}|{num_demos}|{'chat' if chat else 'text'}": study_one(template, num_demos, chat)
                         for template in TEMPLATES for num_demos in (0, 2) for chat in (False, True)},
              "resampled": {"text": resampled(False), "chat": resampled(True)},
              "produced": produced()}
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
