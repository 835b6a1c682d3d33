"""Recipes, benchmarks, fusions, samplers, augmentors, tasks and the dataset builder subclassed the original's way
(overriding its public methods with the original's signatures) run with the override in effect; its properties give
what the recipe's fields say."""

import tempfile

import pytest

from unitxt.augmentors import TextAugmentor
from unitxt.benchmark import Benchmark
from unitxt.dataset import Dataset
from unitxt.errors import RecipeError
from unitxt.fusion import FixedFusion
from unitxt.loaders import LoadFromDictionary
from unitxt.samplers import DiverseLabelsSampler
from unitxt.standard import DatasetRecipe
from unitxt.task import Task
from unitxt.templates import KeyValTemplate

from tests.support.recipe_fixtures import wnli_like_card


def recipe(cls=DatasetRecipe, **kwargs):
    return cls(card=wnli_like_card(train=20, test=6, validation=2), **kwargs)


def test_recipe_properties_follow_the_fields():
    demos = recipe(template_card_index=0, num_demos=[1, 3], demos_pool_size=10)
    assert (demos.max_demos_size, demos.use_demos, demos.has_custom_demos_pool) == (3, True, True)
    assert (demos.has_no_templates, demos.has_card_templates) == (False, True)
    plain = recipe()
    assert (plain.max_demos_size, plain.use_demos, plain.has_custom_demos_pool, plain.has_no_templates) == (
        0, False, False, True)
    assert recipe(num_demos=1, demos_pool_size=-1).has_custom_demos_pool


def test_verify_template_is_called_for_the_chosen_templates():
    class NoKeyVal(DatasetRecipe):
        def verify_template(self, template):
            super().verify_template(template)
            if isinstance(template, KeyValTemplate):
                raise RecipeError("key-value templates are not allowed here")

    assert len(recipe(NoKeyVal, template_card_index=0).get_templates()) == 1
    with pytest.raises(RecipeError, match="key-value templates are not allowed here"):
        recipe(NoKeyVal, template_card_index=1)


def test_production_preprocess_is_what_produce_renders():
    class Shouting(DatasetRecipe):
        def production_preprocess(self, task_instances):
            return super().production_preprocess([{**row, "text_a": row["text_a"].upper()} for row in task_instances])

    instance = {"text_a": "the cat sat", "text_b": "a dog", "classes": ["not entailment", "entailment"],
                "type_of_relation": "entailment", "text_a_type": "premise", "text_b_type": "hypothesis"}
    checked = recipe(template_card_index=0).production_preprocess([instance])
    assert checked[0]["input_fields"]["text_a"] == "the cat sat"
    rows = recipe(Shouting, template_card_index=0).produce([instance])
    assert "premise: THE CAT SAT" in rows[0]["source"]


def test_reset_calls_reset_pipeline_and_benchmark_reset_resets_subsets():
    calls = []

    class Tracked(DatasetRecipe):
        def reset_pipeline(self):
            calls.append(self.template_card_index)
            super().reset_pipeline()

    first = recipe(Tracked, template_card_index=0)
    first.produces_media()
    assert "_produces_media" in first.__dict__
    first.reset()
    assert calls == [0] and "_produces_media" not in first.__dict__  # what was derived is made again on next use
    Benchmark(subsets={"a": first, "b": recipe(Tracked, template_card_index=1)}).reset()
    assert calls == [0, 0, 1]


def test_fusion_prepare_subsets():
    class Renamed(FixedFusion):
        def prepare_subsets(self):
            return {f"fused_{name}": subset for name, subset in super().prepare_subsets().items()}

    source = LoadFromDictionary(data={"test": [{"x": 1}, {"x": 2}]})
    rows = list(Renamed(subsets={"s": source})()["test"])
    assert [row["subset"] for row in rows] == [["fused_s"], ["fused_s"]]
    assert list(FixedFusion(subsets=[source]).prepare_subsets()) == [0]
    assert FixedFusion(subsets={"s": source}).get_splits() == ["test"]  # a source's splits (SourceOperator)


def exemplar(label, index):
    return {"input_fields": {"choices": ["a", "b"], "text": str(index)}, "reference_fields": {"labels": [label]}}


def test_diverse_labels_sampler_divide_by_repr():
    pool = [exemplar("a", 0), exemplar("b", 1), exemplar("a", 2), exemplar("b", 3)]
    groups = DiverseLabelsSampler().divide_by_repr(pool)
    assert groups == {"['a']": [pool[0], pool[2]], "['b']": [pool[1], pool[3]]}

    class OnlyA(DiverseLabelsSampler):
        def divide_by_repr(self, exemplars_pool):
            return {"['a']": super().divide_by_repr(exemplars_pool)["['a']"]}

    drawn = OnlyA().sample(2, pool, exemplar("a", 9))
    assert sorted(item["input_fields"]["text"] for item in drawn) == ["0", "2"]


def test_type_dependent_augmentor_process_instance_value():
    class ShoutingText(TextAugmentor):
        augmented_type = str

        def augment_text(self, text, rng):
            return text.upper()

    out = ShoutingText(fields=["a", "words"]).process({"a": "word", "words": ["x"]})
    assert out == {"a": "WORD", "words": ["x"]}  # a list of texts is not of the augmented type (str)

    class Marked(ShoutingText):
        def process_instance_value(self, value, instance):
            return f"<{super().process_instance_value(value, instance)}>"

    assert Marked(fields=["a"]).process({"a": "x"}) == {"a": "<X>"}


def test_task_deprecations_is_called_on_construction():
    class NoLegacy(Task):
        def task_deprecations(self):
            if self.inputs is not None:
                raise RecipeError("use input_fields")

    assert NoLegacy(input_fields={"t": str}, reference_fields={"l": str}).input_fields == {"t": str}
    with pytest.raises(RecipeError, match="use input_fields"):
        NoLegacy(inputs={"t": str}, outputs={"l": str})


def test_dataset_builder_generators_is_the_recipes_multistream():
    with tempfile.TemporaryDirectory() as cache:
        builder = Dataset(config_name="recipe-object", recipe=recipe(template_card_index=0), cache_dir=cache)
        streams = builder.generators
        assert builder.generators is streams  # made once
        assert sorted(streams) == ["test", "train", "validation"]
        assert len(list(streams["test"])) == 6
