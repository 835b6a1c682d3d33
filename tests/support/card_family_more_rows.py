"""Synthetic rows in the real schema of the datasets behind cards_more_singles.py (GPQA, LegalBench, CoQA) for the
compat tier's per-card comparison (`MORE_ROWS_BY_PATH`, merged into tests/support/card_family_sources.py). Texts are
synthetic; field names, types, configs, data folders and splits are the datasets' own.
"""

import random
from typing import Any, Dict, List

from tests.support.card_mirrors import sentence, words

N = 8
Rows = Dict[str, List[Dict[str, Any]]]


def _rng(*key: Any) -> random.Random:
    return random.Random("|".join(map(str, key)))


def _gpqa(name, data_dir, _) -> Rows:
    def row(r, index):
        return {"Pre-Revision Question": words(r) + "?", "Pre-Revision Correct Answer": words(r, 1, 3),
                "Question": f"[{name}] " + words(r) + "?", "Correct Answer": words(r, 1, 3),
                "Incorrect Answer 1": words(r, 1, 3), "Incorrect Answer 2": words(r, 1, 3),
                "Incorrect Answer 3": words(r, 1, 3), "Explanation": sentence(r),
                "Subdomain": ["Molecular Biology", "Quantum Mechanics", "Organic Chemistry"][index % 3],
                "High-level domain": ["Biology", "Physics", "Chemistry"][index % 3], "Record ID": f"rec{index}"}

    return {"train": [row(_rng("gpqa", name, i), i) for i in range(N)]}


LEGAL_ANSWERS = {"abercrombie": ["generic", "descriptive", "suggestive", "arbitrary", "fanciful"],
                 "function_of_decision_section": ["Facts", "Issue", "Rule", "Analysis", "Conclusion"]}


def _legalbench(name, data_dir, _) -> Rows:
    def row(r, index):
        answer = LEGAL_ANSWERS.get(data_dir, ["Yes", "No"])[index % len(LEGAL_ANSWERS.get(data_dir, "ab"))]
        base = {"answer": answer, "index": str(index)}
        if data_dir == "corporate_lobbying":
            return {**base, "bill_title": words(r), "bill_summary": sentence(r), "company_name": words(r, 1, 2),
                    "company_description": sentence(r)}
        if data_dir == "function_of_decision_section":
            return {**base, "Citation": f"{index} F.3d {100 + index}", "Paragraph": sentence(r)}
        if data_dir == "international_citizenship_questions":
            return {**base, "question": words(r) + "?"}
        return {**base, "text": sentence(r)}

    return {split: [row(_rng("legal", data_dir, split, i), i) for i in range(size)]
            for split, size in (("train", 4), ("test", N))}


def _coqa(name, data_dir, _) -> Rows:
    def row(r, index):
        count = 1 + index % 3
        answers = [words(r, 1, 3) for _ in range(count)]
        return {"source": ["wikipedia", "cnn", "gutenberg"][index % 3], "story": sentence(r) + " " + sentence(r),
                "questions": [words(r) + "?" for _ in range(count)],
                "answers": {"input_text": answers, "answer_start": [k * 3 for k in range(count)],
                            "answer_end": [k * 3 + 2 for k in range(count)]}}

    return {split: [row(_rng("coqa", split, i), i) for i in range(size)]
            for split, size in (("train", 12), ("validation", N))}


MORE_ROWS_BY_PATH = {"Idavidrein/gpqa": _gpqa, "nguha/legalbench": _legalbench, "stanfordnlp/coqa": _coqa}


COEDIT_TASKS = ["gec", "paraphrase", "simplification", "coherence", "neutralize", "clarity", "gec"]
COEDIT_PREFIXES = ["Fix grammaticality: ", "Paraphrase this: ", "Simplify: ", "Make it coherent: ",
                   "Neutralize this text: ", "Clarify: "]


def _coedit(name, data_dir, _) -> Rows:
    def row(r, index):
        task = COEDIT_TASKS[index % len(COEDIT_TASKS)]
        src = sentence(r) + (": a quoted part" if index % 4 == 0 else "")  # a text with ": " in it stays whole
        return {"_id": str(index), "task": task, "src": COEDIT_PREFIXES[index % 6] + src, "tgt": sentence(r)}

    return {split: [row(_rng("coedit", split, i), i) for i in range(size)]
            for split, size in (("train", 21), ("validation", 14))}


