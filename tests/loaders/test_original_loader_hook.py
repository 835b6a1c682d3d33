"""A loader written the original's way (overriding `load_iterables()`) runs here: its splits become streams whose
rows carry the data classification policy, and the given rows are not changed; the other loader methods of the
original (get_splits, load_data, set_default_data_classification) mean the same here."""

from unitxt.loaders import LoadFromDictionary, Loader


class InMemory(Loader):
    """Written against the original's hook."""

    def load_iterables(self):
        return {"train": ROWS, "test": ({"text": f"t{i}"} for i in range(3))}


ROWS = [{"text": "a"}, {"text": "b"}]


def test_a_loader_overriding_load_iterables_gives_its_splits():
    streams = InMemory(data_classification_policy=["public"])()
    assert sorted(streams) == ["test", "train"]
    assert list(streams["train"]) == [{"text": "a", "data_classification_policy": ["public"]},
                                      {"text": "b", "data_classification_policy": ["public"]}]
    assert [row["text"] for row in streams["test"]] == ["t0", "t1", "t2"]
    assert ROWS == [{"text": "a"}, {"text": "b"}]  # copies, as the original's from_iterables(copying=True)


def test_the_other_loader_methods():
    loader = LoadFromDictionary(data={"train": [{"x": 1}], "dev": [{"x": 2}]})
    assert loader.get_splits() == ["train", "dev"]
    assert {split: list(rows) for split, rows in loader.load_data().items()} == {"train": [{"x": 1}],
                                                                                 "dev": [{"x": 2}]}
    assert {split: list(rows) for split, rows in loader.load_iterables().items()} == {"train": [{"x": 1}],
                                                                                      "dev": [{"x": 2}]}
    unset = InMemory()
    unset.set_default_data_classification(["pii"], "because")
    assert unset.data_classification_policy == ["pii"]
    assert list(unset()["train"])[0]["data_classification_policy"] == ["pii"]
