"""String and QA metrics of the original catalog (jaccard words, containment ratio, f1_strings, relaxed
correctness, WebSRC F1, FinQA, exact_match_mm) and METEOR against nltk's meteor_score (offline: nltk's Porter
stemmer in its original-algorithm mode, no WordNet synonyms — WordNet data is a download)."""

import random
import re

import pytest
from nltk.stem.porter import PorterStemmer
from nltk.translate.meteor_score import meteor_score

from unitxt.catalog import fetch_artifact
from unitxt.errors import MetricError
from unitxt.metrics.meteor import porter_stem, single_meteor, tokenize
from unitxt.metrics.string_similarity import canonical_finqa_program, relaxed_correct, run_finqa_program, \
    finqa_program_tokens


def metric(name):
    return fetch_artifact(name)[0]


def instance_values(name, predictions, references, task_data=None, key=None):
    metric_ = metric(name)
    scores = metric_.evaluate(predictions, references, task_data)
    key = key or metric_.main_score
    return [s[key] for s in scores.instance_scores], scores.global_scores(with_ci=False)


def test_jaccard_index_words():
    values, result = instance_values("metrics.jaccard_index_words", ["a b c", "x y", "p"],
                                     [["a b d", "c"], ["z"], ["p p"]])
    assert values == [0.5, 0.0, 1.0]  # {a,b}/{a,b,c,d}; best of two references
    assert result["jaccard_index"] == pytest.approx(0.5)


def test_jaccard_index_words_splits_at_runs_of_whitespace_as_the_original():
    """Words are re.split(r"\\s+") pieces: tabs and newlines separate too, and padding leaves an empty word."""
    values, _ = instance_values("metrics.jaccard_index_words", ["a\tb  c", " a b", "a b "],
                                [["a b c"], ["a b"], [" a c"]])
    assert values == [1.0, 2 / 3, 2 / 4]  # {a,b,c}; {'',a,b} vs {a,b}; {a,b,''} vs {'',a,c}: a and '' of 4
    assert [set(re.split(r"\s+", text)) for text in ("a b ", " a b")] == [{"a", "b", ""}] * 2


def test_string_containment_ratio_counts_field_values():
    values, _ = instance_values("metrics.string_containment_ratio[field=names]", ["Ann met Bob", "nobody"],
                                [["-"], ["-"]], [{"names": ["Ann", "Bob", "Cy", "Dan"]}, {"names": ["Ann"]}])
    assert values == [0.5, 0.0]
    with pytest.raises(MetricError, match="no field 'names'"):
        metric("metrics.string_containment_ratio[field=names]").evaluate(["x"], [["x"]], [{}])


def test_f1_strings_token_multiset_f1():
    values, result = instance_values("metrics.f1_strings", ["The cat sat.", "dog dog"], [["the cat", "on the mat"],
                                                                                         ["cat"]])
    # gold tokens: the cat on the mat (5); predicted: the cat sat . (4); shared the, cat -> 2*2/(5+4)
    assert values == [[pytest.approx(4 / 9)], [0.0]]
    assert result["f1_strings"] == pytest.approx(2 / 9)


def test_relaxed_correctness_by_split():
    assert relaxed_correct("10.4", "10") and not relaxed_correct("10.6", "10")
    assert relaxed_correct("5%", "0.0502") and relaxed_correct("Paris", "paris") and not relaxed_correct("0", "0.0")
    values, result = instance_values("metrics.relaxed_correctness", ["10.2", "blue", "3"],
                                     [["10"], ["Blue"], ["4"]],
                                     [{"type": "human_test"}, {"type": "augmented_test"}, {"type": "human_test"}])
    assert values == [1.0, 1.0, 0.0]
    assert result["relaxed_overall"] == pytest.approx(2 / 3)
    assert result["relaxed_human_split"] == 0.5 and result["relaxed_augmented_split"] == 1.0


def test_websrc_f1_is_token_set_f1_rounded():
    _, result = instance_values("metrics.websrc_squad_f1", ["New York City", "b c", "$5"],
                                [["new york"], ["c d e"], ["$ 5"]], [{"domain": "auto"}] * 3)
    f1s = [2 * 1 * (2 / 3) / (1 + 2 / 3), 2 * 0.5 * (1 / 3) / (0.5 + 1 / 3), 1.0]
    assert result["websrc_squad_f1"] == round(sum(f1s) / 3, 3)


