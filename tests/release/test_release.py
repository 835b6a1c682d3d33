"""The zero-install Hub release: build, load through the data script, evaluate through the metric script, push plan."""

import importlib.machinery
import importlib.util
import json
from pathlib import Path

import datasets
import pytest

from unitxt import add_to_catalog, evaluate, load_dataset
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import MapInstanceValues, Set
from unitxt.version import version as unitxt_version

from tests.support.hub_mirror import make_hub_dataset
from tests.support.release_helpers import ROOT, build_release, last_json, run_zero_install

VERSION = unitxt_version
SCRIPT_MODE = int(datasets.__version__.split(".")[0]) < 4
MULTI_CLASS = "templates.classification.multi_class.default"


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    return build_release(tmp_path_factory.mktemp("release") / "hub")


@pytest.fixture
def workdir(tmp_path, release, monkeypatch):
    """A working directory with a local Hub mirror and a catalog holding a LoadHF card that reads it."""
    rows = [{"review": f"review number {i} is {'great' if i % 2 else 'bad'}", "stars": i % 2} for i in range(12)]
    make_hub_dataset(tmp_path, "acme/reviews", {"default": {"train": rows[:6], "test": rows[6:]}})
    catalog = tmp_path / "extra_catalog"
    card = TaskCard(
        loader=LoadHF(path="acme/reviews", data_classification_policy=["public"]),
        preprocess_steps=[
            MapInstanceValues(mappers={"stars": {"0": "negative", "1": "positive"}}),
            Set(fields={"classes": ["negative", "positive"], "text_type": "review", "type_of_class": "sentiment"}),
            __import__("unitxt.operators", fromlist=["Rename"]).Rename(field_to_field={"review": "text", "stars": "label"}),
        ],
        task="tasks.classification.multi_class",
        templates=[MULTI_CLASS],
    )
    add_to_catalog(card, "cards.local_reviews", catalog_path=str(catalog))
    from unitxt.benchmark import Benchmark
    from unitxt.recipe import DatasetRecipe

    add_to_catalog(Benchmark(
        max_samples_per_subset=8,
        subsets={
            "demo": DatasetRecipe(card="cards.demo.sentiment", template=MULTI_CLASS),
            "local": DatasetRecipe(card="cards.local_reviews", template="templates.key_val"),
        },
    ), "benchmarks.tiny", catalog_path=str(catalog))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("UNITXT_CATALOGS", str(catalog))
    return tmp_path


RECIPES = [
    f"card=cards.demo.sentiment,template={MULTI_CLASS},max_test_instances=30",
    f"card=cards.local_reviews,template={MULTI_CLASS}",
    f"card=cards.demo.sentiment,template=[{MULTI_CLASS},templates.key_val],num_demos=[0,3],demos_pool_size=20,"
    "max_test_instances=40,max_train_instances=5,max_validation_instances=5",
    "card=cards.demo.sentiment,format=formats.chat_api,num_demos=2,demos_pool_size=10,max_test_instances=10,"
    "max_train_instances=3,max_validation_instances=3",
    "benchmarks.tiny[format=formats.user_agent]",
]

LOAD_CODE = """
import json, sys, datasets
dataset = datasets.load_dataset({data!r}, {recipe!r}, trust_remote_code=True)
import unitxt
print(json.dumps({{"vendored": getattr(unitxt, "__unitxt_vendored__", False),
                  "splits": {{name: split.to_list() for name, split in dataset.items()}},
                  "source_feature": repr(dataset["test"].features["source"]),
                  "read_source": dataset["test"][0]["source"]}}))
"""


def test_release_folders_hold_only_the_release_files(release):
    for kind, entry in (("data", "data.py"), ("metric", "metric.py"), ("explorer", "app.py")):
        names = sorted(path.name for path in (release / kind).iterdir())
        extra = {"explorer": ["requirements.txt"], "data": [f"unitxt-{VERSION}-py3-none-any.whl"]}.get(kind, [])
        assert names == sorted(["LICENSE", "README.md", entry, "unitxt_vendored.py"] + extra), names
        readme = (release / kind / "README.md").read_text()
        assert VERSION in readme
    vendored = (release / "data" / "unitxt_vendored.py").read_text()
    for module in ("artifact", "module_aliases", "rendering.recipe", "rendering.dataset_builder", "evaluation.in_memory",
                   "metrics", "cli.evaluate", "service.main"):
        assert f"    {module!r}: " in vendored
    assert "'cards.demo.sentiment'" not in vendored  # the catalog is embedded once, compressed
    for helper in ("test_utils", "test_utils.card", "test_utils.metrics", "test_utils.operators"):
        assert f"    {helper!r}: " not in vendored  # developer test helpers are not shipped


def test_rebuild_is_byte_identical(release, tmp_path):
    again = build_release(tmp_path / "again")
    for path in sorted(release.rglob("*")):
        if path.is_file():
            assert (again / path.relative_to(release)).read_bytes() == path.read_bytes(), path


