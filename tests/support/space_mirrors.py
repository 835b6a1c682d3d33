"""Local mirrors of Hugging Face Space files in the Hub cache layout (spaces--owner--name/refs + snapshots), so
LoadFromHFSpace reads them offline exactly as it would a downloaded Space; plus synthetic content in the real layout
of lmarena-ai/arena-hard-viewer (Arena-Hard-Auto v0.1) and lmsys/mt-bench (FastChat llm_judge)."""

import json
import random
from pathlib import Path
from typing import Any, Dict, List, Optional

ARENA_MODELS = ["gpt-4-0314", "Claude-3-Opus", "llama-2-7b-chat"]  # answer/judgment file names keep their case
ARENA_VERDICTS = ["A>>B", "A>B", "A=B", "B>A", "B>>A"]
MT_MODELS = ["gpt-4", "vicuna-13b-v1.3", "alpaca-13b"]
MT_JUDGMENT_ALIAS = {"vicuna-13b-v1.3": "vicuna-13b-hao-0515"}  # how the judgment files name that model


def write_space(cache: Path, space: str, revision: str, files: Dict[str, List[Dict[str, Any]]]) -> Path:
    """Write `files` (path -> JSON Lines rows) as the cached snapshot of `space` at `revision`."""
    folder = Path(cache) / ("spaces--" + space.replace("/", "--"))
    commit = (revision * 40)[:40] if all(c in "0123456789abcdef" for c in revision) else "f" * 40
    snapshot = folder / "snapshots" / commit
    for relative, rows in files.items():
        path = snapshot / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    (folder / "refs").mkdir(parents=True, exist_ok=True)
    (folder / "refs" / revision).write_text(commit, encoding="utf-8")
    return snapshot


def arena_hard_files(questions: int = 6, seed: int = 0) -> Dict[str, List[Dict[str, Any]]]:
    """question.jsonl, model_answer/<model>.jsonl and model_judgment/gpt-4-1106-preview/<model>.jsonl of v0.1 in the
    layout of lmarena-ai/arena-hard-viewer: rows keyed by `uid`, the question in `prompt`, an answer as chat messages
    whose assistant content holds {"answer"}. The last judgment of every model has an unparsed (None) second game."""
    r = random.Random(seed)
    root = "data/arena-hard-v0.1"
    ids = [f"{r.getrandbits(64):016x}" for _ in range(questions)]
    prompts = [f"Question {i}: explain item {r.randint(1, 99)}." for i in range(questions)]
    files = {f"{root}/question.jsonl": [
        {"uid": qid, "category": "arena-hard-v0.1", "cluster": f"Topic {i % 3}", "prompt": prompts[i]}
        for i, qid in enumerate(ids)]}
    for model in ARENA_MODELS:
        files[f"{root}/model_answer/{model}.jsonl"] = [
            {"uid": qid, "ans_id": f"a{i}{model}", "model": model, "tstamp": 1.7e9 + i,
             "messages": [{"role": "user", "content": prompts[i]},
                          {"role": "assistant", "content": {"answer": f"{model} answers question {i}."}}],
             "metadata": {"token_len": 5 + i}}
            for i, qid in enumerate(ids)]
        if model == ARENA_MODELS[0]:
            continue
        rows = []
        for i, qid in enumerate(ids):
            scores = [r.choice(ARENA_VERDICTS), r.choice(ARENA_VERDICTS) if i < questions - 1 else None]
            rows.append({"uid": qid, "category": "arena-hard-v0.1", "model": model, "judge": "gpt-4-1106-preview",
                         "games": [{"user_prompt": f"<|User Prompt|> {i} game {g}",
                                    "judgment": f"... [[{s}]]" if s else "no verdict", "score": s}
                                   for g, s in enumerate(scores)]})
        files[f"{root}/model_judgment/gpt-4-1106-preview/{model}.jsonl"] = rows
    return files


