"""Catalog: text classification cards (topic, sentiment, intent, emotion, legal, medical, hate speech, ...).

Integer labels are mapped to readable class names in the order of each dataset's ClassLabel feature (or its
documented label list when the column is a plain integer). `classes` always lists every class of the dataset.
"""

from _factory import make
from _label_names import ARGUMENT_TOPICS, CLAIM_STANCE_TOPICS
from _shared import card_tags, hf_url, index_to_label
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import (ExecuteExpression, FilterByCondition, JoinStr, ListFieldValues, MapInstanceValues,
                              Rename, Set)
from unitxt.operators.label_spans import SetClassesFromData
from unitxt.splitters import SplitRandomMix

MULTI_CLASS_TEMPLATES = "templates.classification.multi_class.all"
MULTI_LABEL_TEMPLATES = "templates.classification.multi_label.all"
TRAIN_TEST_MIX = {"train": "train[90%]", "validation": "train[10%]", "test": "test"}


def _tags(repo, paper=None, task="classification", **extra):
    return card_tags(task, dataset_url=hf_url(repo), paper=paper, **extra)


def index_mapper(field, classes, start=0, process_every_value=False):
    return index_to_label(field, classes, start, process_every_value=process_every_value)


def multi_class_card(*, loader, classes, description, tags, text=None, label="label", start=0, mix=None,
                     task="tasks.classification.multi_class.topic_classification", text_type="text",
                     type_of_class="topic", pre=(), map_labels=True, post=()):
    steps = list(pre)
    if mix is not None:
        steps.append(SplitRandomMix(mix=mix))
    if text is not None and text != "text":
        steps.append(Rename(field=text, to_field="text"))
    if label != "label":
        steps.append(Rename(field=label, to_field="label"))
    if map_labels:
        steps.append(index_mapper("label", classes, start))
    steps.extend(post)
    if classes is None:  # the label set is not published as a list: collect it from the data
        steps.append(SetClassesFromData(field="label", to_field="classes"))
        steps.append(Set(fields={"text_type": text_type, "type_of_class": type_of_class}))
    else:  # text_type / type_of_class None: the card leaves the task's default
        steps.append(Set(fields={"classes": classes, **({"text_type": text_type} if text_type else {}),
                                 **({"type_of_class": type_of_class} if type_of_class else {})}))
    return TaskCard(loader=loader, preprocess_steps=steps, task=task, templates=MULTI_CLASS_TEMPLATES,
                    __description__=description, __tags__=tags)


AG_NEWS = ["World", "Sports", "Business", "Sci/Tech"]
DBPEDIA = ["Company", "Educational Institution", "Artist", "Athlete", "Office Holder", "Mean Of Transportation",
           "Building", "Natural Place", "Village", "Animal", "Plant", "Album", "Film", "Written Work"]
YAHOO = ["Society & Culture", "Science & Mathematics", "Health", "Education & Reference", "Computers & Internet",
         "Sports", "Business & Finance", "Entertainment & Music", "Family & Relationships", "Politics & Government"]
NEWSGROUPS = [
    "alt.atheism", "comp.graphics", "comp.os.ms-windows.misc", "comp.sys.ibm.pc.hardware", "comp.sys.mac.hardware",
    "comp.windows.x", "misc.forsale", "rec.autos", "rec.motorcycles", "rec.sport.baseball", "rec.sport.hockey",
    "sci.crypt", "sci.electronics", "sci.med", "sci.space", "soc.religion.christian", "talk.politics.guns",
    "talk.politics.mideast", "talk.politics.misc", "talk.religion.misc",
]
# the original card's plain names of the newsgroups
NEWSGROUP_NAMES = dict(zip(NEWSGROUPS, [
    "atheism", "computer graphics", "microsoft windows", "pc hardware", "mac hardware", "windows x", "for sale", "cars",
    "motorcycles", "baseball", "hockey", "cryptography", "electronics", "medicine", "space", "christianity", "guns",
    "middle east", "politics", "religion"]))
