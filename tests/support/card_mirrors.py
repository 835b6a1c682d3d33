"""Synthetic rows in the REAL Hugging Face Hub schema of every dataset a catalog card loads.

`MIRRORS` maps a Hub repo id to `{config: {split: rows}}` with the real repo id, config names, split names, field
names, value types and label encodings (ClassLabel columns hold ints, test splits without gold labels hold -1 where
the real data does). The texts are synthetic. `build_all(root)` writes every mirror in the Hub layout under `root`
(see tests/support/hub_mirror.py), so `datasets.load_dataset(repo_id, config)` run from `root` reads them offline.

Each split has at least 6 rows (most 8-12); every class of a classification dataset appears when there are few classes.
"""

import random
from pathlib import Path
from typing import Any, Callable, Dict, List

from tests.support.hub_mirror import make_hub_dataset

WORDS = (
    "the a river city bright stone quiet market teacher garden winter music paper engine forest signal harbor "
    "ancient yellow small careful story window bridge letter morning planet rapid silver gentle doctor island "
    "machine museum coffee soldier village mountain ocean library theory record system value energy"
).split()

N = 8  # rows per split (train splits get TRAIN_N so demos pools and train->validation mixes have room)
TRAIN_N = 12

Rows = List[Dict[str, Any]]
MIRRORS: Dict[str, Dict[str, Dict[str, Rows]]] = {}


def _rng(*key: Any) -> random.Random:
    return random.Random("|".join(map(str, key)))


def words(rng: random.Random, low: int = 4, high: int = 10) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def sentence(rng: random.Random, low: int = 5, high: int = 12) -> str:
    text = words(rng, low, high)
    return text[0].upper() + text[1:] + "."


def paragraph(rng: random.Random, sentences: int = 3) -> str:
    return " ".join(sentence(rng) for _ in range(sentences))


def _splits(repo: str, config: str, split_sizes: Dict[str, int], make_row: Callable[[random.Random, int, str], Dict]):
    """Register rows for one config: make_row(rng, index, split) per row."""
    configs = MIRRORS.setdefault(repo, {})
    configs[config] = {
        split: [make_row(_rng(repo, config, split, index), index, split) for index in range(size)]
        for split, size in split_sizes.items()
    }


def tvt(train: int = TRAIN_N, validation: int = N, test: int = N) -> Dict[str, int]:
    return {"train": train, "validation": validation, "test": test}


def tt(train: int = TRAIN_N, test: int = N) -> Dict[str, int]:
    return {"train": train, "test": test}


def _label(index: int, split: str, classes: int, unlabeled_test: bool = False) -> int:
    if unlabeled_test and split.startswith("test"):
        return -1
    return index % classes


# ------------------------------------------------------------------ GLUE (nyu-mll/glue)
def _glue():
    repo = "nyu-mll/glue"
    single = {"cola": 2, "sst2": 2}
    for config, classes in single.items():
        _splits(repo, config, tvt(), lambda r, i, s, c=classes: {
            "sentence": sentence(r), "label": _label(i, s, c, True), "idx": i})
    pairs = {"mrpc": ("sentence1", "sentence2", 2), "qqp": ("question1", "question2", 2),
             "qnli": ("question", "sentence", 2), "rte": ("sentence1", "sentence2", 2),
             "wnli": ("sentence1", "sentence2", 2)}
    for config, (a, b, classes) in pairs.items():
        # MRPC's card maps every split's labels (the original's has no split mix), so its mirror labels the test
        # split (GLUE's real MRPC test labels are -1, on which the original's card fails too)
        _splits(repo, config, tvt(), lambda r, i, s, a=a, b=b, c=classes, config=config: {
            a: sentence(r) if a != "question1" and a != "question" else words(r) + "?",
            b: sentence(r) if b != "question2" else words(r) + "?",
            "label": _label(i, s, c, config != "mrpc"), "idx": i})
    _splits("stanfordnlp/sst2", "default", tvt(), lambda r, i, s: {  # cards.sst2 reads this copy, as the original
        "idx": i, "sentence": sentence(r), "label": _label(i, s, 2, True)})
    _splits(repo, "stsb", tvt(), lambda r, i, s: {
        "sentence1": sentence(r), "sentence2": sentence(r),
        "label": -1.0 if s == "test" else round(r.uniform(0, 5), 2) + 0.001 * (i + 1), "idx": i})
    _splits(repo, "mnli", {"train": TRAIN_N, "validation_matched": N, "validation_mismatched": N,
                           "test_matched": N, "test_mismatched": N}, lambda r, i, s: {
        "premise": sentence(r), "hypothesis": sentence(r), "label": _label(i, s, 3, True), "idx": i})
    _splits("stanfordnlp/snli", "plain_text", tvt(), lambda r, i, s: {
        "premise": sentence(r), "hypothesis": sentence(r), "label": -1 if i == 5 else i % 3})
    rounds = {}
    for k in (1, 2, 3):
        rounds.update({f"train_r{k}": TRAIN_N, f"dev_r{k}": N, f"test_r{k}": N})
    _splits("facebook/anli", "plain_text", rounds, lambda r, i, s: {
        "uid": f"{s}-{i}", "premise": paragraph(r, 2), "hypothesis": sentence(r), "label": i % 3,
        "reason": "" if s.endswith("r1") else sentence(r)})


