"""Catalog: the original's cards over sources outside the Hub's plain datasets (Kaggle, scikit-learn, a live web API,
the TURL files, Wikipedia pages), over model-scored safety tasks, and the RAG end-to-end benchmark cards. A card whose
source or metric needs an optional package or an account exists like any other and fails only when used, naming
what to install or configure.

Facts (loader, splits, steps, task and template names) are the original's 1.26.10 cards; the long selection lists
(the AttaQ-500 inputs, the TURL column types) are read from the text files next to this module. The reference is
the catalog of the released 1.26.10 package.
"""

from pathlib import Path

from _factory import make
from _shared import card_tags, hf_url
from cards_classification import MEDICAL_CONDITIONS, TRAIN_TEST_MIX, multi_class_card
from cards_multilingual_small import RAGBENCH_SUBSETS
from cards_tables import FIN_QA_TASK, FIN_QA_TEMPLATE
from unitxt.artifact import ArtifactLink
from unitxt.card import TaskCard
from unitxt.loaders import LoadCSV, LoadJsonFile
from unitxt.operators import Cast, Copy, FilterByCondition, GetLength, MapTableListsToStdTableJSON
from unitxt.templates import TemplatesList

HERE = Path(__file__).parent
THREE_WAY = {"train": "train[70%]", "validation": "train[10%]", "test": "train[20%]"}
PUBLIC = ["public"]
RAG_TEMPLATES = {"default": "templates.rag.end_to_end.json_predictions"}


def _lines(file_name):
    return (HERE / file_name).read_text(encoding="utf-8").splitlines()


def _card(loader, steps, task, templates, description, tags, **extra):
    return TaskCard(loader=loader, preprocess_steps=steps, task=task, templates=templates,
                    __description__=description, __tags__=tags, **extra)


