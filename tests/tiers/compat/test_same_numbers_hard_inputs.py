"""Differential tier, hard inputs: every metric of the original's catalog that it computes offline here (its optional
packages installed by setup.sh: nltk with punkt_tab data, rouge_score, sacrebleu, fuzzywuzzy, sqlglot, sqlparse,
func_timeout, pytrec_eval, the evaluate stand-ins) runs on a generated corpus of hard cases through the oracle and
through ours - paragraphs of several sentences with abbreviations and no newlines, unicode, prices and decimals,
padding whitespace and case, empty predictions, several references, long repetitive texts; label lists with
duplicates and case; spans; numbers with ties; key points, reranking pairs and text-to-SQL over an in-memory
database - and every instance score, global score and CI bound the original reports is reported here with its value
(1e-6).

The names are selected from the original's catalog (its package's catalog folder, read at collection time): every
`metrics.*` entry but those scored by a model or an LLM judge (JUDGED), its input family chosen by the class of our
artifact of that name (structured families by name; a metrics list: each member on the list's inputs). Every name
the original cannot compute offline is listed in ORIGINAL_CANNOT (checked: it must fail there); a name that
differs here is listed in DIFFERS with the reason (checked: it must still differ).
"""

import contextlib
import json
import os
import random
from pathlib import Path

import pytest

from unitxt.catalog import fetch_artifact

from . import test_same_numbers_structured as structured
from .test_same_numbers import CI_EXCEPTIONS
from .test_catalog_loads import oracle_catalog_folder

N = 60
TOLERANCE = 1e-6
SENTENCES = [
    "Mr. Smith paid $3.50 for the U.S. flag on Jan. 5 at 3 p.m. and left.",
    "Dr. Who arrived at 10 a.m. He said e.g. that prices rose 2.5% vs. last year.",
    "The café in Zürich serves crème brûlée; it costs €12.99 (approx.) per plate.",
    "It was cheap! Was it really? Yes... mostly.",
    "The U.N. met in N.Y. on Monday. The vote was 7-3.",
    "Prof. Müller’s lab — in São Paulo — tested 1,000.5 samples.",
    "naïve résumé façade coöperate 東京 大学 😀 emoji text.",
    "St. Louis is in Mo. and the Mississippi flows by it.",
    "Inc. and Ltd. are company suffixes; Corp. is too.",
    "THE CAT SAT ON THE MAT. the cat sat on the mat.",
]
PADDING = ["", " ", "  ", "\t", " \n ", "\u00a0"]
LABELS = ["cat", "Dog", "bird", " fish ", "CAT", "été", "n/a"]


def rng_for(name):
    return random.Random(sum(map(ord, name)) * 7 + 3)


def paragraph(rng):
    """A hard text: several sentences on one line, a casing/padding variant, empty, or a long repetition."""
    kind = rng.random()
    if kind < 0.08:
        return rng.choice(["", " ", "  \t"])
    if kind < 0.14:
        return " ".join([rng.choice(SENTENCES)] * rng.randint(3, 6))
    text = " ".join(rng.sample(SENTENCES, rng.randint(1, 4)))
    if rng.random() < 0.3:
        text = rng.choice([text.upper(), text.lower(), text.title()])
    return rng.choice(PADDING) + text + rng.choice(PADDING)


def variant(rng, text):
    """A near copy: words dropped or changed, so that scores fall between 0 and 1."""
    words = text.split()
    kept = [word for word in words if rng.random() < 0.75] or words[:1]
    if kept and rng.random() < 0.5:
        kept[rng.randrange(len(kept))] = rng.choice(["bird", "4.20", "São", "U.K.", "etc."])
    return rng.choice(PADDING) + " ".join(kept)


# ---------------------------------------------------------------- families: rng -> (predictions, references, task_data)
def texts(rng):
    references = [[paragraph(rng) for _ in range(rng.randint(1, 3))] for _ in range(N)]
    predictions = [variant(rng, refs[0]) if rng.random() < 0.7 else paragraph(rng) for refs in references]
    task_data = [{"context": paragraph(rng), "domain": rng.choice(["auto", "book"]), "type": "human_test",
                  "entities": rng.sample(["Smith", "café", "U.S.", "Zürich"], 2)} for _ in range(N)]
    return predictions, references, task_data


def single_texts(rng):
    predictions, references, task_data = texts(rng)
    return predictions, [refs[:1] for refs in references], task_data


def labels(rng):
    return ([rng.choice(LABELS + [""]) for _ in range(N)], [[rng.choice(LABELS)] for _ in range(N)], None)


