"""Judge meta-evaluation cards (scripts/catalog_sources/judge_meta_eval.py) on offline mirrors of the Arena-Hard and
MT-Bench Spaces (tests/support/space_mirrors.py, Hub cache layout, read by the real LoadFromHFSpace): unitxt's test_card
with every template (the cards have only a test split, so 0 demos), gold verdicts taken from the mirrored judgment
files, and scripted judges whose meta-evaluation scores are recomputed here with scipy."""

import json
import re

import pytest
from scipy.stats import pearsonr, spearmanr
from unitxt.test_utils.card import test_card
from unitxt.catalog import fetch_artifact
from unitxt.evaluation import evaluate
from unitxt.judgment_processors import ExtractArenaHardPreference
from unitxt.loaders import LoaderError, LoadFromHFSpace
from unitxt.recipe import DatasetRecipe

from tests.support.space_mirrors import (
    ARENA_MODELS,
    MT_JUDGMENT_ALIAS,
    arena_hard_files,
    mt_bench_files,
    write_space,
)

ARENA = "cards.arena_hard.response_assessment.pairwise_comparative_rating."
RATING = "cards.mt_bench.response_assessment.rating."
PAIR = "cards.mt_bench.response_assessment.pairwise_comparison."
SCORES = {"A>>B": 3, "A>B": 1, "A=B": 0, "B>A": -1, "B>>A": -3}
ARENA_FILES = arena_hard_files()
MT_FILES = mt_bench_files()
# instances per card on the mirror: 2 judged models x 5 judgments whose both games parsed (x2 for both games);
# MT-Bench: 4 questions of each kind x 3 models (ratings; a failed rating, -1, is kept as the original keeps it) or
# x 3 pairs (minus the disagreeing and the 'error' pairs of that turn and kind)
COUNTS = {
    ARENA + "both_games_gpt_4_judge": 20, ARENA + "both_games_mean_judgment_gpt4_judge": 10,
    ARENA + "first_game_only_gpt_4_judge": 10,
    RATING + "multi_turn_gpt4_judgement": 12, RATING + "multi_turn_with_reference_gpt4_judgement": 12,
    RATING + "single_turn_gpt4_judgement": 12, RATING + "single_turn_with_reference_gpt4_judgement": 12,
    PAIR + "single_turn_gpt4_judgement": 10, PAIR + "single_turn_with_reference_gpt4_judgement": 12,
    PAIR + "multi_turn_gpt4_judgement": 12, PAIR + "multi_turn_with_reference_gpt4_judgement": 10,
}


@pytest.fixture(scope="module")
def space_cache(tmp_path_factory):
    cache = tmp_path_factory.mktemp("hub_cache")
    write_space(cache, "lmarena-ai/arena-hard-viewer", "56c7614", ARENA_FILES)
    write_space(cache, "lmsys/mt-bench", "a4b674c", MT_FILES)
    return cache


@pytest.fixture
def spaces(space_cache, monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(space_cache))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    return space_cache


def _rows(name, template=0):
    card, _ = fetch_artifact(name)
    return list(DatasetRecipe(card=card, template_card_index=template)()["test"])


def _data(row):
    return json.loads(row["task_data"])


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_card_runs_every_template_and_gold_scores_one(name, spaces, capsys):
    card, _ = fetch_artifact(name)
    templates = len(card.templates.items) if hasattr(card.templates, "items") else len(card.templates)
    for index in range(templates):
        rows = _rows(name, index)
        assert len(rows) == COUNTS[name]
        assert evaluate([row["target"] for row in rows], rows).global_scores.score == pytest.approx(1.0)
    problems = test_card(card, num_demos=0, loader_limit=None, strict=True, exact_match_score=1.0,
                         test_full_mismatch_score_with_full_mismatch_prediction_values=False)
    assert problems == []
    assert capsys.readouterr().out.count("| num_demos: ") == templates


# ---------------------------------------------------------------- Arena-Hard
def _arena_judgments():
    """(question text, model lower case) -> the two games' verdict labels, from the mirrored files."""
    root = "data/arena-hard-v0.1"
    text = {q["uid"]: q["prompt"] for q in ARENA_FILES[f"{root}/question.jsonl"]}
    found = {}
    for model in ARENA_MODELS[1:]:
        for row in ARENA_FILES[f"{root}/model_judgment/gpt-4-1106-preview/{model}.jsonl"]:
            found[(text[row["uid"]], model.lower())] = [game["score"] for game in row["games"]]
    return found


