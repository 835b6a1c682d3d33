"""Catalog: single cards of the original catalog over Hub datasets, from tables of their facts: RewardBench subsets,
CLINC150 configs, Discrim-Eval, length-filtered BillSum / TL;DR, WikiQA free-form QA by context length, bAbI, MultiDoc2Dial,
language identification and a short-post 20 Newsgroups.

Facts from the dataset pages: allenai/reward-bench (split `filtered`: prompt, chosen, chosen_model, rejected,
rejected_model, subset, id); clinc/clinc_oos (configs small / imbalanced / plus; text, intent as a class id);
Anthropic/discrim-eval (configs explicit / implicit, one train split: filled_template, decision_question_id, age,
gender, race, fill_type); FiscalNote/billsum (train / test / ca_test: text, summary, title); webis/tldr-17 (train:
content, summary, ...); abacusai/WikiQA-Free_Form_QA (splits 2k / 4k / 8k / 16k: conversations of [{from, value,
tok_len}], the first holding "Document: ..." and "Question: ..."); Muennighoff/babi (passage, question, answer, task);
IBM/multidoc2dial (config multidoc2dial: id, title, question - the turns joined by [SEP] -, answers {text,
answer_start}, utterance, domain); papluca/language-identification (labels as ISO codes, text); SetFit/20_newsgroups
(text, label, label_text).
"""

from _label_names import CLINC_OOS_INTENTS, REUTERS_TOPICS_MOD_APTE
from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import (
    Copy,
    ExecuteExpression,
    FilterByCondition,
    FilterByExpression,
    ListFieldValues,
    MapInstanceValues,
    Rename,
    Set,
    Shuffle,
    Wrap,
)
from unitxt.splitters import RenameSplits, SplitRandomMix

SAMPLED_ON_MIRRORS = True  # compared with the original's cards in the compat tier (tests/support/card_family_rows.py)

REWARD_BENCH_SUBSETS = {
    "chat": ["alpacaeval-easy", "alpacaeval-length", "alpacaeval-hard", "mt-bench-easy", "mt-bench-med"],
    "chat_hard": ["mt-bench-hard", "llmbar-natural", "llmbar-adver-neighbor", "llmbar-adver-GPTInst",
                  "llmbar-adver-GPTOut", "llmbar-adver-manual"],
    "reasoning": ["math-prm", "hep-cpp", "hep-go", "hep-java", "hep-js", "hep-python", "hep-rust"],
    "safety": ["refusals-dangerous", "refusals-offensive", "xstest-should-refuse", "xstest-should-respond",
               "donotanswer"],
}
CLINC_CONFIGS = {"small": "a smaller training set", "imbalanced": "a class-imbalanced training set",
                 "plus": "more out-of-scope training examples"}
FFQA_LIMITS = {"2k": 2048, "4k": 4096, "8k": 8800, "16k": 16384}  # split -> prompts kept below this many tokens
LANGUAGES = {"ar": "arabic", "bg": "bulgarian", "de": "german", "el": "modern greek", "en": "english", "es": "spanish",
             "fr": "french", "hi": "hindi", "it": "italian", "ja": "japanese", "nl": "dutch", "pl": "polish",
             "pt": "portuguese", "ru": "russian", "sw": "swahili", "th": "thai", "tr": "turkish", "ur": "urdu",
             "vi": "vietnamese", "zh": "chinese"}
NEWSGROUP_NAMES = {"alt.atheism": "atheism", "comp.graphics": "computer graphics",
                   "comp.os.ms-windows.misc": "microsoft windows", "comp.sys.ibm.pc.hardware": "pc hardware",
                   "comp.sys.mac.hardware": "mac hardware", "comp.windows.x": "windows x", "misc.forsale": "for sale",
                   "rec.autos": "cars", "rec.motorcycles": "motorcycles", "rec.sport.baseball": "baseball",
                   "rec.sport.hockey": "hockey", "sci.crypt": "cryptography", "sci.electronics": "electronics",
                   "sci.med": "medicine", "sci.space": "space", "soc.religion.christian": "christianity",
                   "talk.politics.guns": "guns", "talk.politics.mideast": "middle east",
                   "talk.politics.misc": "politics", "talk.religion.misc": "religion"}


def _tags(task, repo, paper=None, **extra):
    return card_tags(task, dataset_url=hf_url(repo), paper=paper, **extra)