def _kaggle_and_web_cards(add):
    add("cards.news_category_classification_headline", _card(
        make("load_from_kaggle", url="https://www.kaggle.com/datasets/rmisra/news-category-dataset"),
        [make("shuffle", page_size=9223372036854775807), make("split_random_mix", mix=THREE_WAY),
         make("rename", field_to_field={"headline": "text"}), make("rename", field_to_field={"category": "label"}),
         make("set", fields={"classes": NEWS_CATEGORIES, "text_type": "sentence"})],
        "tasks.classification.multi_class.topic_classification", "templates.classification.multi_class.all",
        "News headlines (HuffPost news category dataset on Kaggle) classified into 42 topics. Needs the opendatasets "
        "package and Kaggle credentials (./kaggle.json) when loaded.",
        card_tags("topic classification", dataset_url="https://www.kaggle.com/datasets/rmisra/news-category-dataset")))
    heart_fields = ["Age", "Sex", "ChestPainType", "RestingBP", "Cholesterol", "FastingBS", "RestingECG", "MaxHR",
                    "ExerciseAngina", "Oldpeak", "ST_Slope"]
    add("cards.tablerow_classify", _card(
        make("load_from_kaggle", url="https://www.kaggle.com/datasets/fedesoriano/heart-failure-prediction"),
        [make("split_random_mix", mix=THREE_WAY), make("rename", field_to_field={"HeartDisease": "label"}),
         make("map_instance_values", mappers={"label": {"0": "Normal", "1": "Heart Disease"}}),
         make("set", fields={"text_type": "Person medical record", "type_of_class": "Heart Disease Possibility"}),
         make("extract_field_values", field="label", to_field="classes", stream_name="train"),
         make("serialize_table_row_as_text", fields=heart_fields, to_field="text", max_cell_length=25)],
        "tasks.classification.multi_class", "templates.classification.multi_class.all",
        "Heart-failure prediction from a patient's table row (Kaggle), the row written out as text. Needs the "
        "opendatasets package and Kaggle credentials (./kaggle.json) when loaded.",
        card_tags("classification", dataset_url="https://www.kaggle.com/datasets/fedesoriano/heart-failure-prediction",
                  modality="table")))
    add("cards.20_newsgroups.sklearn", _card(
        make("load_from_sklearn", dataset_name="20newsgroups", streaming=False),
        [make("filter_by_condition", values={"data": ""}, condition="ne"),
         make("split_random_mix", mix={"train": "train[90%]", "validation": "train[10%]", "test": "test"}),
         make("rename", field_to_field={"data": "text", "target": "label"}),
         make("map_instance_values", mappers={"label": dict(NEWSGROUPS)}),
         make("set", fields={"classes": [name for _, name in NEWSGROUPS]})],
        "tasks.classification.multi_class.topic_classification", "templates.classification.multi_class.all",
        "20 Newsgroups fetched with scikit-learn (needs scikit-learn when loaded); cards.20_newsgroups reads the "
        "Hub copy.", card_tags("topic classification", dataset_url="https://scikit-learn.org/stable/datasets/"
                                                                    "real_world.html#newsgroups-dataset")))
    cfpb_labels = {
        "Credit reporting, credit repair services, or other personal consumer reports":
            "credit reporting or credit repair services or other personal consumer reports",
        "Credit card or prepaid card": "credit card or prepaid card",
        "Payday loan, title loan, or personal loan": "payday loan or title loan or personal loan",
        "Debt collection": "debt collection", "Mortgage": "mortgage",
        "Checking or savings account": "checking or savings account",
        "Money transfer, virtual currency, or money service": "money transfer or virtual currency or money service",
        "Vehicle loan or lease": "vehicle loan or lease", "Student loan": "student loan"}
    cfpb_url = ("https://www.consumerfinance.gov/data-research/consumer-complaints/search/api/v1/?date_received_max="
                "2023-01-04&date_received_min=2022-01-04&field=all&format=csv&has_narrative=true&lens=product&no_aggs"
                "=true&size=340390&sub_lens=sub_product&trend_depth=5&trend_interval=month")
    add("cards.CFPB.product.2023", _card(
        make("load_csv", files={"train": cfpb_url}, streaming=False, indirect_read=True,
             data_classification_policy=PUBLIC),
        [make("split_random_mix", mix=THREE_WAY),
         make("rename", field_to_field={"Consumer complaint narrative": "text", "Product": "label"}),
         make("map_instance_values", mappers={"label": cfpb_labels}),
         make("set", fields={"classes": list(cfpb_labels.values())})],
        "tasks.classification.multi_class.topic_classification", "templates.classification.multi_class.all",
        "Consumer complaints to the US CFPB (received 2022-01-04 .. 2023-01-04, read from the bureau's CSV API) "
        "classified by financial product.",
        card_tags("topic classification", dataset_url="https://www.consumerfinance.gov/data-research/"
                                                      "consumer-complaints/")))


