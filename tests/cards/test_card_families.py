"""The generated card families (scripts/catalog_sources/cards_*.py modules marked SAMPLED_ON_MIRRORS: Global-MMLU,
Belebele, MILU, MASSIVE, XL-Sum, XNLI, Indic BoolQ, FLORES-101, Aya, XWinograd, MLSUM, HEAD-QA, WikiHow QA,
RAGBench, Universal NER - read from local copies of its IOB2 files -, MMMU, BBQ).

Every card is in the snapshot unchanged, documented and fetchable by name; a sample of each family runs through the
real LoadHF, offline, from local Hub-layout mirrors of its dataset in the real schema (tests/support/card_family_sources.py):
rows are rendered with the card's first template and 2 demos (when the card has a train split), and gold targets given as predictions score the task's
maximum. (The compat tier compares every family card with the original's card: tiers/compat/test_same_cards.py.)
"""

import collections
import copy
import importlib.util
import json
import sys
import time
from pathlib import Path

import pytest

from unitxt.catalog import fetch_artifact
from unitxt.evaluation import evaluate
from unitxt.recipe import DatasetRecipe

from tests.support.card_family_sources import sources_of
from tests.support.hub_mirror import make_hub_dataset

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "scripts" / "catalog_sources"
SNAPSHOT = ROOT / "catalog_snapshot"
sys.path.insert(0, str(SOURCES))

# per family, the cards run on mirrors (first and last of each table, and both forms where a family has two)
SAMPLE = [
    "cards.global_mmlu.am.abstract_algebra", "cards.global_mmlu.zh.world_religions",
    "cards.global_mmlu_lite_ca.ar", "cards.global_mmlu_lite_cs.zh",
    "cards.belebele.acm_arab", "cards.belebele.zul_latn",
    "cards.milu.Bengali.Arts_and_Humanities", "cards.milu.Telugu.Social_Sciences",
    "cards.amazon_mass.af_ZA", "cards.amazon_mass.all_1.1",
    "cards.xlsum.amharic", "cards.xlsum.yoruba",
    "cards.xnli.ar", "cards.xnli.zh",
    "cards.boolq_indic.bn.classification", "cards.boolq_indic.te.multiple_choice",
    "cards.mt.flores_101.eng_deu", "cards.mt.flores_101.kor_eng",
    "cards.cohere_for_ai.aya_human_annotated.arb", "cards.cohere_for_ai.dolly_machine_translated.spa",
    "cards.xwinogrande.jp", "cards.mlsum.tu", "cards.head_qa.gl", "cards.almost_evil", "cards.almost_evil.nl",
    "cards.ragbench.covidqa", "cards.ragbench.techqa",
    "cards.universal_ner.da.ddt", "cards.universal_ner.zh.pud", "cards.rag.response_generation.ragbench.cuad",
    "cards.mmmu.art_theory", "cards.mmmu.public_health", "cards.safety.bbq.Race_x_SES",
]
JUDGED = {"cards.cohere_for_ai"}  # scored by an LLM judge: rendered here, not scored


