"""Mirrors (real Hub schema, synthetic values) of the datasets behind the cards the documentation names: tables
(FinQA, TabFact, QTSumm, SciGen, NumericNLG, TableBench), images (ChartQA, AI2D, InfographicVQA), knowledge
(PopQA, SimpleQA, LongBench v2), safety (BOLD, ToxiGen, HH-RLHF) and judge data (MT-Bench GPT-4 ratings).

Image columns hold PNG bytes in the HF Image layout ({"bytes", "path"}); `IMAGE_COLUMNS` tells hub_mirror to write
those configs as parquet with an Image feature, as on the Hub.
"""

import io
import json
from typing import Dict, List

from tests.support.card_mirrors import N, TRAIN_N, WORDS, _splits, paragraph, sentence, tt, tvt, words

IMAGE_COLUMNS: Dict[str, List[str]] = {}


def _png(index: int) -> dict:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (8 + index % 5, 6), ((37 * index) % 256, 90, 160)).save(buffer, format="PNG")
    return {"bytes": buffer.getvalue(), "path": None}


def _grid(r, columns=3, rows=3):
    header = [w.capitalize() for w in r.sample(WORDS, columns)]
    body = [[r.choice(WORDS)] + [str(r.randint(1, 999)) for _ in range(columns - 1)] for _ in range(rows)]
    return header, body