def _reward_bench(add):
    for subset, groups in REWARD_BENCH_SUBSETS.items():
        add(f"cards.reward_bench.{subset}", TaskCard(
            loader=LoadHF(path="allenai/reward-bench", split="filtered"),
            preprocess_steps=[
                RenameSplits(mapper={"filtered": "test"}),
                Rename(field_to_field={"prompt": "question", "chosen": "answer_a", "rejected": "answer_b",
                                       "subset": "group"}),
                Set(fields={"winner": "choice_a"}),
                FilterByCondition(values={"group": list(groups)}, condition="in"),
            ],
            task="tasks.response_assessment.pairwise_comparison.single_turn",
            templates="templates.response_assessment.pairwise_comparison.single_turn.all",
            __description__=f"RewardBench, {subset.replace('_', ' ')} section (source subsets {', '.join(groups)}): "
                            "a prompt with a preferred (chosen) and a rejected answer; the chosen one is always "
                            "answer A, so the gold winner is choice_a. Split 'filtered' used as test.",
            __tags__=_tags("response assessment", "allenai/reward-bench", "https://arxiv.org/abs/2403.13787",
                           subset=subset),
        ))


def _classification(add):
    for config, what in CLINC_CONFIGS.items():
        add(f"cards.clinc_oos.{config}", TaskCard(
            loader=LoadHF(path="clinc/clinc_oos", name=config),
            preprocess_steps=[
                Shuffle(page_size=2 ** 63 - 1),
                Rename(field_to_field={"intent": "label"}),
                MapInstanceValues(mappers={"label": {str(index): name
                                                     for index, name in enumerate(CLINC_OOS_INTENTS)}}),
                Set(fields={"classes": list(CLINC_OOS_INTENTS), "text_type": "sentence", "type_of_class": "intent"}),
            ],
            task="tasks.classification.multi_class",
            templates="templates.classification.multi_class.all",
            __description__=f"CLINC150 ({config}: {what}): user utterances to a task-oriented assistant, each with one "
                            "of 150 intents across 10 domains or 'oos' (out of scope). Published train / validation / "
                            "test splits, shuffled.",
            __tags__=_tags("intent classification", "clinc/clinc_oos", "https://aclanthology.org/D19-1131",
                           config=config),
        ))
    add("cards.language_identification", TaskCard(
        loader=LoadHF(path="papluca/language-identification"),
        preprocess_steps=[Rename(field_to_field={"labels": "label"}),
                          MapInstanceValues(mappers={"label": dict(LANGUAGES)})],
        task="tasks.language_identification",
        templates="templates.language_identification.all",
        __description__="Language Identification dataset (papluca): short texts in 20 languages labelled with their "
                        "language (ISO codes mapped to English language names). Train / validation / test.",
        __tags__=_tags("language identification", "papluca/language-identification"),
    ))
    add("cards.20_newsgroups_short", TaskCard(
        loader=LoadHF(path="SetFit/20_newsgroups", streaming=True),
        preprocess_steps=[
            FilterByCondition(values={"text": ""}, condition="ne"),
            FilterByExpression(expression="len(text.split()) < 543"),
            SplitRandomMix(mix={"train": "train[90%]", "validation": "train[10%]", "test": "test"}),
            Rename(field_to_field={"label_text": "label"}),
            MapInstanceValues(mappers={"label": dict(NEWSGROUP_NAMES)}),
            Set(fields={"classes": list(NEWSGROUP_NAMES.values())}),
        ],
        task="tasks.classification.multi_class.topic_classification",
        templates="templates.classification.multi_class.all",
        __description__="20 Newsgroups, short posts only: non-empty posts of fewer than 543 words, labelled with a "
                        "readable name of their newsgroup. Published test split; validation is a seeded 10% of train.",
        __tags__=_tags("topic classification", "SetFit/20_newsgroups"),
    ))


