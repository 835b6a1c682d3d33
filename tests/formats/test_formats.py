r"""Formats and system prompts: the examples of formats_module_reference, adding_format.rst, loading_datasets.rst and
production.rst byte for byte, placeholder errors, \N, ChatAPIFormat, round trips."""

import copy
from typing import Any, Dict, List

import pytest

from unitxt.artifact import Artifact
from unitxt.catalog import add_to_catalog, get_from_catalog
from unitxt.errors import ArtifactDefinitionError, MissingFieldError
from unitxt.format_utils import FormatStringError
from unitxt.formats import ChatAPIFormat, Format, OpenAIFormat, SystemFormat
from unitxt.stream import ListStream, MultiStream
from unitxt.system_prompts import EmptySystemPrompt, SystemPrompt, TextualSystemPrompt
from unitxt.templates import InputOutputTemplate


# ---------------------------------------------------------------- formats_module_reference.txt
def test_reference_example():
    instance = {
        "source": "1+1",
        "target": "2",
        "instruction": "Solve the math exercises.",
        "demos": [{"source": "1+2", "target": "3"}, {"source": "4-2", "target": "2"}],
    }
    system_format = SystemFormat(
        demos_field="demos",
        demo_format="Input: {source}\nOutput: {target}\n\n",
        model_input_format="Instruction: {instruction}\n\n{demos}Input: {source}\nOutput: ",
    )
    assert system_format.process(instance) == {
        "target": "2",
        "source": "Instruction: Solve the math exercises.\n\nInput: 1+2\nOutput: 3\n\nInput: 4-2\nOutput: 2\n\n"
        "Input: 1+1\nOutput: ",
    }


def test_reference_defaults():
    system_format = SystemFormat()
    assert system_format.demos_field == "demos"
    assert system_format.demo_format == "{source}\\N{target_prefix}{target}\n\n"
    assert system_format.model_input_format == "{system_prompt}\\N{instruction}\\N{demos}{source}\\N{target_prefix}"
    assert system_format.format_args == {}
    assert system_format.to_dict() == {"__type__": "system_format"}


# ---------------------------------------------------------------- adding_format.rst (llama2)
LLAMA2_SYSTEM_PROMPT = (
    "You are a helpful, respectful and honest assistant. Always answer as helpfully as possible, while being safe.  "
    "Your answers should not include any harmful, unethical, racist, sexist, toxic, dangerous, or illegal content. "
    "Please ensure that your responses are socially unbiased and positive in nature.\n\n\n"
    "If a question does not make any sense, or is not factually coherent, explain why instead of answering something "
    "not correct. If you don't know the answer to a question, please don't share false information.\n"
)
LLAMA2_DOC_TEXT = (
    "[INST] <<SYS>>\n" + LLAMA2_SYSTEM_PROMPT.rstrip("\n") + "\n\n\n"
    "Classify the grammatical acceptability of the following text to one of these options: unacceptable, acceptable.\n"
    "<<SYS>>\n\n\n"
    "text: The more we study verbs, the crazier they get. [/INST] The grammatical acceptability is acceptable "
    "</s><s>[INST] text: They drank the pub. [/INST]The grammatical acceptability is"
)


def run(operators: List[Any], instance: Dict[str, Any]) -> Dict[str, Any]:
    for operator in operators:
        instance = operator.process(instance)
    return instance


def test_doc_llama2_format():
    llama2 = SystemFormat(
        demo_format="{source} [/INST] {target_prefix}{target} </s><s>[INST] ",
        model_input_format="[INST] <<SYS>>\n{system_prompt}\n\n{instruction}<<SYS>>\n\n\n{demos}{source} [/INST]{target_prefix}",
    )
    template = InputOutputTemplate(
        instruction="Classify the grammatical acceptability of the following text to one of these options: {classes}.\n",
        input_format="text: {text}",
        target_prefix="The grammatical acceptability is ",
        output_format="{label}",
    )
    classes = ["unacceptable", "acceptable"]
    instance = {
        "input_fields": {"text": "They drank the pub.", "classes": classes},
        "reference_fields": {"label": "unacceptable"},
        "demos": [
            {
                "input_fields": {"text": "The more we study verbs, the crazier they get.", "classes": classes},
                "reference_fields": {"label": "acceptable"},
            }
        ],
    }
    result = run([template, TextualSystemPrompt(LLAMA2_SYSTEM_PROMPT), llama2], instance)
    # The doc's rendering shows the system prompt's two paragraphs separated by two blank lines and, because the
    # format adds "\n\n" after {system_prompt}, two blank lines before the instruction: so the system prompt text
    # ends with one "\n". The prompt ends with target_prefix "The grammatical acceptability is " whose trailing
    # space the rst rendering trimmed; it is part of the real output.
    assert result["source"] == LLAMA2_DOC_TEXT + " "
    assert "instruction" not in result and "system_prompt" not in result and "demos" not in result
    assert "target_prefix" not in result
    assert result["target"] == "unacceptable"