def _safety_cards(add):
    attaq_templates = [make("input_output_template", input_format="{input}\n", output_format=""),
                       make("input_output_template", input_format="{input}", output_format="")]
    attaq_tags = card_tags("safety", dataset_url=hf_url("ibm/AttaQ"), paper="https://arxiv.org/abs/2311.04124")
    add("cards.attaq", _card(
        make("load_hf", path="ibm/AttaQ"),
        [make("rename_splits", mapper={"train": "test"}), make("shuffle", page_size=2800)],
        make("task", input_fields=["input"], reference_fields=["label"], metrics=["metrics.safety_metric"]),
        attaq_templates,
        "AttaQ: adversarial questions meant to draw harmful answers; responses are scored by a harmlessness reward "
        "model (metrics.safety_metric, needs transformers and torch).", attaq_tags))
    add("cards.atta_q", ArtifactLink(to="cards.attaq", __description__="Another name of cards.attaq.",
                                     __tags__=attaq_tags))
    add("cards.attaq_500", _card(
        make("load_hf", path="ibm/AttaQ"),
        [make("rename_splits", mapper={"train": "test"}),
         make("filter_by_condition", values={"input": _lines("attaq_500_inputs.txt")}, condition="in"),
         make("shuffle", page_size=2800)],
        make("task", input_fields={"input": "str"}, reference_fields={"label": "str"}, prediction_type="str",
             metrics=["metrics.safety_metric"]),
        [make("input_output_template", input_format="{input}\n", output_format=""),
         make("input_output_template", input_format="{input}", output_format="")],
        "AttaQ-500: a fixed selection of 500 AttaQ questions (listed in the card) scored by the harmlessness "
        "reward model (metrics.safety_metric).", attaq_tags))
    add("cards.safety.provoq", TaskCard(
        loader=make("load_hf", path="IBM/ProvoQ", data_classification_policy=PUBLIC),
        task=make("task", input_fields={"question": "str", "stigma": "str", "group": "str"}, reference_fields={},
                  prediction_type="str",
                  metrics=["metrics.llm_as_judge.safety.llama_3_3_70b_instruct_ibm_watsonx_template_harm_rating"]),
        templates=make("templates_dict", items={"default": make("input_output_template", input_format="{question}",
                                                                output_format="")}),
        __description__="ProvoQ: provocative questions about stigmatised groups; answers rated for harm by an "
                        "LLM judge (watsonx).",
        __tags__=card_tags("safety", dataset_url=hf_url("IBM/ProvoQ"))))
    add("cards.safety.simple_safety_tests", TaskCard(
        loader=make("load_hf", path="Bertievidgen/SimpleSafetyTests", data_classification_policy=PUBLIC),
        task=make("task", input_fields={"prompt": "str", "id": "str", "harm_area": "str", "category": "str"},
                  reference_fields={}, prediction_type="str",
                  metrics=["metrics.granite_guardian.assistant_risk.harm[prediction_type=str,user_message_field="
                           "prompt,assistant_message_field=prediction,score_prefix=graniteguardian_]",
                           "metrics.llm_as_judge.safety.llamaguard[score_prefix=llamaguard_]"]),
        templates={"default": make("input_output_template", input_format="{prompt}", output_format="")},
        __description__="SimpleSafetyTests: 100 prompts on clear-cut harm areas; answers judged by Granite Guardian "
                        "and Llama Guard.",
        __tags__=card_tags("safety", dataset_url=hf_url("Bertievidgen/SimpleSafetyTests"))))
    add("cards.safety.xstest", _card(
        make("load_hf", path="Paul/XSTest", data_classification_policy=PUBLIC),
        [make("rename_splits", mapper={"train": "test"}), make("set", fields={"response": ""})],
        make("task", input_fields={"prompt": "str", "id": "int", "type": "str", "label": "str"},
             reference_fields={"response": "str"}, prediction_type="str",
             metrics=["metrics.llm_as_judge.direct.watsonx.llama3_3_70b[criteria=metrics.llm_as_judge.direct."
                      "criteria.assistant_message_compliance, context_fields=[prompt,response]]"]),
        {"default": make("input_output_template", input_format="{prompt}", output_format="{response}")},
        "XSTest: safe prompts that look unsafe (and unsafe contrasts), to measure exaggerated refusals; compliance "
        "judged by an LLM judge.", card_tags("safety", dataset_url=hf_url("Paul/XSTest"))))


def _judge_cards(add):
    for kind, task in (("rating.single_turn", "tasks.response_assessment.rating.single_turn"),
                       ("rating.single_turn_with_reference",
                        "tasks.response_assessment.rating.single_turn_with_reference"),
                       ("pairwise_comparative_rating.single_turn",
                        "tasks.response_assessment.pairwise_comparative_rating.single_turn")):
        add(f"cards.dynamic_cards_for_llm_judges.{kind}", TaskCard(
            loader=None, preprocess_steps=[], task=task,
            __description__=f"A card without data for LLM judges built on the fly: {task} over the instances the "
                            "judge is given.",
            __tags__={"task": "response assessment", "language": "en", "modality": "text"}))
    options = [{"name": f"score{index}_description", "description": ""} for index in range(1, 6)]
    copies = {"criteria_name": "criteria/name", "score_rubric/criteria": "criteria/description"}
    copies.update({f"score_rubric/score{index + 1}_description": f"criteria/options/{index}/description"
                   for index in range(5)})
    add("cards.biggen_bench.results.human_eval", TaskCard(
        loader=make("load_hf", path="prometheus-eval/BiGGen-Bench-Results",
                    splits=["human_eval", "multilingual_human_eval"]),
        preprocess_steps=[
            make("merge_streams", streams_to_merge=["human_eval", "multilingual_human_eval"], new_stream_name="test",
                 add_origin_stream_name=True),
            make("filter_by_condition", values={"human_score": -1}, condition="ne"),
            make("execute_expression", expression="(human_score - 1) / 4", to_field="human_score"),
            make("set", fields={"criteria": {
                "name": "", "description": "", "options": options, "prediction_field": "response",
                "context_fields": ["system_prompt", "input", "reference_answer"],
                "option_map": {f"score{index + 1}_description": index / 4 for index in range(5)}}}),
            make("format_text", text="{capability}-{task}", to_field="criteria_name"),
            make("copy", field_to_field=copies),
            make("create_criteria_with_options_from_dict", field="criteria"),
        ],
        task=make("task", input_fields={"system_prompt": "str", "input": "str", "response": "str",
                                        "reference_answer": "str", "language": "str", "capability": "str",
                                        "task": "str", "criteria": "Any"},
                  reference_fields={"human_score": "float"}, prediction_type="float",
                  metrics=["metrics.spearman", "metrics.pearson"],
                  default_template="templates.empty[postprocessors=[processors.cast_to_float_return_nan_if_failed]]"),
        templates=[],
        __description__="BiGGen-Bench human judgments (English and multilingual): each response with its 1-5 human "
                        "score scaled to 0..1 and its rubric as a criteria; judges are scored by correlation.",
        __tags__=card_tags("response assessment", dataset_url=hf_url("prometheus-eval/BiGGen-Bench-Results"))))