def numbers(rng):
    gold = [[float(rng.random() < 0.4)] for _ in range(N)]
    return [rng.choice([0.0, 1.0, 0.5, round(rng.random(), 2)]) for _ in range(N)], gold, None


def regression(rng):
    gold = [round(rng.gauss(0, 1), 1) for _ in range(N)]  # rounded: ties
    return [round(g + rng.gauss(0, 1), 1) if rng.random() < 0.8 else g for g in gold], [[g] for g in gold], None


def label_lists(rng):
    def subset():
        return [rng.choice(LABELS) for _ in range(rng.randint(0, 3))]
    return [subset() for _ in range(N)], [[subset() or [LABELS[0]]] for _ in range(N)], None


def id_lists(rng):
    ids = ["d1", "D1", "d 2", "é3", "4", "d5", "d6"]
    return ([rng.sample(ids, rng.randint(0, 5)) for _ in range(N)], [[rng.sample(ids, rng.randint(1, 3))]
                                                                     for _ in range(N)], None)


def spans(rng):
    names = ["John", "São Paulo", "U.S.", "IBM", "josé", "Zürich "]
    kinds = ["PER", "LOC", "ORG"]

    def pairs():
        return [[rng.choice(names), rng.choice(kinds)] for _ in range(rng.randint(0, 4))]
    return [pairs() for _ in range(N)], [[pairs()] for _ in range(N)], None


def relevance(rng):
    predictions = [rng.choice(["2", "0.5", " 3 ", "n/a", "1.0", ""]) for _ in range(N)]
    return predictions, [[float(rng.randint(0, 3))] for _ in range(N)], [{"query": f"q{rng.randint(0, 9)}"}
                                                                          for _ in range(N)]


def equal_reference_texts(rng):
    """Texts with two references each (sacrebleu needs the same number of references on every row)."""
    predictions, references, task_data = texts(rng)
    return predictions, [(refs * 2)[:2] if len(refs) < 2 else refs[:2] for refs in references], task_data


def keypoints(rng):
    """Key point analysis: a yes/no/none answer per (argument, key point) row, grouped by task_data keypoint."""
    answers = ["yes", "no", "none", "Yes", " no ", ""]
    return ([rng.choice(answers) for _ in range(N)], [[rng.choice(answers[:3])] for _ in range(N)],
            [{"keypoint": rng.choice(["Prices rose.", "Café closed", "U.S. vote", "東京"])} for _ in range(N)])


def reranking(rng):
    """(query, passage) rows: a predicted relevance score as text (padded, ties; a pair given twice: the last row
    counts) and a 0/1 gold. No score that is not a number: trec_eval ranks a NaN score by a comparison that is no
    order (the rank it gets depends on the C library's sort), so it has no rank to match (ours ranks it last)."""
    task_data = [{"query_id": f"q{i % 7}", "passage_id": f"p{rng.randint(0, 5)}"} for i in range(N)]
    predictions = [rng.choice(["0.5", "1", "0", str(round(rng.random(), 1)), " 0.30 ", "1e-1"]) for _ in range(N)]
    return predictions, [[str(int(rng.random() < 0.3))] for _ in range(N)], task_data


SQL_TABLES = {"shops": {"columns": ["name", "city", "price"],
                        "rows": [["Café Zürich", "Zürich", 12.99], ["U.S. Deli", "N.Y.", 3.5],
                                 ["São Bar", "São Paulo", 3.5], ["Mr. Smith's", "St. Louis", None]]}}
SQL_QUERIES = ["SELECT name FROM shops", "SELECT name FROM shops WHERE price = 3.5",
               "SELECT name FROM shops WHERE price=3.5", "select NAME from SHOPS where price = 3.5",
               "SELECT city, name FROM shops", "SELECT name, city FROM shops", "SELECT COUNT(*) FROM shops",
               "SELECT name FROM shops ORDER BY price", "SELECT name FROM shops WHERE city = 'São Paulo'",
               "SELECT nme FROM shops", "SELEC name FROM", "", "  SELECT name FROM shops;  "]


def sql_queries(rng):
    """Text-to-SQL: predicted and gold queries (equivalent spellings, wrong columns, broken SQL, empty) over an
    in-memory database given in task_data."""
    db = {"db_id": "shops", "db_type": "in_memory", "data": SQL_TABLES}
    gold = [rng.choice(SQL_QUERIES[:9]) for _ in range(N)]
    predictions = [g if rng.random() < 0.3 else rng.choice(SQL_QUERIES) for g in gold]
    return predictions, [[g] for g in gold], [{"db": db} for _ in range(N)]