def test_doc_llama2_format_in_catalog(temp_catalog):
    llama2 = SystemFormat(
        demo_format="{source} [/INST] {target_prefix}{target} </s><s>[INST] ",
        model_input_format="[INST] <<SYS>>\n{system_prompt}\n\n{instruction}<<SYS>>\n\n\n{demos}{source} [/INST]{target_prefix}",
    )
    add_to_catalog(llama2, "formats.llama2", catalog_path=str(temp_catalog), overwrite=True, verbose=False)
    assert get_from_catalog("formats.llama2") == llama2


# ---------------------------------------------------------------- loading_datasets.rst / production.rst
RELATION_INPUTS = {
    "classes": ["entailment", "not entailment"],
    "type_of_relation": "entailment",
    "text_a_type": "premise",
    "text_b_type": "hypothesis",
}


def relation_template(instruction_suffix: str = "") -> InputOutputTemplate:
    return InputOutputTemplate(
        input_format="{text_a_type}: {text_a}\n{text_b_type}: {text_b}",
        target_prefix="The {type_of_relation} class is ",
        output_format="{label}",
        instruction="Given a {text_a_type} and {text_b_type} classify the {type_of_relation} of the {text_b_type} to "
        "one of {classes}." + instruction_suffix,
    )


def relation(text_a: str, text_b: str, label: str) -> Dict[str, Any]:
    return {"input_fields": dict(RELATION_INPUTS, text_a=text_a, text_b=text_b), "reference_fields": {"label": label}}


WNLI_QUERY = relation(
    "Grace was happy to trade me her sweater for my jacket. She thinks it looks dowdy on her.",
    "The sweater looks dowdy on her.",
    "not entailment",
)
CHAT_DEMOS = [
    relation(
        "Emma did not pass the ball to Janie although she was open.", "She saw that Janie was open.", "not entailment"
    ),
    relation(
        "The foxes are getting in at night and attacking the chickens. I shall have to kill them.",
        "I shall have to kill The foxes.",
        "not entailment",
    ),
    relation(
        "Fred is the only man alive who still remembers my father as an infant. When Fred first saw my father, he "
        "was twelve years old.",
        "When Fred first saw my father, My father was twelve years old.",
        "entailment",
    ),
]
CHAT_DOC_MESSAGES = [
    {
        "role": "system",
        "content": "Given a premise and hypothesis classify the entailment of the hypothesis to one of entailment, not entailment.",
    },
    {
        "role": "user",
        "content": "premise: Emma did not pass the ball to Janie although she was open.\nhypothesis: She saw that Janie was open.",
    },
    {"role": "assistant", "content": "The entailment class is not entailment"},
    {
        "role": "user",
        "content": "premise: The foxes are getting in at night and attacking the chickens. I shall have to kill them.\n"
        "hypothesis: I shall have to kill The foxes.",
    },
    {"role": "assistant", "content": "The entailment class is not entailment"},
    {
        "role": "user",
        "content": "premise: Fred is the only man alive who still remembers my father as an infant. When Fred first saw "
        "my father, he was twelve years old.\nhypothesis: When Fred first saw my father, My father was twelve years old.",
    },
    {"role": "assistant", "content": "The entailment class is entailment"},
    {
        "role": "user",
        "content": "premise: Grace was happy to trade me her sweater for my jacket. She thinks it looks dowdy on her.\n"
        "hypothesis: The sweater looks dowdy on her.",
    },
]


