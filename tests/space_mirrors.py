"""Local mirrors of Hugging Face Space files in the Hub cache layout (spaces--owner--name/refs + snapshots), so
LoadFromHFSpace reads them offline exactly as it would a downloaded Space; plus synthetic content in the real layout
of lmsys/arena-hard-browser (Arena-Hard-Auto v0.1) and lmsys/mt-bench (FastChat llm_judge)."""

import json
import random
from pathlib import Path
from typing import Any, Dict, List

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
    """question.jsonl, model_answer/<model>.jsonl and model_judgment/gpt-4-1106-preview/<model>.jsonl of v0.1.
    The last judgment of every model has an unparsed (None) second game."""
    r = random.Random(seed)
    root = "data/arena-hard-v0.1"
    ids = [f"{r.getrandbits(64):016x}" for _ in range(questions)]
    files = {f"{root}/question.jsonl": [
        {"question_id": qid, "category": "arena-hard-v0.1", "cluster": f"Topic {i % 3}",
         "turns": [{"content": f"Question {i}: explain item {r.randint(1, 99)}."}]} for i, qid in enumerate(ids)]}
    for model in ARENA_MODELS:
        files[f"{root}/model_answer/{model}.jsonl"] = [
            {"question_id": qid, "answer_id": f"a{i}{model}", "model_id": model, "tstamp": 1.7e9 + i,
             "choices": [{"index": 0, "turns": [{"content": f"{model} answers question {i}.", "token_len": 5 + i}]}]}
            for i, qid in enumerate(ids)]
        if model == ARENA_MODELS[0]:
            continue
        rows = []
        for i, qid in enumerate(ids):
            scores = [r.choice(ARENA_VERDICTS), r.choice(ARENA_VERDICTS) if i < questions - 1 else None]
            rows.append({"question_id": qid, "model": model, "judge": "gpt-4-1106-preview", "games": [
                {"user_prompt": f"<|User Prompt|> {i} game {g}", "judgment": f"... [[{s}]]" if s else "no verdict",
                 "score": s} for g, s in enumerate(scores)]})
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
                score = -1 if (q["question_id"], turn, k) in ((82, 2, 2), (81, 2, 2)) else r.randint(1, 10)
                single.append({"question_id": q["question_id"], "model": MT_JUDGMENT_ALIAS.get(model, model),
                               "judge": ["gpt-4", kind + ("-multi-turn" if turn == 2 else "")],
                               "user_prompt": "...", "judgment": f"Rating: [[{score}]]", "score": score,
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
