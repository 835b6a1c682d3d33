"""The unitxt catalog explorer as a Hugging Face Space (Gradio SDK), next to the unitxt/data and unitxt/metric release.

`unitxt_vendored` (the release's single module) serves `unitxt` with its embedded catalog; the page is unitxt's own
explorer (`unitxt.explore`), the same app as `python -m unitxt.explore`.
"""

import unitxt_vendored  # noqa: F401  (installs the embedded unitxt and its catalog)
from unitxt.explore.app import launch

if __name__ == "__main__":
    launch(host="0.0.0.0")
