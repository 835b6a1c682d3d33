"""Catalog: image question-answering cards (ChartQA, AI2D, InfographicVQA, and the lmms-eval copies of ChartQA,
DocVQA and InfographicVQA).

As the original's cards, each keeps the dataset's image in the task's `context` field as an Image value
(`ToImage`: {"image": PIL image, "format"}); the templates' serializers move it into the row's media and write
`<img src=...>` in the text (chat formats emit an image content part).
"""

from _shared import card_tags, hf_url
from unitxt.card import TaskCard
from unitxt.operators.images import ToImage, ToRGB
from unitxt.loaders import LoadHF
from unitxt.operators import Cast, ListFieldValues, MapValues, Rename, Set, Shuffle, Wrap
from unitxt.splitters import RenameSplits, SplitRandomMix
from unitxt.templates import TemplatesList

MC_VARIANTS = ("default", "title", "instruction", "empty")


def _tags(task, repo, paper=None):
    return card_tags(task, dataset_url=hf_url(repo), paper=paper, modality="image")


def _image_context():
    return [ToImage(field="image", to_field="context"), Set(fields={"context_type": "image"})]


def register(add):
    add("cards.chart_qa", TaskCard(
        loader=LoadHF(path="HuggingFaceM4/ChartQA"),
        preprocess_steps=[
            Shuffle(),
            RenameSplits(mapper={"train": "train", "val": "validation", "test": "test"}),
            Rename(field="label", to_field="answers"),
            Rename(field="query", to_field="question"),
            *_image_context(),
        ],
        task="tasks.qa.with_context",
        templates="templates.qa.with_context.all",
        __description__="ChartQA: questions about chart images needing visual and logical reasoning (human-written "
                        "and machine-generated questions); short answers. Splits train / val "
                        "(validation) / test.",
        __tags__=_tags("visual question answering", "HuggingFaceM4/ChartQA", "https://arxiv.org/abs/2203.10244"),
    ))
    add("cards.ai2d", TaskCard(
        loader=LoadHF(path="lmms-lab/ai2d"),
        preprocess_steps=[
            Shuffle(),
            ToImage(field="image", to_field="context"),
            Rename(field="options", to_field="choices"),
            Set(fields={"context_type": "image"}),
            Cast(field="answer", to="int"),
        ],
        task="tasks.qa.multiple_choice.with_context[metrics=[metrics.exact_match_mm]]",
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
            Shuffle(),
            SplitRandomMix(mix={"train": "train[90%]", "validation": "train[5%]", "test": "train[5%]"}),
            Wrap(field="answer", inside="list", to_field="answers"),
            Rename(field="query", to_field="question"),
            *_image_context(),
        ],
        task="tasks.qa.with_context.abstractive[metrics=[metrics.anls]]",
        templates="templates.qa.with_context.all",
        __description__="InfographicVQA: questions on infographics that need reading the layout, text, graphics and "
                        "simple arithmetic; scored with ANLS. The Hub copy has one split (train), divided here "
                        "90/5/5 into train / validation / test.",
        __tags__=_tags("visual question answering", "vidore/infovqa_train", "https://arxiv.org/abs/2104.12756"),
    ))

    add("cards.seed_bench", TaskCard(
        loader=LoadHF(path="lmms-lab/SEED-Bench"),
        preprocess_steps=[
            ToImage(field="image", to_field="context", process_every_value=True),
            ToRGB(field="context", process_every_value=True),
            ListFieldValues(fields=["choice_a", "choice_b", "choice_c", "choice_d"], to_field="choices"),
            Set(fields={"context_type": "video"}),
            MapValues(mapping={"A": 0, "B": 1, "C": 2, "D": 3}, field="answer"),
        ],
        task="tasks.qa.multiple_choice.with_context",
        templates=TemplatesList(["templates.qa.multiple_choice.with_context.lmms_eval",
                                 *[f"templates.qa.multiple_choice.with_context.{v}" for v in MC_VARIANTS]]),
        __description__="SEED-Bench: four-option questions on 12 dimensions of image and video understanding; the "
                        "context is each question's list of frames (one image, or a video's frames) in RGB. One split (test).",
        __tags__=_tags("visual multiple choice question answering", "lmms-lab/SEED-Bench",
                       "https://arxiv.org/abs/2307.16125"),
    ))
    add("cards.chart_qa_lmms_eval", TaskCard(
        loader=LoadHF(path="lmms-lab/ChartQA"),
        preprocess_steps=[
            Shuffle(),
            Wrap(field="answer", inside="list", to_field="answers"),
            *_image_context(),
        ],
        task="tasks.qa.with_context.with_type[metrics=[metrics.relaxed_correctness]]",
        templates="templates.qa.with_context.all",
        __description__="ChartQA as packaged for lmms-eval: the test split only (human-written and augmented "
                        "questions, 'type' tells which), one answer per question; scored with relaxed accuracy.",
        __tags__=_tags("visual question answering", "lmms-lab/ChartQA", "https://arxiv.org/abs/2203.10244"),
    ))
    for config, name, paper in (("DocVQA", "cards.doc_vqa.lmms_eval", "https://arxiv.org/abs/2007.00398"),
                                ("InfographicVQA", "cards.info_vqa_lmms_eval", "https://arxiv.org/abs/2104.12756")):
        add(name, TaskCard(
            loader=LoadHF(path="lmms-lab/DocVQA", name=config, data_classification_policy=["public"]),
            preprocess_steps=[
                Shuffle(),
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
