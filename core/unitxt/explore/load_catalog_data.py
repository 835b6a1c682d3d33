"""The catalog as the original's explorer page reads it (`unitxt.ui.load_catalog_data`): the JSON files of the library's
catalog folder and of at most one more folder (UNITXT_CATALOGS), grouped as task -> card -> templates.

`load_cards_data()` returns `(cards_data, jsons, formats, system_prompts)`: `cards_data[task][card]` is the set of the
card's template names and `cards_data[task]["augmentable_inputs"]` whether the task names inputs an augmentor may
change; `jsons` maps every card, template, format, system prompt and task name to its JSON. Templates a card defines
inline get a catalog name `templates.tmp.<card path>.<key>` and are written under CATALOG_DIR/templates/tmp, so a
recipe can name them. Each process using that folder leaves a marker (a file named by its process id, in a folder of
the system's temporary directory named after the catalog's path); the folder is emptied
when a load finds no other live owner, and removed at exit by the last owner (a second explorer never deletes the
templates of a first one). When CATALOG_DIR can not be written (a read-only install), the templates go to a temporary
catalog of this process instead, registered so recipes find them and removed at exit.
"""

import atexit
import json
import os
import re
import shutil
import tempfile
from typing import Any, Dict, List, Optional, Set, Tuple

from ..general.helpers import get_all_files_in_dir, load_json
from ..logging_utils import get_logger
from .settings import AUGMENTABLE_STR, CATALOG_DIR
from ..module_aliases import moved_classes

logger = get_logger()

UNREADABLE_JSON = {"Error in loading json"}  # what safe_load_json gives for a file that is not JSON (as the original)
TEMPORARY_README = ("Templates the catalog explorer wrote for the inline templates of cards.\n"
                    "The explorer empties this folder when it loads the catalog and when it exits; "
                    "it is safe to delete.\n")


def get_catalog_dirs() -> Tuple[str, Optional[str]]:
    """(the library's catalog folder, the one folder UNITXT_CATALOGS names or None); more than one is a ValueError."""
    env_dirs = os.environ["UNITXT_CATALOGS"].split(":") if "UNITXT_CATALOGS" in os.environ else []
    if len(env_dirs) > 1:
        raise ValueError(f"Expecting a maximum of one catalog in addition to unitxt catalog, found {len(env_dirs)}: "
                         f"{env_dirs}")
    return CATALOG_DIR, env_dirs[0] if env_dirs else None


UNITXT_DIR, PRIVATE_DIR = get_catalog_dirs()


def safe_load_json(file: str) -> Any:
    """The JSON content of `file`, or UNREADABLE_JSON when it can not be read as JSON."""
    try:
        return load_json(file)
    except Exception:  # noqa: BLE001 - one unreadable entry is shown as such, the page still loads
        return set(UNREADABLE_JSON)


def get_file_from_item_name(item_name: str) -> str:
    """The JSON file of a catalog name, the private folder first (a `...all` name may also be `<path>/json/all.json`);
    a name found nowhere gives its would-be path under CATALOG_DIR."""
    for folder in ([PRIVATE_DIR, UNITXT_DIR] if PRIVATE_DIR else [UNITXT_DIR]):
        path = os.path.join(folder, item_name.replace(".", os.sep) + ".json")
        if os.path.exists(path):
            return path
        path = os.path.join(folder, item_name.replace("all", "").replace(".", os.sep), "json", "all.json")
        if os.path.exists(path):
            return path
    return os.path.join(CATALOG_DIR, item_name.replace(".", os.sep) + ".json")


def get_catalog_items_from_dir(items_type: str, dir: str) -> Dict[str, Any]:
    """{catalog name: JSON} of every file under `<dir>/<items_type>` (a folder that does not exist: ValueError)."""
    found = {}
    for path in get_all_files_in_dir(os.path.join(dir, items_type), recursive=True):
        if "DS_Store" in path:
            continue
        parts = path.split(os.sep)
        name = ".".join(parts[parts.index(items_type):]).replace(".json", "")
        found[name] = safe_load_json(path)
    return found


def get_catalog_items(items_type: str) -> Tuple[List[str], Dict[str, Any]]:
    """(sorted names, {name: JSON}) of one kind of entry in both folders; the private folder's entries win."""
    items = get_catalog_items_from_dir(items_type, UNITXT_DIR)
    if PRIVATE_DIR:
        try:
            items.update(get_catalog_items_from_dir(items_type, PRIVATE_DIR))
        except Exception as error:  # noqa: BLE001 - a private folder without that kind adds nothing
            logger.warning(f"Failed to get {items_type}: {error}")
    return sorted(items), items