def test_finqa_programs():
    assert finqa_program_tokens("subtract(5, 3), divide(#0, 3)") == ["subtract(", "5", "3", ")", "divide(", "#0",
                                                                     "3", ")", "EOF"]
    assert run_finqa_program(finqa_program_tokens("subtract(5, 3), divide(#0, const_100)")) == pytest.approx(0.02)
    assert run_finqa_program(finqa_program_tokens("table_sum(revenue, none)"), [["revenue", "$1,200", "300"]]) == 1500
    assert run_finqa_program(finqa_program_tokens("greater(5, 3)")) == "yes"
    assert canonical_finqa_program("add(b, a), multiply(#0, 2)") == canonical_finqa_program("multiply(add(a,b),2)")
    values, result = instance_values(
        "metrics.fin_qa_metric", ["subtract(5, 3), divide(#0, 3)", "2 / 3", "add(1, 1)"],
        [["0.66667"], ["0.667"], ["3"]],
        [{"program_re": "divide(subtract(5, 3), 3)", "answer": "0.66667", "table": []},
         {"program_re": "divide(subtract(5, 3), 3)", "answer": "0.667", "table": []},
         {"program_re": "add(1, 2)", "answer": "3", "table": []}], key="execution_accuracy")
    assert values == [1.0, 1.0, 0.0]  # the second is not a program: evaluated as arithmetic in the sandbox
    assert result["program_accuracy"] == pytest.approx(1 / 3)


def test_exact_match_mm_option_letters():
    values, _ = instance_values("metrics.exact_match_mm", ["B) cat", "(c) dog", "Option A", "The answer is D.", "x", ""],
                                [["b"], ["C"], ["a"], ["d"], ["b"], ["a"]])
    assert values == [1.0, 1.0, 1.0, 1.0, 0.0, 0.0]


class _NoWordNet:
    """WordNet stand-in without synonyms (the data is not available offline)."""

    @staticmethod
    def synsets(word):
        return []


def test_porter_stemmer_equals_nltk_original_algorithm():
    stemmer = PorterStemmer(mode=PorterStemmer.ORIGINAL_ALGORITHM)
    words = ["caresses", "ponies", "ties", "caress", "cats", "feed", "agreed", "plastered", "bled", "motoring",
             "sing", "conflated", "troubled", "sized", "hopping", "tanned", "falling", "hissing", "fizzed", "failing",
             "filing", "happy", "sky", "relational", "conditional", "rational", "valenci", "hesitanci", "digitizer",
             "conformabli", "radicalli", "differentli", "vileli", "analogousli", "vietnamization", "predication",
             "operator", "feudalism", "decisiveness", "hopefulness", "callousness", "formaliti", "sensitiviti",
             "sensibiliti", "triplicate", "formative", "formalize", "electriciti", "electrical", "hopeful", "goodness",
             "revival", "allowance", "inference", "airliner", "gyroscopic", "adjustable", "defensible", "irritant",
             "replacement", "adjustment", "dependent", "adoption", "homologou", "communism", "activate", "angulariti",
             "homologous", "effective", "bowdlerize", "probate", "rate", "cease", "controll", "roll", "generalizations",
             "oscillators", "a", "is", "by", "yes"]
    words += re.findall(r"[a-z]+", "the quick brown foxes were jumping over lazily sleeping dogs in running rivers")
    assert [porter_stem(w) for w in words] == [stemmer.stem(w) for w in words]


def test_meteor_equals_nltk_meteor_score():
    stemmer = PorterStemmer(mode=PorterStemmer.ORIGINAL_ALGORITHM)
    vocabulary = ["cat", "cats", "sat", "sitting", "on", "the", "mat", "mats", "dog", "running", "runs", "a", "blue",
                  "house", "houses", "quickly", "quick", "jumped", "jumps", "over"]
    rng = random.Random(7)
    for _ in range(300):
        hypothesis = [rng.choice(vocabulary) for _ in range(rng.randint(1, 10))]
        references = [[rng.choice(vocabulary) for _ in range(rng.randint(1, 10))] for _ in range(rng.randint(1, 3))]
        expected = meteor_score(references, hypothesis, stemmer=stemmer, wordnet=_NoWordNet())
        assert max(single_meteor(r, hypothesis) for r in references) == pytest.approx(expected, abs=1e-12)


def test_meteor_metric_values():
    values, result = instance_values("metrics.meteor", ["The cat sat on the mat.", "dogs"],
                                     [["The cat sat on the mat."], ["a cat"]])
    hypothesis = tokenize("The cat sat on the mat.")
    assert hypothesis == ["The", "cat", "sat", "on", "the", "mat", "."]
    # 7 of 7 tokens aligned in one chunk: fmean 1, penalty 0.5 * (1/7)^3
    assert values == [pytest.approx(1 - 0.5 * (1 / 7) ** 3), 0.0]
    assert metric("metrics.meteor_fast").evaluate(["The cat sat on the mat."], [["The cat sat on the mat."]]) \
        .instance_scores[0]["meteor"] == values[0]
    assert result["meteor"] == pytest.approx(values[0] / 2)