def test_doc_chat_api_messages():
    instance = dict(copy.deepcopy(WNLI_QUERY), demos=copy.deepcopy(CHAT_DEMOS))
    result = run([relation_template(), ChatAPIFormat()], instance)
    assert result["source"] == CHAT_DOC_MESSAGES
    for key in ("instruction", "target_prefix", "system_prompt", "demos"):
        assert key not in result


def test_openai_format_is_the_chat_api_format():
    instance = dict(copy.deepcopy(WNLI_QUERY), demos=copy.deepcopy(CHAT_DEMOS))
    assert run([relation_template(), OpenAIFormat()], instance)["source"] == CHAT_DOC_MESSAGES


def test_doc_wnli_three_shots_with_the_default_format():
    demos = [
        relation(
            "The journalists interviewed the stars of the new movie. They were very cooperative, so the interview "
            "lasted for a long time.",
            "The journalists were very cooperative, so the interview lasted for a long time.",
            "entailment",
        ),
        relation(
            "The table won't fit through the doorway because it is too narrow.",
            "The table is too narrow.",
            "entailment",
        ),
        relation(
            "Sam pulled up a chair to the piano, but it was broken, so he had to stand instead.",
            "The chair was broken, so he had to stand instead.",
            "not entailment",
        ),
    ]
    instance = dict(copy.deepcopy(WNLI_QUERY), demos=demos)
    # The catalog's relation template ends its instruction with a newline (the default format adds none).
    result = run([relation_template("\n"), SystemFormat()], instance)
    expected = (
        "Given a premise and hypothesis classify the entailment of the hypothesis to one of entailment, not entailment.\n"
        "premise: The journalists interviewed the stars of the new movie. They were very cooperative, so the interview "
        "lasted for a long time.\n"
        "hypothesis: The journalists were very cooperative, so the interview lasted for a long time.\n"
        "The entailment class is entailment\n\n"
        "premise: The table won't fit through the doorway because it is too narrow.\n"
        "hypothesis: The table is too narrow.\n"
        "The entailment class is entailment\n\n"
        "premise: Sam pulled up a chair to the piano, but it was broken, so he had to stand instead.\n"
        "hypothesis: The chair was broken, so he had to stand instead.\n"
        "The entailment class is not entailment\n\n"
        "premise: Grace was happy to trade me her sweater for my jacket. She thinks it looks dowdy on her.\n"
        "hypothesis: The sweater looks dowdy on her.\n"
        "The entailment class is "  # the doc's rendering trims this trailing space
    )
    assert result["source"] == expected
    assert result["references"] == ["not entailment"]


def test_doc_production_two_shots():
    template = InputOutputTemplate(
        instruction="Given a {text_a_type} and a {text_b_type}, classify the {type_of_relation} of the {text_b_type} "
        "as either 'entailment' or 'not entailment'.\n\n",
        input_format="{text_a_type}: {text_a}, {text_b_type}: {text_b}",
        target_prefix="The {type_of_relation} class is ",
        output_format="{label}",
    )
    demos = [
        relation(
            "When Tatyana reached the cabin, her mother was sleeping. She was careful not to disturb her, undressing "
            "and climbing back into her berth.",
            "mother was careful not to disturb her, undressing and climbing back into her berth.",
            "entailment",
        ),
        relation(
            "The police arrested all of the gang members. They were trying to stop the drug trade in the neighborhood.",
            "The police were trying to stop the drug trade in the neighborhood.",
            "not entailment",
        ),
    ]
    instance = dict(relation("It works perfectly", "It works!", "?"), demos=demos)
    # the spec's layout keeps the instruction's own blank line: a format that joins the parts as they are
    spec_layout = SystemFormat(model_input_format="{system_prompt}{instruction}{demos}{source}\n{target_prefix}")
    result = run([template, spec_layout], instance)
    assert result["source"] == (
        "Given a premise and a hypothesis, classify the entailment of the hypothesis as either 'entailment' or "
        "'not entailment'.\n\n"
        "premise: When Tatyana reached the cabin, her mother was sleeping. She was careful not to disturb her, "
        "undressing and climbing back into her berth., hypothesis: mother was careful not to disturb her, undressing "
        "and climbing back into her berth.\n"
        "The entailment class is entailment\n\n"
        "premise: The police arrested all of the gang members. They were trying to stop the drug trade in the "
        "neighborhood., hypothesis: The police were trying to stop the drug trade in the neighborhood.\n"
        "The entailment class is not entailment\n\n"
        "premise: It works perfectly, hypothesis: It works!\n"
        "The entailment class is "
    )