def _ragbench_faithfulness(add):
    for subset in RAGBENCH_SUBSETS:
        add(f"cards.rag_eval.faithfulness.ragbench.{subset}", TaskCard(
            loader=make("load_hf", path="rungalileo/ragbench", name=subset, split="test"),
            preprocess_steps=[
                make("copy", field="response", to_field="answer"),
                make("copy", field="documents", to_field="contexts"),
                make("execute_expression", expression="int(adherence_score)", to_field="number_val"),
                make("execute_expression", expression="['yes' if adherence_score else 'no']", to_field="is_faithful"),
            ],
            task="tasks.rag_eval.faithfulness.binary",
            templates={"default": make("null_template")},
            __description__=f"RAGBench ({subset}, test split) for judging faithfulness: is the response supported by "
                            "the documents (the dataset's adherence label)?",
            __tags__=card_tags("RAG evaluation", dataset_url=hf_url("rungalileo/ragbench"),
                               paper="https://arxiv.org/abs/2407.11005", benchmark="ragbench", subset=subset)))


def _rag_end_to_end(add):
    tags = lambda url: card_tags("RAG end to end", dataset_url=url)  # noqa: E731
    wrap = lambda field, to: make("wrap", field=field, inside="list", to_field=to)  # noqa: E731
    add("cards.rag.benchmark.bioasq.en", TaskCard(
        loader=make("load_hf", path="enelpol/rag-mini-bioasq", name="question-answer-passages",
                    data_classification_policy=PUBLIC),
        preprocess_steps=[make("copy", field_to_field={"question": "question", "id": "question_id"}),
                          make("cast", field="relevant_passage_ids", to="str", to_field="reference_context_ids",
                               process_every_value=True),
                          wrap("answer", "reference_answers")],
        task="tasks.rag.end_to_end", templates=dict(RAG_TEMPLATES),
        __description__="Mini BioASQ: biomedical questions with their relevant passage ids and answer.",
        __tags__=tags(hf_url("enelpol/rag-mini-bioasq"))))
    clap = "https://raw.githubusercontent.com/primeqa/clapnq/main/retrieval/"
    add("cards.rag.benchmark.clap_nq.en", TaskCard(
        loader=make("load_csv", sep="\t", files={"train": clap + "train/question_train_answerable.tsv",
                                                 "test": clap + "dev/question_dev_answerable.tsv"},
                    data_classification_policy=PUBLIC),
        preprocess_steps=[make("copy", field_to_field={"question": "question", "id": "question_id"}),
                          make("list_field_values", fields=["doc-id-list"], to_field="reference_context_ids"),
                          make("list_field_values", fields=["answers"], to_field="reference_answers")],
        task="tasks.rag.end_to_end", templates=dict(RAG_TEMPLATES),
        __description__="CLAP NQ: answerable Natural Questions with long answers over Wikipedia passages "
                        "(retrieval files of the primeqa/clapnq repository).",
        __tags__=tags("https://github.com/primeqa/clapnq")))
    add("cards.rag.benchmark.hotpotqa.en", TaskCard(
        loader=make("load_hf", path="hotpotqa/hotpot_qa", data_dir="distractor", revision="refs/convert/parquet",
                    splits=["train", "validation"], data_classification_policy=PUBLIC),
        preprocess_steps=[make("split_random_mix", mix={"test": "train[30%]", "train": "train[70%]"}),
                          make("copy", field_to_field={"question": "question", "id": "question_id",
                                                       "level": "metadata_tags/level"}),
                          make("copy", field="context/title", to_field="reference_context_ids"),
                          make("join", field="context/sentences", by=" ", to_field="reference_contexts",
                               process_every_value=True),
                          make("set", fields={"is_answerable_label": True}),
                          wrap("answer", "reference_answers")],
        task="tasks.rag.end_to_end", templates=dict(RAG_TEMPLATES),
        __description__="HotpotQA (distractor setting): multi-hop questions; the titled paragraphs are the "
                        "reference contexts.", __tags__=tags(hf_url("hotpotqa/hotpot_qa"))))
    add("cards.rag.benchmark.miniwiki.en", TaskCard(
        loader=make("load_hf", path="rag-datasets/rag-mini-wikipedia", name="question-answer",
                    data_classification_policy=PUBLIC),
        preprocess_steps=[make("split_random_mix", mix={"train": "test[70%]", "test": "test[30%]"}),
                          make("copy", field="id", to_field="question_id"), wrap("answer", "reference_answers")],
        task="tasks.rag.end_to_end", templates=dict(RAG_TEMPLATES),
        __description__="Mini Wikipedia RAG: questions and answers over a small Wikipedia corpus.",
        __tags__=tags(hf_url("rag-datasets/rag-mini-wikipedia"))))
    for part, title in (("fin_report", "FinReport"), ("fin_slides", "FinSlides"), ("tech_report", "TechReport"),
                        ("tech_slides", "TechSlides")):
        repo = f"ibm-research/REAL-MM-RAG_{title}"
        add(f"cards.rag.benchmark.real_mm_rag_{part}.en", TaskCard(
            loader=make("load_hf", path=repo, name="default", split="test", data_classification_policy=PUBLIC),
            preprocess_steps=[make("filter_by_condition", values={"query": None}, condition="ne"),
                              make("hash_image", field="image", to_field="reference_context_ids"),
                              make("copy", field="query", to_field="question"),
                              make("add_incremental_id", to_field="question_id"),
                              make("cast", field="question_id", to="str"),
                              make("split_random_mix", mix={"test": "test[30%]", "train": "test[70%]"}),
                              wrap("answer", "reference_answers"),
                              wrap("reference_context_ids", "reference_context_ids")],
            task="tasks.rag.end_to_end", templates=dict(RAG_TEMPLATES),
            __title__=f"REALMMRAG: {title}",
            __description__=f"REAL-MM-RAG {title}: questions over document page images; a page's image hash is "
                            "its context id.", __tags__={**tags(hf_url(repo)), "modality": "image"}))
    add("cards.rag.benchmark.watsonxqa.en", TaskCard(
        loader=make("load_hf", path="ibm-research/watsonxDocsQA", name="question_answers",
                    data_classification_policy=PUBLIC),
        preprocess_steps=[make("copy", field_to_field={"question": "question", "question_id": "question_id"}),
                          wrap("correct_answer_document_ids", "reference_context_ids"),
                          wrap("correct_answer", "reference_answers")],
        task="tasks.rag.end_to_end", templates=dict(RAG_TEMPLATES),
        __description__="watsonx documentation QA: questions with the ids of the documents that answer them.",
        __tags__=tags(hf_url("ibm-research/watsonxDocsQA"))))
    answerability = [["UNANSWERABLE"], ["ANSWERABLE"], ["PARTIAL"]]
    add("cards.rag.mtrag", TaskCard(
        loader=make("load_json_file", lines=True, data_classification_policy=PUBLIC,
                    files={"test": "https://raw.githubusercontent.com/IBM/mt-rag-benchmark/refs/heads/main/mtrag-human/"
                                   "generation_tasks/reference+RAG.jsonl"}),
        preprocess_steps=[
            make("filter_by_condition", values={"Answerability": answerability}, condition="in"),
            make("map_instance_values", mappers={"Answerability": {"['UNANSWERABLE']": False, "['ANSWERABLE']": True,
                                                                   "['PARTIAL']": True}}),
            make("copy", field_to_field={"targets/*/text": "reference_answers", "Answerability": "is_answerable_label",
                                         "task_id": "question_id", "contexts/*/document_id": "reference_context_ids",
                                         "contexts/*/text": "reference_contexts", "input/*/speaker": "roles",
                                         "input/*/text": "contents"}),
            make("zip_field_values", fields=["roles", "contents"], to_field="conversation"),
            make("dictify", field="conversation", with_keys=["role", "content"], to_field="question",
                 process_every_value=True),
        ],
        task="tasks.rag.end_to_end", templates=dict(RAG_TEMPLATES),
        __description__="MTRAG: multi-turn RAG conversations (human generation tasks, reference + RAG setting); the "
                        "question is the dialog so far.", __tags__=tags("https://github.com/IBM/mt-rag-benchmark")))