def test_arena_gold_preferences_follow_the_judgment_files(spaces):
    judgments = _arena_judgments()
    first = [_data(row) for row in _rows(ARENA + "first_game_only_gpt_4_judge")]
    assert {d["model_a"] for d in first} == {"gpt-4-0314"}
    for d in first:
        assert d["answer_a_preference"] == SCORES[judgments[(d["question"], d["model_b"])][0]]
        assert d["answer_b"].lower().startswith(d["model_b"])  # the judged model's own answer
    both = [_data(row) for row in _rows(ARENA + "both_games_gpt_4_judge")]
    second = [d for d in both if d["model_b"] == "gpt-4-0314"]
    assert len(second) == 10 and len(both) - len(second) == 10
    for d in second:
        assert d["answer_a_preference"] == SCORES[judgments[(d["question"], d["model_a"])][1]]
    mean = [_data(row) for row in _rows(ARENA + "both_games_mean_judgment_gpt4_judge")]
    for d in mean:
        game_1, game_2 = judgments[(d["question"], d["model_b"])]
        assert d["answer_a_preference"] == int(round((SCORES[game_1] - SCORES[game_2]) / 2))
    assert all(None not in judgments[(d["question"], d["model_b"])] for d in mean)  # unparsed games dropped
    assert len({(d["question"], d["model_b"]) for d in mean}) == 10


def _win_rates(pairs, outcomes):
    wins, battles = {}, {}
    for (a, b), outcome in zip(pairs, outcomes):
        won = (outcome, 0) if outcome > 0 else (0, -outcome) if outcome < 0 else (1, 1)
        for model, count in zip((a, b), won):
            wins[model] = wins.get(model, 0) + count
            battles[model] = battles.get(model, 0) + sum(won)
    return {model: wins[model] / battles[model] for model in wins}


@pytest.mark.parametrize("card", ["both_games_gpt_4_judge", "first_game_only_gpt_4_judge",
                                  "both_games_mean_judgment_gpt4_judge"])
def test_arena_scripted_judge_win_rate_correlation(card, spaces):
    """A judge that prefers the longer answer ([[A>B]] / [[B>A]] / [[A=B]]), scored with the unshuffled template."""
    rows = _rows(ARENA + card)
    data = [_data(row) for row in rows]
    predictions = ["[[A>B]]" if len(d["answer_a"]) > len(d["answer_b"]) else
                   "[[B>A]]" if len(d["answer_a"]) < len(d["answer_b"]) else "[[A=B]]" for d in data]
    judged = [SCORES[re.search(r"\[\[(.*)\]\]", p).group(1)] for p in predictions]
    gold = [d["answer_a_preference"] for d in data]
    pairs = [(d["model_a"], d["model_b"]) for d in data]
    predicted_rates, gold_rates = _win_rates(pairs, judged), _win_rates(pairs, gold)
    models = sorted(predicted_rates)
    x, y = [predicted_rates[m] for m in models], [gold_rates[m] for m in models]
    scores = evaluate(predictions, rows).global_scores
    assert scores["spearman_corr"] == pytest.approx(spearmanr(y, x).statistic)
    assert scores["pearson_corr"] == pytest.approx(pearsonr(y, x).statistic)
    assert scores["accuracy"] == pytest.approx(sum(j == g for j, g in zip(judged, gold)) / len(gold))


def test_arena_shuffling_template_swaps_answers_and_negates_the_gold(spaces):
    plain = _rows(ARENA + "first_game_only_gpt_4_judge", 0)
    shuffled = _rows(ARENA + "first_game_only_gpt_4_judge", 1)
    swapped = 0
    for a, b in zip(plain, shuffled):
        gold = _data(a)["answer_a_preference"]
        if a["source"] == b["source"]:
            assert _data(a) == {**_data(b), "metadata": _data(a)["metadata"]}
            assert b["target"] == f"[[{gold}]]"
        else:
            swapped += 1
            assert b["target"] == f"[[{-gold}]]"
            shown_a = b["source"].split("Assistant A's Answer|>\n")[1].split("\n")[0]
            assert shown_a == _data(a)["answer_b"]
            # task_data holds what was judged: answers, their models and the gold sign swapped together
            expected = dict(_data(a), answer_a=_data(a)["answer_b"], answer_b=_data(a)["answer_a"],
                            model_a=_data(a)["model_b"], model_b=_data(a)["model_a"], answer_a_preference=-gold)
            assert {**_data(b), "metadata": None} == {**expected, "metadata": None}
    assert 0 < swapped < len(plain)


