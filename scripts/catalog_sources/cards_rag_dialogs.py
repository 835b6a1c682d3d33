"""Catalog: RAG response generation over conversational and long-answer QA data: ChatRAG-Bench dialogs
(cards.rag.response_generation.chat_rag_bench[.train].user_assistant_format.<subset>), ClapNQ
(cards.rag.response_generation[.train].clapnq) and Open Australian Legal QA (cards.rag.response_generation.train.
open_australian_legal_qa).

Facts from the dataset pages. nvidia/ChatRAG-Bench: one config per source dataset, a test split, rows with `messages`
([{role: user|assistant, content}], ending with the user's question), `answers` (reference answers) and `ctxs`
([{title, text}], the retrieved passages). PrimeQA/clapnq: train and validation splits, rows with `id`, `input` (the
question), `passages` ([{title, text, sentences}]) and `output` ([{answer, selected_sentences, meta}]); unanswerable
questions have one empty answer. umarbutler/open-australian-legal-qa: one train split, rows with `question`, `answer`,
`text` and `source` ({version_id, type, jurisdiction, source, citation, url, text}: the document the answer comes
from).
"""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.formats import SystemFormat
from unitxt.loaders import LoadHF
from unitxt.operators import Copy, ListFieldValues, MapInstanceValues, Set, Shuffle
from unitxt.operators import SerializeOpenAiFormatDialog
from unitxt.splitters import SplitRandomMix

SAMPLED_ON_MIRRORS = True  # compared with the original's cards in the compat tier (tests/support/card_family_rows.py)

CHAT_RAG = "nvidia/ChatRAG-Bench"
CHAT_RAG_SUBSETS = ["doc2dial", "doqa_cooking", "doqa_movies", "doqa_travel", "hybridial"]
CLAPNQ = "PrimeQA/clapnq"
AUSTRALIAN = "umarbutler/open-australian-legal-qa"
RESPONSE_TASK = "tasks.rag.response_generation"
# the turn layout the original writes ChatRAG-Bench conversations in (chat-model role tags, one space before answers)
CHAT_TURNS = SystemFormat(demo_format="<|user|>\n{source}\n<|assistant|>\n {target_prefix}{target}\n\n",
                          model_input_format="{system_prompt}{instruction}{demos}<|user|>\n{source}\n<|assistant|>\n"
                                             "{target_prefix}")
# ClapNQ's unanswerable questions: references any of which fits (the model should decline)
DECLINES = [
    "I'm sorry, I cannot answer this question based on the context.",
    "The answer is not in the text provided.",
    "Unanswerable.",
    "The provided context does not contain the information needed to answer this question.",
    "There is not enough information in the text to answer this question.",
    "The text does not provide an answer to this question.",
    "Based on the context, an answer cannot be determined.",
    "The answer to this question is not available in the provided context.",
    "This question cannot be answered with the given information.",
    "Insufficient context to provide an answer.",
]


def _chat_rag(subset: str, train: bool) -> TaskCard:
    mix = {"train": "test[0.6]", "validation": "test[0.2]", "test": "test[0.2]"} if train else {"test": "test"}
    return TaskCard(
        loader=LoadHF(path=CHAT_RAG, name=subset, split="test"),
        preprocess_steps=[
            SplitRandomMix(mix=mix),
            Shuffle(),
            Copy(field_to_field={"ctxs/*/text": "contexts", "messages": "dialog", "answers": "reference_answers"}),
            Set(fields={"contexts_ids": []}),
            SerializeOpenAiFormatDialog(field="dialog", to_field="question", format=CHAT_TURNS,
                                        slice_first_and_last_turns_format=True, last_response_to_field="dummy"),
        ],
        task=RESPONSE_TASK,
        templates={"default": "templates.rag.response_generation.please_respond_chat"},
        __description__=f"ChatRAG-Bench ({subset}): answer the user's last question in a conversation from the "
                        f"retrieved passages; the conversation so far is written in the user/assistant layout as the "
                        f"question. " + ("The test split is cut into train / validation / test portions (60/20/20)."
                                         if train else "One split (test)."),
        __tags__=card_tags("RAG response generation", dataset_url=hf_url(CHAT_RAG),
                           paper="https://arxiv.org/abs/2401.10225", subset=subset),
    )


def _clapnq(train: bool) -> TaskCard:
    mix = ({"train": "train[0.5]", "validation": "train[0.5]", "test": "validation"} if train
           else {"train": "train", "test": "validation"})
    return TaskCard(
        loader=LoadHF(path=CLAPNQ),
        preprocess_steps=[
            SplitRandomMix(mix=mix),
            Copy(field_to_field={"passages/*/text": "contexts", "input": "question",
                                 "output/*/answer": "reference_answers"}),
            Set(fields={"contexts_ids": []}),
            MapInstanceValues(mappers={"reference_answers": {"['']": list(DECLINES)}}, strict=False),
        ],
        task=RESPONSE_TASK,
        templates={name: f"templates.rag.response_generation.{name}" for name in
                   ("please_respond", "answer_based_on_context", "answer_based_on_context_inverted")},
        __description__="ClapNQ: long-form answers to Natural Questions grounded in a gold Wikipedia passage; the "
                        "passages are the contexts and the annotated answers the references (an unanswerable "
                        "question's empty answer becomes a list of ways to decline). "
                        + ("The train split is cut in two halves (train, validation); the validation split is the test."
                           if train else "Train, and validation used as test."),
        __tags__=card_tags("RAG response generation", dataset_url=hf_url(CLAPNQ),
                           paper="https://arxiv.org/abs/2404.02103"),
    )


def register(add):
    for subset in CHAT_RAG_SUBSETS:
        add(f"cards.rag.response_generation.chat_rag_bench.user_assistant_format.{subset}", _chat_rag(subset, False))
        add(f"cards.rag.response_generation.chat_rag_bench.train.user_assistant_format.{subset}",
            _chat_rag(subset, True))
    add("cards.rag.response_generation.clapnq", _clapnq(train=False))
    add("cards.rag.response_generation.train.clapnq", _clapnq(train=True))
    add("cards.rag.response_generation.train.open_australian_legal_qa", TaskCard(
        loader=LoadHF(path=AUSTRALIAN, name="default"),
        preprocess_steps=[
            SplitRandomMix(mix={"train": "train[0.5]", "validation": "train[0.2]", "test": "train[0.3]"}),
            Shuffle(),
            Copy(field_to_field={"source/text": "contexts", "answer": "reference_answers",
                                 "source/citation": "contexts_ids"}),
            ListFieldValues(fields=["reference_answers"], to_field="reference_answers"),
            ListFieldValues(fields=["contexts"], to_field="contexts"),
            ListFieldValues(fields=["contexts_ids"], to_field="contexts_ids"),
        ],
        task=RESPONSE_TASK,
        templates={"default": "templates.rag.response_generation.please_respond_chat"},
        __description__="Open Australian Legal QA: questions answered from one Australian legal document each; the "
                        "document's text is the context (its citation the id) and the answer the reference. The "
                        "train split is cut into train / validation / test portions (50/20/30).",
        __tags__=card_tags("RAG response generation", dataset_url=hf_url(AUSTRALIAN)),
    ))