# ---------------------------------------------------------------- SystemFormat behaviour
def test_missing_optional_parts_default_to_empty():
    assert SystemFormat().process({"source": "Q"}) == {"source": "Q\n"}


def test_format_args():
    system_format = SystemFormat(
        demo_format="{user}{source}{end}{assistant}{target_prefix}{target}{end}",
        model_input_format="{system_prompt}{demos}{user}{source}{end}{assistant}{target_prefix}",
        format_args={"user": "<|user|>\n", "assistant": "<|assistant|>\n", "end": "\n"},
    )
    instance = {
        "source": "2+2?",
        "target_prefix": "A: ",
        "demos": [{"source": "1+1?", "target": "2", "target_prefix": "A: "}],
    }
    assert system_format.process(instance)["source"] == (
        "<|user|>\n1+1?\n<|assistant|>\nA: 2\n<|user|>\n2+2?\n<|assistant|>\nA: "
    )


def test_format_args_may_not_shadow_built_in_placeholders():
    with pytest.raises(ArtifactDefinitionError, match="'source' clashes"):
        SystemFormat(format_args={"source": "x"})


def test_demo_uses_its_own_instruction_and_target_prefix():
    system_format = SystemFormat(
        demo_format="[{instruction}|{target_prefix}{target}]", model_input_format="{demos}{source}"
    )
    instance = {
        "source": "Q",
        "demos": [
            {"source": "s", "target": "t", "instruction": "I1", "target_prefix": "P1 "},
            {"source": "s", "target": "u"},
        ],
    }
    assert system_format.process(instance)["source"] == "[I1|P1 t][|u]Q"


def test_custom_demos_field():
    system_format = SystemFormat(demos_field="examples", model_input_format="{demos}{source}", demo_format="{target};")
    result = system_format.process({"source": "Q", "examples": [{"source": "a", "target": "1"}], "demos": "kept"})
    assert result == {"source": "1;Q", "demos": "kept"}


@pytest.mark.parametrize(
    "kwargs, placeholder, where",
    [
        ({"model_input_format": "{system_prompt}{question}"}, "{question}", "SystemFormat.model_input_format"),
        ({"demo_format": "{source}{answer}"}, "{answer}", "SystemFormat.demo_format"),
        ({"demo_format": "{source}{demos}"}, "{demos}", "SystemFormat.demo_format"),  # only the model input has demos
    ],
)
def test_unknown_placeholder_is_rejected_at_construction(kwargs, placeholder, where):
    with pytest.raises(FormatStringError) as info:
        SystemFormat(**kwargs)
    message = str(info.value)
    assert placeholder in message and where in message and "Available placeholders" in message


def test_attribute_access_in_a_format_is_rejected():
    with pytest.raises(FormatStringError, match="attribute or index access"):
        SystemFormat(model_input_format="{source.__class__}")
    with pytest.raises(FormatStringError, match="attribute or index access"):
        ChatAPIFormat(demo_format="{source[0]}")


def test_unknown_placeholder_in_catalog_json_names_the_catalog_entry(temp_catalog):
    path = temp_catalog / "formats" / "broken.json"
    path.parent.mkdir()
    path.write_text('{"__type__": "system_format", "model_input_format": "{source}{answer}"}')
    with pytest.raises(FormatStringError) as info:
        get_from_catalog("formats.broken")
    assert "formats.broken" in str(info.value) and "{answer}" in str(info.value)


