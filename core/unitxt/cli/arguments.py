"""The options of `unitxt-evaluate`: the original's flags, defaults and meanings, and the `k=v,...` / JSON values."""

import argparse
import json
from typing import Any, Dict, List, Optional, Union

EXAMPLE = """example:
  unitxt-evaluate --tasks "card=cards.wnli,template=templates.classification.multi_class.relation.default+card=cards.demo.sentiment" \\
      --model cross_provider --model_args "model_name=my-model,base_url=http://127.0.0.1:8000/v1,max_tokens=32" \\
      --limit 100 --output_path results --log_samples
  # writes results/<timestamp>_evaluation_results.json (and ..._evaluation_results_samples.json);
  # unitxt-summarize results   prints a table of every run in the folder"""


def parse_value(text: str) -> Any:
    """'3' -> 3, '0.5' -> 0.5, 'true'/'false' -> bool, anything else the text."""
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def parse_key_values(text: str) -> Dict[str, Any]:
    """'a=1,b=x' -> {"a": 1, "b": "x"}; parts without '=' are refused."""
    result: Dict[str, Any] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        key, equals, value = part.partition("=")
        if not equals or not key.strip():
            raise argparse.ArgumentTypeError(f"cannot read '{part}' in '{text}': expected key=value pairs "
                                             "separated by commas, or JSON")
        result[key.strip()] = parse_value(value.strip())
    return result


def key_values_or_json(value: Optional[str]) -> Union[Dict[str, Any], Any]:
    """`k=v,...` pairs (when there is a '=' and no '{') or JSON; JSON-looking text that does not parse is refused."""
    if value is None:
        return None
    if "=" in value and "{" not in value:
        return parse_key_values(value)
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        if value.strip().startswith(("{", "[")):
            raise argparse.ArgumentTypeError(f"Invalid JSON: '{value}'. Hint: use double quotes for JSON strings "
                                             "and check the syntax.") from None
        return value