TREC_FINE = [  # the original card's names of TREC's fine labels, in label order
    "Abbreviation: Abbreviation.", "Abbreviation: Expression abbreviated.", "Entity: Animal.", "Entity: Organ of body.",
    "Entity: Color.", "Entity: Invention, book and other creative piece.", "Entity: Currency name.",
    "Entity: Disease and medicine.", "Entity: Event.", "Entity: Food.", "Entity: Musical instrument.",
    "Entity: Language.", "Entity: Letter like a-z.", "Entity: Other entity.", "Entity: Plant.", "Entity: Product.",
    "Entity: Religion.", "Entity: Sport.", "Entity: Element and substance.", "Entity: Symbols and sign.",
    "Entity: Techniques and method.", "Entity: Equivalent term.", "Entity: Vehicle.",
    "Entity: Word with a special property.", "Description: Definition of something.",
    "Description: Description of something.", "Description: Manner of an action.", "Description: Reason.",
    "Human: Group or organization of persons.", "Human: Individual.", "Human: Title of a person.",
    "Human: Description of a person.", "Location: City.", "Location: Country.", "Location: Mountain.",
    "Location: Other location.", "Location: State.", "Numeric: Postcode or other code.",
    "Numeric: Number of something.", "Numeric: Date.", "Numeric: Distance, linear measure.", "Numeric: Price.",
    "Numeric: Order, rank.", "Numeric: Other number.", "Numeric: Lasting time of something", "Numeric: Percent, fraction.",
    "Numeric: Speed.", "Numeric: Temperature.", "Numeric: Size, area and volume.", "Numeric: Weight."]
TREC_COARSE = ["abbreviation", "entity", "description", "human", "location", "numeric value"]
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
# readable names: underscores become spaces (the dataset's two irregular names keep their case and "?", as the original's)
BANKING77_READABLE = [name.replace("_", " ") for name in BANKING77]
GO_EMOTIONS = ["admiration", "amusement", "anger", "annoyance", "approval", "caring", "confusion", "curiosity",
               "desire", "disappointment", "disapproval", "disgust", "embarrassment", "excitement", "fear",
               "gratitude", "grief", "joy", "love", "nervousness", "optimism", "pride", "realization", "relief",
               "remorse", "sadness", "surprise", "neutral"]
EMOTION = ["sadness", "joy", "love", "anger", "fear", "surprise"]
FINANCIAL_TOPICS = ["analyst update", "fed and central banks", "company and product news", "treasuries and corporate debt",
                    "dividend", "earnings", "energy and oil", "financials", "currencies", "general News and opinion",
                    "gold, metals and materials", "initial public offering", "legal and regulation",
                    "mergers, acquisitions and investments", "macro", "markets", "politics", "personnel change",
                    "stock commentary", "stock movement"]  # the original card's readable names, in label order
LAW_STACK_EXCHANGE = ["business", "civil-law", "constitutional-law", "contract", "contract-law", "copyright",
                      "criminal-law", "employment", "intellectual-property", "internet", "liability", "licensing",
                      "privacy", "software", "tax-law", "trademark"]
LEDGAR = [
    "Adjustments", "Agreements", "Amendments", "Anti-Corruption Laws", "Applicable Laws", "Approvals", "Arbitration",
    "Assignments", "Assigns", "Authority", "Authorizations", "Base Salary", "Benefits", "Binding Effects", "Books",
    "Brokers", "Capitalization", "Change In Control", "Closings", "Compliance With Laws", "Confidentiality",
    "Consent To Jurisdiction", "Consents", "Construction", "Cooperation", "Costs", "Counterparts", "Death",
    "Defined Terms", "Definitions", "Disability", "Disclosures", "Duties", "Effective Dates", "Effectiveness",
    "Employment", "Enforceability", "Enforcements", "Entire Agreements", "Erisa", "Existence", "Expenses", "Fees",
    "Financial Statements", "Forfeitures", "Further Assurances", "General", "Governing Laws", "Headings",
    "Indemnifications", "Indemnity", "Insurances", "Integration", "Intellectual Property", "Interests",
    "Interpretations", "Jurisdictions", "Liens", "Litigations", "Miscellaneous", "Modifications", "No Conflicts",
    "No Defaults", "No Waivers", "Non-Disparagement", "Notices", "Organizations", "Participations", "Payments",
    "Positions", "Powers", "Publicity", "Qualifications", "Records", "Releases", "Remedies", "Representations",
    "Sales", "Sanctions", "Severability", "Solvency", "Specific Performance", "Submission To Jurisdiction",
    "Subsidiaries", "Successors", "Survival", "Tax Withholdings", "Taxes", "Terminations", "Terms", "Titles",
    "Transactions With Affiliates", "Use Of Proceeds", "Vacations", "Venues", "Vesting", "Waiver Of Jury Trials",
    "Waivers", "Warranties", "Withholdings",
]
UNFAIR_TOS = ["Limitation of liability", "Unilateral termination", "Unilateral change", "Content removal",
              "Contract by using", "Choice of law", "Jurisdiction", "Arbitration"]
