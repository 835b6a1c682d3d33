"""Catalog: image question-answering cards (ChartQA, AI2D, InfographicVQA, and the lmms-eval copies of ChartQA,
DocVQA and InfographicVQA).

Each card moves the dataset's image into the instance's media with `ImageToText` (the `context` field gets the image
placeholder), so the generic with-context QA templates render it: text formats keep `<img src=...>`, chat formats
emit an image content part.
"""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.operators.images import ImageToText
from unitxt.loaders import LoadHF
from unitxt.operators import Cast, Copy, ExecuteExpression, FilterByCondition, ListFieldValues, Rename, Set, Wrap
from unitxt.splitters import RenameSplits, SplitRandomMix
from unitxt.templates import TemplatesList

MC_VARIANTS = ("default", "title", "instruction", "empty")


def _tags(task, repo, paper=None):
    return card_tags(task, dataset_url=hf_url(repo), paper=paper, modality="image")


def _image_context():
    return [ImageToText(field="image", to_field="context"), Set(fields={"context_type": "image"})]


def register(add):
    add("cards.chart_qa", TaskCard(
        loader=LoadHF(path="HuggingFaceM4/ChartQA"),
        preprocess_steps=[
            RenameSplits(mapper={"val": "validation"}),
            Rename(field="label", to_field="answers"),
            Rename(field="query", to_field="question"),
            *_image_context(),
        ],
        task="tasks.qa.with_context.abstractive[metrics=[metrics.relaxed_correctness]]",
        templates="templates.qa.with_context.all",
        __description__="ChartQA: questions about chart images needing visual and logical reasoning (human-written "
                        "and machine-generated questions); short answers, scored with relaxed accuracy (numbers within 5%). Splits train / val "
                        "(validation) / test.",
        __tags__=_tags("visual question answering", "HuggingFaceM4/ChartQA", "https://arxiv.org/abs/2203.10244"),
    ))
    add("cards.ai2d", TaskCard(
        loader=LoadHF(path="lmms-lab/ai2d"),
        preprocess_steps=[
            *_image_context(),
            Rename(field="options", to_field="choices"),
            Cast(field="answer", to="int"),
        ],
        task="tasks.qa.multiple_choice.with_context",
        templates=TemplatesList(["templates.qa.multiple_choice.with_context.lmms_eval",
                                 *[f"templates.qa.multiple_choice.with_context.{v}" for v in MC_VARIANTS]]),
        __description__="AI2D (AI2 Diagrams): multiple-choice questions on grade-school science diagrams; the answer "
                        "is the index of the right option. One split (test).",
        __tags__=_tags("visual multiple choice question answering", "lmms-lab/ai2d",
                       "https://arxiv.org/abs/1603.07396"),
    ))
    add("cards.info_vqa", TaskCard(
        loader=LoadHF(path="vidore/infovqa_train"),
        preprocess_steps=[
            SplitRandomMix(mix={"train": "train[80%]", "validation": "train[10%]", "test": "train[10%]"}),
            Wrap(field="answer", inside="list", to_field="answers"),
            Rename(field="query", to_field="question"),
            *_image_context(),
        ],
        task="tasks.qa.with_context.abstractive[metrics=[metrics.anls]]",
        templates="templates.qa.with_context.all",
        __description__="InfographicVQA: questions on infographics that need reading the layout, text, graphics and "
                        "simple arithmetic; scored with ANLS. The Hub copy has one split (train), divided here "
                        "80/10/10 into train / validation / test.",
        __tags__=_tags("visual question answering", "vidore/infovqa_train", "https://arxiv.org/abs/2104.12756"),
    ))

    add("cards.seed_bench", TaskCard(
        loader=LoadHF(path="lmms-lab/SEED-Bench"),
        preprocess_steps=[
            FilterByCondition(values={"data_type": "image"}, condition="eq"),
            Copy(field="image/0", to_field="image"),
            *_image_context(),
            ListFieldValues(fields=["choice_a", "choice_b", "choice_c", "choice_d"], to_field="choices"),
            ExecuteExpression(expression="'ABCD'.index(answer)", to_field="answer"),
        ],
        task="tasks.qa.multiple_choice.with_context",
        templates=TemplatesList(["templates.qa.multiple_choice.with_context.lmms_eval",
                                 *[f"templates.qa.multiple_choice.with_context.{v}" for v in MC_VARIANTS]]),
        __description__="SEED-Bench: four-option questions on 12 dimensions of image and video understanding; the "
                        "image questions (data_type 'image', the first image of each) are kept. One split (test).",
        __tags__=_tags("visual multiple choice question answering", "lmms-lab/SEED-Bench",
                       "https://arxiv.org/abs/2307.16125"),
    ))
    add("cards.chart_qa_lmms_eval", TaskCard(
        loader=LoadHF(path="lmms-lab/ChartQA"),
        preprocess_steps=[
            Wrap(field="answer", inside="list", to_field="answers"),
            *_image_context(),
        ],
        task="tasks.qa.with_context.abstractive[metrics=[metrics.relaxed_correctness]]",
        templates="templates.qa.with_context.all",
        __description__="ChartQA as packaged for lmms-eval: the test split only (human-written and augmented "
                        "questions, 'type' tells which), one answer per question; scored with relaxed accuracy.",
        __tags__=_tags("visual question answering", "lmms-lab/ChartQA", "https://arxiv.org/abs/2203.10244"),
    ))
    for config, name, paper in (("DocVQA", "cards.doc_vqa.lmms_eval", "https://arxiv.org/abs/2007.00398"),
                                ("InfographicVQA", "cards.info_vqa_lmms_eval", "https://arxiv.org/abs/2104.12756")):
        add(name, TaskCard(
            loader=LoadHF(path="lmms-lab/DocVQA", name=config, split="validation"),
            preprocess_steps=[
                RenameSplits(mapper={"validation": "test"}),
                *_image_context(),
            ],
            task="tasks.qa.with_context.abstractive[metrics=[metrics.anls]]",
            templates="templates.qa.with_context.all",
            __description__=f"{config} as packaged for lmms-eval ({config} config): questions on document images "
                            "with several accepted answers, scored with ANLS. The validation split is the test "
                            "split (the Hub test split has no public answers).",
            __tags__=_tags("visual question answering", "lmms-lab/DocVQA", paper),
        ))