def _single_sources(add):
    add("cards.frames", TaskCard(
        loader=make("load_hf", path="google/frames-benchmark", data_classification_policy=PUBLIC),
        preprocess_steps=[make("rename", field="Prompt", to_field="question"),
                          make("rename", field="Answer", to_field="answer"),
                          make("wrap", field="answer", inside="list", to_field="answers"),
                          make("literal_eval", field="wiki_links", to_field="context"),
                          make("wikipedia_fetcher", field="context", process_every_value=True),
                          make("set", fields={"context_type": "wikipedia articles"})],
        task="tasks.qa.with_context", templates="templates.qa.with_context.all",
        __description__="FRAMES: multi-hop factual questions whose context is the text of the linked Wikipedia "
                        "articles (fetched when loaded; needs the wikipedia package).",
        __tags__=card_tags("question answering", dataset_url=hf_url("google/frames-benchmark"))))
    add("cards.websrc", TaskCard(
        loader=make("load_hf", path="rootsautomation/websrc", streaming=True),
        preprocess_steps=[make("shuffle"), make("rename_splits", mapper={"train": "train", "dev": "test"}),
                          "splitters.small_no_dev",
                          make("wrap", field="answer", inside="list", to_field="answers"),
                          make("decode_image", field="image", to_field="context"),
                          make("to_image", field="context"),
                          make("set", fields={"context_type": "image"})],
        task="tasks.qa.with_context.with_domain[metrics=[metrics.websrc_squad_f1]]",
        templates=["templates.qa.with_context.websrc", "templates.qa.with_context", "templates.qa.extractive",
                   "templates.qa.with_context.simple", "templates.qa.with_context.simple2",
                   "templates.qa.with_context.with_type", "templates.qa.with_context.question_first",
                   "templates.qa.with_context.ffqa", "templates.qa.with_context.title",
                   "templates.qa.with_context.lmms_eval"],
        __description__="WebSRC: reading comprehension over web page screenshots; the screenshot is the context.",
        __tags__=card_tags("question answering", dataset_url=hf_url("rootsautomation/websrc"), modality="image")))
    add("cards.turl_col_type", TaskCard(
        loader=make("turl_column_type_annotation_loader"),
        preprocess_steps=[make("set", fields={"vocab": _lines("turl_column_types.txt")})],
        task=make("task", input_fields={"page_title": "str", "section_title": "str", "table_caption": "str",
                                        "table": "Table", "vocab": "List[str]", "colname": "str"},
                  reference_fields={"annotations": "List[str]"}, prediction_type="List[str]",
                  metrics=["metrics.f1_micro_multi_label", "metrics.accuracy", "metrics.f1_macro_multi_label"],
                  augmentable_inputs=["page_title", "section_title", "table_caption", "table", "colname", "vocab"]),
        templates=[make("input_output_template",
                        instruction="Column type annotation: pick the types of the selected column of the table "
                                    "from the candidate types below; the Wikipedia page, section and table caption "
                                    "tell what the table is about.\nCandidate Types: {vocab}\n\nAnswer with the "
                                    "correct types from the candidate list only, separated by commas, with nothing "
                                    "else.",
                        input_format="\nColumn name: {colname}\nPage Title: {page_title} \nSection Title: "
                                     "{section_title} \nTable caption: {table_caption} \nTable: \n{table} \nSelected "
                                     "Column: {colname} ",
                        output_format="{annotations}",
                        postprocessors=["processors.take_first_non_empty_line", "processors.lower_case",
                                        "processors.to_list_by_comma"])],
        __description__="TURL column type annotation: choose the Freebase types of a Wikipedia table's column from "
                        "255 candidates (the HELM scenarios copy of the TURL files).",
        __tags__={"task": "column type annotation", "language": "en", "modality": "table",
                  "urls": {"paper": "https://arxiv.org/abs/2006.14806"}}))


