"""Build local folders in the Hugging Face Hub dataset layout, so LoadHF can be exercised offline."""

import json
from pathlib import Path
from typing import Any, Dict, List, Sequence


def make_hub_dataset(root: Path, repo_id: str, configs: Dict[str, Dict[str, List[Dict[str, Any]]]],
                     image_columns: Sequence[str] = ()) -> Path:
    """Write `<root>/<repo_id>/` with one JSONL file per config/split and a README whose YAML lists the configs.

    `datasets.load_dataset(repo_id, config)` run from `root` then resolves this folder before the Hub. With
    `image_columns` (values {"bytes", "path"}), the files are parquet with those columns as HF Image features.
    """
    folder = Path(root) / repo_id
    folder.mkdir(parents=True, exist_ok=True)
    yaml_lines = ["---", "configs:"]
    for config_name, splits in configs.items():
        yaml_lines.append(f"- config_name: {config_name}")
        yaml_lines.append("  data_files:")
        for split, rows in splits.items():
            relative = f"{config_name}/{split}.{'parquet' if image_columns else 'jsonl'}"
            path = folder / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            if image_columns:
                _write_image_parquet(path, rows, image_columns)
            else:
                with open(path, "w", encoding="utf-8") as handle:
                    for row in rows:
                        handle.write(json.dumps(row, ensure_ascii=False) + "\n")
            yaml_lines.append(f"  - split: {split}")
            yaml_lines.append(f"    path: {relative}")
    yaml_lines.append("---")
    (folder / "README.md").write_text("\n".join(yaml_lines) + f"\n# {repo_id}\nLocal test mirror.\n", encoding="utf-8")
    return folder


def _write_image_parquet(path: Path, rows: List[Dict[str, Any]], image_columns: Sequence[str]) -> None:
    import datasets

    table = datasets.Dataset.from_list(rows)
    for column in image_columns:
        many = isinstance(rows[0][column], list)  # a list of images per row (e.g. SEED-Bench)
        table = table.cast_column(column, datasets.Sequence(datasets.Image()) if many else datasets.Image())
    table.to_parquet(str(path))