HARD_WORDS = ["Mr.", "U.S.", "$3.50", "café", "Zürich", " ", "e.g.", "1,000.5", "THE", "the", "cat", "São", "😀", ""]


@contextlib.contextmanager
def hard_words():
    """The structured families' generators with hard words in their texts."""
    saved = structured.WORDS
    structured.WORDS = HARD_WORDS
    try:
        yield
    finally:
        structured.WORDS = saved


def structured_family(family):
    def generate(rng):
        with hard_words():
            return structured.METRICS[family][0](rng)
    return generate


FAMILIES = {"texts": texts, "single_texts": single_texts, "labels": labels, "numbers": numbers,
            "regression": regression, "label_lists": label_lists, "id_lists": id_lists, "spans": spans,
            "relevance": relevance, "equal_reference_texts": equal_reference_texts, "keypoints": keypoints,
            "reranking": reranking, "sql_queries": sql_queries}
FAMILIES.update({family: structured_family(family) for family in structured.METRICS})
# our artifact's class -> family (texts otherwise)
BY_CLASS = {
    "Accuracy": "labels", "F1Micro": "labels", "F1Macro": "labels", "F1Weighted": "labels",
    "MatthewsCorrelation": "labels", "StringContainment": "labels", "ExactMatchMM": "labels",
    "F1Binary": "numbers", "BinaryAccuracy": "numbers", "BinaryMaxAccuracy": "numbers", "BinaryMaxF1": "numbers",
    "PrecisionBinary": "numbers", "RecallBinary": "numbers", "RocAuc": "numbers",
    "Pearsonr": "regression", "Spearmanr": "regression", "KendallTauMetric": "regression", "Pearson": "regression",
    "Spearman": "regression", "KendallTauB": "regression", "Sacrebleu": "equal_reference_texts",
    "CharEditDistance": "single_texts", "CharEditDistAccuracy": "single_texts", "PredictionLength": "single_texts",
    "KPA": "keypoints", "RerankRecall": "reranking", "SQLExecutionAccuracy": "sql_queries",
    "SQLNonExecutionAccuracy": "sql_queries",
    "MeanSquaredError": "regression", "RootMeanSquaredError": "regression",
    "F1MicroMultiLabel": "label_lists", "F1MacroMultiLabel": "label_lists", "PrecisionMicroMultiLabel": "label_lists",
    "PrecisionMacroMultiLabel": "label_lists", "RecallMicroMultiLabel": "label_lists",
    "RecallMacroMultiLabel": "label_lists", "JaccardIndex": "label_lists", "UnsortedListExactMatch": "label_lists",
    "MRR": "id_lists", "MAP": "id_lists", "RetrievalAtK": "id_lists", "NDCG": "relevance",
    "NER": "spans", "FuzzyNer": "spans", "MetricBasedNer": "spans", "Wer": "single_texts",
}


def list_members(name):
    """The member names of a catalog `metrics_list` (as the original's catalog gives them), else None."""
    path = oracle_catalog_folder().joinpath(*name.split(".")).with_suffix(".json")
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    if data.get("__type__") != "metrics_list":
        return None
    return [item for item in data["items"] if isinstance(item, str)]


def family_of(name):
    """The input family of a catalog name: structured families by the structured tier's lists, a metrics list by its
    first member, else by our class."""
    members = list_members(name)
    if members:
        return family_of(members[0])
    short = name[len("metrics."):]
    for family, (_, names) in structured.METRICS.items():
        if short in names:
            return family
    try:
        artifact = fetch_artifact(name)[0]
    except Exception:  # noqa: BLE001 - a name we do not load is reported by the catalog tests
        return None
    return BY_CLASS.get(type(artifact).__name__, "texts")


def original_metric_names():
    folder = oracle_catalog_folder() / "metrics"
    names = sorted("metrics." + ".".join(path.relative_to(folder).with_suffix("").parts)
                   for path in folder.rglob("*.json"))
    return [name for name in names if not any(part in name for part in JUDGED)]


# names whose scores come from a model or an LLM judge: not compared, whatever the inputs. Under the oracle's mock
# inference mode the original's judges do compute (the mock engine's fixed answer through the judge's processor),
# but their instance scores carry the judge's prompt, which is written here, not copied - no number of the inputs
JUDGED = ("llm_as_judge", "granite_guardian", "bert_score", "sentence_bert", "perplexity", "reward", "vectara",
          "llama_index", "judge", "criteria", "mlflow", "is_code_mixed", "gpt", "answer_reward", "regard",
          "safety_metric", "qa.open.recommended_local_gpu", "huggingface_metrics",
          # RAG judges (task_based_ll_mas_judge; the 33 on a generic_inference_engine are compared against a loopback
          # judge server in test_same_numbers_loopback_judges.py) and the recommended lists of judges or small models
          "generic_inference_engine", "llama_3_3_70b_instruct_wml", "recommended.llmaj_", "recommended.small_llm")