def _summarize_from_feedback(name, data_dir, _) -> Rows:
    def row(r, index, split):
        news = index % 5 == 4  # CNN/DM rows carry an article and no post
        return {"info": {"id": f"t3_{index}", "post": None if news else sentence(r) + " " + sentence(r),
                         "title": words(r), "subreddit": None if news else "relationships",
                         "site": "cnn" if news else None, "article": sentence(r) if news else None},
                "summaries": [{"text": sentence(r), "policy": "sup2", "note": None},
                              {"text": sentence(r), "policy": "ref", "note": None}],
                "choice": index % 2, "worker": f"w{index % 3}", "batch": "batch3", "split": split,
                "extra": {"confidence": index % 9 + 1}}

    return {split: [row(_rng("sff", split, i), i, split) for i in range(size)]
            for split, size in (("train", 12), ("validation", N))}


MORE_ROWS_BY_PATH.update({"grammarly/coedit": _coedit, "openai/summarize_from_feedback": _summarize_from_feedback})


TABLEBENCH_QTYPES = ["DataAnalysis", "FactChecking", "NumericalReasoning", "Visualization"]


def _tablebench(name, data_dir, _) -> Rows:
    import json

    def row(r, index):
        table = {"columns": ["name", "year", "count"], "data": [[words(r, 1, 2), 2000 + k, r.randint(1, 99)]
                                                                 for k in range(2 + index % 3)]}
        return {"id": f"tb{index}", "qtype": TABLEBENCH_QTYPES[index % 4], "qsubtype": "Counting",
                "instruction": "Answer the question. " + words(r), "instruction_type": ["DP", "TCoT", "DP"][index % 3],
                "table": json.dumps(table), "question": words(r) + "?", "answer": words(r, 1, 2),
                "answer_formatter": "Final Answer: AnswerName1, AnswerName2..."}

    return {"test": [row(_rng("tablebench", i), i) for i in range(160)]}  # every portion keeps rows of each type


def _pop_qa(name, data_dir, _) -> Rows:
    import json

    def row(r, index):
        prop = ["occupation", "country", "genre"][index % 3]
        obj = words(r, 1, 2)
        return {"id": index, "subj": words(r, 1, 2).title(), "prop": prop, "obj": obj, "subj_id": 1000 + index,
                "prop_id": [22, 182, 91][index % 3], "obj_id": 2000 + index, "s_aliases": "[]",
                "o_aliases": json.dumps([obj.upper()]), "s_uri": f"http://www.wikidata.org/entity/Q{index}",
                "o_uri": f"http://www.wikidata.org/entity/Q{index + 1}", "s_wiki_title": words(r, 1, 2),
                "o_wiki_title": obj, "s_pop": r.randint(1, 5000), "o_pop": r.randint(1, 5000),
                "question": f"What is {words(r, 1, 2)}'s {prop}?", "possible_answers": json.dumps([obj, obj.title()])}

    return {"test": [row(_rng("popqa", i), i) for i in range(N)]}


def quality_files(card):
    """QuALITY's train / dev files (one article per JSON line, with its questions) for cards.quality, else None."""
    import json

    files = getattr(card.loader, "files", None)
    if not isinstance(files, dict) or not all("nyu-mll/quality" in str(url) for url in files.values()):
        return None

    def article(r, index, split):
        questions = [{"question": words(r) + "?", "question_unique_id": f"{split}{index}_{k}",
                      "options": [words(r, 1, 3) for _ in range(4)], "gold_label": 1 + (index + k) % 4,
                      "writer_label": 1 + k % 4, "difficult": k % 2} for k in range(1 + index % 3)]
        return {"article_id": str(20000 + index), "set_unique_id": f"{split}_{index}", "batch_num": "22",
                "writer_id": "1", "source": "Gutenberg", "title": words(r, 2, 4).title(), "year": 1950 + index,
                "author": words(r, 2, 2).title(), "topic": "Science fiction",
                "article": " ".join(sentence(r) for _ in range(4)), "questions": questions}

    sizes = {"train": 10, "validation": 4}
    return {split: {"name": f"{split}.jsonl",
                    "text": "\n".join(json.dumps(article(_rng("quality", split, i), i, split))
                                      for i in range(sizes[split])) + "\n"} for split in files}


MORE_ROWS_BY_PATH.update({"Multilingual-Multimodal-NLP/TableBench": _tablebench, "akariasai/PopQA": _pop_qa})


def _birdbench(name, data_dir, _) -> Rows:
    def row(r, index):
        return {"question_id": index, "db_id": ["california_schools", "financial", "toxicology"][index % 3],
                "question": words(r) + "?", "evidence": sentence(r) if index % 3 else "",
                "SQL": f"SELECT COUNT(*) FROM t{index} WHERE a = {index}",
                "difficulty": ["simple", "moderate", "challenging"][index % 3]}

    return {"validation": [row(_rng("bird", i), i) for i in range(N)]}