def split_tasks(text: str) -> List[str]:
    """Recipes separated by '+'."""
    return text.split("+")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="unitxt-evaluate", formatter_class=argparse.RawTextHelpFormatter, epilog=EXAMPLE,
        description="Run a model over unitxt recipes, score the answers, and write the results as JSON files.")
    add = parser.add_argument
    add("--tasks", "-t", dest="tasks", type=split_tasks, required=True,
        help="Recipes separated by '+', each 'card=<card>,template=<template>,...' or a benchmark name.\n"
             "Example: 'card=cards.wnli,template=templates.classification.multi_class.relation.default"
             "+card=cards.demo.sentiment'")
    add("--split", type=str, default="test", help="Dataset split to use (e.g. 'train', 'validation', 'test'). "
                                                   "Default: 'test'.")
    add("--num_fewshots", type=int, default=None,
        help="Number of demos per instance, taken from the 'train' split (the whole split is the pool).")
    add("--limit", "-L", type=instance_limit, default=None, metavar="N",
        help="Limit the number of instances per recipe (a whole number, 1 or more).")
    add("--batch_size", "-b", type=int, default=1, help="Batch size of a local (--model hf) model. Default 1.")
    add("--model", "-m", type=str, default="hf", choices=["hf", "cross_provider"],
        help="The inference engine:\n"
             "- 'hf': a local Hugging Face model (HFAutoModelInferenceEngine, default); needs 'pretrained=...' in "
             "--model_args.\n"
             "- 'cross_provider': a remote model (CrossProviderInferenceEngine); needs 'model_name=...' in "
             "--model_args.\n  With 'base_url=http://host:port/v1' in --model_args, any OpenAI-compatible server "
             "(vLLM, Ollama, TGI...).")
    add("--model_args", "-a", type=key_values_or_json, default={},
        help="Comma separated key=value pairs or JSON for the inference engine.\n"
             "Examples:\n"
             "- --model hf: 'pretrained=meta-llama/Llama-3.1-8B-Instruct,torch_dtype=bfloat16,device=cuda'\n"
             "- --model cross_provider: 'model_name=llama-3-3-70b-instruct,max_tokens=256,temperature=0.7'\n"
             "- an OpenAI-compatible server: 'model_name=my-model,base_url=http://127.0.0.1:8000/v1,max_tokens=64'\n"
             "- JSON: '{\"pretrained\": \"my_model\", \"torch_dtype\": \"float32\"}'")
    add("--gen_kwargs", type=key_values_or_json, default=None,
        help="Generation settings added to --model_args, e.g. temperature=0,top_p=0.1.")
    add("--chat_template_kwargs", type=key_values_or_json, default=None,
        help="Chat template settings of a local model's tokenizer, e.g. thinking=True.")
    add("--output_path", "-o", type=str, default=".",
        help="Directory to save the results files in. Default: current directory.")
    add("--output_file_prefix", type=str, default="evaluation_results",
        help="Prefix of the output JSON file names. Default: 'evaluation_results'.")
    add("--log_samples", "-s", action="store_true", default=False,
        help="Also save each instance's prediction and scores, in <timestamp>_<prefix>_samples.json.")
    add("--verbosity", "-v", type=str.upper, default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"],
        help="Logging verbosity. Default: INFO.")
    add("--apply_chat_template", action="store_true", default=False,
        help="Render the prompts as chat messages (format=formats.chat_api).")
    add("--trust_remote_code", action="store_true", default=False,
        help="Allow unverified code from the Hugging Face Hub (used by datasets/unitxt).")
    add("--disable_hf_cache", action="store_true", default=False, help="Disable the Hugging Face datasets cache.")
    add("--cache_dir", type=str, default=None, help="Directory of the Hugging Face datasets cache.")
    add("--batch-file-out", dest="batch_file_out", type=str, default=None, metavar="PATH",
        help="Write the recipes' requests as an OpenAI batch input file (JSONL, custom_id 'row-<index>') and stop:\n"
             "run it elsewhere (a provider's batch API, 'vllm run-batch') and score it with --batch-file-in.")
    add("--batch-file-in", dest="batch_file_in", type=str, action="append", default=None, metavar="PATH",
        help="Score the answers of a batch output file (and error files: repeat the option) produced elsewhere,\n"
             "matched to the rows by custom_id, instead of running the model.")
    add("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
        help="Run the model and the scoring on a Ray cluster (pip install 'unitxt[ray]'): 'auto' (the running\n"
             "cluster), host:port, or nothing (a cluster of this machine). Same results files; CIs are the\n"
             "streamed evaluation's.")
    add("--ray_actors", type=int, default=2, metavar="N", help="Model actors on the Ray cluster (--ray). Default 2.")
    return parser


def instance_limit(text: str) -> int:
    """--limit: a whole number from 1 to sys.maxsize (argparse names the flag in its error)."""
    import sys

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number of instances, got {text!r}") from None
    if not 1 <= value <= sys.maxsize:
        raise argparse.ArgumentTypeError(f"must be from 1 to {sys.maxsize}, got {value}")
    return value


def recipe_overrides(arguments: argparse.Namespace) -> Dict[str, Any]:
    """Recipe settings the options imply: the limit, the few-shot demos, the chat format."""
    overrides: Dict[str, Any] = {}
    if arguments.limit is not None:
        overrides[f"max_{arguments.split}_instances"] = arguments.limit
    if arguments.num_fewshots:
        overrides.update(num_demos=arguments.num_fewshots, demos_taken_from="train", demos_pool_size=-1,
                         demos_removed_from_data=True)
    if arguments.apply_chat_template:
        overrides["format"] = "formats.chat_api"
    return overrides


def as_dict(value: Any, option: str) -> Dict[str, Any]:
    """A parsed option value as a dict (None -> {}); anything else is a usage error."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"{option} must be key=value pairs or a JSON object, got {value!r}")
    return dict(value)