def _tables():
    def finqa(r, i, s):
        header, rows = _grid(r, rows=2 if i % 5 else 0)  # some reports have a header-only table: filtered out
        value = rows[0][1] if rows else "0"
        return {"id": f"ETR/2016/page_{i}.pdf-{i}", "pre_text": [sentence(r), sentence(r)],
                "post_text": [sentence(r)], "table": [header] + rows, "question": f"what is {words(r, 3, 5)}?",
                "answer": value, "program_re": f"add({value}, const_0)", "gold_inds": [sentence(r)]}

    _splits("ibm/finqa", "default", tvt(TRAIN_N + 3, N + 2, N + 2), finqa)

    def tab_fact(r, i, s):  # the Parquet conversion's config folder tab_fact: the table as '#'-separated lines
        header, rows = _grid(r)
        rows[-1][0] = f"{rows[-1][0]}, {r.choice(WORDS)}"  # a comma in a cell: only '#' separates cells
        return {"id": i, "table_id": f"2-1{i:06d}-{i % 3 + 1}.html.csv",
                "table_text": "\n".join("#".join(row) for row in [header] + rows) + "\n",
                "table_caption": words(r, 2, 5), "statement": sentence(r).lower().rstrip("."), "label": i % 2}

    _splits("wenhu/tab_fact", "tab_fact", tvt(), tab_fact)

    def qtsumm(r, i, s):
        header, rows = _grid(r, 4, 3)
        return {"example_id": f"qt-{i}", "table": {"table_id": f"t{i}", "title": words(r, 2, 4), "header": header,
                                                  "rows": rows},
                "query": words(r, 5, 9) + "?", "summary": paragraph(r, 2), "row_ids": [0, 1]}

    _splits("yale-nlp/QTSumm", "default", tvt(), qtsumm)

    def scigen(r, i, s):
        header, rows = _grid(r)
        return {"paper": words(r, 4, 8).title(), "paper_id": f"1805.{i:05d}v1", "table_caption": sentence(r),
                "table_column_names": json.dumps(header), "table_content_values": json.dumps(rows if i % 6 else []),
                "text": paragraph(r, 2)}

    _splits("kasnerz/scigen", "default", tvt(TRAIN_N, N + 2, N + 2), scigen)

    def numericnlg(r, i, s):
        header, rows = _grid(r)
        html = ('<table border="1" class="dataframe"><thead><tr>' + "".join(f"<th>{h}</th>" for h in header)
                + "</tr></thead><tbody>" + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>"
                                                   for row in rows) + "</tbody></table>")
        return {"table_id_paper": f"P19-{i}table_1", "caption": sentence(r), "row_header_level": 1,
                "row_headers": [[row[0]] for row in rows], "column_header_level": 1,
                "column_headers": [[h] for h in header[1:]], "contents": [row[1:] for row in rows],
                "metrics_loc": "column", "metrics_type": ["F1"], "target_entity": [rows[0][0]],
                "table_html_clean": html, "table_name": "Table 1", "table_id": f"{i}", "paper_id": f"P19-{i}",
                "page_no": 3, "dir": "acl", "description": paragraph(r, 2), "class_sentence": ["[1]"],
                "sentences": [sentence(r)], "header_mention": [header[1]], "valid": 1}

    _splits("kasnerz/numericnlg", "default", tvt(), numericnlg)

    qtypes = ["FactChecking", "NumericalReasoning", "DataAnalysis", "Visualization"]
    styles = ["DP", "TCoT", "SCoT", "PoT"]

    def tablebench(r, i, s):
        header, rows = _grid(r)
        return {"id": f"tb-{i}", "qtype": qtypes[(i // 4) % 4], "qsubtype": words(r, 1, 2).title(),
                "instruction": sentence(r), "instruction_type": styles[i % 4],
                "table": json.dumps({"columns": header, "data": rows}), "question": words(r, 5, 8) + "?",
                "answer": rows[0][1],
                "answer_formatter": "The answer should follow the format: Final Answer: AnswerName",
                "chart_type": "line" if qtypes[(i // 4) % 4] == "Visualization" else ""}

    _splits("Multilingual-Multimodal-NLP/TableBench", "table_bench", {"test": 256}, tablebench)  # 16 DP rows per type


def _images():
    def chartqa(r, i, s):
        return {"image": _png(i), "query": words(r, 4, 8) + "?", "label": [str(r.randint(1, 99))],
                "human_or_machine": i % 2}

    _splits("HuggingFaceM4/ChartQA", "default", {"train": TRAIN_N, "val": N, "test": N}, chartqa)
    IMAGE_COLUMNS["HuggingFaceM4/ChartQA"] = ["image"]

    def ai2d(r, i, s):
        return {"question": words(r, 4, 8) + "?", "options": [words(r, 1, 3) for _ in range(4)],
                "answer": str(i % 4), "image": _png(i)}

    _splits("lmms-lab/ai2d", "default", {"test": N}, ai2d)
    IMAGE_COLUMNS["lmms-lab/ai2d"] = ["image"]

    def infovqa(r, i, s):
        return {"questionId": str(10000 + i), "query": words(r, 4, 8) + "?", "answer": words(r, 1, 3),
                "answer_type": "single span", "image": _png(i), "image_filename": f"{i}.jpeg",
                "operation/reasoning": "",
                "ocr": "", "data_split": "train", "source": "infographicVQA"}

    _splits("vidore/infovqa_train", "default", {"train": 60}, infovqa)  # 5% test: 3 rows
    IMAGE_COLUMNS["vidore/infovqa_train"] = ["image"]

    _splits("lmms-lab/SEED-Bench", "default", {"test": 12}, lambda r, i, s: {
        "answer": "ABCD"[i % 4], "choice_a": words(r, 1, 3), "choice_b": words(r, 1, 3), "choice_c": words(r, 1, 3),
        "choice_d": words(r, 1, 3), "data_id": f"{i}.png", "data_type": "video" if i % 4 == 3 else "image",
        "question": words(r, 4, 8) + "?", "question_id": str(i), "question_type_id": 1 + i % 9,
        "image": [_png(i)] if i % 4 != 3 else [_png(i), _png(i + 1)], "segment": None})
    IMAGE_COLUMNS["lmms-lab/SEED-Bench"] = ["image"]

    _splits("lmms-lab/ChartQA", "default", {"test": N}, lambda r, i, s: {
        "type": ["human_test", "augmented_test"][i % 2], "question": words(r, 4, 8) + "?",
        "answer": str(r.randint(1, 99)), "image": _png(i)})
    IMAGE_COLUMNS["lmms-lab/ChartQA"] = ["image"]

    def docvqa(r, i, s):
        answers = [words(r, 1, 3), words(r, 1, 3)]
        return {"questionId": str(300 + i), "question": words(r, 4, 8) + "?", "question_types": ["form"],
                "image": _png(i), "docId": 1000 + i, "ucsf_document_id": f"tx{i:04d}",
                "ucsf_document_page_no": "1", "answers": answers if s == "validation" else None, "data_split": s}

    def infographicvqa(r, i, s):
        return {"questionId": str(65000 + i), "question": words(r, 4, 8) + "?",
                "answers": [words(r, 1, 3)] if s == "validation" else None, "answer_type": ["single span"],
                "image": _png(i), "image_url": f"https://example.org/{i}.jpeg", "operation/reasoning": ["counting"],
                "ocr": "", "data_split": s}

    _splits("lmms-lab/DocVQA", "DocVQA", {"validation": N, "test": N}, docvqa)
    _splits("lmms-lab/DocVQA", "InfographicVQA", {"validation": N, "test": N}, infographicvqa)
    IMAGE_COLUMNS["lmms-lab/DocVQA"] = ["image"]


def _knowledge_safety_judging():
    def popqa(r, i, s):
        subject, obj = words(r, 1, 2).title(), words(r, 1, 2).title()
        return {"id": 4000 + i, "subj": subject, "prop": "occupation", "obj": obj, "subj_id": 100 + i,
                "prop_id": 22, "obj_id": 200 + i, "s_aliases": "[]", "o_aliases": json.dumps([obj.lower()]),
                "s_uri": f"http://www.wikidata.org/entity/Q{i}", "o_uri": f"http://www.wikidata.org/entity/Q{i + 1}",
                "s_wiki_title": subject, "o_wiki_title": obj, "s_pop": 100 * i, "o_pop": 50 * i,
                "question": f"What is {subject}'s occupation?", "possible_answers": json.dumps([obj, obj.lower()])}

    _splits("akariasai/PopQA", "default", {"test": N}, popqa)
    _splits("basicv8vc/SimpleQA", "default", {"test": N}, lambda r, i, s: {
        "metadata": json.dumps({"topic": "Science", "answer_type": "Person", "urls": ["https://example.org"]}),
        "problem": words(r, 5, 9) + "?", "answer": words(r, 1, 3).title()})
    _splits("THUDM/LongBench-v2", "default", {"train": N}, lambda r, i, s: {
        "_id": f"{i:024x}", "domain": "Single-Document QA", "sub_domain": "Academic", "difficulty": "easy",
        "length": "short", "question": words(r, 5, 9) + "?", "choice_A": words(r, 2, 4), "choice_B": words(r, 2, 4),
        "choice_C": words(r, 2, 4), "choice_D": words(r, 2, 4), "answer": "ABCD"[i % 4],
        "context": paragraph(r, 6)})
    domains = ["race", "gender", "profession", "religious_ideology", "political_ideology"]
    _splits("AlexaAI/bold", "default", {"train": N}, lambda r, i, s: {
        "domain": domains[i % 5], "name": words(r, 2, 2).title(), "category": words(r, 1, 2),
        "prompts": [words(r, 4, 7).capitalize(), words(r, 4, 7).capitalize()], "wikipedia": [sentence(r), sentence(r)]})
    _splits("skg/toxigen-data", "train", {"train": 30}, lambda r, i, s: {
        "prompt": sentence(r), "generation": sentence(r), "generation_method": "top-k", "group": "women",
        "prompt_label": i % 2, "roberta_prediction": round(r.random(), 4)})

    def hh(r, i, s):
        turns = f"\n\nHuman: {words(r, 4, 8)}?"
        if i % 3:
            turns += f"\n\nAssistant: {sentence(r)}\n\nHuman: {words(r)}?"
        return {"chosen": turns + f"\n\nAssistant: {sentence(r)}", "rejected": turns + f"\n\nAssistant: {sentence(r)}"}

    _splits("Anthropic/hh-rlhf", "default", tt(), hh)

    def mt_bench_rating(r, i, s):
        """The columns of the MT-Bench GPT-4 single-score export: question, model answer and judge fields (turn
        lists and the reference are the text of Python lists, "[]" when there is no reference)."""
        turn = 1 if i % 4 else 2
        return {"question_id": 81 + i // 2, "category": "writing", "model_input": str([words(r) + "?", words(r) + "?"]),
                "reference": "[]" if i % 5 else str([sentence(r), sentence(r)]), "turn": turn,
                "model_id": ["gpt-4", "vicuna-13b-v1.3", "alpaca-13b"][i % 3], "judge_model_id": "gpt-4",
                "score": 1 + i % 10, "model_output": str([sentence(r), sentence(r)]),
                "judge_input": sentence(r), "judge_output": f"Rating: [[{1 + i % 10}]]"}

    _splits("OfirArviv/mt_bench_single_score_gpt4_judgement", "default", {"train": 40}, mt_bench_rating)


for _builder in (_tables, _images, _knowledge_safety_judging):
    _builder()
