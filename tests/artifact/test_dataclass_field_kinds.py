"""The original's dataclass field kinds at `unitxt.dataclass`, on classes of our own: optional fields need a default,
final fields can not be overridden, abstract fields block instantiation until re-declared, non-positional fields are
named only, positional arguments follow declaration order, and unexpected arguments can be kept."""

import pytest

from unitxt.dataclass import (
    AbstractField,
    AbstractFieldError,
    Dataclass,
    FinalField,
    FinalFieldError,
    MissingDefaultError,
    NonPositionalField,
    OptionalField,
    RequiredField,
    RequiredFieldError,
    UnexpectedArgumentError,
    fields,
    fields_names,
)


def test_optional_field_needs_a_default():
    with pytest.raises(MissingDefaultError):
        class Broken(Dataclass):
            size: int = OptionalField()

    class Box(Dataclass):
        size: int = OptionalField(default=4)

    assert Box().size == 4 and Box(size=9).size == 9


def test_final_field_can_not_be_overridden():
    class Base(Dataclass):
        unit: str = FinalField(default="cm")

    with pytest.raises(FinalFieldError):
        class Imperial(Base):
            unit: str = "inch"

    class Plain(Base):
        depth: int = 1

    assert Plain().unit == "cm"


def test_abstract_field_until_redeclared():
    class Shape(Dataclass):
        sides: int = AbstractField()

    with pytest.raises(AbstractFieldError):
        Shape(sides=3)

    class Polygon(Shape):
        sides: int

    with pytest.raises(RequiredFieldError):
        Polygon()
    assert Polygon(sides=5).sides == 5


def test_positional_and_non_positional_fields():
    class Pair(Dataclass):
        label: str = NonPositionalField(default="")
        left: int = RequiredField()
        right: int = 0

    pair = Pair(3, 8, label="p")
    assert (pair.left, pair.right, pair.label) == (3, 8, "p")
    with pytest.raises(UnexpectedArgumentError):
        Pair(1, 2, 3)
    with pytest.raises(TypeError):
        Pair(1, left=2)
    assert fields_names(Pair) == ["label", "left", "right"]
    assert [spec.name for spec in fields(pair)] == ["label", "left", "right"]


def test_unexpected_arguments_kept_when_allowed():
    class Loose(Dataclass):
        __allow_unexpected_arguments__ = True
        width: int = 1

    loose = Loose(2, "extra", colour="red")
    assert loose.width == 2 and loose._argv == ("extra",) and loose._kwargs == {"colour": "red"}
