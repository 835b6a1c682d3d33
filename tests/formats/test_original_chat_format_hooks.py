"""ChatAPIFormat subclassed the original's way: `to_chat` (the messages of an instance) and `to_content` (one turn's
content) are the path instances take, so overriding them changes the rows; called directly they give the
messages the format writes."""

from unitxt.formats import ChatAPIFormat

IMAGE = "data:image/png;base64,AAAA"


def instance(**extra):
    return {"source": "Is it red?", "instruction": "Answer yes or no.", "target_prefix": "A: ",
            "system_prompt": "Be brief.", "demos": [{"source": "Is snow white?", "target": "yes"}], **extra}


def test_to_chat_gives_the_messages_process_writes():
    chat = ChatAPIFormat()
    messages = chat.to_chat("Be brief.", "Answer yes or no.", "Is it red?", "A: ",
                            [{"source": "Is snow white?", "target": "yes"}])
    assert messages == [{"role": "system", "content": "Be brief.\nAnswer yes or no."},
                        {"role": "user", "content": "Is snow white?"},
                        {"role": "assistant", "content": "A: yes"},
                        {"role": "user", "content": "Is it red?"}]
    assert chat.process(instance())["source"] == messages
    turns = [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]
    assert chat.to_chat("", "", "", "", [], turns=turns) == turns


def test_to_content_splits_media_placeholders():
    chat = ChatAPIFormat()
    media = {"images": [IMAGE], "audios": []}
    assert chat.to_content("plain", {"images": [], "audios": []}) == "plain"
    assert chat.to_content('see <img src="media/images/0"> now', media) == [
        {"type": "text", "text": "see "}, {"type": "image_url", "image_url": {"url": IMAGE}},
        {"type": "text", "text": " now"}]


def test_overriding_the_hooks_changes_the_rows():
    class NoSystem(ChatAPIFormat):
        def to_chat(self, system_prompt, instruction, source, target_prefix, demos, media=None, turns=None):
            return [message for message in super().to_chat(system_prompt, instruction, source, target_prefix, demos,
                                                            media, turns) if message["role"] != "system"]

    class Tagged(ChatAPIFormat):
        def to_content(self, text, media):
            return f"[{text}]"

    assert [message["role"] for message in NoSystem().process(instance())["source"]] == ["user", "assistant", "user"]
    assert [message["content"] for message in Tagged().process(instance())["source"]] == [
        "[Be brief.\nAnswer yes or no.]", "[Is snow white?]", "[A: yes]", "[Is it red?]"]