# the original fails on these offline (checked: each fails there), with the reason
PERPLEXITY = "a model's perplexity (transformers, torch and the model's weights, a download)"
ORIGINAL_CANNOT = {
    "metrics.f1_strings": "needs spaCy's en_core_web_sm pipeline, a model download (not published on PyPI by its "
                          "authors)",
    "metrics.meteor": "needs nltk's WordNet corpus, a download (no PyPI package ships it for nltk)",
    "metrics.meteor_hf": "needs nltk's WordNet corpus, a download (no PyPI package ships it for nltk)",
    "metrics.tool_calling.reflection": "needs LLMEvalKit (not on PyPI)",
    "metrics.tool_calling.reflection.syntactic": "needs LLMEvalKit (not on PyPI)",
    "metrics.fin_qa_metric": "downloads its scorer script (FinQA's evaluate.py) at run time",
    "metrics.rag.answer_inference": PERPLEXITY,
    "metrics.rag.context_relevance": PERPLEXITY,
    "metrics.rag.end_to_end.context_relevance": PERPLEXITY,
    "metrics.rag.external_rag.context_relevance": PERPLEXITY,
}
# names that differ here, with the reason (none since session 13: jaccard_index_words splits at runs of whitespace as
# the original; binary F1 is computed as sklearn's 2tp / (tp + fn + tp + fp), bit for bit, so BCa's ties agree)
DIFFERS = {}
# the original reports the negative class's interval under score_ci_* (its last ci_scores entry): deliberate, as for
# f1_binary (exceptions.md); max_f1_binary_neg_ci_* and max_f1_binary_ci_* are compared
HARD_CI_EXCEPTIONS = CI_EXCEPTIONS | {("max_f1_binary", "score_ci_low"), ("max_f1_binary", "score_ci_high")}


def job(name, metric=None):
    """The oracle's job for a name (`metric`: a member of the metrics list `name`, run on the list's inputs)."""
    family = family_of(name)
    predictions, references, task_data = FAMILIES[family](rng_for(name))
    if family == "rag_records":
        return {"kind": "metric_stream", "name": metric or name, "instances": predictions}
    return {"kind": "metric", "name": metric or name, "predictions": predictions, "references": references,
            "task_data": task_data, "pairs_as_tuples": family == "spans"}


def jobs(name):
    """[(metric, job)]: the name's own job, or one job per member of a metrics list (no metric itself)."""
    return [(member, job(name, member)) for member in list_members(name) or [name]]


def ours(name, metric_name=None):
    family = family_of(name)
    predictions, references, task_data = FAMILIES[family](rng_for(name))
    metric = fetch_artifact(metric_name or name)[0]
    if family == "rag_records":
        rows = list(metric.process(iter([dict(record) for record in predictions])))
        return [row["score"]["instance"] for row in rows], rows[0]["score"]["global"]
    if family == "spans":
        predictions = [[tuple(pair) for pair in pairs] for pairs in predictions]
        references = [[[tuple(pair) for pair in pairs] for pairs in refs] for refs in references]
    scores = metric.evaluate(predictions, references, task_data)
    return metric.instance_results(scores), scores.global_scores(with_ci=True)


def close(mine, theirs, where):
    """Equal within TOLERANCE (numbers), NaN where NaN, recursively for lists and dicts; else equal."""
    if isinstance(theirs, float) and theirs != theirs:
        assert isinstance(mine, float) and mine != mine, f"{where}: {mine!r} != NaN"
    elif isinstance(theirs, (int, float)) and not isinstance(theirs, bool):
        assert isinstance(mine, (int, float)) and abs(mine - theirs) <= TOLERANCE, f"{where}: {mine!r} != {theirs!r}"
    elif isinstance(theirs, (list, tuple)):
        assert isinstance(mine, (list, tuple)) and len(mine) == len(theirs), f"{where}: {mine!r} != {theirs!r}"
        for index, (a, b) in enumerate(zip(mine, theirs)):
            close(a, b, f"{where}[{index}]")
    elif isinstance(theirs, dict):
        assert isinstance(mine, dict), f"{where}: {mine!r} != {theirs!r}"
        for key in theirs:
            assert key in mine, f"{where}: {key} missing here"
            close(mine[key], theirs[key], f"{where}.{key}")
    else:
        assert mine == theirs, f"{where}: {mine!r} != {theirs!r}"