@pytest.mark.parametrize("recipe", RECIPES)
def test_data_script_rows_equal_library_rows(release, workdir, recipe):
    completed = run_zero_install(LOAD_CODE.format(data=str(release / "data"), recipe=recipe), workdir)
    library = {name: split.to_list() for name, split in load_dataset(recipe).items()}
    if SCRIPT_MODE:
        result = last_json(completed)
        assert result["vendored"] is True  # the release ran on its own, not on the installed library
        assert result["splits"] == library
        assert result["source_feature"] == repr(datasets.Value("string"))  # chat sources stored as text too
        if "chat_api" in recipe:  # stored as the messages' JSON text, read back as the messages (as the original)
            stored = result["splits"]["test"][0]["source"]
            assert isinstance(stored, str) and json.loads(stored) == result["read_source"]
            assert [message["role"] for message in result["read_source"]][-1] == "user"
        if recipe.startswith("benchmarks."):
            assert {tuple(row["subset"]) for row in result["splits"]["test"]} == {("demo",), ("local",)}
    else:
        assert completed.returncode != 0
        assert "Dataset scripts are no longer supported" in completed.stderr


METRIC_CODE = """
import json, evaluate
rows = json.load(open({rows!r}))
predictions = json.load(open({predictions!r}))
results = evaluate.load({metric!r}).compute(predictions=predictions, references=rows)
print(json.dumps({{"type": type(results).__name__, "global": dict(results.global_scores),
                  "summary": results.global_scores.summary, "first": results[0]["score"]["instance"]}}))
"""


def test_metric_script_scores_equal_library_scores(release, workdir):
    rows = load_dataset(f"card=cards.demo.sentiment,template={MULTI_CLASS},max_test_instances=60", split="test").to_list()
    predictions = [row["target"] if index % 3 else "Neutral." for index, row in enumerate(rows)]
    (workdir / "rows.json").write_text(json.dumps(rows))
    (workdir / "predictions.json").write_text(json.dumps(predictions))
    completed = run_zero_install(
        METRIC_CODE.format(rows="rows.json", predictions="predictions.json", metric=str(release / "metric")), workdir
    )
    result = last_json(completed)
    expected = evaluate(predictions, rows)
    assert result["type"] == "EvaluationResults"
    assert result["global"] == json.loads(json.dumps(dict(expected.global_scores)))
    assert result["summary"] == expected.global_scores.summary
    assert result["first"] == json.loads(json.dumps(expected[0]["score"]["instance"]))


def test_same_installed_version_is_used(release, workdir):
    code = ("import json, datasets, unitxt\n"
            f"ds = datasets.load_dataset({str(release / 'data')!r}, 'card=cards.demo.sentiment,max_test_instances=3', "
            "trust_remote_code=True, split='test')\n"
            "print(json.dumps({'vendored': getattr(unitxt, '__unitxt_vendored__', False), 'n': len(ds)}))\n")
    completed = run_zero_install(code, workdir, block_unitxt=False,
                                 env_extra={"PYTHONPATH": str(ROOT / "core")})
    if SCRIPT_MODE:
        assert last_json(completed) == {"vendored": False, "n": 3}


@pytest.mark.parametrize("fake_version,older", [("0.0.1", "installed"), ("99.0.0", "release")])
def test_version_mismatch_is_a_clear_error(release, workdir, fake_version, older):
    fake = workdir / "fake_site" / "unitxt"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(f"__version__ = {fake_version!r}\n")
    code = ("import sys\n"
            f"sys.path.insert(0, {str(workdir / 'fake_site')!r})\n"
            "import importlib.util\n"
            f"spec = importlib.util.spec_from_file_location('unitxt_vendored', {str(release / 'data' / 'unitxt_vendored.py')!r})\n"
            "module = importlib.util.module_from_spec(spec)\n"
            "try:\n"
            "    spec.loader.exec_module(module)\n"
            "except ImportError as error:\n"
            "    print(type(error).__name__ + ': ' + str(error))\n")
    completed = run_zero_install(code, workdir, block_unitxt=False)
    output = completed.stdout
    assert "UnitxtVersionMismatchError" in output and f"installed library {fake_version}" in output
    if older == "installed":
        assert f"The installed unitxt {fake_version} is older than this Hub release {VERSION}" in output
        wheel_url = f"https://huggingface.co/datasets/unitxt/data/resolve/{VERSION}/unitxt-{VERSION}-py3-none-any.whl"
        assert f"'pip install {wheel_url}'" in output and "unitxt==" not in output
    else:
        assert f"This Hub release {VERSION} is older than the installed unitxt {fake_version}" in output
        assert f"revision='{fake_version}'" in output