def _tot(name, data_dir, _) -> Rows:
    def row(r, index):
        answer = f"{r.randint(1, 28)} {words(r, 1, 1)}'s day" if index % 3 == 0 else str(r.randint(1, 99))
        label = "{'explanation': '" + words(r) + "', 'answer': '" + answer.replace("'", "") + "'}"
        if name == "tot_arithmetic":
            return {"question": words(r) + "?", "question_type": ["add_subtract", "duration"][index % 2],
                    "label": label}
        return {"prompt": sentence(r) + "\n" + words(r) + "?", "question": words(r) + "?",
                "question_type": "EventAtTimeT", "graph_gen_algorithm": "ER", "label": words(r, 1, 2)}

    return {"test": [row(_rng("tot", name, i), i) for i in range(N)]}


def _truthful_qa(name, data_dir, _) -> Rows:
    def row(r, index):
        count = 2 + index % 3
        labels = [0] * count
        labels[index % count] = 1
        return {"question": words(r) + "?",
                "mc1_targets": {"choices": [words(r, 1, 3) for _ in range(count)], "labels": labels},
                "mc2_targets": {"choices": [words(r, 1, 3) for _ in range(3)], "labels": [1, 1, 0]}}

    return {"validation": [row(_rng("tqa", i), i) for i in range(N)]}


AIR_CATEGORIES = ["1.1.1", "1.1.2", "2.3.4", "5.11.2"]


def _air_bench(name, data_dir, _) -> Rows:
    names = {"l2-name": "Security Risks", "l3-name": "Confidentiality", "l4-name": "Network intrusion"}
    if name is None:  # the judge_prompt_final.csv file: one judge prompt per category (not all categories)
        return {"judge_prompts": [{"cate-idx": cate, **names, "judge_prompt": f"Judge category {cate}: "
                                   + sentence(_rng("air-judge", cate))} for cate in AIR_CATEGORIES[:3]]}
    return {"test": [{"cate-idx": AIR_CATEGORIES[i % 4], **names, "prompt": sentence(_rng("air", i))}
                     for i in range(N)]}


def csv_files(card):
    """The card's CSV files (CFPB complaints of the watsonx samples, MLCommons AILuminate prompts) as
    {split: {"name", "text"}}, or None for other loaders."""
    import csv
    import hashlib
    import io

    files = getattr(card.loader, "files", None)
    if type(card.loader).__name__ != "LoadCSV" or not isinstance(files, dict):
        return None
    out = {}
    for split, url in files.items():
        if "cfpb_compliants" in url:
            header = ["product", "narrative"]
            products = ["retail_banking", "mortgages_and_loans", "debt_collection", "credit_card", "credit_reporting"]
            rows = [[products[i % 5], sentence(_rng("cfpb", i)) + ", " + words(_rng("cfpb2", i))] for i in range(30)]
        elif "Medical-Abstracts-TC-Corpus" in url:  # the corpus's columns; labels 1-5
            header = ["condition_label", "medical_abstract"]
            rows = [[i % 5 + 1, sentence(_rng("medical", split, i)) + " " + sentence(_rng("medical2", split, i))]
                    for i in range(30 if split == "train" else N)]
        elif "ailuminate" in url:
            header = ["release_prompt_id", "prompt_text", "hazard", "persona", "locale", "prompt_hash"]
            rows = [[f"airr_practice_1_0_{i}", sentence(_rng("ail", i)), ["vcr", "cse", "hte"][i % 3],
                     ["normal", "unskilled", "skilled"][i % 3], "en_US", hashlib.md5(str(i).encode()).hexdigest()] for i in range(N)]
        else:
            return None
        text = io.StringIO()
        csv.writer(text).writerows([header, *rows])
        out[split] = {"name": f"{split}.csv", "text": text.getvalue()}
    return out


MORE_ROWS_BY_PATH.update({"premai-io/birdbench": _birdbench, "baharef/ToT": _tot,
                          "truthfulqa/truthful_qa": _truthful_qa, "stanford-crfm/air-bench-2024": _air_bench})


def _bioasq(name, data_dir, _) -> Rows:
    if name == "question-answer-passages":  # the questions (cards.rag.benchmark.bioasq.en)
        return {"test": [{"question": words(_rng("bioasq-q", i)) + "?", "answer": sentence(_rng("bioasq-a", i)),
                          "id": i, "relevant_passage_ids": [1000 + i, 1000 + (i + 1) % N]} for i in range(N)]}
    return {"test": [{"passage": sentence(_rng("bioasq", i)), "id": 1000 + i} for i in range(N)]}