def check_augmentable(task_name: str) -> bool:
    """Whether the task's JSON has an `augmentable_inputs` field."""
    return AUGMENTABLE_STR in load_json(get_file_from_item_name(task_name))


_TEMPORARY = {"root": None, "cleanup": None}  # the catalog root this process writes inline templates under


def save_temporary_template(template_name: str, template_json: Any) -> None:
    """Write a template's JSON at its catalog name under the folder create_temporary_dict chose (CATALOG_DIR, or a
    temporary catalog of this process when CATALOG_DIR can not be written)."""
    root = _TEMPORARY["root"] or CATALOG_DIR
    parts = template_name.split(".")
    if any(part in ("", ".", "..") or "/" in part or "\\" in part for part in parts):
        raise ValueError(f"The template name {template_name!r} can not be a file path under the catalog.")
    path = os.path.join(root, *parts) + ".json"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as file:
        json.dump(template_json, file, indent=2)


def _owners_dir(folder: str) -> str:
    """Where the processes using `folder` leave their markers (outside the catalog, so it lists no stray files)."""
    import hashlib

    digest = hashlib.sha1(os.path.abspath(folder).encode("utf-8")).hexdigest()[:16]  # noqa: S324 - a folder name
    return os.path.join(tempfile.gettempdir(), f"unitxt-explorer-owners-{digest}")


def _live_owners(folder: str) -> List[int]:
    """The process ids with a marker for `folder` that still run (markers of ended processes are removed)."""
    from ..general.processes import process_alive

    owners, markers = [], _owners_dir(folder)
    for name in os.listdir(markers) if os.path.isdir(markers) else []:
        if not name.isdigit():
            continue
        if process_alive(int(name)):
            owners.append(int(name))
        else:
            try:
                os.unlink(os.path.join(markers, name))
            except OSError:
                pass
    return owners


def _release(folder: str) -> None:
    """At exit: drop this process's marker; the last live owner removes the folder."""
    try:
        os.unlink(os.path.join(_owners_dir(folder), str(os.getpid())))
        if not [pid for pid in _live_owners(folder) if pid != os.getpid()]:
            shutil.rmtree(folder, ignore_errors=True)
            os.rmdir(_owners_dir(folder))
    except OSError:
        pass


def _claim(folder: str) -> None:
    """Make `folder` this process's inline-template folder: emptied when no other live process uses it."""
    os.makedirs(folder, exist_ok=True)
    if not [pid for pid in _live_owners(folder) if pid != os.getpid()]:
        for name in os.listdir(folder):
            path = os.path.join(folder, name)
            shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) and not os.path.islink(path) \
                else os.unlink(path)
    os.makedirs(_owners_dir(folder), exist_ok=True)
    with open(os.path.join(_owners_dir(folder), str(os.getpid())), "w", encoding="utf-8"):
        pass
    with open(os.path.join(folder, "README.txt"), "w", encoding="utf-8") as file:
        file.write(TEMPORARY_README)


def _temporary_catalog() -> str:
    """A catalog folder of this process (registered, removed at exit) for a CATALOG_DIR that can not be written."""
    from ..catalog_store import register_local_catalog, unregister_local_catalog

    if _TEMPORARY["root"] and os.path.isdir(_TEMPORARY["root"]) and _TEMPORARY["root"] != CATALOG_DIR:
        return _TEMPORARY["root"]
    root = tempfile.mkdtemp(prefix="unitxt-explorer-templates-")
    register_local_catalog(root)

    def cleanup() -> None:
        unregister_local_catalog(root)
        shutil.rmtree(root, ignore_errors=True)

    atexit.register(cleanup)
    return root


def create_temporary_dict() -> None:
    """Prepare CATALOG_DIR/templates/tmp for this process's inline templates (see the module docstring); when it can
    not be written, a temporary catalog of this process takes its place (with a warning)."""
    folder = os.path.join(CATALOG_DIR, "templates", "tmp")
    try:
        _claim(folder)
    except OSError as error:
        root = _temporary_catalog()
        logger.warning(f"The catalog explorer can not write the inline templates of cards under {folder} "
                       f"({error.strerror or error}); they go to the temporary catalog {root} instead.")
        _TEMPORARY["root"] = root
        os.makedirs(os.path.join(root, "templates", "tmp"), exist_ok=True)
        return
    _TEMPORARY["root"] = CATALOG_DIR
    if _TEMPORARY["cleanup"] != folder:
        atexit.register(_release, folder)
        _TEMPORARY["cleanup"] = folder


