"""Catalog: safety, bias and preference cards (BOLD, ToxiGen, Anthropic HH-RLHF)."""

from _factory import make
from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.loaders import LoadHF
from unitxt.operators import Copy, ExecuteExpression, MapInstanceValues, Rename, Set
from unitxt.splitters import RenameSplits, SplitRandomMix
from unitxt.task import Task

ASSISTANT = "\\n\\nAssistant:"


def _tags(task, repo, paper=None):
    return card_tags(task, dataset_url=hf_url(repo), paper=paper)


# Open-ended continuations have no reference; bias is judged by a model (e.g. regard). Offline the card reports length.
CONTINUATION = Task(
    input_fields={"input": "str", "type_of_input": "str", "type_of_output": "str", "domain": "str", "category": "str"},
    reference_fields={"output": "str"},
    prediction_type="str",
    metrics=["metrics.prediction_length"],
    defaults={"output": ""},
    default_template="templates.generation.default",
    __description__="Continue a prompt (fairness probes: the continuations are scored by a bias or toxicity model).",
    __tags__={"task": "generation", "modality": "text"},
)


def _split_dialog(field):
    """Expressions for the conversation before the last assistant turn and that turn's text."""
    cut = f"{field}.rfind('{ASSISTANT}')"
    return f"{field}[:{cut}].strip()", f"{field}[{cut} + {len(ASSISTANT) - 2}:].strip()"


def register(add):
    add("cards.bold", TaskCard(
        loader=LoadHF(path="AlexaAI/bold"),
        preprocess_steps=[
            RenameSplits(mapper={"train": "test"}),
            Copy(field="prompts/0", to_field="input"),
            Set(fields={"type_of_input": "sentence beginning", "type_of_output": "continuation"}),
        ],
        task=CONTINUATION,
        templates="templates.generation.all",
        __description__="BOLD (Bias in Open-ended Language generation Dataset): beginnings of Wikipedia sentences "
                        "about people and groups in five domains (profession, gender, race, religious and political "
                        "ideology), to compare the continuations across groups. The first prompt of each entry is "
                        "used. One split (train in the data), used as test.",
        __tags__=_tags("bias evaluation", "AlexaAI/bold", "https://arxiv.org/abs/2101.11718"),
    ))
    add("cards.toxigen", TaskCard(
        loader=LoadHF(path="skg/toxigen-data", name="train"),
        preprocess_steps=[
            make("shuffle", page_size=251000),
            SplitRandomMix(mix={"train": "train[20%]", "test": "train[80%]"}),
            MapInstanceValues(mappers={"prompt_label": {"0": "not toxic", "1": "toxic"}}),
            Rename(field="prompt", to_field="text"),
            Rename(field="prompt_label", to_field="label"),
            Set(fields={"classes": ["not toxic", "toxic"], "type_of_class": "toxicity"}),
        ],
        task="tasks.classification.multi_class",
        templates="templates.classification.multi_class.all",
        __description__="ToxiGen (train config): machine-generated statements about 13 minority groups, labelled "
                        "toxic or benign (implicit hate speech detection). The Hub dataset is gated (accept its "
                        "terms and log in). One split, divided 20/80 into train / test.",
        __tags__=_tags("toxicity classification", "toxigen/toxigen-data", "https://arxiv.org/abs/2203.09509"),
    ))
    chosen_context, chosen_answer = _split_dialog("chosen")
    _, rejected_answer = _split_dialog("rejected")
    add("cards.hh_rlhf", TaskCard(
        loader=LoadHF(path="Anthropic/hh-rlhf"),
        preprocess_steps=[
            ExecuteExpression(expression=chosen_context, to_field="question"),
            ExecuteExpression(expression=chosen_answer, to_field="preferred"),
            ExecuteExpression(expression=rejected_answer, to_field="other"),
            ExecuteExpression(expression="'choice_a' if len(chosen) % 2 == 0 else 'choice_b'", to_field="winner"),
            ExecuteExpression(expression="preferred if winner == 'choice_a' else other", to_field="answer_a"),
            ExecuteExpression(expression="other if winner == 'choice_a' else preferred", to_field="answer_b"),
        ],
        task="tasks.response_assessment.pairwise_comparison.single_turn",
        templates="templates.response_assessment.pairwise_comparison.single_turn.all",
        __description__="Anthropic HH-RLHF: human preferences between two assistant replies to the same "
                        "conversation (helpfulness and harmlessness). The shared conversation is the question, the "
                        "last replies are the two answers, placed in an order fixed by the data (the preferred one "
                        "is A or B); the winner is the preferred reply. Splits train / test.",
        __tags__=_tags("preference judgement", "Anthropic/hh-rlhf", "https://arxiv.org/abs/2204.05862"),
    ))
