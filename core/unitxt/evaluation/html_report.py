"""A self-contained HTML report of an evaluation: `results.to_html(path)`.

Scores with CI bars (global, per `group_by` group, per subset), a confusion matrix for single-label classification,
and an instance browser. Pictures are inline SVG, so the report needs no extra package and opens offline. Every
number is shown rounded and carried at full precision in a `data-value` attribute (machine-readable).
"""

import html
import json
import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .tables import group_key_fields

_BAR_WIDTH = 240
_CONFUSION_MAX_LABELS = 30


def _number(value: Any) -> str:
    """A table cell for a score: rounded text, full-precision data-value."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return f"<td>{html.escape('' if value is None else str(value))}</td>"
    if isinstance(value, float) and math.isnan(value):
        return '<td class="num" data-value="nan"></td>'
    shown = str(value) if isinstance(value, int) else f"{value:.4f}"
    return f'<td class="num" data-value="{value!r}">{shown}</td>'


def _ci_bar(score: Any, low: Any, high: Any) -> str:
    """An SVG bar for a score in [0, 1] with its CI as a whisker (scores outside [0, 1] are clipped visually)."""
    if not isinstance(score, (int, float)) or math.isnan(score):
        return "<td></td>"

    def x(value: float) -> float:
        return round(max(0.0, min(1.0, float(value))) * _BAR_WIDTH, 2)

    whisker = ""
    if isinstance(low, (int, float)) and isinstance(high, (int, float)) and not (math.isnan(low) or math.isnan(high)):
        whisker = (f'<line x1="{x(low)}" x2="{x(high)}" y1="9" y2="9" stroke="#222" stroke-width="2"/>'
                   f'<line x1="{x(low)}" x2="{x(low)}" y1="4" y2="14" stroke="#222"/>'
                   f'<line x1="{x(high)}" x2="{x(high)}" y1="4" y2="14" stroke="#222"/>')
    return (f'<td><svg class="bar" width="{_BAR_WIDTH}" height="18" role="img" '
            f'aria-label="{html.escape(f"{score:.4f}")}"><rect x="0" y="3" width="{x(score)}" height="12" '
            f'fill="#4c78a8"/>{whisker}</svg></td>')


def _scores_table(caption: str, label_header: str, rows: List[Tuple[str, Dict[str, Any]]], table_id: str) -> str:
    """One row per label: score name, score, CI and a bar."""
    header = (f"<tr><th>{html.escape(label_header)}</th><th>score_name</th><th>score</th><th>ci_low</th>"
              "<th>ci_high</th><th>num_of_instances</th><th></th></tr>")
    body = []
    for label, scores in rows:
        score, low, high = scores.get("score"), scores.get("score_ci_low"), scores.get("score_ci_high")
        body.append(f'<tr data-label="{html.escape(label)}"><td>{html.escape(label)}</td>'
                    f"<td>{html.escape(str(scores.get('score_name', '')))}</td>{_number(score)}{_number(low)}"
                    f"{_number(high)}{_number(scores.get('num_of_instances'))}{_ci_bar(score, low, high)}</tr>")
    return (f'<table id="{html.escape(table_id)}"><caption>{html.escape(caption)}</caption>{header}{"".join(body)}</table>')


def _global_rows(global_scores: Dict[str, Any]) -> List[Tuple[str, Dict[str, Any]]]:
    """Every score that has a value (CI columns from `<name>_ci_low/high`)."""
    rows = []
    for name in sorted(global_scores):
        value = global_scores[name]
        if name in ("score_name", "num_of_instances") or name.endswith(("_ci_low", "_ci_high")):
            continue
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            continue
        rows.append((name, {"score": value, "score_name": name, "score_ci_low": global_scores.get(f"{name}_ci_low"),
                            "score_ci_high": global_scores.get(f"{name}_ci_high"),
                            "num_of_instances": global_scores.get("num_of_instances")}))
    return rows


def _subset_rows(subsets_scores: Dict[str, Any]) -> List[Tuple[str, Dict[str, Any]]]:
    rows: List[Tuple[str, Dict[str, Any]]] = []

    def walk(node: Dict[str, Any], prefix: str) -> None:
        for name, value in node.items():
            if isinstance(value, dict) and name != "groups":  # a subset's group_by scores are not a subset
                rows.append((prefix + name, value))
                walk(value, prefix + name + "/")

    walk(subsets_scores, "")
    return rows


def confusion_matrix(results: Sequence[Dict[str, Any]]) -> Optional[Tuple[List[str], List[List[int]]]]:
    """(labels, counts[reference][prediction]) when every instance has one string reference and a string
    prediction and there are at most 30 labels; otherwise None (not a single-label classification)."""
    pairs = []
    for instance in results:
        references = instance.get("processed_references")
        prediction = instance.get("processed_prediction")
        if not (isinstance(references, list) and len(references) == 1 and isinstance(references[0], str)
                and isinstance(prediction, str)):
            return None
        pairs.append((references[0], prediction))
    gold = sorted({reference for reference, _ in pairs})
    if not pairs or len(gold) > _CONFUSION_MAX_LABELS:
        return None
    labels = gold + sorted({prediction for _, prediction in pairs} - set(gold))
    if len(labels) > _CONFUSION_MAX_LABELS:
        labels = gold + ["(other)"]
    index = {label: position for position, label in enumerate(labels)}
    counts = [[0] * len(labels) for _ in gold]
    for reference, prediction in pairs:
        counts[index[reference]][index.get(prediction, len(labels) - 1)] += 1
    return labels, counts


def _confusion_table(matrix: Tuple[List[str], List[List[int]]]) -> str:
    labels, counts = matrix
    peak = max(max(row) for row in counts) or 1
    header = "<tr><th>reference \\ prediction</th>" + "".join(f"<th>{html.escape(label)}</th>" for label in labels)
    body = []
    for label, row in zip(labels, counts):
        cells = "".join(
            f'<td class="num" data-value="{count}" style="background: rgba(76,120,168,{count / peak:.3f})">{count}</td>'
            for count in row)
        body.append(f"<tr><th>{html.escape(label)}</th>{cells}</tr>")
    return (f'<table id="confusion"><caption>Confusion matrix (processed predictions vs references)</caption>'
            f"{header}</tr>{''.join(body)}</table>")


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)


def _instances_table(results: Sequence[Dict[str, Any]], max_instances: int) -> str:
    shown = list(results[:max_instances])
    body = []
    for index, instance in enumerate(shown):
        scores = instance.get("score", {}).get("instance", {})
        score_text = ", ".join(f"{name}={value:.4g}" if isinstance(value, float) else f"{name}={value}"
                               for name, value in scores.items() if name not in ("score", "score_name"))
        source = _text(instance.get("source"))
        body.append(
            f'<tr data-index="{index}"><td>{index}</td><td><details><summary>{html.escape(source[:80])}</summary>'
            f"<pre>{html.escape(source)}</pre></details></td><td>{html.escape(_text(instance.get('prediction')))}</td>"
            f"<td>{html.escape(_text(instance.get('processed_prediction')))}</td>"
            f"<td>{html.escape(_text(instance.get('processed_references')))}</td>"
            f"{_number(scores.get('score'))}<td>{html.escape(score_text)}</td></tr>")
    note = (f"<p>Showing the first {len(shown)} of {len(results)} instances.</p>" if len(results) > len(shown)
            else "")
    return (f'<h2>Instances</h2>{note}<input id="filter" placeholder="filter instances" oninput="filterRows()">'
            '<table id="instances"><tr><th>#</th><th>source</th><th>prediction</th><th>processed prediction</th>'
            f'<th>processed references</th><th>score</th><th>instance scores</th></tr>{"".join(body)}</table>')


_STYLE = """body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}td.num{text-align:right}
caption{font-weight:bold;text-align:left;padding:4px 0}code{background:#f4f4f4;padding:2px 4px;word-break:break-all}
pre{white-space:pre-wrap;max-width:60em}"""
_SCRIPT = """function filterRows(){var q=document.getElementById('filter').value.toLowerCase();
document.querySelectorAll('#instances tr[data-index]').forEach(function(r){
r.style.display=r.textContent.toLowerCase().indexOf(q)>=0?'':'none';});}"""


def _comparison_tables(comparison: Dict[str, Any]) -> str:
    """The paired comparison (this run minus the baseline) as tables, one per global/group/subset section."""
    columns = ("a", "b", "difference", "ci_low", "ci_high", "p_value", "num_of_instances")
    sections = [("global", "Global", comparison["global"])]
    for key, groups in comparison["groups"].items():
        sections += [(f"group-{'-'.join(group_key_fields(key))}-{value}", f"Group {', '.join(group_key_fields(key))} = {value}",
                      rows) for value, rows in groups.items()]
    sections += [(f"subset-{path}", f"Subset {path}", rows) for path, rows in comparison["subsets"].items()]
    parts = ["<h2>Comparison with the baseline (this run minus baseline, paired bootstrap)</h2>"]
    for table_id, caption, rows in sections:
        body = "".join(f"<tr><td>{html.escape(name)}</td>{''.join(_number(row[c]) for c in columns)}</tr>"
                       for name, row in rows.items())
        header = "<tr><th>score</th><th>baseline</th><th>this run</th>" + "".join(
            f"<th>{c}</th>" for c in columns[2:]) + "</tr>"
        parts.append(f'<table id="compare-{html.escape(table_id)}"><caption>{html.escape(caption)}</caption>'
                     f"{header}{body}</table>")
    return "".join(parts)


def render_report(results: Any, title: str = "unitxt evaluation report", max_instances: int = 2000,
                  baseline: Any = None) -> str:
    """The report's HTML text (with a paired comparison section when a baseline run is given)."""
    global_scores = results.global_scores
    parts = [f"<h1>{html.escape(title)}</h1>",
             f"<p>Main score <b>{html.escape(str(global_scores.get('score_name')))}</b> over "
             f"{global_scores.get('num_of_instances')} instances.</p>",
             f'<p>Signature: <code id="signature">{html.escape(results.signature)}</code></p>',
             _scores_table("Global scores (95% bootstrap CI)", "metric", _global_rows(global_scores), "global")]
    for key, groups in results.groups_scores.items():
        fields = ", ".join(group_key_fields(key))
        rows = [(", ".join(map(str, value)) if isinstance(value, tuple) else str(value), scores)
                for value, scores in groups.items()]
        parts.append(_scores_table(f"Group by {fields}", fields, rows, f"group-{'-'.join(group_key_fields(key))}"))
    if results.subsets_scores:
        parts.append(_scores_table("Subsets", "subset", _subset_rows(results.subsets_scores), "subsets"))
    if baseline is not None:
        from .paired_comparison import compare

        parts.append(_comparison_tables(compare(baseline, results)))
    matrix = confusion_matrix(results)
    if matrix is not None:
        parts.append(_confusion_table(matrix))
    parts.append(_instances_table(results, max_instances))
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{_STYLE}</style><script>{_SCRIPT}</script></head><body>{''.join(parts)}</body></html>\n")