def test_arena_reference_generation_card(tmp_path):
    """The generation card reads the arena-hard-auto GitHub files (here local copies of their layout): one row per
    question with a baseline answer, the answer as output."""
    import copy

    from tests.support.space_mirrors import arena_hard_auto_local_files

    card = copy.deepcopy(fetch_artifact("cards.arena_hard.generation.english_gpt_4_0314_reference")[0])
    files = arena_hard_auto_local_files(card)
    for split, file in files.items():
        (tmp_path / file["name"]).write_text(file["text"], encoding="utf-8")
    card.loader.files = {split: str(tmp_path / file["name"]) for split, file in files.items()}
    questions = {q["prompt"]: q["uid"] for q in map(json.loads, files["questions"]["text"].splitlines())}
    answers = {a["uid"]: a["messages"][1]["content"]["answer"]
               for a in map(json.loads, files["model_answer"]["text"].splitlines())}
    rows = list(DatasetRecipe(card=card, template_card_index=0)()["test"])
    assert len(rows) == len(answers) == len(questions) - 1  # the question without a baseline answer is dropped
    for row in rows:
        data = _data(row)
        assert data["output"] == answers[questions[data["input"]]]
        assert (data["type_of_input"], data["type_of_output"]) == ("prompt", "answer")


def test_extract_arena_hard_preference_reads_verdicts_and_numbers():
    read = ExtractArenaHardPreference().process_value
    assert [read(f"My answer... [[{v}]]") for v in SCORES] == [3, 1, 0, -1, -3]
    assert read("[[2]]") == 2 and read("[[-2]]") == -2 and read(-3) == -3
    assert read("first [[A>B]] then final [[B>>A]]") == -3
    assert read("no verdict") == 0 and read("[[maybe]]") == 0


def test_judge_verdict_processors_map_the_prediction_only():
    """As the original's catalog entries: the judge's output is read, the references are left as given."""
    from unitxt.evaluation import post_process_rows

    cases = {"processors.extract_arena_hard_numerical_judgment": ("I say [[A>>B]]", "[[B>A]]", 3),
             "processors.extract_verbal_judgement_bad_good": ("good", "very bad", 0.75)}
    for name, (prediction, reference, expected) in cases.items():
        predictions, references, _ = post_process_rows([prediction], [{"references": [reference],
                                                                        "postprocessors": [name]}])
        assert predictions == [expected] and references == [[reference]], name


# ---------------------------------------------------------------- MT-Bench
def _mt_questions():
    return {q["question_id"]: q for q in MT_FILES["data/mt_bench/question.jsonl"]}


def _who(text):
    """The mirror's answers read '<model> says <question id><a|b>'."""
    model, _, rest = text.partition(" says ")
    return model, int(rest[:-1])


@pytest.mark.parametrize("reference", [False, True])
def test_mt_bench_rating_gold_and_a_reversed_judge(reference, spaces):
    name = RATING + ("multi_turn_with_reference_gpt4_judgement" if reference else "multi_turn_gpt4_judgement")
    rows = _rows(name)
    gold = {(r["question_id"], r["model"]): r["score"]
            for r in MT_FILES["data/mt_bench/model_judgment/gpt-4_single.jsonl"] if r["turn"] == 2}
    questions = _mt_questions()
    for row in rows:
        d = _data(row)
        assert len(d["dialog"]) == 4 and d["dialog"][0] == ["user", questions[_who(d["dialog"][1][1])[1]]["turns"][0]]
        model, question_id = _who(d["dialog"][3][1])
        assert ("reference" in questions[question_id]) == reference
        assert d["rating"] == gold[(question_id, MT_JUDGMENT_ALIAS.get(model, model))]
        if reference:
            assert d["reference_dialog"][3] == ["assistant", questions[question_id]["reference"][1]]
    reversed_judge = [f"Rating: [[{11 - _data(row)['rating']}]]" for row in rows]
    assert evaluate(reversed_judge, rows).global_scores.score == pytest.approx(-1.0)


def _agreeing_pairs(turn, reference):
    """(question id, model a, model b) -> choice_a/choice_b/tie for the pairs a card must keep."""
    questions = _mt_questions()
    kept = {}
    for r in MT_FILES["data/mt_bench/model_judgment/gpt-4_pair.jsonl"]:
        if r["turn"] != turn or ("reference" in questions[r["question_id"]]) != reference:
            continue
        if r["g1_winner"] != r["g2_winner"] or r["g1_winner"] == "error":
            continue
        model_1 = {v: k for k, v in MT_JUDGMENT_ALIAS.items()}.get(r["model_1"], r["model_1"])
        kept[(r["question_id"], model_1, r["model_2"])] = {"model_1": "choice_a", "model_2": "choice_b"}.get(
            r["g1_winner"], "tie")
    return kept