def test_capital_newline_marker_in_formats():
    system_format = SystemFormat(
        demo_format="{source}\\N{target_prefix}{target}\n\n",
        model_input_format="{system_prompt}\\N{instruction}\\N{demos}{source}\\N{target_prefix}",
    )
    bare = system_format.process({"source": "Q", "target_prefix": "A: "})
    assert bare["source"] == "Q\nA: "
    full = system_format.process(
        {
            "source": "Q",
            "target_prefix": "A: ",
            "system_prompt": "Be brief.",
            "instruction": "Answer.\n",
            "demos": [{"source": "q1", "target": "a1", "target_prefix": "A: "}],
        }
    )
    assert full["source"] == "Be brief.\nAnswer.\nq1\nA: a1\n\nQ\nA: "


def test_missing_source_and_bad_demos():
    with pytest.raises(MissingFieldError, match="source"):
        SystemFormat().process({"instruction": "x"})
    with pytest.raises(MissingFieldError, match="Demo 0 has no 'target'"):
        SystemFormat().process({"source": "Q", "demos": [{"source": "s"}]})
    with pytest.raises(MissingFieldError, match="must be a dict"):
        SystemFormat().process({"source": "Q", "demos": ["s"]})


def test_format_in_a_stream():
    stream = SystemFormat()(MultiStream({"test": ListStream([{"source": "a", "instruction": "I: "}])}))["test"]
    assert list(stream) == [{"source": "I: \na\n"}]  # the original's default: a newline after a non-empty part


def test_instruction_in_user_turns_as_the_original():
    """place_instruction_in_user_turns (ChatAPIFormat and so HFSystemFormat): the instruction leads every user turn,
    demos included, and leaves the system turn (dropped when no system prompt remains). Checked against 1.26.10."""
    demo = {"source": "dq", "target": "da"}
    row = {"source": "Q?", "instruction": "I", "target_prefix": "Ans: ", "system_prompt": "", "demos": [demo]}
    placed = ChatAPIFormat(place_instruction_in_user_turns=True)
    assert placed.process(copy.deepcopy(row))["source"] == [
        {"role": "user", "content": "I\ndq"}, {"role": "assistant", "content": "Ans: da"},
        {"role": "user", "content": "I\nQ?"}]
    assert placed.process(dict(copy.deepcopy(row), system_prompt="S", demos=[]))["source"] == [
        {"role": "system", "content": "S"}, {"role": "user", "content": "I\nQ?"}]
    assert placed.process(dict(copy.deepcopy(row), instruction="", demos=[]))["source"] == [
        {"role": "user", "content": "Q?"}]
    assert ChatAPIFormat().process(dict(copy.deepcopy(row), demos=[]))["source"] == [
        {"role": "system", "content": "I"}, {"role": "user", "content": "Q?"}]
    one_turn = ChatAPIFormat(place_instruction_in_user_turns=True, demos_in_one_turn=True)
    assert one_turn.process(copy.deepcopy(row))["source"] == [{"role": "user", "content": "I\ndq\nda\n\nQ?"}]


def test_hf_system_format_sends_the_instruction_in_user_turns_to_the_chat_template(monkeypatch):
    from unitxt.formats import HFSystemFormat
    from unitxt.formats import tokenizer as tokenizer_module

    class RecordingTokenizer:
        def apply_chat_template(self, messages, tokenize, add_generation_prompt, **kwargs):
            self.messages = messages
            return "|".join(f"{m['role']}:{m['content']}" for m in messages) + "|assistant:"

    recording = RecordingTokenizer()
    monkeypatch.setitem(tokenizer_module._TOKENIZERS, "some/model", recording)
    monkeypatch.setattr(HFSystemFormat, "check_missing_requirements", lambda self, requirements=None: None)
    fmt = HFSystemFormat(model_name="some/model", place_instruction_in_user_turns=True)
    out = fmt.process({"source": "Q?", "instruction": "I", "target_prefix": "Ans: ", "system_prompt": ""})
    assert recording.messages == [{"role": "user", "content": "I\nQ?"}]
    assert out["source"] == "user:I\nQ?|assistant:Ans: "
    assert HFSystemFormat(model_name="some/model").place_instruction_in_user_turns is False


