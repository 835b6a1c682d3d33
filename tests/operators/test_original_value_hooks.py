"""Operators written the original's way: a text augmentor overriding `process_value(text)` and an instance field
operator overriding `process_instance_value(value, instance)` run here with their override, and a serializer's
`process_instance_value` is its serialize."""

from unitxt.augmentors import AugmentPrefixSuffix, AugmentWhitespace
from unitxt.operators import InstanceFieldOperator
from unitxt.serializers import NumberQuantizingSerializer


class Shout(AugmentWhitespace):
    """Written against the original's hook."""

    def process_value(self, value):
        return value.upper() + "!"


class WithId(InstanceFieldOperator):
    """Written against the original's hook: the value and its instance."""

    def process_instance_value(self, value, instance):
        return f"{instance['id']}:{value}"


def test_a_text_augmentor_overriding_process_value_changes_the_inputs():
    instance = {"input_fields": {"question": "is it on?", "n": 3}}
    out = Shout(fields=["question"]).process_instance(instance)
    assert out["input_fields"] == {"question": "IS IT ON?!", "n": 3}


def test_the_base_text_hook_is_the_augmentation():
    augmented = AugmentPrefixSuffix(prefixes=["<"], prefix_len=1, suffixes=[">"], suffix_len=1).process_value("x")
    assert augmented == "<x>"


def test_an_instance_field_operator_overriding_process_instance_value():
    out = WithId(field="text", to_field="tagged").process_instance({"id": 7, "text": "hello"})
    assert out == {"id": 7, "text": "hello", "tagged": "7:hello"}


def test_a_serializer_process_instance_value_is_its_serialize():
    serializer = NumberQuantizingSerializer(quantum=0.5)
    assert serializer.process_instance_value(3.26, {}) == serializer.serialize(3.26, {})
