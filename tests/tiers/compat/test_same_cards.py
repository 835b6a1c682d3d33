"""Same card, same instances: every card of the generated families (scripts/catalog_sources/cards_*.py modules marked
SAMPLED_ON_MIRRORS) runs over synthetic rows in its dataset's real schema (tests/support/card_family_sources.py) through the
original package's card of the same name (oracle, `card` jobs of oracle_runner.py) and through ours. In both, the Hub
access is replaced by the in-memory rows (the loaders' own options - config, data folder, splits, filtering_lambda -
still apply), file loaders read local synthetic files, and other downloads (scikit-learn, Kaggle, single Hub files,
Wikipedia pages) are answered by the same stand-ins on both sides (card_interceptions.py); then the preprocess steps
and the task run. Compared: the split names and, per split, each instance's task
task_data (input_fields and reference_fields merged; the original's multiple-choice tasks list `choices`
among both). Templates are ours and not compared.

Splits made by seeded random portions (SplitRandomMix) are drawn differently by design (the original routes each row
at random, we cut exact seeded portions), so portion splits of one source are compared as the multiset of their union
(or, when the portions overlap, each as a subset of the source's instances); whole splits are compared exactly.
Every family card has synthetic rows; every original card name resolves here (none is left out).
"""

import collections
import functools
import importlib.util
import json
import sys
from pathlib import Path
from typing import Dict, List

import pytest

from unitxt.artifact import fetch_artifact
from unitxt.splitters import SplitRandomMix, parse_split_spec

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))  # the default tier's synthetic sources (tests/support/card_family_sources.py)
from tests.support.card_family_sources import covered, sources_of  # noqa: E402
from .card_interceptions import intercepted  # noqa: E402
from .image_sources import image_facts, typed_split  # noqa: E402
SOURCES = ROOT / "scripts" / "catalog_sources"