MEDICAL_CONDITIONS = ["neoplasms", "digestive system diseases", "nervous system diseases", "cardiovascular diseases",
                      "general pathological conditions"]


def register(add):
    add("cards.ag_news", multi_class_card(
        loader=LoadHF(path="fancyzhx/ag_news"), classes=AG_NEWS,
        description="AG News: news article titles and descriptions from the AG's corpus, in 4 topic classes. Published train "
        "and test splits; validation is a seeded 12.5% of train.",
        tags=_tags("fancyzhx/ag_news", "https://arxiv.org/abs/1509.01626"),
        mix={"train": "train[87.5%]", "validation": "train[12.5%]", "test": "test"}, text_type="sentence"))
    add("cards.dbpedia_14", multi_class_card(
        loader=LoadHF(path="fancyzhx/dbpedia_14"), classes=DBPEDIA,
        description="DBpedia-14: Wikipedia abstracts of entities from 14 non-overlapping DBpedia ontology classes. "
        "Published train and test splits; the train split is shuffled and a seeded 12.5% of it is validation.",
        tags=_tags("fancyzhx/dbpedia_14", "https://arxiv.org/abs/1509.01626"),
        mix={"train": "train[87.5%]", "validation": "train[12.5%]", "test": "test"},
        pre=[make("shuffle", page_size=9223372036854775807)], text="content", text_type="paragraph"))
    add("cards.yahoo_answers_topics", multi_class_card(
        loader=LoadHF(path="community-datasets/yahoo_answers_topics"), classes=YAHOO,
        description="Yahoo! Answers topics: a question (title and content) with its best answer, joined by spaces, in "
        "10 top-level categories. Published train and test splits; validation is a seeded 12.5% of the shuffled train.",
        tags=_tags("community-datasets/yahoo_answers_topics", "https://arxiv.org/abs/1509.01626"),
        mix={"train": "train[87.5%]", "validation": "train[12.5%]", "test": "test"},
        label="topic", text_type=None,
        pre=[make("shuffle", page_size=9223372036854775807),
             ListFieldValues(fields=["question_title", "question_content", "best_answer"], to_field="text"),
             JoinStr(separator=" ", field="text", to_field="text")]))
    add("cards.20_newsgroups", multi_class_card(
        loader=LoadHF(path="SetFit/20_newsgroups", streaming=True), classes=list(NEWSGROUP_NAMES.values()),
        description="20 Newsgroups: posts from 20 Usenet newsgroups, labelled by their newsgroup in plain words (e.g. "
        "sci.space is 'space'); posts with no text are left out. Published train and test splits; validation is a "
        "seeded 10% of train.",
        tags=_tags("SetFit/20_newsgroups", website="http://qwone.com/~jason/20Newsgroups/"), mix=TRAIN_TEST_MIX,
        label="label_text", map_labels=False, text_type=None,
        pre=[FilterByCondition(values={"text": ""}, condition="ne")],
        post=[MapInstanceValues(mappers={"label": NEWSGROUP_NAMES})]))
    add("cards.trec", multi_class_card(
        loader=LoadHF(path="CogComp/trec", revision="refs/convert/parquet", splits=["train", "test"]),
        classes=TREC_FINE,
        description="TREC question classification (the 50 fine labels, each written 'Coarse: fine.'): what kind of "
        "answer does a question seek. Published train and test splits; validation is a seeded 15% of train.",
        tags=_tags("CogComp/trec"), mix={"train": "train[85%]", "validation": "train[15%]", "test": "test"},
        label="fine_label", text_type="utterance", type_of_class="intent", task="tasks.classification.multi_class",
        pre=[make("shuffle", page_size=9223372036854775807)]))
    add("cards.banking77", multi_class_card(
        loader=LoadHF(path="PolyAI/banking77", revision="refs/convert/parquet", splits=["train", "test"]),
        classes=BANKING77_READABLE,
        description="BANKING77: online banking customer queries labelled with one of 77 fine-grained intents (intent names as "
        "in the dataset, with underscores shown as spaces). Published train and test splits; validation is a "
        "seeded 15% of the shuffled train.",
        tags=_tags("PolyAI/banking77", "https://arxiv.org/abs/2003.04807"),
        mix={"train": "train[85%]", "validation": "train[15%]", "test": "test"},
        pre=[make("shuffle", page_size=9223372036854775807)],
        task="tasks.classification.multi_class", text_type="utterance", type_of_class="intent"))
    add("cards.emotion", multi_class_card(
        loader=LoadHF(path="dair-ai/emotion", name="split"), classes=EMOTION,
        description="Emotion (dair-ai): English Twitter messages labelled with one of six basic emotions. Published train / "
        "validation / test splits.",
        tags=_tags("dair-ai/emotion"), task="tasks.classification.multi_class", text_type="tweet",
        type_of_class="emotion"))
    add("cards.imdb", multi_class_card(
        loader=LoadHF(path="stanfordnlp/imdb", name="plain_text"), classes=["negative", "positive"],
        description="IMDB: highly polar movie reviews for binary sentiment classification. Published train and test splits "
        "(the unlabeled 'unsupervised' split is dropped); validation is a seeded 10% of train.",
        tags=_tags("stanfordnlp/imdb", website="https://ai.stanford.edu/~amaas/data/sentiment/"), mix=TRAIN_TEST_MIX,
        task="tasks.classification.multi_class.sentiment", text_type="movie review", type_of_class="sentiment"))
    add("cards.rotten_tomatoes", multi_class_card(
        loader=LoadHF(path="cornell-movie-review-data/rotten_tomatoes"), classes=["negative", "positive"],
        description="Rotten Tomatoes (Pang and Lee movie review sentences): binary sentiment of review snippets. Published "
        "train / validation / test splits.",
        tags=_tags("cornell-movie-review-data/rotten_tomatoes"), task="tasks.classification.multi_class.sentiment",
        text_type="movie review", type_of_class="sentiment"))
    add("cards.financial_tweets", multi_class_card(
        loader=LoadHF(path="zeroshot/twitter-financial-news-topic"), classes=FINANCIAL_TOPICS,
        description="Twitter financial news topics: finance-related tweets in 20 topic classes. The published validation split "
        "is the test split; validation is a seeded 15% of the shuffled train.",
        tags=_tags("zeroshot/twitter-financial-news-topic"), text_type="tweet",
        pre=[make("shuffle", page_size=9223372036854775807)],
        mix={"train": "train[85%]", "validation": "train[15%]", "test": "validation"}))
    add("cards.ethos_binary", multi_class_card(
        loader=LoadHF(path="iamollas/ethos", revision="refs/convert/parquet", data_dir="binary", splits=["train"]),
        classes=["not hate speech", "hate speech"],
        description="ETHOS (binary config, read from the Hub's Parquet conversion): social-media comments (YouTube and "
        "Reddit) labelled as hate speech or not. The dataset has only a train split: it is shuffled, then seeded 20% / "
        "80% portions are train / test.",
        tags=_tags("iamollas/ethos", "https://arxiv.org/abs/2006.08328"), task="tasks.classification.multi_class",
        pre=[make("shuffle", page_size=1000000)], mix={"train": "train[20%]", "test": "train[80%]"},
        text_type="sentence", type_of_class="hate speech"))
    add("cards.law_stack_exchange", multi_class_card(
        loader=LoadHF(path="jonathanli/law-stack-exchange"), classes=LAW_STACK_EXCHANGE,
        description="Law Stack Exchange: legal questions (title and body) from law.stackexchange.com, labelled by their main "
        "tag (16 legal areas). The published splits, with train and test swapped (as the original's card).",
        tags=_tags("jonathanli/law-stack-exchange"), label="text_label", map_labels=False, text_type=None,
        mix={"train": "test", "test": "train", "validation": "validation"},
        pre=[ListFieldValues(fields=["title", "body"], to_field="text"), JoinStr(field="text", separator=". ")]))
    add("cards.ledgar", multi_class_card(
        loader=LoadHF(path="coastalcph/lex_glue", name="ledgar"), classes=LEDGAR,
        description="LEDGAR (LexGLUE): contract provisions from SEC filings, labelled with the provision's main topic (100 "
        "classes). Published train / validation / test splits.",
        tags=_tags("coastalcph/lex_glue", "https://arxiv.org/abs/2110.00976"), text_type=None,
        type_of_class="contractual clauses", task="tasks.classification.multi_class"))
    add("cards.claim_stance_topic", multi_class_card(
        loader=LoadHF(path="ibm/claim_stance", name="claim_stance_topic"), classes=CLAIM_STANCE_TOPICS,
        description="IBM Debater claim stance, topic config: claims mined from Wikipedia, to be matched to the debate topic "
        "(one of 55) they address. Published train / validation / test splits.",
        tags=_tags("ibm-research/claim_stance", "https://aclanthology.org/E17-1024/"), map_labels=False,
        text_type="argument", type_of_class=None))
    add("cards.argument_topic", multi_class_card(
        loader=LoadHF(path="ibm/argument_quality_ranking_30k", name="argument_topic"), classes=ARGUMENT_TOPICS,
        description="IBM Debater argument quality 30k, topic config: crowd-sourced arguments, to be matched to the debate topic "
        "(one of 71) they were written for. Published train / validation / test splits.",
        tags=_tags("ibm-research/argument_quality_ranking_30k", "https://arxiv.org/abs/1911.11408"),
        map_labels=False, text_type="argument", type_of_class=None))
    # multi-label
    add("cards.go_emotions.simplified", TaskCard(
        loader=LoadHF(path="google-research-datasets/go_emotions", name="simplified"),
        preprocess_steps=[
            index_mapper("labels", GO_EMOTIONS, process_every_value=True),
            Set(fields={"classes": GO_EMOTIONS, "type_of_classes": "emotions"}),
        ],
        task="tasks.classification.multi_label",
        templates=MULTI_LABEL_TEMPLATES,
        __description__="GoEmotions (simplified config): Reddit comments labelled with one or more of 27 emotions or "
                        "neutral. Published train / validation / test splits.",
        __tags__=_tags("google-research-datasets/go_emotions", "https://arxiv.org/abs/2005.00547",
                       task="multi-label classification"),
    ))
    add("cards.unfair_tos", TaskCard(
        loader=LoadHF(path="coastalcph/lex_glue", name="unfair_tos"),
        preprocess_steps=[
            index_mapper("labels", UNFAIR_TOS, process_every_value=True),
            Set(fields={"classes": UNFAIR_TOS, "type_of_classes": "contractual clauses"}),
        ],
        task="tasks.classification.multi_label",
        templates=MULTI_LABEL_TEMPLATES,
        __description__="UNFAIR-ToS (LexGLUE): sentences of online Terms of Service labelled with the types of "
                        "potentially unfair terms they contain (8 types; most sentences have none). Published "
                        "train / validation / test splits.",
        __tags__=_tags("coastalcph/lex_glue", "https://arxiv.org/abs/2110.00976", task="multi-label classification"),
    ))