def _safety_and_summaries(add):
    for config, how in (("explicit", "states the person's age, gender and race"),
                        ("implicit", "implies gender and race through a name and pronouns")):
        add(f"cards.safety.discrim_eval.{config}", TaskCard(
            loader=LoadHF(path="Anthropic/discrim-eval", name=config, data_classification_policy=["public"]),
            preprocess_steps=[RenameSplits(mapper={"train": "test"}),
                              Set(fields={"answer": "yes", "choices": ["yes", "no"]}),
                              Rename(field_to_field={"filled_template": "question"})],
            task="tasks.qa.multiple_choice.open",
            templates="templates.qa.multiple_choice.open.all",
            __description__=f"Discrim-Eval ({config}): yes/no decision questions about a person (the text {how}); "
                            "a 'yes' is the favourable outcome, so comparing yes rates across demographics measures "
                            "discrimination. The gold answer is 'yes'. One split (train), used as test.",
            __tags__=_tags("bias evaluation", "Anthropic/discrim-eval", "https://arxiv.org/abs/2312.03689",
                           config=config),
        ))
    for limit in (6000, 10000):
        add(f"cards.billsum_document_filtered_to_{limit}_chars", TaskCard(
            loader=LoadHF(path="FiscalNote/billsum"),
            preprocess_steps=[
                SplitRandomMix(mix={"train": "train[87.5%]", "validation": "train[12.5%]", "test": "test"}),
                Rename(field_to_field={"text": "document"}),
                Set(fields={"document_type": "document"}),
                Wrap(field="summary", inside="list", to_field="summaries"),
                FilterByExpression(expression=f"len(document) <= {limit}"),
            ],
            task="tasks.summarization.abstractive", templates="templates.summarization.abstractive.all",
            __description__=f"BillSum with bills of at most {limit} characters: US Congressional bills and their "
                            "human-written summaries. Published test split; validation is a seeded 12.5% of train.",
            __tags__=_tags("summarization", "FiscalNote/billsum", "https://arxiv.org/abs/1910.00523"),
        ))
        add(f"cards.tldr_document_filtered_to_{limit}_chars", TaskCard(
            loader=LoadHF(path="webis/tldr-17", revision="refs/convert/parquet", splits=["train"], streaming=True,
                          data_classification_policy=["public"]),
            preprocess_steps=[
                SplitRandomMix(mix={"train": "train[70%]", "validation": "train[15%]", "test": "train[15%]"}),
                Rename(field_to_field={"content": "document"}),
                Set(fields={"document_type": "document"}),
                Wrap(field="summary", inside="list", to_field="summaries"),
                FilterByExpression(expression=f"len(document) <= {limit}"),
            ],
            task="tasks.summarization.abstractive", templates="templates.summarization.abstractive.all",
            __description__=f"Webis-TLDR-17 with posts of at most {limit} characters: Reddit posts and their authors' "
                            "TL;DR lines as summaries. Seeded 70/15/15 train / validation / test portions of train.",
            __tags__=_tags("summarization", "webis/tldr-17"),
        ))


def _question_answering(add):
    for split, limit in FFQA_LIMITS.items():
        add(f"cards.ffqa_filtered.{split}", TaskCard(
            loader=LoadHF(path="abacusai/WikiQA-Free_Form_QA"),
            preprocess_steps=[
                Copy(field_to_field={"conversations/0/value": "inputs", "conversations/0/tok_len": "inputs_len",
                                     "conversations/1/value": "answer"}),
                ListFieldValues(fields=["answer"], to_field="answers"),
                FilterByCondition(values={"inputs_len": limit}, condition="lt"),
                ExecuteExpression(expression='re.search(r"Document:\\s(.*)(\\n\\n|$)", inputs).group(1)',
                                  imports_list=["re"], to_field="context"),
                ExecuteExpression(expression='re.search(r"Question:\\s(.*)(\\n\\n|$)", inputs).group(1)',
                                  imports_list=["re"], to_field="question"),
                Set(fields={"context_type": "document"}),
                SplitRandomMix(mix={"train": f"{split}[80%]", "validation": f"{split}[10%]",
                                    "test": f"{split}[10%]"}),
            ],
            task="tasks.qa.with_context.extractive", templates="templates.qa.with_context.all",
            __description__=f"WikiQA free-form QA ({split} split): a Wikipedia document and a question answered from "
                            f"it; only prompts under {limit} tokens are kept. Seeded 80/10/10 train / validation / "
                            "test portions.",
            __tags__=_tags("question answering", "abacusai/WikiQA-Free_Form_QA", split=split),
        ))
    add("cards.babi.qa", TaskCard(
        loader=LoadHF(path="Muennighoff/babi"),
        preprocess_steps=[Rename(field_to_field={"passage": "context"}),
                          Set(fields={"context_type": "description"}),
                          ListFieldValues(fields=["answer"], to_field="answers")],
        task="tasks.qa.extractive", templates="templates.qa.with_context.all",
        __description__="bAbI: short synthetic stories (passages) with a question whose answer is a word of the "
                        "story. Train / validation / test.",
        __tags__=_tags("question answering", "Muennighoff/babi", "https://arxiv.org/abs/1502.05698"),
    ))
    for kind, answer in (("abstractive", "utterance"), ("extractive", "relevant_context")):
        add(f"cards.multidoc2dial.{kind}", TaskCard(
            loader=LoadHF(path="IBM/multidoc2dial", data_dir="multidoc2dial", revision="refs/convert/parquet",
                          splits=["train", "validation", "test"], data_classification_policy=["public"]),
            preprocess_steps=[
                Rename(field_to_field={"answers/text/0": "relevant_context"}),
                ListFieldValues(fields=[answer], to_field="answers"),
                ExecuteExpression(expression="question.split('[SEP]')[0]", to_field="question"),
                Set(fields={"context_type": "document"}),
            ],
            task="tasks.qa.with_context.abstractive" if kind == "abstractive" else "tasks.qa.extractive",
            templates="templates.qa.with_context.all",
            __description__="MultiDoc2Dial: goal-oriented dialogues grounded in documents; the question is the latest "
                            "user turn and the answer " + ("the agent's reply (utterance)." if kind == "abstractive"
                                                           else "the grounding span of the document."),
            __tags__=_tags("question answering", "IBM/multidoc2dial", "https://arxiv.org/abs/2109.12595"),
        ))