def _fin_qa(add):
    """FinQA from its GitHub repository's JSON files (the original's source)."""
    finqa = "https://raw.githubusercontent.com/czyssrs/FinQA/0f16e2867befa6840783e58be38c9efb9229d742/dataset/"
    add("cards.fin_qa", TaskCard(
        loader=LoadJsonFile(files={"train": finqa + "train.json", "validation": finqa + "dev.json",
                                   "test": finqa + "test.json"}, data_classification_policy=["public"]),
        preprocess_steps=[
            Copy(field="qa/question", to_field="question"),
            Copy(field="qa/answer", to_field="answer"),
            Cast(field="qa/program", to="str", to_field="program_re"),
            Copy(field="pre_text/0", to_field="pre_text"),  # the first passage, as the original
            GetLength(field="table", to_field="table_length"),
            FilterByCondition(values={"table_length": 1}, condition="gt"),  # a header and at least one row
            Copy(field="post_text/0", to_field="post_text"),
            MapTableListsToStdTableJSON(field="table"),
        ],
        task=FIN_QA_TASK,
        templates=TemplatesList([FIN_QA_TEMPLATE]),
        __description__="FinQA: expert-written questions on earnings reports that need numerical reasoning over the "
                        "report's text and table (rows with a table of at least a header and one row). Splits "
                        "train / validation / test; the reference is the computed answer. Read from the "
                        "FinQA repository's JSON files at a fixed commit.",
        __tags__={"task": "table question answering", "language": "en", "modality": "table",
                  "urls": {"paper": "https://arxiv.org/abs/2109.00122", "data": "https://github.com/czyssrs/FinQA"}},
    ))