# ---------------------------------------------------------------- push_release
def _push_module():
    loader = importlib.machinery.SourceFileLoader("push_release", str(ROOT / "scripts" / "push_release"))
    spec = importlib.util.spec_from_loader("push_release", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_push_dry_run_lists_every_operation(release, capsys):
    push = _push_module()
    assert push.main(["--release-dir", str(release), "--data-repo", "me/data", "--metric-repo", "me/metric",
                      "--explorer-repo", "me/explorer", "--dry-run"]) == 0
    output = capsys.readouterr().out
    lines = [line for line in output.splitlines() if line[:1].isdigit()]
    assert lines == [
        "1. create_repo(repo_id='me/data', repo_type='dataset', exist_ok=True)",
        "2. list_repo_refs(repo_id='me/data', repo_type='dataset')",
        "3. create_repo(repo_id='me/metric', repo_type='space', exist_ok=True, space_sdk='static')",
        "4. list_repo_refs(repo_id='me/metric', repo_type='space')",
        "5. create_repo(repo_id='me/explorer', repo_type='space', exist_ok=True, space_sdk='gradio')",
        "6. list_repo_refs(repo_id='me/explorer', repo_type='space')",
        f"7. upload_folder(folder_path='{release / 'data'}', repo_id='me/data', repo_type='dataset', "
        f"commit_message='unitxt {VERSION}')",
        f"8. create_tag(repo_id='me/data', tag='{VERSION}', repo_type='dataset', tag_message='unitxt {VERSION}')",
        f"9. upload_folder(folder_path='{release / 'metric'}', repo_id='me/metric', repo_type='space', "
        f"commit_message='unitxt {VERSION}')",
        f"10. create_tag(repo_id='me/metric', tag='{VERSION}', repo_type='space', tag_message='unitxt {VERSION}')",
        f"11. upload_folder(folder_path='{release / 'explorer'}', repo_id='me/explorer', repo_type='space', "
        f"commit_message='unitxt {VERSION}')",
        f"12. create_tag(repo_id='me/explorer', tag='{VERSION}', repo_type='space', tag_message='unitxt {VERSION}')",
    ]
    uploads = [line.strip()[len("uploads "):] for line in output.splitlines() if line.strip().startswith("uploads ")]
    assert "unitxt_vendored.py" in uploads and "data.py" in uploads and "metric.py" in uploads and "app.py" in uploads
    assert not [name for name in uploads if name.startswith("catalog_snapshot/")]  # the catalog ships once


class RecordingHub:
    """Records HfApi calls; `existing_tags` maps repo id -> tags already on the Hub."""

    def __init__(self, existing_tags=None):
        self.calls = []
        self.existing_tags = existing_tags or {}

    def __getattr__(self, method):
        def call(**kwargs):
            self.calls.append((method, kwargs))
            if method == "list_repo_refs":
                tags = [type("Tag", (), {"name": name})() for name in self.existing_tags.get(kwargs["repo_id"], [])]
                return type("Refs", (), {"tags": tags})()
            return None

        return call


def test_push_executes_plan_and_refuses_existing_tag(release):
    push = _push_module()
    operations = push.plan(release, "me/data", "me/metric", "me/explorer")
    hub = RecordingHub()
    push.execute(operations, hub, VERSION)
    assert [method for method, _ in hub.calls] == [
        "create_repo", "list_repo_refs", "create_repo", "list_repo_refs", "create_repo", "list_repo_refs",
        "upload_folder", "create_tag", "upload_folder", "create_tag", "upload_folder", "create_tag",
    ]
    tagged = RecordingHub(existing_tags={"me/metric": ["0.0.9", VERSION]})
    with pytest.raises(push.ReleaseError, match=f"already has tag {VERSION}"):
        push.execute(operations, tagged, VERSION)
    assert "upload_folder" not in [method for method, _ in tagged.calls]


def test_push_without_build_or_token_fails_cleanly(tmp_path, release, monkeypatch, capsys):
    push = _push_module()
    assert push.main(["--release-dir", str(tmp_path / "missing"), "--dry-run"]) == 2
    assert "run scripts/build_release first" in capsys.readouterr().err
    monkeypatch.delenv("HF_TOKEN", raising=False)
    assert push.main(["--release-dir", str(release)]) == 2
    assert "HF_TOKEN" in capsys.readouterr().err


def test_explorer_space_serves_the_vendored_explorer_without_unitxt_installed(release, workdir):
    """The Space folder runs the explorer from the release's one module: subpackages (unitxt.explore) included."""
    readme = (release / "explorer" / "README.md").read_text()
    assert readme.startswith("---\n") and "\nsdk: gradio\n" in readme and "\napp_file: app.py\n" in readme
    assert "gradio" in (release / "explorer" / "requirements.txt").read_text().split()
    code = f"""
import json, sys
sys.path.insert(0, {str(release / "explorer")!r})
import unitxt_vendored
import unitxt.explore
from unitxt.explore.catalog_browser import CatalogIndex
from unitxt.explore.preview import card_templates, render
template = card_templates("cards.demo.sentiment")[0]
preview = render("cards.demo.sentiment", template, num_demos=2)
print(json.dumps({{"package": unitxt.explore.__file__, "cards": len(CatalogIndex().names("cards")),
                  "template": template, "demos": preview.instances[0].demos, "recipe": preview.recipe}}))
"""
    result = last_json(run_zero_install(code, workdir))
    assert result["package"].endswith("vendored>/explore/__init__.py")
    assert result["cards"] >= 10 and result["template"].startswith("templates.")
    assert result["demos"].count("review:") == 2 and "num_demos=2" in result["recipe"]
