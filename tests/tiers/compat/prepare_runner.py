"""Runs catalog-building scripts of the original's repository the way its own consistency check does (its
catalog-building switches set, offline), each in a child process forked after importing unitxt once, with every
catalog write sent to a per-script scratch folder. Writes one JSON result per script: ok, error, names written.

Usage: python prepare_runner.py TIMEOUT (SCRIPT SCRATCH RESULT_FILE)..."""

import json
import os
import runpy
import signal
import sys
import time
import traceback

SWITCHES = ("UNITXT_USE_ONLY_LOCAL_CATALOGS", "UNITXT_TEST_CARD_DISABLE", "UNITXT_TEST_METRIC_DISABLE",
            "UNITXT_ALLOW_UNVERIFIED_CODE", "UNITXT_SKIP_ARTIFACTS_PREPARE_AND_VERIFY")


def redirect_catalog_writes(scratch: str, written: list) -> None:
    """Every add_to_catalog / add_link_to_catalog call (whatever catalog it names) writes into `scratch`."""
    import unitxt
    import unitxt.catalog as catalog_module

    add, link = catalog_module.add_to_catalog, catalog_module.add_link_to_catalog

    def add_to_catalog(artifact, name, *args, **kwargs):
        kwargs.pop("catalog", None)
        kwargs.pop("catalog_path", None)
        written.append(name)
        return add(artifact, name, catalog_path=scratch, **{**kwargs, "overwrite": True})

    def add_link_to_catalog(artifact_linked_to, name, *args, **kwargs):
        if args:
            kwargs["deprecate"] = args[0]
        kwargs.pop("catalog", None)
        kwargs.pop("catalog_path", None)
        written.append(name)
        return link(artifact_linked_to, name, catalog_path=scratch, **{**kwargs, "overwrite": True})

    catalog_module.add_to_catalog = unitxt.add_to_catalog = add_to_catalog
    catalog_module.add_link_to_catalog = unitxt.add_link_to_catalog = add_link_to_catalog


def run_script(script: str, scratch: str, result_file: str, timeout: int) -> None:
    written: list = []
    result = {"script": script, "ok": False, "error": None, "written": written}
    try:
        os.makedirs(scratch, exist_ok=True)
        redirect_catalog_writes(scratch, written)
        os.chdir(os.path.dirname(os.path.abspath(script)))
        sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
        signal.alarm(timeout)
        runpy.run_path(script, run_name="__main__")
        signal.alarm(0)
        result["ok"] = True
    except BaseException as error:  # noqa: B036 - a script's failure of any kind is its result
        result["error"] = f"{type(error).__name__}: {error}"[:2000]
        result["traceback"] = traceback.format_exc()[-4000:]
    with open(result_file, "w") as f:
        json.dump(result, f)


def on_alarm(*_):
    raise TimeoutError("the script ran out of time")


def main() -> None:
    for switch in SWITCHES:
        os.environ[switch] = "True"
    os.environ.update(HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1")
    import unitxt  # noqa: F401 - imported once, before forking

    timeout, jobs = int(sys.argv[1]), sys.argv[2:]
    for index in range(0, len(jobs), 3):
        script, scratch, result_file = jobs[index:index + 3]
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGALRM, on_alarm)
            try:
                run_script(script, scratch, result_file, timeout)
            finally:
                os._exit(0)
        deadline = time.time() + timeout + 30
        while not os.waitpid(pid, os.WNOHANG)[0]:
            if time.time() > deadline:  # stuck where the alarm can not reach
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                with open(result_file, "w") as f:
                    json.dump({"script": script, "ok": False, "error": "killed: out of time", "written": []}, f)
                break
            time.sleep(0.2)


if __name__ == "__main__":
    main()