def _family_card_names() -> List[str]:
    sys.path.insert(0, str(SOURCES))
    names = []
    for path in sorted(SOURCES.glob("cards_*.py")):
        spec = importlib.util.spec_from_file_location(f"card_family_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if getattr(module, "SAMPLED_ON_MIRRORS", False):
            module.register(lambda name, artifact: names.append(name) if name.startswith("cards.") else None)
    return names


FAMILY_CARDS = _family_card_names()


def _original_card_names() -> set:
    """The original catalog's cards.* names (read from the oracle package's catalog folder)."""
    from unitxt.catalog import LocalCatalog

    from .test_catalog_loads import ORACLE_PYTHON, oracle_catalog_folder

    if not ORACLE_PYTHON.exists():  # the oracle fixture then fails every comparison with its setup hint
        return set()
    return {name for name in LocalCatalog(oracle_catalog_folder()).names() if name.startswith("cards.")}


def _every_shared_card() -> List[str]:
    """Every task card both catalogs hold: the generated families, then the single cards."""
    original = _original_card_names()
    snapshot = ROOT / "catalog_snapshot" / "cards"
    singles = sorted(
        name for name in ("cards." + path.relative_to(snapshot).with_suffix("").as_posix().replace("/", ".")
                          for path in snapshot.rglob("*.json"))
        if name in original and name not in set(FAMILY_CARDS)
        and json.loads((snapshot.parent / (name.replace(".", "/") + ".json")).read_text())["__type__"] == "task_card")
    return FAMILY_CARDS + singles


SHARED_CARDS = _every_shared_card()


def _ours(card, sources) -> Dict[str, list]:
    """Our card over the in-memory sources: loader (with datasets.load_dataset answered from memory), steps, task."""
    import datasets

    from unitxt.operator import SequentialOperator
    from unitxt.operators import Set

    def load(path, name=None, data_dir=None, split=None, streaming=False, **_):
        for source in sources:
            if (source.get("path"), source.get("name"), source.get("data_dir")) == (path, name, data_dir):
                splits = {key: typed_split(rows, source.get("image_columns") or {})  # image sources typed
                          for key, rows in source["splits"].items()}
                if streaming:
                    splits = {key: value.to_iterable_dataset() for key, value in splits.items()}
                return splits[split] if split is not None else splits
        raise FileNotFoundError(f"no synthetic source for {path} {name} {data_dir}")

    original, datasets.load_dataset = datasets.load_dataset, load
    restore_urlopen = _served_urls(sources)
    restore_hub_cache = _space_cache(sources)
    try:
        with intercepted(sources):  # stand-ins for sklearn, Kaggle, Hub file downloads (as oracle_runner.run_card)
            card = _with_local_files(card, sources)
            multi_stream = _given_or_loaded(card, sources)
            recipe_metadata = Set(fields={"recipe_metadata/system_prompt": None,  # as oracle_runner.run_card
                                          "recipe_metadata/format": fetch_artifact("formats.user_agent")[0]})
            out = SequentialOperator(steps=[recipe_metadata, *(card.preprocess_steps or []), card.task])(multi_stream)
            return {name: _task_fields(stream) for name, stream in out.items()}
    finally:
        datasets.load_dataset = original
        restore_urlopen()
        restore_hub_cache()


def _served_urls(sources):
    """As oracle_runner._served_urls: the sources' "url_files" ({url: text}) answer the downloads the card's steps
    make (ReadFile opens URLs with urllib here); other URLs fail as offline. Returns the function undoing it."""
    import io
    import urllib.request

    served = {url: text for source in sources for url, text in source.get("url_files", {}).items()}
    if not served:
        return lambda: None
    original = urllib.request.urlopen

    def urlopen(url, *args, **kwargs):
        if url in served:
            return io.BytesIO(served[url].encode("utf-8"))
        raise OSError(f"offline: no served file for {url}")

    urllib.request.urlopen = urlopen
    return lambda: setattr(urllib.request, "urlopen", original)


def _given_or_loaded(card, sources):
    """The given instances of a card without a loader (as oracle_runner.run_card), else what its loader gives."""
    from unitxt.stream import MultiStream

    for source in sources:
        if "given_instances" in source:
            return MultiStream.from_iterables(source["given_instances"], copying=True)
    return card.loader()


def _space_cache(sources):
    """Space sources (tests/support/space_mirrors.py) written into a temporary Hub cache that huggingface_hub then reads
    offline, as oracle_runner._space_cache does; returns what restores the previous cache."""
    import tempfile

    from huggingface_hub import constants

    from tests.support.space_mirrors import write_space_sources

    if not any("space_files" in source for source in sources):
        return lambda: None
    cache = Path(tempfile.mkdtemp())
    write_space_sources(sources, cache)
    previous = constants.HF_HUB_CACHE, constants.HF_HUB_OFFLINE
    constants.HF_HUB_CACHE, constants.HF_HUB_OFFLINE = str(cache), True

    def restore():
        constants.HF_HUB_CACHE, constants.HF_HUB_OFFLINE = previous

    return restore


def _task_fields(stream):
    """As oracle_runner._task_fields: the instances' task fields, or {"error": ...} for a stream that fails (a helper
    stream no recipe reads, such as the unjoined sides of a JoinStreams; both sides must then fail on it)."""
    try:
        return [image_facts({"input_fields": row["input_fields"], "reference_fields": row["reference_fields"]})
                for row in stream]  # PIL images as their facts, as oracle_runner._plain gives them
    except Exception as error:  # noqa: BLE001 - compared with the original's outcome on the same stream
        return {"error": type(error).__name__}


def _with_local_files(card, sources):
    """A copy of the card whose file loader (LoadIOB, LoadJsonFile) reads the given texts from local files instead of its URLs."""
    import copy
    import tempfile

    for source in sources:
        if "iob_files" in source or "local_files" in source:
            files = source.get("local_files") or {split: {"name": f"{split}.iob2", "text": text}
                                                  for split, text in source["iob_files"].items()}
            folder = Path(tempfile.mkdtemp())
            for split, file in files.items():
                (folder / file["name"]).write_text(file["text"], encoding="utf-8")
            card = copy.copy(card)
            card.loader = copy.copy(card.loader)
            card.loader.files = {split: str(folder / file["name"]) for split, file in files.items()}
            if getattr(card.loader, "indirect_read", False):  # as oracle_runner._local_files: local files directly
                card.loader.indirect_read = False
            if getattr(card.loader, "compression", None):  # the synthetic files are given uncompressed
                card.loader.compression = None
    return card


def _mixes(card) -> List[tuple]:
    """[(mix, shuffled before)] of the card's SplitRandomMix steps."""
    mixes, shuffled = [], False
    for step in card.preprocess_steps or []:
        if isinstance(step, str):
            step = fetch_artifact(step)[0]
        shuffled = shuffled or type(step).__name__ == "Shuffle"
        if isinstance(step, SplitRandomMix):
            mixes.append((step.mix, shuffled))
    return mixes


def _portion_groups(card):
    """[(targets, overlapping, reshuffled partition)] for splits cut as portions of one source; whole splits are not listed. Portions of a
    stream shuffled before the split count as overlapping: the original's Shuffle draws a new order on every pass over
    the stream (one generator for the operator's life), so its portions, each cut on its own pass, may share rows."""
    groups = []
    for mix, shuffled in _mixes(card):
        by_source = collections.defaultdict(list)
        for target, spec in mix.items():
            for source, amount, percent in parse_split_spec(spec):
                if amount is not None and not (percent and amount == 100):
                    by_source[source].append((target, amount if percent else None))
        for source, portions in by_source.items():
            total = sum(amount or 0 for _, amount in portions)
            whole = [target for target, spec in mix.items() if spec in (source, f"{source}[100%]")]
            groups.append(([target for target, _ in portions], total > 100 or bool(whole) or shuffled,
                           shuffled and total == 100 and not whole))
    return groups


# task fields one side's task definition has and the other's lacks, by family, with the reason
TASK_FIELD_DIFFERENCES = {
    # an instruction sentence carried in the instance: its wording is ours by rule (the facts around it are equal)
    "hh_rlhf": {"instance_instruction"},
}


# values the original draws at random per run (AddID: a uuid4), so no run of it repeats them: blanked on both sides
RANDOM_VALUES = {"cards.coqa.multi_turn": [("conversation", "id")]}


def _task_data(instance, ignored=frozenset(), random_values=()) -> str:
    """The instance's task_data (input and reference fields merged) without `ignored` fields and with the
    `random_values` (field, key) blanked, as sortable JSON."""
    data = {**instance["input_fields"], **instance["reference_fields"]}
    for field, key in random_values:
        data[field] = {**data[field], key: "<random>"}
    return json.dumps({key: value for key, value in data.items() if key not in ignored}, sort_keys=True,
                      ensure_ascii=False)


@pytest.fixture(scope="module")
def oracle_results(oracle, request):
    """The original's instances of the family cards whose comparison is selected in this session (all, or a -k)."""
    selected = {item.callspec.params["name"] for item in request.session.items
                if item.name.startswith("test_same_instances_as_the_original_card[")}
    jobs, names = [], []
    for name in (name for name in SHARED_CARDS if name in selected):
        card, _ = fetch_artifact(name)
        if covered(name, card):
            jobs.append({"kind": "card", "card": name, "sources": sources_of(name, card)})
            names.append(name)
    return dict(zip(names, oracle(jobs)))


def test_every_family_card_is_compared():
    for name in FAMILY_CARDS:
        card, _ = fetch_artifact(name)
        assert covered(name, card), f"{name}: no synthetic source"
    assert len(FAMILY_CARDS) >= 2903


def test_how_many_shared_cards_are_compared(capsys):
    """Every card both catalogs hold is compared when it has synthetic rows in its dataset's schema (the families'
    sources, or the default tier's mirror of a single card); the count may only go up."""
    compared = [name for name in SHARED_CARDS if covered(name, fetch_artifact(name)[0])]
    with capsys.disabled():
        print(f"\ncards both catalogs hold: {len(SHARED_CARDS)}; compared by rows: {len(compared)}")
    assert len(compared) >= 3256  # every card both catalogs hold


@pytest.mark.parametrize("name", [name for name in SHARED_CARDS if covered(name, fetch_artifact(name)[0])])
def test_same_instances_as_the_original_card(name, oracle_results):
    card, _ = fetch_artifact(name)
    theirs = oracle_results[name]
    assert "error" not in theirs, f"the original failed on {name}: {theirs['error']}"
    theirs = theirs["streams"]
    ours = _ours(card, sources_of(name, card))
    assert sorted(ours) == sorted(theirs), f"{name}: splits {sorted(ours)} != original {sorted(theirs)}"
    failing = {split for split, rows in theirs.items() if isinstance(rows, dict)}
    assert failing == {split for split, rows in ours.items() if isinstance(rows, dict)}, (name, failing, ours)
    ours, theirs = ({split: rows for split, rows in side.items() if split not in failing} for side in (ours, theirs))
    ignored = TASK_FIELD_DIFFERENCES.get(name.split(".")[1], set())
    first = next(rows[0] for rows in ours.values() if rows)
    first_theirs = next(rows[0] for rows in theirs.values() if rows)
    fields = lambda row: set(row["input_fields"]) | set(row["reference_fields"])  # noqa: E731
    assert fields(first) ^ fields(first_theirs) <= ignored, (name, fields(first), fields(first_theirs))
    _key = functools.partial(_task_data, ignored=ignored, random_values=RANDOM_VALUES.get(name, ()))
    assert sum(len(rows) for rows in ours.values()) > 0, f"{name}: the synthetic source gave no instance"
    portioned = set()
    for targets, overlapping, reshuffled in _portion_groups(card):
        portioned.update(targets)
        if reshuffled:  # ours: a partition of the source; the original's portions: draws from it, as many rows
            ours_union = [_key(row) for target in targets for row in ours[target]]
            theirs_union = [_key(row) for target in targets for row in theirs[target]]
            assert len(ours_union) == len(theirs_union) and set(theirs_union) <= set(ours_union), \
                f"{name}: the original's rows of splits {targets} are not among ours"
        elif overlapping:
            for target in targets:
                ours_all = {_key(row) for rows in ours.values() for row in rows}
                theirs_all = {_key(row) for rows in theirs.values() for row in rows}
                assert {_key(row) for row in ours[target]} <= ours_all
                assert {_key(row) for row in theirs[target]} <= theirs_all
        else:
            ours_union = sorted(_key(row) for target in targets for row in ours[target])
            theirs_union = sorted(_key(row) for target in targets for row in theirs[target])
            assert ours_union == theirs_union, f"{name}: the rows of splits {targets} differ"
    for split in sorted(set(ours) - portioned):
        assert sorted(map(_key, ours[split])) == sorted(map(_key, theirs[split])), f"{name}: split {split} differs"


def test_every_original_card_name_resolves_here(capsys):
    """The original catalog's cards.* names (read from the oracle package): each resolves here."""
    from unitxt.catalog import LocalCatalog

    from .test_catalog_loads import oracle_catalog_folder

    original = [name for name in LocalCatalog(oracle_catalog_folder()).names() if name.startswith("cards.")]
    ours = set(LocalCatalog(ROOT / "catalog_snapshot").names())
    missing = sorted(set(original) - ours)
    assert not missing, f"{len(missing)} original card names do not resolve here: {missing[:20]}"
    with capsys.disabled():
        print(f"\noriginal cards.* names resolving here: {len(original)} of {len(original)}")
    assert len(original) >= 3257