def mt_bench_files(seed: int = 0) -> Dict[str, List[Dict[str, Any]]]:
    """question.jsonl (ids 81..; the math ones have a reference), model_answer/<model>.jsonl and the GPT-4 single
    and pair judgment files, with one failed rating (-1), one disagreeing and one 'error' pair per turn."""
    r = random.Random(seed)
    root = "data/mt_bench"
    questions = []
    for i in range(8):
        row = {"question_id": 81 + i, "category": "math" if i % 2 else "writing",
               "turns": [f"Q{i} turn one?", f"Q{i} turn two?"]}
        if i % 2:
            row["reference"] = [f"ref {i} one", f"ref {i} two"]
        questions.append(row)
    files = {f"{root}/question.jsonl": questions}
    for model in MT_MODELS:
        files[f"{root}/model_answer/{model}.jsonl"] = [
            {"question_id": q["question_id"], "answer_id": f"{model}-{q['question_id']}", "model_id": model,
             "choices": [{"index": 0, "turns": [f"{model} says {q['question_id']}{part}" for part in "ab"]}],
             "tstamp": 1.69e9} for q in questions]
    single, pair = [], []
    for q in questions:
        kind = "single-math-v1" if "reference" in q else "single-v1"
        for turn in (1, 2):
            for k, model in enumerate(MT_MODELS):
                score = -1.0 if (q["question_id"], turn, k) in ((82, 2, 2), (81, 2, 2)) else float(r.randint(1, 10))
                single.append({"question_id": q["question_id"], "model": MT_JUDGMENT_ALIAS.get(model, model),
                               "judge": ["gpt-4", kind + ("-multi-turn" if turn == 2 else "")],
                               "user_prompt": "...", "judgment": f"Rating: [[{score:g}]]", "score": score,
                               "turn": turn, "tstamp": 1.69e9})
            for a, b in ((0, 1), (0, 2), (1, 2)):
                winner = r.choice(["model_1", "model_2", "tie"])
                second = winner
                if (q["question_id"], turn, a, b) in ((83, 1, 0, 1), (84, 2, 0, 1)):
                    second = "model_2" if winner != "model_2" else "model_1"  # the two games disagree
                if (q["question_id"], turn, a, b) in ((85, 1, 1, 2), (86, 2, 1, 2)):
                    winner = second = "error"
                pair.append({"question_id": q["question_id"], "model_1": MT_JUDGMENT_ALIAS.get(MT_MODELS[a],
                                                                                              MT_MODELS[a]),
                             "model_2": MT_MODELS[b], "g1_winner": winner, "g2_winner": second,
                             "judge": ["gpt-4", "pair-math-v1" if "reference" in q else "pair-v2"],
                             "g1_user_prompt": "...", "g1_judgment": "...", "g2_user_prompt": "...",
                             "g2_judgment": "...", "turn": turn, "tstamp": 1.69e9})
    files[f"{root}/model_judgment/gpt-4_single.jsonl"] = single
    files[f"{root}/model_judgment/gpt-4_pair.jsonl"] = pair
    return files


# ---------------------------------------------------------------- the compat tier's Space sources (issue 37)
# Spaces the catalogs' cards read, with the synthetic files of each
SPACE_FILES = {"lmsys/mt-bench": mt_bench_files, "lmarena-ai/arena-hard-viewer": arena_hard_files}


def space_source(card) -> Optional[Dict[str, Any]]:
    """{"space_files": {"space", "revision", "files"}} for a card that reads a mirrored Space, else None."""
    loader = card.loader
    if type(loader).__name__ != "LoadFromHFSpace" or loader.space_name not in SPACE_FILES:
        return None
    return {"space_files": {"space": loader.space_name, "revision": loader.revision or "main",
                            "files": SPACE_FILES[loader.space_name]()}}


def write_space_sources(sources: List[Dict[str, Any]], cache: Path) -> bool:
    """Write every space_files source into the Hub cache folder `cache`; whether there was one."""
    found = False
    for source in sources:
        if "space_files" in source:
            given = source["space_files"]
            write_space(cache, given["space"], given["revision"], given["files"])
            found = True
    return found


def space_file_names(cache: Path, space: str) -> List[str]:
    """The relative paths of the cached snapshot files of `space` (what the Space's file list would give)."""
    snapshots = Path(cache) / ("spaces--" + space.replace("/", "--")) / "snapshots"
    return sorted(path.relative_to(snapshot).as_posix() for snapshot in snapshots.iterdir()
                  for path in snapshot.rglob("*") if path.is_file())


def arena_hard_auto_files(questions: int = 6, seed: int = 1) -> Dict[str, List[Dict[str, Any]]]:
    """question.jsonl and model_answer/gpt-4-0314.jsonl of the arena-hard-auto GitHub repository's newer layout
    (uid, category, cluster, prompt; answers as chat messages whose assistant content holds the answer); one
    question has no baseline answer."""
    r = random.Random(seed)
    uids = [f"{r.getrandbits(64):016x}" for _ in range(questions)]
    question_rows = [{"uid": uid, "category": "arena-hard-v0.1", "cluster": f"Topic {i % 3}",
                      "prompt": f"Prompt {i}: compare item {r.randint(1, 99)}."} for i, uid in enumerate(uids)]
    answers = [{"uid": uid, "ans_id": f"ans{i}", "model": "gpt-4-0314", "messages": [
        {"role": "user", "content": question_rows[i]["prompt"]},
        {"role": "assistant", "content": {"answer": f"Baseline answer {i}."}}], "tstamp": 1.7e9 + i,
        "metadata": {"token_len": 4 + i}} for i, uid in enumerate(uids[:-1])]
    return {"question.jsonl": question_rows, "gpt-4-0314.jsonl": answers}


def arena_hard_auto_local_files(card) -> Optional[Dict[str, Dict[str, str]]]:
    """The local_files source ({split: {"name", "text"}}) of a card reading the arena-hard-auto GitHub files."""
    files = getattr(card.loader, "files", None)
    if type(card.loader).__name__ != "LoadJsonFile" or not isinstance(files, dict) or not all(
            isinstance(url, str) and "lmarena/arena-hard-auto" in url for url in files.values()):
        return None
    texts = arena_hard_auto_files()
    return {split: {"name": url.rsplit("/", 1)[-1], "text": "".join(json.dumps(row) + "\n" for row in
                                                                     texts[url.rsplit("/", 1)[-1]])}
            for split, url in files.items()}