def _family_cards():
    cards = {}
    for path in sorted(SOURCES.glob("cards_*.py")):
        spec = importlib.util.spec_from_file_location(f"family_source_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if getattr(module, "SAMPLED_ON_MIRRORS", False):
            module.register(lambda name, artifact: cards.__setitem__(name, artifact) if name.startswith("cards.")
                            else None)
    return cards


FAMILY_CARDS = _family_cards()


def test_every_family_card_is_in_the_snapshot_documented_and_fetchable():
    families = collections.Counter(name.split(".")[1] for name in FAMILY_CARDS)
    assert families["global_mmlu"] == 42 * 57 and families["belebele"] == 122 and families["milu"] == 88
    assert families["amazon_mass"] == 54 and families["xlsum"] == 45 and families["xnli"] == 15
    assert families["boolq_indic"] == 20 and families["mt"] == 16 and families["cohere_for_ai"] == 15
    assert families["xwinogrande"] == 5 and families["mlsum"] == 5 and families["head_qa"] == 5
    assert families["almost_evil"] == 9 and families["ragbench"] == 12 and families["universal_ner"] == 18
    assert families["rag"] == 34 and families["mmmu"] == 30 and families["safety"] == 16
    for name, card in FAMILY_CARDS.items():
        path = SNAPSHOT / ("/".join(name.split(".")) + ".json")
        data = card.to_dict()
        assert json.loads(path.read_text(encoding="utf-8")) == json.loads(json.dumps(data)), f"{name}: run scripts/build_catalog.py"
        assert data["__description__"].strip() and {"task", "language", "modality", "urls"} <= set(data["__tags__"])
        # Hub datasets, or (JUDGE-BENCH) data files in a GitHub repository
        assert data["__tags__"]["urls"]["dataset"].startswith(("https://huggingface.co/datasets/",
                                                               "https://github.com/"))
    start = time.perf_counter()
    for name in SAMPLE:
        assert fetch_artifact(name)[0].to_dict() == FAMILY_CARDS[name].to_dict()
    assert (time.perf_counter() - start) / len(SAMPLE) < 0.5


def _write_mirrors(root: Path) -> Path:
    """The sampled cards' sources in the Hub layout: named configs in a README, data folders as <dir>/<split>.jsonl."""
    by_repo = collections.defaultdict(dict)
    for name in SAMPLE:
        for source in sources_of(name, FAMILY_CARDS[name]):
            if "iob_files" in source:  # files the loader reads by URL: mirrored under <root>/iob/<card>/
                for split, text in source["iob_files"].items():
                    path = root / "iob" / name / f"{split}.iob2"
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(text, encoding="utf-8")
            elif source["data_dir"] is not None:
                for split, rows in source["splits"].items():
                    path = root / source["path"] / source["data_dir"] / f"{split}.jsonl"
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows),
                                    encoding="utf-8")
            else:
                by_repo[source["path"]][source["name"] or "default"] = source["splits"]
    for repo, configs in by_repo.items():
        make_hub_dataset(root, repo, configs)
    return root


@pytest.fixture(scope="module")
def family_mirrors(tmp_path_factory):
    return _write_mirrors(tmp_path_factory.mktemp("family_mirrors"))


@pytest.mark.parametrize("name", SAMPLE)
def test_family_card_on_its_mirror(name, family_mirrors, monkeypatch):
    monkeypatch.chdir(family_mirrors)
    card, _ = fetch_artifact(name)
    if type(card.loader).__name__ == "LoadIOB":  # read the mirrored files instead of the URLs
        card, loader = copy.copy(card), copy.copy(card.loader)
        loader.files = {split: str(family_mirrors / "iob" / name / f"{split}.iob2") for split in loader.files}
        card.loader = loader
    first = next(iter(card.templates)) if hasattr(card.templates, "keys") else 0  # a dict of templates: its first key
    demos = 2 if "train" in DatasetRecipe(card=card, template_card_index=first).standardized() else 0
    recipe = DatasetRecipe(card=card, template_card_index=first, num_demos=demos, demos_pool_size=3 if demos else None)
    streams = {split: list(stream) for split, stream in recipe().items()}
    test = streams["test"]
    assert len(test) >= 1, {split: len(rows) for split, rows in streams.items()}
    for row in test:
        assert isinstance(row["source"], str) and row["source"].strip() and row["target"].strip()
        assert json.loads(row["task_data"])["metadata"]["num_demos"] == demos
    if name.rsplit(".", 2)[0] in JUDGED or ".".join(name.split(".")[:2]) in JUDGED:
        return
    results = evaluate([row["target"] for row in test], test)
    assert results.global_scores.score == pytest.approx(1.0), (name, results.global_scores.summary)