# ---------------------------------------------------------------- ChatAPIFormat behaviour
def test_chat_system_turn():
    chat = ChatAPIFormat()
    assert chat.process({"source": "Q"})["source"] == [{"role": "user", "content": "Q"}]
    both = chat.process({"source": "Q", "system_prompt": "You are kind.\n", "instruction": "Answer briefly.\n"})
    assert both["source"][0] == {"role": "system", "content": "You are kind.\nAnswer briefly."}
    only_prompt = chat.process({"source": "Q", "system_prompt": "You are kind."})
    assert only_prompt["source"][0] == {"role": "system", "content": "You are kind."}


def test_chat_demos_in_one_turn():
    instance = dict(copy.deepcopy(WNLI_QUERY), demos=copy.deepcopy(CHAT_DEMOS[:2]))
    result = run([relation_template(), ChatAPIFormat(demos_in_one_turn=True)], instance)
    messages = result["source"]
    assert [message["role"] for message in messages] == ["system", "user"]
    assert messages[1]["content"] == (
        "premise: Emma did not pass the ball to Janie although she was open.\nhypothesis: She saw that Janie was open.\n"
        "The entailment class is not entailment\n\n"
        "premise: The foxes are getting in at night and attacking the chickens. I shall have to kill them.\n"
        "hypothesis: I shall have to kill The foxes.\n"
        "The entailment class is not entailment\n\n"
        "premise: Grace was happy to trade me her sweater for my jacket. She thinks it looks dowdy on her.\n"
        "hypothesis: The sweater looks dowdy on her."
    )
    custom = ChatAPIFormat(demos_in_one_turn=True, demo_format="Example: {source} => {target}\\N")
    result = custom.process({"source": "Q", "demos": [{"source": "a", "target": "b"}]})
    assert result["source"] == [{"role": "user", "content": "Example: a => b\nQ"}]


def test_chat_unknown_placeholder():
    with pytest.raises(FormatStringError, match="{label}"):
        ChatAPIFormat(demo_format="{source}{label}")


# ---------------------------------------------------------------- system prompts
def test_system_prompts():
    assert TextualSystemPrompt("Be {brief}.").process({"source": "x"}) == {
        "source": "x",
        "system_prompt": "Be {brief}.",
    }
    assert TextualSystemPrompt(text="t").text == "t"
    assert EmptySystemPrompt().process({"source": "x"}) == {"source": "x", "system_prompt": ""}
    with pytest.raises(NotImplementedError):
        SystemPrompt().process({})
    with pytest.raises(ArtifactDefinitionError, match="text"):
        TextualSystemPrompt()


# ---------------------------------------------------------------- JSON round trip
@pytest.mark.parametrize(
    "artifact",
    [
        Format(),
        SystemFormat(),
        SystemFormat(
            demos_field="examples",
            demo_format="{user}{source}\\N{target}",
            model_input_format="{system_prompt}\\N{demos}{source}",
            format_args={"user": "U: "},
        ),
        ChatAPIFormat(),
        ChatAPIFormat(demos_in_one_turn=True, demo_format="{source}: {target}\n"),
        OpenAIFormat(),
        TextualSystemPrompt("You are helpful."),
        EmptySystemPrompt(),
    ],
    ids=lambda artifact: type(artifact).__name__,
)
def test_round_trip(artifact):
    restored = Artifact.from_dict(artifact.to_dict())
    assert type(restored) is type(artifact)
    assert restored == artifact
    assert Artifact.from_json(artifact.to_json()) == artifact
    if isinstance(artifact, (SystemFormat, ChatAPIFormat)):
        instance = {"source": "Q", "instruction": "I", "demos": [{"source": "s", "target": "t"}], "examples": []}
        assert restored.process(copy.deepcopy(instance)) == artifact.process(copy.deepcopy(instance))


def test_chat_demo_answers_lead_with_the_instance_target_prefix():
    # as the original: every assistant turn of a demo starts with the instance's target_prefix
    result = ChatAPIFormat().process({
        "source": "capital of Peru?", "target_prefix": "City: ", "instruction": "",
        "demos": [{"source": "capital of Chile?", "target": "Santiago", "target_prefix": "Answer: "}],
    })
    assert result["source"] == [
        {"role": "user", "content": "capital of Chile?"},
        {"role": "assistant", "content": "City: Santiago"},
        {"role": "user", "content": "capital of Peru?"},
    ]