def register_existing_template(template: str, templates: Set[str], templates_jsons: Dict[str, Any]) -> None:
    """Add a catalog template (by name) and its JSON."""
    templates.add(template)
    templates_jsons[template] = safe_load_json(get_file_from_item_name(template))


def register_inline_template(template_name: str, template: Any, card: str, templates: Set[str],
                             templates_jsons: Dict[str, Any]) -> None:
    """Name a card's inline template `templates.tmp.<card path>.<template_name>`, add it and write it to the catalog."""
    key = re.sub(r"[./\\]", "_", str(template_name)) or "_"  # a key is one name part, never a path
    name = card.replace("cards.", "templates.tmp.") + "." + key
    templates.add(name)
    templates_jsons[name] = template
    save_temporary_template(name, template)


def _add_items(items: Any, card: str, templates: Set[str], templates_jsons: Dict[str, Any], plain: bool) -> None:
    """Templates of a dict (keys name inline ones) or a list (inline ones are `default_<position>`)."""
    pairs = items.items() if isinstance(items, dict) else ((f"default_{i}", item) for i, item in enumerate(items))
    for key, template in pairs:
        if isinstance(template, str):
            register_existing_template(template, templates, templates_jsons)
        elif plain or isinstance(template, dict):
            register_inline_template(key, template, card, templates, templates_jsons)


def get_templates_from_str(template_data: str) -> Tuple[Set[str], Dict[str, Any]]:
    """A `....all` name: the templates its `items` list; any other text: a set of its characters (as the original)."""
    if template_data.endswith(".all"):
        templates = set(load_json(get_file_from_item_name(template_data))["items"])
    else:
        templates = set(template_data)
    return templates, {name: safe_load_json(get_file_from_item_name(name)) for name in templates}


def get_templates_from_dict(template_data: Dict[str, Any], card: str) -> Tuple[Set[str], Dict[str, Any]]:
    """A `templates_dict` or `templates_list` artifact, or a plain {key: template} dict."""
    templates: Set[str] = set()
    templates_jsons: Dict[str, Any] = {}
    kind = template_data.get("__type__")
    if kind in ("templates_dict", "templates_list"):
        _add_items(template_data["items"], card, templates, templates_jsons, plain=False)
    else:
        _add_items(template_data, card, templates, templates_jsons, plain=True)
    return templates, templates_jsons


def get_templates_from_list(template_data: List[Any], card: str) -> Tuple[Set[str], Dict[str, Any]]:
    """A list of template names and inline templates."""
    templates: Set[str] = set()
    templates_jsons: Dict[str, Any] = {}
    _add_items(template_data, card, templates, templates_jsons, plain=False)
    return templates, templates_jsons


def get_templates(template_data: Any, card: str) -> Tuple[Set[str], Dict[str, Any]]:
    """(template names, {name: JSON}) of a card's `templates` value: a name, a dict or a list (else TypeError)."""
    if isinstance(template_data, str):
        return get_templates_from_str(template_data)
    if isinstance(template_data, dict):
        return get_templates_from_dict(template_data, card)
    if isinstance(template_data, list):
        return get_templates_from_list(template_data, card)
    raise TypeError(f"Unsupported template_data type: {type(template_data)}")


def load_cards_data() -> Tuple[Dict[str, Dict[str, Any]], Dict[str, Any], List[str], List[str]]:
    """(cards_data, jsons, formats, system_prompts) of both folders; see the module docstring. Cards whose task is
    not a catalog name, or that list no templates, are left out."""
    cards_data: Dict[str, Dict[str, Any]] = {}
    card_jsons = get_catalog_items_from_dir("cards", UNITXT_DIR)
    if PRIVATE_DIR:
        card_jsons.update(get_catalog_items_from_dir("cards", PRIVATE_DIR))
    jsons: Dict[str, Any] = dict(card_jsons)
    create_temporary_dict()
    for card, data in card_jsons.items():
        if "task" not in data or isinstance(data["task"], dict) or "templates" not in data:
            continue
        task = data["task"].split("[")[0]
        augmentable = cards_data[task][AUGMENTABLE_STR] if task in cards_data else check_augmentable(task)
        templates, templates_jsons = get_templates(data["templates"], card)
        jsons.update(templates_jsons)
        cards_data.setdefault(task, {}).update({card: templates, AUGMENTABLE_STR: augmentable})
    formats, formats_jsons = get_catalog_items("formats")
    system_prompts, system_prompts_jsons = get_catalog_items("system_prompts")
    jsons.update(formats_jsons)
    jsons.update(system_prompts_jsons)
    jsons.update(get_catalog_items("tasks")[1])
    return cards_data, jsons, formats, system_prompts


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