@pytest.mark.parametrize("turns", ["single_turn", "multi_turn"])
@pytest.mark.parametrize("reference", [False, True])
def test_mt_bench_pairwise_gold_and_an_always_a_judge(turns, reference, spaces):
    name = PAIR + f"{turns}{'_with_reference' if reference else ''}_gpt4_judgement"
    rows = _rows(name)
    expected = _agreeing_pairs(1 if turns == "single_turn" else 2, reference)
    found = {}
    for row in rows:
        d = _data(row)
        if turns == "single_turn":
            (model_a, question_id), (model_b, _) = _who(d["answer_a"]), _who(d["answer_b"])
            if reference:
                assert d["reference_answer"] == _mt_questions()[question_id]["reference"][0]
        else:
            (model_a, question_id), (model_b, _) = _who(d["dialog_a"][3][1]), _who(d["dialog_b"][3][1])
            assert len(d["dialog_a"]) == len(d["dialog_b"]) == 4
        found[(question_id, model_a, model_b)] = d["winner"]
    assert found == expected
    always_a = ["Verdict: [[A]]"] * len(rows)
    share = sum(row["target"] == "[[A]]" for row in rows) / len(rows)
    assert 0 < share < 1
    assert evaluate(always_a, rows).global_scores.score == pytest.approx(share)


# ---------------------------------------------------------------- the loader offline
def test_space_loader_globs_the_cached_snapshot_and_explains_a_missing_one(spaces):
    loader = LoadFromHFSpace(space_name="lmsys/mt-bench", revision="a4b674c",
                             data_files={"answers": "data/mt_bench/model_answer/*.jsonl"})
    rows = list(loader()["answers"])
    assert len(rows) == 3 * 8 and {r["model_id"] for r in rows} == {"gpt-4", "vicuna-13b-v1.3", "alpaca-13b"}
    missing = LoadFromHFSpace(space_name="nobody/nothing", data_files={"train": "data/*.jsonl"})
    with pytest.raises(LoaderError, match="not in the Hugging Face cache"):
        list(missing()["train"])


def test_shuffled_arena_instances_carry_the_swapped_models_in_task_data():
    """arena_hard_with_shuffling swaps the answers, their model ids and the gold sign on about half the instances;
    task_data holds the fields as judged, so win rates by model credit each verdict to the right model. The column
    path (load_dataset) and the per-instance path give the same rows."""
    from unitxt import load_dataset
    from unitxt.card import TaskCard
    from unitxt.loaders import LoadFromDictionary

    battles = [{"question": f"q{i}", "answer_a": f"first answer {i}", "answer_b": f"second answer {i}",
                "model_a": f"m{i % 3}", "model_b": "baseline", "answer_a_preference": (i % 7) - 3}
               for i in range(40)]
    card = TaskCard(loader=LoadFromDictionary(data={"test": battles}),
                    task=fetch_artifact("cards.arena_hard.response_assessment.pairwise_comparative_rating."
                                        "first_game_only_gpt_4_judge")[0].task,
                    templates=["templates.response_assessment.pairwise_comparative_rating.arena_hard_with_shuffling"])
    rows = list(DatasetRecipe(card=card, template_card_index=0)()["test"])
    assert rows == [dict(row) for row in load_dataset(card=card, template_card_index=0, split="test")]
    swapped = 0
    for battle, row in zip(battles, rows):
        data = json.loads(row["task_data"])
        if (data["model_a"], data["model_b"]) == ("baseline", battle["model_a"]):
            swapped += 1
            assert (data["answer_a"], data["answer_b"]) == (battle["answer_b"], battle["answer_a"])
            assert data["answer_a_preference"] == -battle["answer_a_preference"]
            assert row["references"] == [f"[[{-battle['answer_a_preference']}]]"]
            assert row["source"].index(battle["answer_b"]) < row["source"].index(battle["answer_a"])
        else:
            assert (data["model_a"], data["model_b"], data["answer_a"]) == (
                battle["model_a"], "baseline", battle["answer_a"])
            assert data["answer_a_preference"] == battle["answer_a_preference"]
    assert 10 <= swapped <= 30