def _clapnq_passages(name, data_dir, _) -> Rows:
    return {"train": [{"id": f"{800 + i}", "text": sentence(_rng("cqp", i)), "title": words(_rng("cqt", i), 1, 3)}
                      for i in range(N)]}


def _hotpot_qa(name, data_dir, _) -> Rows:
    titles = ["Alpha River", "Beta Town", "Gamma Hill", "Delta Lake", "Epsilon Bay"]

    def row(r, index, split):
        chosen = [titles[(index + k) % 5] for k in range(2)]
        return {"id": f"{split}{index}", "question": words(r) + "?", "answer": words(r, 1, 2), "type": "bridge",
                "level": "medium", "supporting_facts": {"title": chosen[:1], "sent_id": [0]},
                "context": {"title": chosen, "sentences": [[sentence(_rng("hp", t, k)) + "\u00a0" + words(r, 1, 1)
                                                            for k in range(2)] for t in chosen]}}

    return {split: [row(_rng("hotpot", split, i), i, split) for i in range(size)]
            for split, size in (("train", 6), ("validation", 4), ("test", 4))}


def _mini_wikipedia(name, data_dir, _) -> Rows:
    if name == "question-answer":  # the questions (cards.rag.benchmark.miniwiki.en)
        return {"test": [{"question": words(_rng("mwq", i)) + "?", "answer": words(_rng("mwa", i), 1, 3), "id": i}
                         for i in range(N + 2)]}
    return {"passages": [{"passage": sentence(_rng("miniwiki", i)), "id": i} for i in range(N)]}


def _watsonx_docs(name, data_dir, _) -> Rows:
    if name == "question_answers":  # the questions (cards.rag.benchmark.watsonxqa.en)
        return {"test": [{"question_id": f"q{i}", "question": words(_rng("wxq", i)) + "?",
                          "correct_answer": sentence(_rng("wxa", i)), "correct_answer_document_ids": f"doc{i:04d}"}
                         for i in range(N)]}
    return {"train": [{"doc_id": f"doc{i:04d}", "title": words(_rng("wxt", i), 2, 4),
                       "document": sentence(_rng("wxd", i)) + " " + sentence(_rng("wxd2", i)),
                       "url": f"https://www.ibm.com/docs/en/watsonx/{i}"} for i in range(N)]}


def mtrag_files(card):
    """MTRAG's zipped document corpora as plain JSON Lines text (both sides read them with compression off), or None."""
    import json

    files = getattr(card.loader, "files", None)
    if not isinstance(files, dict) or not all("mt-rag-benchmark" in str(url) for url in files.values()):
        return None
    out = {}
    for split, url in files.items():
        domain = url.rsplit("/", 1)[-1].split(".")[0]
        lines = []
        for i in range(N):
            r = _rng("mtrag", domain, i)
            if domain == "reference+RAG":  # the generation tasks: a conversation, its contexts and target answer
                turns = [{"speaker": ["user", "agent"][k % 2], "text": sentence(r)} for k in range(1 + 2 * (i % 2))]
                lines.append({"task_id": f"task-{i}", "conversation_id": f"conv-{i // 2}", "turn": len(turns),
                              "Answerability": [["ANSWERABLE"], ["UNANSWERABLE"], ["PARTIAL"], ["CONVERSATIONAL"]][i % 4],
                              "Collection": "mt-rag-clapnq-elser-512-100-20240503", "input": turns,
                              "contexts": [{"document_id": f"{i}-clapnq", "text": sentence(r), "score": 10.0 - i}
                                           for _ in range(1 + i % 3)],
                              "targets": [{"speaker": "agent", "text": sentence(r)}]})
            elif domain in ("clapnq", "fiqa"):
                lines.append({"_id": f"{i}-{domain}", "title": words(r, 1, 3), "text": sentence(r)})
            elif domain == "cloud":
                lines.append({"document_id": f"cloud-{i}", "text": sentence(r), "url": f"https://cloud.example/{i}"})
            else:
                lines.append({"document_id": f"govt-{i}", "title": words(r, 1, 3) if i % 3 else 1990 + i,
                              "text": sentence(r), "url": f"https://gov.example/{i}"})
        out[split] = {"name": f"{split}.jsonl", "text": "\n".join(json.dumps(line) for line in lines) + "\n"}
    return out


MORE_ROWS_BY_PATH.update({"enelpol/rag-mini-bioasq": _bioasq, "PrimeQA/clapnq_passages": _clapnq_passages,
                          "hotpotqa/hotpot_qa": _hotpot_qa, "rag-datasets/rag-mini-wikipedia": _mini_wikipedia,
                          "ibm-research/watsonxDocsQA": _watsonx_docs})