def _medical_abstracts(add):
    """Medical abstracts from the corpus's GitHub repository CSV files (the original's source)."""
    corpus = "https://raw.githubusercontent.com/sebischair/Medical-Abstracts-TC-Corpus/main/"
    add("cards.medical_abstracts", multi_class_card(
        loader=LoadCSV(files={"train": corpus + "medical_tc_train.csv", "test": corpus + "medical_tc_test.csv"}),
        classes=MEDICAL_CONDITIONS,
        description="Medical abstracts: abstracts of medical papers labelled with one of five patient condition classes "
        "(labels 1-5 in the data). Published train and test CSV files; validation is a seeded 10% of train.",
        tags={"task": "topic classification", "language": "en", "modality": "text",
              "urls": {"data": "https://github.com/sebischair/Medical-Abstracts-TC-Corpus"}},
        mix=TRAIN_TEST_MIX, text="medical_abstract", label="condition_label", start=1, text_type="abstract",
        type_of_class="topic"))


def register(add):
    _kaggle_and_web_cards(add)
    _safety_cards(add)
    _judge_cards(add)
    _ragbench_faithfulness(add)
    _rag_end_to_end(add)
    _single_sources(add)
    _fin_qa(add)
    _medical_abstracts(add)
    _wikitq(add)


def _wikitq(add):
    """WikiTableQuestions from its GitHub repository (the original's source): the split files list each question's
    table file, which each instance reads (as TSV) from the same repository."""
    repository = "https://raw.githubusercontent.com/ppasupat/WikiTableQuestions/"
    data = repository + "master/data/"
    add("cards.wikitq", TaskCard(
        loader=LoadCSV(files={"train": data + "random-split-1-train.tsv", "validation": data + "random-split-1-dev.tsv",
                              "test": data + "pristine-unseen-tables.tsv"}, sep="\t", data_classification_policy=PUBLIC),
        preprocess_steps=[
            make("rename", field="utterance", to_field="question"),
            make("split", field="targetValue", to_field="answers", by="|"),
            make("set", fields={"context_type": "table"}),
            make("replace", field="context", old=".csv", new=".tsv"),  # the tables' TSV copies
            make("format_text", text=repository + "refs/heads/master/{context}", to_field="table_url"),
            make("read_file", field="table_url", to_field="table_content"),
            make("parse_csv", field="table_content", to_field="table", separator="\t", dtype="str", strip_cells=True),
            make("get_num_of_table_cells", field="table", to_field="table_cell_size"),
            FilterByCondition(values={"table_cell_size": 200}, condition="le"),  # tables of at most 200 cells
            Copy(field="table", to_field="context"),
        ],
        task="tasks.qa.extractive[metrics=[metrics.f1_strings, metrics.unsorted_list_exact_match]]",
        templates=TemplatesList([make(
            "multi_reference_template",
            instruction="Read the table and answer the question with the exact words or values the table holds "
                        "(no explanation, nothing added).\nThe examples below show the expected answers; give the "
                        "answer of the last one, whose answer is left out.",
            input_format="\nQuestion: {question}\nTable: {context}\nAnswer: ", references_field="answers",
            postprocessors=["processors.take_first_non_empty_line", "processors.to_list_by_comma_space",
                            "processors.str_to_float_format"])]),
        __description__="WikiTableQuestions: questions on semi-structured Wikipedia tables; the answers are cells or "
                        "values computed from them (a list, compared as a set). Splits train / validation (random "
                        "split 1) and test (unseen tables), read from the project's GitHub repository; each question's "
                        "table (at most 200 cells kept) is read from its TSV file there.",
        __tags__={"task": "table question answering", "language": "en", "modality": "table",
                  "urls": {"paper": "https://arxiv.org/abs/1508.00305",
                           "data": "https://github.com/ppasupat/WikiTableQuestions"}},
    ))