# wall-clock measurements (the text2sql metrics' query runtimes, their ratio and CIs): reported, never equal
WALL_CLOCK = ("gold_sql_runtime", "predicted_sql_runtime", "pred_to_gold_runtime_ratio")


def compare(name, theirs, metric_name=None):
    """Every global score (CIs included) and instance score the original reports, here with its value (timings:
    present only); a metrics list: each member's."""
    if "members" in theirs:
        for member, result in theirs["members"].items():
            compare(name, result, member)
        return
    instances, global_scores = ours(name, metric_name)
    for key, value in theirs["global"].items():
        if key.startswith(WALL_CLOCK):
            assert key in global_scores, f"{name}: global {key} missing here"
            continue
        if key == "num_of_instances" or (name[len("metrics."):], key) in HARD_CI_EXCEPTIONS:  # exceptions.md
            continue
        assert key in global_scores, f"{name}: global {key} missing here"
        close(global_scores[key], value, f"{name} global {key}")
    assert len(instances) == len(theirs["instances"])
    for index, (row, original) in enumerate(zip(instances, theirs["instances"])):
        for key, value in original.items():
            assert key in row, f"{name}: instance {index} {key} missing here"
            if not key.startswith(WALL_CLOCK):
                close(row[key], value, f"{name} instance {index} {key}")


NAMES = [name for name in original_metric_names() if family_of(name) is not None]


@pytest.fixture(scope="module")
def oracle_results(oracle):
    """The oracle's results of every name (kept in the JSON file named by UNITXT_HARD_INPUTS_ORACLE_FILE when set,
    and read from it when it exists: the oracle run is long, and the same results serve a before/after count)."""
    keep = os.environ.get("UNITXT_HARD_INPUTS_ORACLE_FILE")
    if keep and Path(keep).exists():
        return json.loads(Path(keep).read_text(encoding="utf-8"))
    results = {}
    for start in range(0, len(NAMES), 45):  # several oracle runs: each well inside the runner's timeout
        chunk = NAMES[start:start + 45]
        keyed = [(name, metric, one) for name in chunk for metric, one in jobs(name)]
        for (name, metric, _), result in zip(keyed, oracle([one for _, _, one in keyed])):
            if metric == name:
                results[name] = result
            elif "error" in result:  # a list fails with its first failing member
                results[name] = {"error": f"{metric}: {result['error']}"}
            elif "error" not in results.get(name, {}):
                results.setdefault(name, {"members": {}})["members"][metric] = result
    if keep:
        Path(keep).write_text(json.dumps(results), encoding="utf-8")
    return results


@pytest.mark.parametrize("name", NAMES)
def test_hard_inputs_give_the_original_numbers(name, oracle_results):
    theirs = oracle_results[name]
    if "error" in theirs:  # not computed by the original offline: listed with the reason (counted below)
        assert name in ORIGINAL_CANNOT, f"{name}: the original fails, and the name is not listed: {theirs['error']}"
        return
    assert name not in ORIGINAL_CANNOT, f"{name} is computed by the original now: leave ORIGINAL_CANNOT"
    if name in DIFFERS:
        with pytest.raises(AssertionError):
            compare(name, theirs)
        return
    compare(name, theirs)


def test_enough_metrics_are_compared(oracle_results):
    """The differential covers the catalog: count of names the original computes offline and that we match."""
    computed = [name for name in NAMES if "error" not in oracle_results[name]]
    assert not set(DIFFERS) - set(computed), "a name listed as different is not computed by the original"
    assert not set(ORIGINAL_CANNOT) - set(NAMES), "a name listed as not computable is no longer selected"
    print(f"hard inputs: {len(computed)} of {len(NAMES)} catalog metrics computed offline by the original; "
          f"{len(computed) - len(DIFFERS)} equal here, {len(DIFFERS)} listed as different")
    assert len(computed) - len(DIFFERS) >= MIN_EQUAL


MIN_EQUAL = 123  # issue 50: all 123 the original computes (session 12: 101 of 105)


def test_our_rougelsum_splits_sentences_as_the_original():
    """setup.sh gives the tier's venv nltk's punkt_tab data too: our rougeLsum uses nltk's splitter, as the oracle."""
    from unitxt.metrics.sentence_split import split_sentences_as_lines

    assert split_sentences_as_lines(["  Mr. Smith paid $3.50. He left at 3 p.m. today.  "]) == [
        "Mr. Smith paid $3.50.\nHe left at 3 p.m. today."]
