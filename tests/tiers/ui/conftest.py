"""The explorer served on loopback, by `python -m unitxt.explore` and by the Hub Space app of the built release
(unitxt not installed), and a headless Chromium driving it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.local_processes import free_port, wait_until_serving
from tests.support.release_helpers import BLOCK_INSTALLED_UNITXT


ROOT = Path(__file__).resolve().parents[3]
# the Hub Space runs app.py from the built release with unitxt NOT installed: everything comes from unitxt_vendored
SPACE_LAUNCHER = BLOCK_INSTALLED_UNITXT + """
import runpy
sys.path.insert(0, ".")
runpy.run_path("app.py", run_name="__main__")
"""


@pytest.fixture(scope="session", params=["python -m unitxt.explore", "Hub Space app"])
def explorer_url(request, tmp_path_factory):
    port = free_port()
    environment = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", GRADIO_ANALYTICS_ENABLED="False")
    if request.param == "Hub Space app":
        release = tmp_path_factory.mktemp("release")
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build_release"), "--output", str(release)],
                       check=True, capture_output=True)
        environment.pop("PYTHONPATH", None)
        environment["GRADIO_SERVER_PORT"] = str(port)
        command, cwd = [sys.executable, "-c", SPACE_LAUNCHER], str(release / "explorer")
    else:
        command, cwd = [sys.executable, "-m", "unitxt.explore", "--port", str(port)], None
    server = subprocess.Popen(command, env=environment, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    url = f"http://127.0.0.1:{port}/"
    wait_until_serving(server, url, "the explorer", timeout=90)
    yield url
    server.terminate()
    server.wait(timeout=20)


@pytest.fixture
def browser(explorer_url, tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    for argument in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--window-size=1300,1600", f"--user-data-dir={tmp_path / 'chromium'}"):
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.get(explorer_url)
    yield driver
    driver.quit()