NEWS_CATEGORIES = ["ARTS", "ARTS & CULTURE", "BLACK VOICES", "BUSINESS", "COLLEGE", "COMEDY", "CRIME", "CULTURE & ARTS",
                   "DIVORCE", "EDUCATION", "ENTERTAINMENT", "ENVIRONMENT", "FIFTY", "FOOD & DRINK", "GOOD NEWS",
                   "GREEN", "HEALTHY LIVING", "HOME & LIVING", "IMPACT", "LATINO VOICES", "MEDIA", "MONEY",
                   "PARENTING", "PARENTS", "POLITICS", "QUEER VOICES", "RELIGION", "SCIENCE", "SPORTS", "STYLE",
                   "STYLE & BEAUTY", "TASTE", "TECH", "THE WORLDPOST", "TRAVEL", "U.S. NEWS", "WEDDINGS",
                   "WEIRD NEWS", "WELLNESS", "WOMEN", "WORLD NEWS", "WORLDPOST"]
NEWSGROUPS = [("alt.atheism", "atheism"), ("comp.graphics", "computer graphics"),
              ("comp.os.ms-windows.misc", "microsoft windows"), ("comp.sys.ibm.pc.hardware", "pc hardware"),
              ("comp.sys.mac.hardware", "mac hardware"), ("comp.windows.x", "windows x"),
              ("misc.forsale", "for sale"), ("rec.autos", "cars"), ("rec.motorcycles", "motorcycles"),
              ("rec.sport.baseball", "baseball"), ("rec.sport.hockey", "hockey"), ("sci.crypt", "cryptography"),
              ("sci.electronics", "electronics"), ("sci.med", "medicine"), ("sci.space", "space"),
              ("soc.religion.christian", "christianity"), ("talk.politics.guns", "guns"),
              ("talk.politics.mideast", "middle east"), ("talk.politics.misc", "politics"),
              ("talk.religion.misc", "religion")]
