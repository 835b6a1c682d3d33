"""Built-in data types for task fields: Text, Number, Turn, Dialog, Table, Document, Image, Audio, Video.

They are plain `typing` objects (NewType / TypedDict) or marker classes, registered by name (by types.checking, on
the first lookup of a name it does not know) so task field types can be written as strings ("Dialog", "List[Image]")
and serializers can dispatch on them. Registration never replaces a type the user registered first under the same
name (user definitions win).

Media marker classes are checked with `isinstance(value, Image)`; an image is a PIL image, an HF `Image` feature
dict (`{"bytes": ..., "path": ...}`), a `{"image": ..., "format": ...}` dict, image bytes (PNG/JPEG/GIF/BMP/WEBP/TIFF
magic), a `data:image/...` URL, or the path of an existing image file.
"""

import os
import sys
from typing import Any, Dict, List, Literal, NewType, Optional, TypedDict, Union


Text = NewType("Text", str)
Number = NewType("Number", Union[float, int])


class Turn(TypedDict):
    """One dialog turn (`assistant` is accepted besides the documented system/user/agent roles)."""

    role: Literal["system", "user", "agent", "assistant"]
    content: Text


class Table(TypedDict):
    """A table: column names and rows of cell values."""

    header: List[str]
    rows: List[List[Any]]


class Document(TypedDict):
    """A titled text (e.g. a retrieved passage)."""

    title: str
    body: str


MultiDocument = NewType("MultiDocument", List[Document])

# ---------------------------------------------------------------- tool calling, RAG, conversations, SQL
JsonSchema = NewType("JsonSchema", Dict[str, Any])  # a JSON schema object (tool parameters)


class _ToolRequired(TypedDict):
    name: str
    description: str
    parameters: JsonSchema


class Tool(_ToolRequired, total=False):
    """A callable tool: name, description and a JSON schema of its parameters (`type` "function" optional)."""

    type: Literal["function"]


class ToolCall(TypedDict):
    """A call of a tool: its name and the arguments by parameter name."""

    name: str
    arguments: Dict[str, Any]


class ToolCallContext(TypedDict):
    """A tool call as chat APIs carry it in an assistant turn."""

    id: str
    type: Literal["function"]
    function: ToolCall


class ToolCallTurn(TypedDict):
    """An assistant turn that calls tools."""

    role: Literal["assistant"]
    content: Optional[str]
    tool_calls: List[ToolCallContext]


class ToolOutputTurn(TypedDict):
    """The output of a tool call, as a `tool` turn."""

    role: Literal["tool"]
    tool_call_id: str
    name: str
    content: str


TextTurn = Turn  # the original format's name of a plain text turn

# a dialog: text turns, assistant turns calling tools and the tools' outputs (the original's definition)
Dialog = NewType("Dialog", List[Union[Turn, ToolCallTurn, ToolOutputTurn]])


class RagResponse(TypedDict):
    """A RAG system's response: the answer, the retrieved contexts (and their ids), and whether it is answerable."""

    answer: str
    contexts: List[str]
    context_ids: Union[List[int], List[str]]
    is_answerable: bool


class Conversation(TypedDict):
    """A dialog with an id."""

    id: str
    dialog: Dialog


class _SQLDatabaseRequired(TypedDict):
    db_type: Literal["local", "in_memory", "remote"]


class SQLDatabase(_SQLDatabaseRequired, total=False):
    """Where a text-to-SQL database lives: `db_id` (local/remote), `dbms`, or the tables themselves (`data`:
    {table: {column: [values]}} for in-memory databases)."""

    db_id: Optional[str]
    dbms: Optional[str]
    data: Optional[Dict[str, Dict]]


IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".tif", ".tiff")
AUDIO_EXTENSIONS = (".wav", ".mp3", ".flac", ".ogg", ".m4a")
VIDEO_EXTENSIONS = (".mp4", ".webm", ".mov", ".avi", ".mkv")


def image_mime_from_bytes(data: bytes) -> Optional[str]:
    """The MIME type of encoded image bytes from their magic number, or None."""
    head = bytes(data[:12])
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if head.startswith(b"BM"):
        return "image/bmp"
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return "image/webp"
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return "image/tiff"
    return None


def audio_mime_from_bytes(data: bytes) -> Optional[str]:
    """The MIME type of encoded audio bytes from their magic number, or None."""
    head = bytes(data[:12])
    if head.startswith(b"RIFF") and head[8:12] == b"WAVE":
        return "audio/wav"
    if head.startswith(b"ID3") or head[:2] in (b"\xff\xfb", b"\xff\xf3", b"\xff\xf2"):
        return "audio/mpeg"
    if head.startswith(b"fLaC"):
        return "audio/flac"
    if head.startswith(b"OggS"):
        return "audio/ogg"
    return None