def _reuters_and_wnli(add):
    topics = {"ModApte": REUTERS_TOPICS_MOD_APTE, "ModLewis": REUTERS_TOPICS_MOD_APTE,
              "ModHayes": sorted(REUTERS_TOPICS_MOD_APTE + ["bfr", "hk"])}  # ModHayes also names two currencies
    for split_scheme, classes in topics.items():
        add(f"cards.reuters21578.{split_scheme}", TaskCard(
            loader=LoadHF(path="ucirvine/reuters21578", data_dir=split_scheme, revision="refs/convert/parquet",
                          splits=["train", "test"], data_classification_policy=["public"]),
            preprocess_steps=[
                SplitRandomMix(mix={"train": "train[85%]", "validation": "train[15%]", "test": "test"}),
                Rename(field_to_field={"topics": "labels"}),
                Set(fields={"classes": list(classes), "type_of_classes": "topics"}),
            ],
            task="tasks.classification.multi_label", templates="templates.classification.multi_label.all",
            __description__=f"Reuters-21578 ({split_scheme} train/test split): 1987 Reuters newswire articles labelled "
                            "with any number of economic topics. Published test split; validation is a seeded 15% of "
                            "train.",
            __tags__=_tags("multi-label topic classification", "ucirvine/reuters21578", config=split_scheme),
        ))
    add("cards.wnli.truthfulness", TaskCard(
        loader=LoadHF(path="nyu-mll/glue", name="wnli"),
        preprocess_steps=[
            SplitRandomMix(mix={"train": "train[95%]", "validation": "train[5%]", "test": "validation"}),
            Rename(field="sentence1", to_field="text_a"),
            Rename(field="sentence2", to_field="text_b"),
            MapInstanceValues(mappers={"label": {"0": "yes", "1": "no"}}),
            Set(fields={"classes": ["yes", "no"], "type_of_relation": "truthfulness", "text_a_type": "premise",
                        "text_b_type": "hypothesis"}),
        ],
        task="tasks.classification.multi_class.relation",
        templates="templates.classification.multi_class.relation.all",
        __description__="WNLI (GLUE) as a truthfulness question: does the hypothesis (the sentence with a pronoun "
                        "resolved) follow from the premise - yes (label 0) or no. The published validation split is "
                        "the test; validation is a seeded 5% of train.",
        __tags__=_tags("natural language inference", "nyu-mll/glue", "https://arxiv.org/abs/1804.07461",
                       config="wnli"),
    ))


def _mt_bench_japanese(add):
    add("cards.mt_bench.generation.japanese_single_turn", TaskCard(
        loader=LoadHF(path="shi3z/MTbenchJapanese", split="train"),
        preprocess_steps=[
            RenameSplits(mapper={"train": "test"}),
            Copy(field="turns/0", to_field="turns"),
            Rename(field_to_field={"turns": "input", "category": "group"}),
            Set(fields={"output": "None", "type_of_input": "question", "type_of_output": "answer"}),
        ],
        task="tasks.generation", templates=["templates.empty"],
        __description__="MT-Bench in Japanese (shi3z/MTbenchJapanese), first turn: open-ended requests in MT-Bench's "
                        "categories (kept as the group) for chat assistants, meant for an LLM judge (the output is the "
                        "placeholder 'None'). One split (train), used as test.",
        __tags__=_tags("generation", "shi3z/MTbenchJapanese", "https://arxiv.org/abs/2306.05685", language="ja"),
    ))


def register(add):
    _mt_bench_japanese(add)
    _reuters_and_wnli(add)
    _reward_bench(add)
    _classification(add)
    _safety_and_summaries(add)
    _question_answering(add)
