"""Catalog: question-answering template families (templates.qa.*) generated from tables: multiple-choice prompt
styles (helm, lm_eval_harness, mmlu, fm_eval, match, title) x setting (open, with topic, with context, both) x
language (English, German, Spanish, French, Japanese, Portuguese), the BlueBench template lists, and open /
with-context / vision / multi-turn QA templates.

Styles differ in what decides scoring: the answer is the choice's letter (first character) except `match`, which
writes "<letter>. <text>" and maps the first answer line to the closest option. Wording is ours.
"""

from unitxt.templates import MultiReferenceTemplate, MultipleChoiceTemplate, TemplatesList
from unitxt.templates.judging import MultiTurnTemplate

P = "processors."
LETTER = [P + "first_character"]
# language -> (intro (open), intro with {topic}, question label, answer label, context label)
LANGUAGES = {
    "en": ("The following are multiple choice questions.", "The following are multiple choice questions about "
           "{topic}.", "Question", "Answer", "Context"),
    "de": ("Es folgen Multiple-Choice-Fragen.", "Es folgen Multiple-Choice-Fragen zum Thema {topic}.", "Frage",
           "Antwort", "Kontext"),
    "es": ("Las siguientes son preguntas de opción múltiple.", "Las siguientes son preguntas de opción múltiple "
           "sobre {topic}.", "Pregunta", "Respuesta", "Contexto"),
    "fr": ("Voici des questions à choix multiples.", "Voici des questions à choix multiples sur le thème {topic}.",
           "Question", "Réponse", "Contexte"),
    "ja": ("以下は多肢選択式の問題です。", "以下は{topic}に関する多肢選択式の問題です。", "質問", "回答", "文脈"),
    "pt": ("As seguintes são perguntas de múltipla escolha.", "As seguintes são perguntas de múltipla escolha sobre "
           "{topic}.", "Pergunta", "Resposta", "Contexto"),
}
SETTINGS = {  # setting -> (uses topic, uses context)
    "open": (False, False), "with_topic": (True, False), "with_context.no_intro": (False, True),
    "with_context.with_topic": (True, True),
}
TAGS = {"task": "question answering", "modality": "text"}


def _body(language, topic, context, intro=True):
    open_intro, topic_intro, question, answer, context_label = LANGUAGES[language]
    parts = []
    if intro:
        parts.append(topic_intro if topic else open_intro)
    if context:
        parts.append(f"{context_label}:\n{{context}}")
    parts.append(f"{question}: {{question}}\n{{choices}}")
    return "\n\n".join(parts), answer


def _style(style, language, topic, context):
    """One multiple-choice template of a style."""
    body, answer = _body(language, topic, context, intro=not (context and not topic))
    common = dict(target_field="answer", choices_separator="\n", __tags__=dict(TAGS, language=language))
    if style == "lm_eval_harness":
        return MultipleChoiceTemplate(input_format=f"{body}\n{answer}:", target_choice_format=" {choice_numeral}",
                                      postprocessors=LETTER, __description__="lm-eval-harness style: the prompt ends "
                                      "with the answer label, the target is ' <letter>'.", **common)
    if style in ("helm", "mmlu"):
        return MultipleChoiceTemplate(input_format=f"{body}\n{answer}: ", target_choice_format="{choice_numeral}",
                                      postprocessors=LETTER, __description__=f"{style.upper()} style: the prompt ends "
                                      "with the answer label; the answer is the letter.", **common)
    if style == "fm_eval":
        return MultipleChoiceTemplate(instruction=f"Reply with one letter among {{numerals}}.", input_format=body,
                                      target_prefix=f"{answer}: ", postprocessors=LETTER,
                                      __description__="Lists the allowed letters; the answer is the letter.", **common)
    if style == "match":
        return MultipleChoiceTemplate(instruction="Choose one option ({numerals}) and write it out in full.",
                                      input_format=body, target_prefix=f"{answer}:\n",
                                      target_choice_format="{choice_numeral}. {choice_text}",
                                      postprocessors=[P + "take_first_non_empty_line", P + "match_closest_option"],
                                      __description__="The answer is '<letter>. <text>'; the first answer line is "
                                                      "matched to the closest option.", **common)
    return MultipleChoiceTemplate(  # title
        instruction="Pick the correct answer and reply with its letter ({numerals}).", input_format=body,
        target_prefix=f"{answer}:\n", postprocessors=[P + "to_string_stripped", P + "first_character"],
        __description__="Headed question and choices; the answer is the letter.", **common)