# ------------------------------------------------------------------ SuperGLUE (aps/super_glue)
def _super_glue():
    repo = "aps/super_glue"
    _splits(repo, "boolq", tvt(), lambda r, i, s: {
        "question": words(r), "passage": paragraph(r), "idx": i, "label": _label(i, s, 2, True)})
    _splits("google/boolq", "default", {"train": TRAIN_N, "validation": N}, lambda r, i, s: {
        "question": words(r), "answer": i % 3 != 0, "passage": paragraph(r)})
    _splits(repo, "cb", tvt(), lambda r, i, s: {
        "premise": sentence(r), "hypothesis": sentence(r), "idx": i, "label": _label(i, s, 3, True)})
    _splits(repo, "copa", tvt(), lambda r, i, s: {
        "premise": sentence(r), "choice1": sentence(r), "choice2": sentence(r),
        "question": ["cause", "effect"][i % 2], "idx": i, "label": _label(i, s, 2, True)})
    _splits(repo, "multirc", tvt(), lambda r, i, s: {
        "paragraph": paragraph(r, 4), "question": words(r) + "?", "answer": words(r, 2, 5),
        "idx": {"paragraph": i // 4, "question": i // 2, "answer": i}, "label": _label(i, s, 2, True)})

    def record(r, i, s):
        passage = paragraph(r, 3)
        entities = [w.capitalize() for w in r.sample(WORDS, 3)]
        passage = passage + " " + " and ".join(entities) + " met."
        spans = {"text": entities, "start": [passage.index(e) for e in entities],
                 "end": [passage.index(e) + len(e) - 1 for e in entities]}
        return {"passage": passage, "query": f"Later @placeholder {words(r, 3, 6)}.", "entities": entities,
                "entity_spans": spans, "answers": [] if s == "test" else [entities[i % 3]],
                "idx": {"passage": i, "query": i}}

    _splits(repo, "record", tvt(), record)

    def wic(r, i, s):
        word = r.choice(WORDS)
        one, two = f"{words(r, 2, 4)} {word} {words(r, 2, 4)}.", f"{word} {words(r, 3, 6)}."
        return {"word": word, "sentence1": one, "sentence2": two, "start1": one.index(word),
                "start2": 0, "end1": one.index(word) + len(word), "end2": len(word), "idx": i,
                "label": _label(i, s, 2, True)}

    _splits(repo, "wic", tvt(), wic)

    def wsc(r, i, s):
        tokens = words(r, 8, 12).split()
        tokens[1], tokens[-2] = "Mark", "he"
        return {"text": " ".join(tokens) + ".", "span1_index": 1, "span2_index": len(tokens) - 2,
                "span1_text": "Mark", "span2_text": "he", "idx": i, "label": _label(i, s, 2, True)}

    _splits(repo, "wsc.fixed", tvt(), wsc)
    _splits(repo, "wsc", tvt(), wsc)


# ------------------------------------------------------------------ QA, summarization, translation
def _qa_summarization_translation():
    def squad(r, i, s):
        context = paragraph(r, 3)
        answer = " ".join(context.split()[2:4])
        return {"id": f"{s}{i:05d}", "title": words(r, 1, 3).title(), "context": context, "question": words(r) + "?",
                "answers": {"text": [answer] * (1 if s == "train" else 3),
                            "answer_start": [context.index(answer)] * (1 if s == "train" else 3)}}

    _splits("rajpurkar/squad", "plain_text", {"train": TRAIN_N, "validation": N}, squad)
    _splits("EdinburghNLP/xsum", "default", tvt(), lambda r, i, s: {
        "document": paragraph(r, 5), "summary": sentence(r), "id": str(30000000 + i)})
    _splits("abisee/cnn_dailymail", "3.0.0", tvt(), lambda r, i, s: {
        "article": paragraph(r, 6), "highlights": sentence(r) + "\n" + sentence(r), "id": f"{i:040x}"})
    _splits("FiscalNote/billsum", "default", {"train": TRAIN_N, "test": N, "ca_test": N}, lambda r, i, s: {
        "text": "SECTION 1. " + paragraph(r, 5), "summary": paragraph(r, 2), "title": "To " + words(r) + "."})
    for repo, config, other in (("wmt/wmt16", "de-en", "de"), ("wmt/wmt16", "ro-en", "ro"),
                                ("wmt/wmt14", "fr-en", "fr"), ("wmt/wmt16", "cs-en", "cs"),
                                ("wmt/wmt16", "fi-en", "fi"), ("wmt/wmt16", "ru-en", "ru"),
                                ("wmt/wmt16", "tr-en", "tr")):
        _splits(repo, config, tvt(), lambda r, i, s, other=other: {
            "translation": {other: f"[{other}] " + sentence(r), "en": sentence(r)}})


# ------------------------------------------------------------------ classification
BANKING77 = [
    "activate_my_card", "age_limit", "apple_pay_or_google_pay", "atm_support", "automatic_top_up",
    "balance_not_updated_after_bank_transfer", "balance_not_updated_after_cheque_or_cash_deposit",
    "beneficiary_not_allowed", "cancel_transfer", "card_about_to_expire", "card_acceptance", "card_arrival",
    "card_delivery_estimate", "card_linking", "card_not_working", "card_payment_fee_charged",
    "card_payment_not_recognised", "card_payment_wrong_exchange_rate", "card_swallowed", "cash_withdrawal_charge",
    "cash_withdrawal_not_recognised", "change_pin", "compromised_card", "contactless_not_working",
    "country_support", "declined_card_payment", "declined_cash_withdrawal", "declined_transfer",
    "direct_debit_payment_not_recognised", "disposable_card_limits", "edit_personal_details", "exchange_charge",
    "exchange_rate", "exchange_via_app", "extra_charge_on_statement", "failed_transfer", "fiat_currency_support",
    "get_disposable_virtual_card", "get_physical_card", "getting_spare_card", "getting_virtual_card",
    "lost_or_stolen_card", "lost_or_stolen_phone", "order_physical_card", "passcode_forgotten",
    "pending_card_payment", "pending_cash_withdrawal", "pending_top_up", "pending_transfer", "pin_blocked",
    "receiving_money", "Refund_not_showing_up", "request_refund", "reverted_card_payment?",
    "supported_cards_and_currencies", "terminate_account", "top_up_by_bank_transfer_charge",
    "top_up_by_card_charge", "top_up_by_cash_or_cheque", "top_up_failed", "top_up_limits", "top_up_reverted",
    "topping_up_by_card", "transaction_charged_twice", "transfer_fee_charged", "transfer_into_account",
    "transfer_not_received_by_recipient", "transfer_timing", "unable_to_verify_identity", "verify_my_identity",
    "verify_source_of_funds", "verify_top_up", "virtual_card_not_working", "visa_or_mastercard",
    "why_verify_identity", "wrong_amount_of_cash_received", "wrong_exchange_rate_for_cash_withdrawal",
]
NEWSGROUPS = [
    "alt.atheism", "comp.graphics", "comp.os.ms-windows.misc", "comp.sys.ibm.pc.hardware", "comp.sys.mac.hardware",
    "comp.windows.x", "misc.forsale", "rec.autos", "rec.motorcycles", "rec.sport.baseball", "rec.sport.hockey",
    "sci.crypt", "sci.electronics", "sci.med", "sci.space", "soc.religion.christian", "talk.politics.guns",
    "talk.politics.mideast", "talk.politics.misc", "talk.religion.misc",
]
LAW_STACK_LABELS = [
    "business", "civil-law", "constitutional-law", "contract", "contract-law", "copyright", "criminal-law",
    "employment", "intellectual-property", "internet", "liability", "licensing", "privacy", "software", "tax-law",
    "trademark",
]
CLAIM_TOPICS = ["boxing", "the one-child policy of the republic of china", "the monarchy", "atheism"]
ARGUMENT_TOPICS = ["capital punishment", "human cloning", "zero-tolerance policy in schools", "space exploration"]


def _classification():
    _splits("fancyzhx/ag_news", "default", tt(), lambda r, i, s: {"text": paragraph(r, 2), "label": i % 4})
    _splits("fancyzhx/dbpedia_14", "dbpedia_14", tt(16, N), lambda r, i, s: {
        "label": i % 14, "title": words(r, 1, 3).title(), "content": paragraph(r, 2)})
    _splits("community-datasets/yahoo_answers_topics", "yahoo_answers_topics", tt(), lambda r, i, s: {
        "id": i, "topic": i % 10, "question_title": words(r) + "?", "question_content": sentence(r),
        "best_answer": paragraph(r, 2)})
    _splits("SetFit/20_newsgroups", "default", tt(), lambda r, i, s: {
        "text": paragraph(r, 2), "label": (i * 3) % 20, "label_text": NEWSGROUPS[(i * 3) % 20]})
    _splits("CogComp/trec", "default", tt(), lambda r, i, s: {
        "text": words(r) + " ?", "coarse_label": i % 6, "fine_label": (i * 7) % 50})
    _splits("PolyAI/banking77", "default", tt(), lambda r, i, s: {"text": sentence(r), "label": (i * 11) % 77})
    _splits("google-research-datasets/go_emotions", "simplified", tvt(), lambda r, i, s: {
        "text": sentence(r), "labels": sorted({i % 28, (i * 5 + 3) % 28})[: 1 + i % 2], "id": f"e{i:06x}"})
    _splits("dair-ai/emotion", "split", tvt(), lambda r, i, s: {"text": words(r), "label": i % 6})
    _splits("stanfordnlp/imdb", "plain_text", {"train": TRAIN_N, "test": N, "unsupervised": N}, lambda r, i, s: {
        "text": paragraph(r, 3), "label": -1 if s == "unsupervised" else i % 2})
    _splits("cornell-movie-review-data/rotten_tomatoes", "default", tvt(), lambda r, i, s: {
        "text": sentence(r), "label": i % 2})
    _splits("zeroshot/twitter-financial-news-topic", "default", {"train": TRAIN_N, "validation": N},
            lambda r, i, s: {"text": sentence(r) + " https://t.co/x" + str(i), "label": (i * 3) % 20})
    _splits("iamollas/ethos", "binary", {"train": 24}, lambda r, i, s: {"text": sentence(r), "label": i % 2})
    _splits("jonathanli/law-stack-exchange", "default", tvt(), lambda r, i, s: {
        "license": "cc-by-sa 4.0", "text_label": LAW_STACK_LABELS[(i * 5) % 16], "title": words(r) + "?",
        "body": paragraph(r, 2), "link": f"https://law.stackexchange.com/questions/{i}"})
    _splits("coastalcph/lex_glue", "ledgar", tvt(), lambda r, i, s: {"text": paragraph(r, 2), "label": (i * 13) % 100})
    _splits("coastalcph/lex_glue", "unfair_tos", tvt(), lambda r, i, s: {
        "text": sentence(r), "labels": [] if i % 3 == 0 else sorted({i % 8, (i * 3) % 8})})
    _splits("TimSchopf/medical_abstracts", "default", tt(), lambda r, i, s: {
        "condition_label": 1 + i % 5, "medical_abstract": paragraph(r, 3)})
    _splits("ibm/claim_stance", "claim_stance_topic", tvt(), lambda r, i, s: {
        "text": sentence(r), "label": CLAIM_TOPICS[i % 4], "id": i})
    _splits("ibm/argument_quality_ranking_30k", "argument_topic", tvt(), lambda r, i, s: {
        "text": sentence(r), "label": ARGUMENT_TOPICS[i % 4]})


# ------------------------------------------------------------------ multiple choice
MMLU_SUBJECTS = [
    "abstract_algebra", "anatomy", "astronomy", "business_ethics", "clinical_knowledge", "college_biology",
    "college_chemistry", "college_computer_science", "college_mathematics", "college_medicine", "college_physics",
    "computer_security", "conceptual_physics", "econometrics", "electrical_engineering", "elementary_mathematics",
    "formal_logic", "global_facts", "high_school_biology", "high_school_chemistry", "high_school_computer_science",
    "high_school_european_history", "high_school_geography", "high_school_government_and_politics",
    "high_school_macroeconomics", "high_school_mathematics", "high_school_microeconomics", "high_school_physics",
    "high_school_psychology", "high_school_statistics", "high_school_us_history", "high_school_world_history",
    "human_aging", "human_sexuality", "international_law", "jurisprudence", "logical_fallacies", "machine_learning",
    "management", "marketing", "medical_genetics", "miscellaneous", "moral_disputes", "moral_scenarios", "nutrition",
    "philosophy", "prehistory", "professional_accounting", "professional_law", "professional_medicine",
    "professional_psychology", "public_relations", "security_studies", "sociology", "us_foreign_policy", "virology",
    "world_religions",
]


def _multiple_choice():
    for subject in MMLU_SUBJECTS:
        _splits("cais/mmlu", subject, {"test": N, "validation": N, "dev": 6}, lambda r, i, s, subject=subject: {
            "question": words(r) + "?", "subject": subject, "choices": [words(r, 1, 4) + f" ({k})" for k in range(4)],
            "answer": i % 4})

    def arc(r, i, s):
        labels = ["A", "B", "C", "D"] if i % 4 else ["1", "2", "3", "4"]
        return {"id": f"Mercury_{i}", "question": words(r) + "?",
                "choices": {"text": [words(r, 1, 4) + f" #{k}" for k in range(4)], "label": labels},
                "answerKey": labels[i % 4]}

    for config in ("ARC-Easy", "ARC-Challenge"):
        _splits("allenai/ai2_arc", config, tvt(), arc)
    _splits("Rowan/hellaswag", "default", tvt(), lambda r, i, s: {
        "ind": i, "activity_label": words(r, 1, 2).title(), "ctx_a": sentence(r), "ctx_b": words(r, 2, 4),
        "ctx": "", "endings": [words(r) + f" [{k}]." for k in range(4)], "source_id": f"activitynet~v_{i}",
        "split": s, "split_type": "indomain", "label": "" if s == "test" else str(i % 4)})
    for rows in MIRRORS["Rowan/hellaswag"]["default"].values():  # ctx is ctx_a + " " + ctx_b in the real data
        for row in rows:
            row["ctx"] = row["ctx_a"] + " " + row["ctx_b"]
    _splits("ybisk/piqa", "plain_text", tvt(), lambda r, i, s: {
        "goal": words(r) + ".", "sol1": sentence(r), "sol2": sentence(r), "label": _label(i, s, 2, True)})
    _splits("allenai/openbookqa", "main", tvt(), lambda r, i, s: {
        "id": f"{i}-{s}", "question_stem": words(r),
        "choices": {"text": [words(r, 1, 3) + f" {k}" for k in range(4)], "label": ["A", "B", "C", "D"]},
        "answerKey": "ABCD"[i % 4]})
    _splits("allenai/sciq", "default", tvt(), lambda r, i, s: {
        "question": words(r) + "?", "distractor3": words(r, 1, 2) + " x3", "distractor1": words(r, 1, 2) + " x1",
        "distractor2": words(r, 1, 2) + " x2", "correct_answer": words(r, 1, 2) + " ok", "support": paragraph(r, 2)})
    _splits("allenai/social_i_qa", "default", {"train": TRAIN_N, "validation": N}, lambda r, i, s: {
        "context": sentence(r), "question": "What will " + words(r, 2, 4) + "?", "answerA": words(r, 2, 4) + " a",
        "answerB": words(r, 2, 4) + " b", "answerC": words(r, 2, 4) + " c", "label": str(1 + i % 3)})
    for config in ("all", "high", "middle"):
        _splits("ehovy/race", config, tvt(), lambda r, i, s, config=config: {
            "example_id": f"{config}{i}.txt", "article": paragraph(r, 4), "answer": "ABCD"[i % 4],
            "question": words(r) + "?", "options": [words(r, 1, 4) + f" {k}" for k in range(4)]})
    for size in ("xs", "s", "m", "l", "xl", "debiased"):
        _splits("allenai/winogrande", f"winogrande_{size}", tvt(), lambda r, i, s: {
            "sentence": f"{words(r, 3, 5)} _ {words(r, 3, 5)}.", "option1": words(r, 1, 1).title() + "a",
            "option2": words(r, 1, 1).title() + "b", "answer": "" if s == "test" else str(1 + i % 2)})

    def truthful(r, i, s):
        mc1 = [sentence(r) for _ in range(4)]
        mc2 = [sentence(r) for _ in range(5)]
        return {"question": words(r) + "?", "mc1_targets": {"choices": mc1, "labels": [1, 0, 0, 0]},
                "mc2_targets": {"choices": mc2, "labels": [1, 1, 0, 0, 0]}}

    _splits("truthfulqa/truthful_qa", "multiple_choice", {"validation": 16}, truthful)
    _splits("tau/commonsense_qa", "default", tvt(), lambda r, i, s: {
        "id": f"{i:032x}", "question": words(r) + "?", "question_concept": r.choice(WORDS),
        "choices": {"label": list("ABCDE"), "text": [words(r, 1, 2) + f" {k}" for k in range(5)]},
        "answerKey": "" if s == "test" else "ABCDE"[i % 5]})
    categories = ["biology", "business", "chemistry", "computer science", "economics", "engineering", "health",
                  "history", "law", "math", "other", "philosophy", "physics", "psychology"]

    def mmlu_pro(r, i, s):
        count = 10 if i % 3 else 4 + i % 6
        return {"question_id": i, "question": words(r) + "?", "options": [words(r, 1, 3) + f" ({k})" for k in
                                                                          range(count)],
                "answer": "ABCDEFGHIJ"[i % count], "answer_index": i % count,
                "cot_content": "" if s == "test" else "A: Let's think step by step. " + sentence(r),
                "category": categories[i % 14], "src": f"ori_mmlu-{categories[i % 14]}"}

    _splits("TIGER-Lab/MMLU-Pro", "default", {"test": 14 * 6, "validation": 14 * 5}, mmlu_pro)


# ------------------------------------------------------------------ generation, code, NER, dialogue
ATIS_TYPES = ["fromloc.city_name", "toloc.city_name", "depart_date.day_name", "airline_name"]


def _generation():
    def gsm8k(r, i, s):
        a, b = r.randint(2, 30), r.randint(2, 30)
        return {"question": f"{words(r)} has {a} apples and gets {b} more. How many?",
                "answer": f"{words(r)} {a}+{b}=<<{a}+{b}={a + b}>>{a + b}.\n#### {a + b}"}

    _splits("openai/gsm8k", "main", tt(), gsm8k)

    def humaneval(r, i, s):
        name = f"func_{i}"
        return {"task_id": f"HumanEval/{i}", "prompt": f"def {name}(x):\n    \"\"\" {sentence(r)} \"\"\"\n",
                "canonical_solution": f"    result = [x] * {i + 2}\n    return len(result) + x\n",
                "test": "def check(candidate):\n    assert candidate(1) == 1\n",
                "entry_point": name}

    _splits("openai/openai_humaneval", "openai_humaneval", {"test": 30}, humaneval)
    _splits("google-research-datasets/mbpp", "full", {"train": TRAIN_N, "test": N, "validation": N, "prompt": N},
            lambda r, i, s: {"task_id": i + 1, "text": "Write a function to " + words(r) + ".",
                             "code": f"def f{i}(x):\n    return x", "test_list": [f"assert f{i}(1) == 1",
                                                                                   f"assert f{i}(2) == 2"],
                             "test_setup_code": "", "challenge_test_list": []})

    def atis(r, i, s):
        cities = ["boston", "denver", "atlanta", "dallas", "seattle", "pittsburgh", "oakland", "baltimore"]
        days = ["monday", "tuesday", "friday", "sunday"]
        tokens = ["i", "want", "to", "fly", "from", cities[i % 8], "to", cities[(i * 3 + 1) % 8], "on", days[i % 4]]
        slots = ["O", "O", "O", "O", "O", "B-fromloc.city_name", "O", "B-toloc.city_name", "O",
                 "B-depart_date.day_name"]
        if i % 2:
            tokens += ["with", "united", "airlines"]
            slots += ["O", "B-airline_name", "I-airline_name"]
        return {"id": i, "intent": "flight", "text": " ".join(tokens), "slots": " ".join(slots)}

    _splits("tuetschek/atis", "default", tt(), atis)
    tasks = ["gec", "paraphrase", "gec", "simplification", "gec", "clarity"]
    _splits("grammarly/coedit", "default", {"train": 18, "validation": 12}, lambda r, i, s: {
        "_id": str(i), "task": tasks[i % 6],
        "src": ["Fix grammaticality: ", "Remove all grammatical errors from this text: ", "Paraphrase: "][i % 3]
        + sentence(r), "tgt": sentence(r)})
    _splits("webis/tldr-17", "default", {"train": 24}, lambda r, i, s: {
        "author": f"user{i}", "body": paragraph(r, 3), "normalizedBody": paragraph(r, 3), "subreddit": "AskReddit",
        "subreddit_id": "t5_2qh1i", "id": f"c{i}", "content": paragraph(r, 3), "summary": sentence(r)})
    _splits("Yale-LILY/dart", "default", tvt(), lambda r, i, s: {
        "tripleset": [[words(r, 1, 2).title(), "LOCATION", words(r, 1, 2)], [words(r, 1, 2), "RATING", "5"]],
        "subtree_was_extended": bool(i % 2),
        "annotations": {"source": ["WikiTableQuestions_mturk"] * 2, "text": [sentence(r), sentence(r)]}})
    _splits("michaelauli/wiki_bio", "default", {"train": TRAIN_N, "test": N, "validation": N}, lambda r, i, s: {
        "input_text": {"table": {"column_header": ["name", "birth_date", "occupation"],
                                 "row_number": [1, 1, 1],
                                 "content": [words(r, 2, 2).title(), f"{1900 + i} -lrb- age 50 -rrb-", words(r, 1, 2)]},
                       "context": words(r, 2, 2) + "\n"},
        "target_text": sentence(r) + "\n"})
    categories = ["writing", "roleplay", "reasoning", "math", "coding", "extraction", "stem", "humanities"]
    _splits("dim/mt_bench_en", "default", {"train": 16}, lambda r, i, s: {  # MT-Bench's question.jsonl columns
        "question_id": 81 + i, "category": categories[i % 8], "turns": [words(r) + "?", words(r) + "?"]})

    def judgment(r, i, s):
        question = words(r) + "?"

        def conversation():
            turns = [{"content": question, "role": "user"}, {"content": sentence(r), "role": "assistant"}]
            if i % 3 == 0:
                turns += [{"content": words(r) + "?", "role": "user"}, {"content": sentence(r), "role": "assistant"}]
            return turns

        return {"question_id": 81 + i, "model_a": "gpt-4", "model_b": "vicuna-13b-v1.2",
                "winner": ["model_a", "model_b", "tie", "tie (bothbad)"][i % 4], "judge": f"author_{i % 3}",
                "conversation_a": conversation(), "conversation_b": conversation(), "turn": 1 + (i % 3 == 0)}

    _splits("lmsys/mt_bench_human_judgments", "default", {"human": 16, "gpt4_pair": 16}, judgment)
    _splits("lmarena-ai/arena-hard-auto-v0.1", "default", {"train": 16}, lambda r, i, s: {
        "question_id": f"{i:032x}", "category": "arena-hard-v0.1", "cluster": words(r, 2, 4).title(),
        "turns": [{"content": words(r, 8, 20) + "?"}]})


for _builder in (_glue, _super_glue, _qa_summarization_translation, _classification, _multiple_choice, _generation):
    _builder()


# ------------------------------------------------------------------ image datasets (Parquet with an Image feature)
def _doc_vqa(root: Path) -> None:
    """cmarkea/doc-vqa: page images (HF Image feature) with English and French question-answer pairs (qa.en, qa.fr),
    train and test splits."""
    import io

    import datasets
    from PIL import Image as PILImage

    pair = [{"question": datasets.Value("string"), "answer": datasets.Value("string")}]
    features = datasets.Features({"id": datasets.Value("string"), "image": datasets.Image(),
                                  "qa": {"en": pair, "fr": pair}})
    folder = Path(root) / "cmarkea" / "doc-vqa"
    (folder / "data").mkdir(parents=True, exist_ok=True)
    colors = ["red", "green", "blue", "white", "black", "yellow"]
    for split, count in (("train", TRAIN_N), ("test", N)):
        rows: Dict[str, list] = {"id": [], "image": [], "qa": []}
        for index in range(count):
            r = _rng("cmarkea/doc-vqa", split, index)
            color = colors[index % len(colors)]
            buffer = io.BytesIO()
            PILImage.new("RGB", (8, 6), color).save(buffer, format="PNG")
            rows["id"].append(f"{split}_{index}")
            rows["image"].append({"bytes": buffer.getvalue(), "path": None})
            rows["qa"].append({"en": [{"question": "What color is the page?", "answer": color},
                                      {"question": words(r, 3, 6) + "?", "answer": words(r, 1, 3)}],
                               "fr": [{"question": "De quelle couleur est la page ?", "answer": color}]})
        datasets.Dataset.from_dict(rows, features=features).to_parquet(str(folder / "data" / f"{split}.parquet"))
    (folder / "README.md").write_text(
        "---\nconfigs:\n- config_name: default\n  data_files:\n  - split: train\n    path: data/train.parquet\n"
        "  - split: test\n    path: data/test.parquet\n---\n# cmarkea/doc-vqa\nLocal test mirror.\n", encoding="utf-8")


def _real_mm_rag(root: Path) -> None:
    """ibm-research/REAL-MM-RAG_<set>: one test split of questions on page images (a page repeats per question)."""
    import io

    import datasets
    from PIL import Image as PILImage

    features = datasets.Features({"id": datasets.Value("int64"), "image": datasets.Image(),
                                  "image_filename": datasets.Value("string"), "query": datasets.Value("string"),
                                  "answer": datasets.Value("string")})
    for name in ("FinReport", "FinSlides", "TechReport", "TechSlides"):
        folder = Path(root) / "ibm-research" / f"REAL-MM-RAG_{name}"
        (folder / "data").mkdir(parents=True, exist_ok=True)
        rows: Dict[str, list] = {key: [] for key in features}
        for index in range(N):
            r = _rng(name, index)
            buffer = io.BytesIO()
            PILImage.new("RGB", (8, 6), ["red", "green", "blue"][index % 3]).save(buffer, format="PNG")
            rows["id"].append(index)
            rows["image"].append({"bytes": buffer.getvalue(), "path": None})
            rows["image_filename"].append(f"page_{index % 3}.png")
            rows["query"].append(words(r, 3, 6) + "?")
            rows["answer"].append(words(r, 1, 3))
        datasets.Dataset.from_dict(rows, features=features).to_parquet(str(folder / "data" / "test.parquet"))
        (folder / "README.md").write_text(
            "---\nconfigs:\n- config_name: default\n  data_files:\n  - split: test\n    path: data/test.parquet\n"
            f"---\n# REAL-MM-RAG_{name}\nLocal test mirror.\n", encoding="utf-8")


FILE_MIRRORS: List[Callable[[Path], None]] = [_doc_vqa, _real_mm_rag]  # mirrors whose data JSON Lines can not hold


def build_all(root: Path) -> Path:
    """Write every mirror under `root` (Hub layout); returns root."""
    from tests.support.card_mirrors_docs import IMAGE_COLUMNS

    for repo, configs in MIRRORS.items():
        make_hub_dataset(root, repo, configs, image_columns=IMAGE_COLUMNS.get(repo, ()))
    for write in FILE_MIRRORS:
        write(root)
    return root


from tests.support import card_mirrors_docs  # noqa: E402,F401  (registers the mirrors of the documentation's cards)
from tests.support import card_mirrors_safety  # noqa: E402,F401  (registers the mirrors of the original's safety prompt sets)
