"""Constants of the catalog explorer page (the original's `unitxt.ui.settings`): where the catalog is, the recipe keys
the page fills in, sample sizes, the model of the "infer" button and the page's texts.

`unitxt.ui.launch(demo_settings)` sets any of them (by name) before the page is built.
"""

from ..settings_utils import default_catalog_path

CATALOG_DIR = default_catalog_path()  # the library's catalog (the explorer writes its inline templates under it)
BANNER_PATH = None  # the explorer shows no banner image
AUGMENTABLE_STR = "augmentable_inputs"  # the task field listing the inputs an augmentor may change
LOADER_LIMIT_STR = "loader_limit"
PROMPT_SOURCE_STR = "source"
PROMPT_METRICS_STR = "metrics"
PROMPT_TARGET_STR = "target"
DEMOS_POOL_SIZE = 10
PROMPT_SAMPLE_SIZE = 5
MAX_NEW_TOKENS = 30
FLAN_T5_BASE = "flan-t5-base"
GPT2 = "gpt2"
EMPTY_SCORES_FRAME = [("", "")]  # a scores table with one empty row
SCORE_FRAME_HEADERS = ["Score Name", "Score"]
UNITEXT_METRIC_STR = "unitxt/metric"
PREDICTIONS_IMPORTS_STR = "\nimport evaluate\nfrom transformers import pipeline"
DATASET_IMPORT_STR = "from datasets import load_dataset"
PREDICTION_CODE_STR = f"""
generator = pipeline(model="google/{FLAN_T5_BASE}")
outputs = generator(dataset["{PROMPT_SOURCE_STR}"], max_new_tokens={MAX_NEW_TOKENS})
predictions = [output["generated_text"] for output in outputs]
scores = evaluate.load("{UNITEXT_METRIC_STR}").compute(predictions=predictions, references=dataset)
for name, value in scores[0]["score"]["global"].items():
    print(name, value)
"""
HEADER_VISIBLE = True  # show the page's title text (launch_without_header turns it off)
INTRO_TXT = """
# Explore Unitxt

Browse the catalog, compose a recipe and see the prompts it produces.
"""
JSON_INTRO_TXT = """
# Choose a catalog entry to see its JSON
"""
CODE_INTRO_TXT = """
# The code that reproduces the prompts (and predictions)
# you generate appears here
"""
MAIN_INTRO_TXT = """
# Choose a task, a card and a template,
# then generate the prompts
"""
JSON_BUTTON_TXT = "View"
ACK_TEXT = """
The explorer page is built with [Gradio](https://www.gradio.app).
"""
