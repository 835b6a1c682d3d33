"""The whole original catalog (issue 28): each of the original's catalog names resolves here - as an entry of our
snapshot, or through a renamed name's link - or is listed with its reason (cards_left_out.txt for cards.*,
catalog_left_out_non_card.txt for the rest); at least 97% resolve, and no listed name resolves (no stale lines)."""

import warnings
from pathlib import Path

from unitxt.catalog import LocalCatalog, fetch_artifact

from .test_catalog_loads import oracle_catalog_folder

HERE = Path(__file__).parent
ROOT = HERE.parent.parent.parent


def _listed() -> dict:
    listed = {}
    for line in (HERE / "cards_left_out.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, reason = line.partition(":")
            listed[name.strip()] = reason.strip()
    for line in (HERE / "catalog_left_out_non_card.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, reason = line.partition("\t")
            listed[name.strip()] = reason.strip()
    return listed


def _resolves(name: str, snapshot: set) -> bool:
    if name in snapshot:
        return True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fetch_artifact(name)
    except Exception:  # noqa: BLE001 - any failure means the name does not resolve here
        return False
    return True


def test_every_original_name_resolves_or_is_listed_with_a_reason(capsys):
    original = sorted(LocalCatalog(oracle_catalog_folder()).names())
    snapshot = set(LocalCatalog(ROOT / "catalog_snapshot").names())
    listed = _listed()
    assert all(listed.values()), [name for name, reason in listed.items() if not reason]
    resolved = {name for name in original if _resolves(name, snapshot)}
    unexplained = sorted(set(original) - resolved - set(listed))
    assert not unexplained, f"{len(unexplained)} original names neither resolve nor are listed: {unexplained[:20]}"
    stale = sorted(name for name in listed if name in resolved)
    assert not stale, f"listed as left out but resolving here: {stale[:20]}"
    with capsys.disabled():
        print(f"\noriginal catalog names resolving here: {len(resolved)} of {len(original)} "
              f"({len(resolved) / len(original):.1%}); listed with a reason: {len(listed)}")
    assert len(resolved) / len(original) >= 0.97
