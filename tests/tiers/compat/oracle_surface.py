"""Lists the ORIGINAL unitxt package's public surface (run by the oracle venv's python, never imported by tests).

argv[1]: the file that receives JSON {"modules": {path: {"error": str} | {"names": {name: entry}}}, "namespaces":
{path: {name: {"home": module, "enum": bool}}}, "artifact_classes": {type: {"class", "module", "fields"}}}, where entry
is {"kind": "class"|"function"|"value", "parameters": [[name, kind, default-or-null, has_default], ...] | null} (a
class adds "fields" and "methods": {name: "method"|"property"|"classmethod"|"staticmethod"}, those it defines).
A module's public names ("modules") are the classes and functions it defines itself (their `__module__` is the module)
and its UPPER_CASE constants; imported helpers (`Any`, `np`, ...) are not part of its surface. Its namespace
("namespaces") is every public attribute whose value is a unitxt class or function, defined there or imported there.
"artifact_classes" are the classes the original registers (Artifact._class_register) with their public fields.
"""

import importlib
import inspect
import json
import pkgutil
import sys
import warnings

SIMPLE = (str, int, float, bool, type(None))


def default_of(parameter):
    """A JSON form of a default: simple values as they are, others by their type name."""
    if parameter.default is inspect.Parameter.empty:
        return None, False
    value = parameter.default
    if isinstance(value, SIMPLE):
        return value, True
    if isinstance(value, (list, tuple, dict)) and not value:
        return {"empty": type(value).__name__}, True
    return {"type": type(value).__name__}, True


def parameters_of(obj):
    try:
        target = obj.__init__ if inspect.isclass(obj) and "__init__" in obj.__dict__ else obj
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return None
    result = []
    for parameter in signature.parameters.values():
        if parameter.name in ("self", "cls"):
            continue
        default, has_default = default_of(parameter)
        result.append([parameter.name, parameter.kind.name, default, has_default])
    return result


def dataclass_fields_of(cls):
    """Public fields of the original's Dataclass-based classes (their __init__ takes **kwargs): name -> default
    (simple defaults as they are, others by type name, None when the field is required)."""
    fields = cls.__dict__.get("__fields__") if isinstance(cls.__dict__.get("__fields__"), dict) else None
    if fields is None:
        return None
    out = {}
    for name, field in fields.items():
        if name.startswith("_") or getattr(field, "internal", False) or not getattr(field, "init", True):
            continue
        default = getattr(field, "default", None)
        if getattr(field, "required", False) or getattr(field, "abstract", False):
            out[name] = {"required": True}
        elif getattr(field, "default_factory", None) is not None:
            out[name] = {"factory": True}
        else:
            out[name] = default if isinstance(default, SIMPLE) else {"type": type(default).__name__}
    return out


def methods_of(cls):
    """The public methods and properties a class defines itself (not inherited): name -> its kind."""
    methods = {}
    for name, value in cls.__dict__.items():
        if name.startswith("_"):
            continue
        if isinstance(value, property):
            methods[name] = "property"
        elif isinstance(value, (classmethod, staticmethod)):
            methods[name] = type(value).__name__
        elif inspect.isfunction(value):
            methods[name] = "method"
    return methods


def surface_of(module):
    names = {}
    for name, obj in sorted(vars(module).items()):
        if name.startswith("_"):
            continue
        if inspect.isclass(obj) or inspect.isfunction(obj):
            if getattr(obj, "__module__", None) != module.__name__:
                continue
            entry = {"kind": "class" if inspect.isclass(obj) else "function", "parameters": parameters_of(obj)}
            if inspect.isclass(obj):
                entry["fields"] = dataclass_fields_of(obj)
                entry["methods"] = methods_of(obj)
            names[name] = entry
        elif name.isupper() and not inspect.ismodule(obj):
            names[name] = {"kind": "value", "parameters": None}
    return names


def namespace_of(module):
    """{name: {"home": defining module, "enum": is an Enum}} of the unitxt classes and functions a module exposes."""
    import enum

    names = {}
    for name, obj in vars(module).items():
        home = getattr(obj, "__module__", None) or ""
        if not name.startswith("_") and (inspect.isclass(obj) or inspect.isfunction(obj)) and \
                home.split(".")[0] == "unitxt":
            names[name] = {"home": home, "enum": inspect.isclass(obj) and issubclass(obj, enum.Enum)}
    return names


def registered_classes():
    """{type: {"class", "module", "fields": {name: default}}} of every class the original registers."""
    from unitxt.artifact import Artifact

    return {type_name: {"class": cls.__name__, "module": cls.__module__, "fields": dataclass_fields_of_all(cls)}
            for type_name, cls in sorted(Artifact._class_register.items())}


def dataclass_fields_of_all(cls):
    """Public fields of a class, inherited ones included (same forms as dataclass_fields_of)."""
    out = {}
    for name, field in getattr(cls, "__fields__", {}).items():
        if name.startswith("_") or getattr(field, "internal", False) or not getattr(field, "init", True):
            continue
        default = getattr(field, "default", None)
        if getattr(field, "required", False) or getattr(field, "abstract", False):
            out[name] = {"required": True}
        elif getattr(field, "default_factory", None) is not None:
            out[name] = {"factory": True}
        else:
            out[name] = default if isinstance(default, SIMPLE) else {"type": type(default).__name__}
    return out


def main():
    warnings.simplefilter("ignore")
    import unitxt

    modules, namespaces = {}, {}
    paths = ["unitxt"] + sorted(info.name for info in pkgutil.walk_packages(unitxt.__path__, "unitxt."))
    for path in paths:
        if any(part.startswith("_") for part in path.split(".")) or path.startswith("unitxt.catalog"):
            continue
        try:
            module = importlib.import_module(path)
        except BaseException as error:  # noqa: BLE001 - a module needing an absent package is recorded as such
            modules[path] = {"error": f"{type(error).__name__}: {error}"[:300]}
            continue
        names = surface_of(module)
        if path == "unitxt":  # the package's own names are imported into it from its modules
            names.update({name: {"kind": "value", "parameters": None} for name, obj in vars(module).items()
                          if not name.startswith("_") and not inspect.ismodule(obj) and name not in names})
        modules[path] = {"names": names}
        namespaces[path] = namespace_of(module)
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        json.dump({"modules": modules, "namespaces": namespaces, "artifact_classes": registered_classes()}, out,
                  indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