def is_pil_image(value: Any) -> bool:
    """True for PIL images (without importing Pillow when it was never imported)."""
    module = sys.modules.get("PIL.Image")
    return module is not None and isinstance(value, module.Image)


def _is_file_with(value: Any, extensions: tuple) -> bool:
    return isinstance(value, str) and value.lower().endswith(extensions) and os.path.isfile(value)


def is_image_value(value: Any) -> bool:
    """Whether a value is an image in one of the accepted representations (see the module docstring)."""
    if is_pil_image(value):
        return True
    if isinstance(value, (bytes, bytearray)):
        return image_mime_from_bytes(value) is not None
    if isinstance(value, str):
        return value.startswith("data:image/") or _is_file_with(value, IMAGE_EXTENSIONS)
    if isinstance(value, dict):
        if "image" in value and set(value) <= {"image", "format"}:
            return is_image_value(value["image"])
        if value and set(value) <= {"bytes", "path"}:
            data, path = value.get("bytes"), value.get("path")
            return (isinstance(data, (bytes, bytearray)) and image_mime_from_bytes(data) is not None) or (
                data is None and _is_file_with(path, IMAGE_EXTENSIONS)
            )
    return False


def is_audio_value(value: Any) -> bool:
    """An audio clip: encoded bytes, `data:audio/` URL, audio file path, or an HF Audio dict (array + rate)."""
    if isinstance(value, (bytes, bytearray)):
        return audio_mime_from_bytes(value) is not None
    if isinstance(value, str):
        return value.startswith("data:audio/") or _is_file_with(value, AUDIO_EXTENSIONS)
    if isinstance(value, dict):
        if "array" in value and "sampling_rate" in value:
            return True
        if value and set(value) <= {"bytes", "path"}:
            data, path = value.get("bytes"), value.get("path")
            return (isinstance(data, (bytes, bytearray)) and audio_mime_from_bytes(data) is not None) or (
                data is None and _is_file_with(path, AUDIO_EXTENSIONS)
            )
        if "audio" in value and set(value) <= {"audio", "format"}:
            return is_audio_value(value["audio"])
    return False


def is_video_value(value: Any) -> bool:
    """A video: a non-empty list of frames (images), a `data:video/` URL, or a video file path."""
    if isinstance(value, (list, tuple)):
        return len(value) > 0 and all(is_image_value(frame) for frame in value)
    if isinstance(value, str):
        return value.startswith("data:video/") or _is_file_with(value, VIDEO_EXTENSIONS)
    return False


class _MediaMeta(type):
    """Metaclass making `isinstance(value, Image)` test the value's shape rather than its class."""

    def __instancecheck__(cls, value: Any) -> bool:
        return cls._check(value)


class Image(metaclass=_MediaMeta):
    """Marker type of images (see the module docstring for the accepted values)."""

    _check = staticmethod(is_image_value)


class Audio(metaclass=_MediaMeta):
    """Marker type of audio clips."""

    _check = staticmethod(is_audio_value)


class Video(metaclass=_MediaMeta):
    """Marker type of videos (frame lists or encoded video)."""

    _check = staticmethod(is_video_value)


MEDIA_TYPES = (Image, Audio, Video)
BUILTIN_TYPES: Dict[str, Any] = {
    "Text": Text,
    "Number": Number,
    "Turn": Turn,
    "Dialog": Dialog,
    "Table": Table,
    "Document": Document,
    "MultiDocument": MultiDocument,
    "Image": Image,
    "Audio": Audio,
    "Video": Video,
    "JsonSchema": JsonSchema,
    "Tool": Tool,
    "ToolCall": ToolCall,
    "ToolCallContext": ToolCallContext,
    "ToolCallTurn": ToolCallTurn,
    "ToolOutputTurn": ToolOutputTurn,
    "TextTurn": Turn,
    "RagResponse": RagResponse,
    "Conversation": Conversation,
    "SQLDatabase": SQLDatabase,
}


__all__ = [
    "Text",
    "Number",
    "Turn",
    "Dialog",
    "Table",
    "Document",
    "MultiDocument",
    "JsonSchema", "Tool", "ToolCall", "ToolCallContext", "ToolCallTurn", "ToolOutputTurn", "TextTurn", "RagResponse",
    "Conversation", "SQLDatabase",
    "Image",
    "Audio",
    "Video",
    "MEDIA_TYPES",
    "is_image_value",
    "is_audio_value",
    "is_video_value",
    "is_pil_image",
    "image_mime_from_bytes",
    "audio_mime_from_bytes",
]