def _multiple_choice(add):
    def put(prefix, styles, language, topic, context, with_all):
        names = []
        for style in styles:
            add(f"{prefix}.{style}", _style(style, language, topic, context))
            names.append(f"{prefix}.{style}")
        if with_all:
            add(f"{prefix}.all", TemplatesList(names, __description__=f"The {prefix} templates.", __tags__=dict(TAGS)))

    base = "templates.qa.multiple_choice"
    for language in ("de", "es", "fr", "ja", "pt"):
        for setting, (topic, context) in SETTINGS.items():
            put(f"{base}.{setting}.{language}", ["helm", "lm_eval_harness", "mmlu"], language, topic, context, True)
    put(f"{base}.open", ["helm", "lm_eval_harness", "mmlu"], "en", False, False, False)
    put(f"{base}.with_topic", ["fm_eval", "helm", "lm_eval_harness", "match", "mmlu"], "en", True, False, False)
    put(f"{base}.with_context.no_intro", ["helm", "lm_eval_harness", "mmlu"], "en", False, True, True)
    put(f"{base}.with_context.with_topic", ["fm_eval", "helm", "lm_eval_harness", "match", "mmlu", "title"], "en",
        True, True, True)
    put(f"{base}.with_context", ["lm_eval_harness", "match"], "en", False, True, False)
    put(base, ["helm", "lm_eval_harness", "match", "title"], "en", False, False, False)
    add(f"{base}.with_context.exact_answer_instruct", MultipleChoiceTemplate(
        instruction="Answer with the exact text of the correct choice.", input_format="{context}\n\nQuestion: "
        "{question}\nChoices ({numerals}):\n{choices}", target_prefix="Answer:\n", target_field="answer",
        choices_separator="\n", postprocessors=[P + "to_string_stripped"], title_fields=["context_type"],
        __description__="The answer is the exact choice text.", __tags__=dict(TAGS)))
    for name in (f"{base}.with_context.ai2d", "templates.qa.llama_vision.multiple_choice.with_context.ai2d"):
        add(name, MultipleChoiceTemplate(
            input_format="{context}\n{question}\nOptions:\n{choices}\nAnswer with the letter of the right option.",
            target_field="answer", choices_separator="\n", enumerator="capitals",
            __description__="Science-diagram multiple choice (AI2D): image, question, capital-lettered options.",
            __tags__=dict(TAGS, modality="image")))
    for setting, styles in (("open", ["helm", "lm_eval_harness", "mmlu"]),
                            ("with_topic", ["mmlu", "helm", "lm_eval_harness"]),
                            ("with_context", ["lm_eval_harness", "no_intro.helm", "no_intro.mmlu"])):
        add(f"{base}.{setting}.bluebench", TemplatesList(
            [f"{base}.{setting}.{style}" for style in styles],
            __description__=f"The BlueBench choice of {setting} multiple-choice templates (one drawn per instance).",
            __tags__=dict(TAGS)))


def _open_and_context(add):
    reference = dict(references_field="answers")
    templates = {
        "templates.qa.open.simple": MultiReferenceTemplate(input_format="Question: {question}",
                                                           target_prefix="Answer: ", **reference),
        "templates.qa.open.simple2": MultiReferenceTemplate(input_format="Question: {question}",
                                                            target_prefix="Answer: ", **reference),
        "templates.qa.extractive": MultiReferenceTemplate(
            instruction="Answer the question with a span copied from the {context_type}.",
            input_format="{context}\n\nQuestion: {question}", output_format="{answer}", target_prefix="Answer:\n",
            title_fields=["context_type"], **reference),
        "templates.qa.with_context": MultiReferenceTemplate(
            input_format="{context_type}:\n{context}\n\nQuestion: {question}", output_format="{answer}",
            target_prefix="Answer:\n", title_fields=["context_type"], **reference),
        "templates.qa.with_context.ffqa": MultiReferenceTemplate(
            input_format="{context}\n\nQuestion: {question}", output_format="{answer}", target_prefix="Answer:\n",
            **reference),
        "templates.qa.with_context.qtsumm": MultiReferenceTemplate(
            instruction="Using the {context_type}, answer the question in a short paragraph.",
            input_format="{context}\n\nQuestion: {question}", output_format="{answers}", target_prefix="Answer:\n",
            title_fields=["context_type"], **reference),
        "templates.qa.with_context.question_first": MultiReferenceTemplate(
            input_format="Question: {question}\n\n{context_type}:\n{context}", **reference),
        "templates.qa.with_context.simple": MultiReferenceTemplate(input_format="Context: {context}\nQuestion: {question}",
                                                                   **reference),
        "templates.qa.with_context.simple2": MultiReferenceTemplate(
            input_format="Context: {context}\nQuestion: {question}", **reference),
        "templates.qa.with_context.with_type": MultiReferenceTemplate(
            input_format="Read the {context_type} and answer.\n{context}\nQuestion: {question}", **reference),
        "templates.qa.with_context.lmms_eval": MultiReferenceTemplate(
            input_format="{context}\n{question}\nAnswer the question using a single word or phrase.", **reference),
        "templates.qa.with_context.websrc": MultiReferenceTemplate(
            input_format="{context}\nAnswer from the web page shown: {question}\nReply with a single word or phrase.",
            **reference),
    }
    vision = {
        "doc_vqa": "Read the document image and answer: {question}\nReply with a single word or phrase.",
        "info_vqa": "Read the infographic and answer: {question}\nReply with a single word or phrase.",
        "chart_qa": "Read the chart and answer: {question}\nReply with a single word or a number.",
    }
    for name, question in vision.items():
        for prefix in ("templates.qa.with_context", "templates.qa.llama_vision.with_context"):
            templates[f"{prefix}.{name}"] = MultiReferenceTemplate(input_format="{context}\n" + question, **reference)
    for name, template in templates.items():
        template.__dict__["__description__"] = "Question answering: " + (
            "image and question, short answer." if "vqa" in name or "chart" in name or "lmms" in name or "websrc"
            in name else "the answer is one of the reference answers.")
        template.__dict__["__tags__"] = dict(TAGS)
        add(name, template)
    add("templates.qa.multi_turn.with_context.simple", MultiTurnTemplate(
        input_format="{context}", turns_field="conversation/dialog", **reference,
        postprocessors=[P + "take_first_non_empty_line", P + "lower_case", P + "remove_punctuations",
                        P + "remove_articles", P + "fix_whitespace"],
        __description__="Conversational QA over a context: the dialog's turns, answered in the last turn (SQuAD-style "
                        "normalised answer).", __tags__=dict(TAGS)))


def register(add):
    _multiple_choice(add)
    _open_and_context(add)
