"""Ray itself: imported on first use (with the install hint when missing), connected once, datasets kept in order."""

from typing import Any, Optional

from ..errors import UnitxtError

INSTALL_HINT = "pip install 'unitxt[ray]'"


def require_ray() -> Any:
    """The `ray` module, or a UnitxtError saying how to install it."""
    try:
        import ray
        import ray.data  # noqa: F401 - Ray Data is what the data, model and scoring steps use
    except ImportError as error:
        raise UnitxtError(f"Running on a Ray cluster needs Ray Data, which is not installed ({error}). Install it "
                          f"with: {INSTALL_HINT}") from None
    return ray


def connect(address: Optional[str] = None, **init_options: Any) -> Any:
    """Connect this process to a cluster once: `address` "auto" (the running cluster, or RAY_ADDRESS), "host:port",
    or None (a new cluster of this machine for the process, unless one is connected already). Datasets keep their row
    order."""
    ray = require_ray()
    if not ray.is_initialized():
        options = {"log_to_driver": False, "include_dashboard": False, **init_options}
        if address:
            options.pop("include_dashboard")
        ray.init(address=address or "local", **options)
    ordered()
    return ray


def ordered() -> None:
    """Ray Data executes blocks in parallel; preserve_order keeps each step's output in the dataset's row order."""
    import ray.data

    ray.data.DataContext.get_current().execution_options.preserve_order = True


def is_ray_dataset(data: Any) -> bool:
    """Whether `data` is a Ray Dataset (without importing Ray)."""
    return any(cls.__module__.startswith("ray.data") and cls.__name__.endswith("Dataset")
               for cls in type(data).__mro__)
