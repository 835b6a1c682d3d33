"""Save-and-reload check: an artifact written to a catalog and read back must be the same artifact."""

import json
from typing import Any

from ..artifact import Artifact, fetch_artifact
from ..catalog import add_to_catalog
from ..errors import UnitxtError
from .catalog import temp_catalog
from ..module_aliases import moved_classes

TEMP_NAME = "tmp_name"  # the catalog name the round trip saves under (the original's)


class ArtifactRoundTripError(UnitxtError, AssertionError):
    """An artifact changes (or fails) when saved to a catalog and loaded back."""


def test_artifact_saving_and_loading(artifact: Artifact, tester: Any = None) -> Artifact:
    """Save `artifact` in a temporary catalog, load it back and check both serialise to the same JSON; returns the
    loaded artifact. `tester` (a unittest.TestCase) reports the difference through its assertEqual when given."""
    name = TEMP_NAME
    with temp_catalog() as path:
        try:
            add_to_catalog(artifact, name, catalog_path=path, overwrite=True, verbose=False)
            loaded, _ = fetch_artifact(name)
        except UnitxtError as error:
            raise ArtifactRoundTripError(f"{type(artifact).__name__} can not be saved to a catalog and loaded back: "
                                         f"{error}", artifact=type(artifact).__name__) from error
    saved, reloaded = (json.dumps(item.to_dict(), sort_keys=True, default=repr) for item in (artifact, loaded))
    if tester is not None:
        tester.assertEqual(saved, reloaded)
    elif saved != reloaded:
        raise ArtifactRoundTripError(f"{type(artifact).__name__} changes when saved and loaded back:\n saved:  {saved}\n"
                                     f" loaded: {reloaded}", artifact=type(artifact).__name__)
    return loaded


test_artifact_saving_and_loading.__test__ = False  # a helper, not a pytest test
test_artfifact_saving_and_loading = test_artifact_saving_and_loading  # the original's spelling of the name


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
