"""Media encoding for rows: images and audio become data URLs in `row["media"]`, referenced from the text.

Design (kept Arrow-serialisable): `media = {"images": [data URL, ...], "audios": [data URL, ...]}`; the text refers to
them with placeholders `<img src="media/images/0">` / `<audio src="media/audios/0">` (index into the lists). Chat
formats turn placeholders into OpenAI content parts (`to_content_parts`). Encoding bytes, files and HF feature dicts
needs nothing but the standard library; PIL images are saved with Pillow (already imported when one exists), and
decoding or editing pixels (image augmentors) needs Pillow, imported lazily with a clear install hint.
"""

import base64
import io
import re
from typing import Any, Dict, List, Optional, Tuple

from .errors import InstanceTypeError, MissingRequirementError
from .types.definitions import (
    audio_mime_from_bytes,
    image_mime_from_bytes,
    is_audio_value,
    is_image_value,
    is_pil_image,
)

IMAGE_PLACEHOLDER = '<img src="media/images/{index}">'
AUDIO_PLACEHOLDER = '<audio src="media/audios/{index}">'
PLACEHOLDER_PATTERN = re.compile(r'<(img|audio) src="media/(images|audios)/(\d+)">')
_MIME_BY_EXTENSION = {
    "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "bmp": "image/bmp",
    "webp": "image/webp", "tif": "image/tiff", "tiff": "image/tiff", "wav": "audio/wav", "mp3": "audio/mpeg",
    "flac": "audio/flac", "ogg": "audio/ogg", "m4a": "audio/mp4",
}
_PIL_FORMATS = {"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif", "WEBP": "image/webp"}


def require_pillow(component: str = "This feature") -> Any:
    """Import and return `PIL.Image`, or raise MissingRequirementError with the pip command."""
    try:
        from PIL import Image
    except ImportError:
        raise MissingRequirementError(
            f"{component} needs Pillow to decode or edit images. Install it with: pip install pillow",
            artifact=component,
        ) from None
    return Image


def empty_media() -> Dict[str, List[str]]:
    return {"images": [], "audios": []}


def normalize_media(media: Optional[Dict[str, Any]]) -> Dict[str, List[str]]:
    """A row's media dict with both lists present (copies the lists)."""
    media = media or {}
    return {"images": list(media.get("images") or []), "audios": list(media.get("audios") or [])}


def data_url(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(bytes(data)).decode('ascii')}"


def parse_data_url(url: str) -> Tuple[str, bytes]:
    """(mime type, decoded bytes) of a base64 data URL."""
    header, _, payload = url.partition(",")
    if not header.startswith("data:") or ";base64" not in header:
        raise InstanceTypeError(f"Not a base64 data URL: {url[:40]!r}...")
    return header[5:].split(";")[0], base64.b64decode(payload)


def _read_file(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise InstanceTypeError(f"Can not read media file {path[:200]!r}: {error.strerror or error}.") from None


def _mime_from_path(path: str, fallback: Optional[str]) -> Optional[str]:
    return _MIME_BY_EXTENSION.get(path.rsplit(".", 1)[-1].lower(), fallback)


def pil_to_data_url(image: Any, image_format: Optional[str] = None) -> str:
    """Encode a PIL image (PNG unless it or `image_format` says JPEG/GIF/WEBP)."""
    fmt = (image_format or getattr(image, "format", None) or "PNG").upper()
    fmt = "JPEG" if fmt == "JPG" else fmt
    if fmt not in _PIL_FORMATS:
        fmt = "PNG"
    if fmt == "JPEG" and image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    buffer = io.BytesIO()
    image.save(buffer, format=fmt)
    return data_url(buffer.getvalue(), _PIL_FORMATS[fmt])


def encode_image(value: Any) -> str:
    """An image (any accepted representation) as a `data:image/...;base64,` URL."""
    if isinstance(value, str) and value.startswith("data:image/"):
        return value
    if is_pil_image(value):
        return pil_to_data_url(value)
    if isinstance(value, (bytes, bytearray)):
        mime = image_mime_from_bytes(value)
        if mime is None:
            raise InstanceTypeError("Bytes given as an image are not PNG/JPEG/GIF/BMP/WEBP/TIFF data.")
        return data_url(value, mime)
    if isinstance(value, str):
        data = _read_file(value)
        return data_url(data, image_mime_from_bytes(data) or _mime_from_path(value, "image/png"))
    if isinstance(value, dict):
        if "image" in value:
            inner = value["image"]
            if is_pil_image(inner):
                return pil_to_data_url(inner, value.get("format"))
            return encode_image(inner)
        if value.get("bytes") is not None:
            return encode_image(value["bytes"])
        if value.get("path"):
            return encode_image(value["path"])
    raise InstanceTypeError(
        f"Can not encode a {type(value).__name__} as an image: expected a PIL image, image bytes, a file path, a "
        "data URL, an HF Image dict {'bytes', 'path'} or {'image', 'format'}."
    )


def _wav_bytes(array: Any, sampling_rate: int) -> bytes:
    """16-bit PCM WAV of a float (-1..1) or integer sample array (mono or frames x channels)."""
    import wave

    import numpy as np

    samples = np.asarray(array)
    if samples.dtype.kind == "f":
        samples = (np.clip(samples, -1.0, 1.0) * 32767).astype("<i2")
    else:
        samples = samples.astype("<i2")
    channels = 1 if samples.ndim == 1 else samples.shape[1]
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as writer:
        writer.setnchannels(channels)
        writer.setsampwidth(2)
        writer.setframerate(int(sampling_rate))
        writer.writeframes(samples.tobytes())
    return buffer.getvalue()


def encode_audio(value: Any) -> str:
    """An audio clip as a `data:audio/...;base64,` URL (HF decoded arrays are written as 16-bit WAV)."""
    if isinstance(value, str) and value.startswith("data:audio/"):
        return value
    if isinstance(value, (bytes, bytearray)):
        return data_url(value, audio_mime_from_bytes(value) or "audio/wav")
    if isinstance(value, str):
        data = _read_file(value)
        return data_url(data, audio_mime_from_bytes(data) or _mime_from_path(value, "audio/wav"))
    if isinstance(value, dict):
        if "array" in value and "sampling_rate" in value:
            return data_url(_wav_bytes(value["array"], value["sampling_rate"]), "audio/wav")
        if "audio" in value:
            return encode_audio(value["audio"])
        if value.get("bytes") is not None:
            return encode_audio(value["bytes"])
        if value.get("path"):
            return encode_audio(value["path"])
    raise InstanceTypeError(f"Can not encode a {type(value).__name__} as audio.")


def decode_image(value: Any, component: str = "decode_image") -> Any:
    """A PIL image from any accepted image representation (needs Pillow)."""
    Image = require_pillow(component)
    if is_pil_image(value):
        return value
    _, data = parse_data_url(encode_image(value))
    image = open_image(data, component)
    image.load()
    return image


def open_image(data: bytes, component: str = "decode_image") -> Any:
    """A PIL image of encoded image bytes (needs Pillow). An image larger than Pillow's decompression-bomb limit
    (Image.MAX_IMAGE_PIXELS x 2) or bytes that are no image are an InstanceTypeError naming `component`."""
    Image = require_pillow(component)
    try:
        return Image.open(io.BytesIO(data))
    except Image.DecompressionBombError as error:
        raise InstanceTypeError(f"{component}: refusing an image too large to decode safely ({error}); raise "
                                f"PIL.Image.MAX_IMAGE_PIXELS only for images you trust.", artifact=component) from None
    except (OSError, SyntaxError, ValueError) as error:  # UnidentifiedImageError is an OSError
        raise InstanceTypeError(f"{component}: the data is not an image Pillow can read ({type(error).__name__}: "
                                f"{error}).", artifact=component) from None


def add_media(instance: Dict[str, Any], kind: str, encoded: str) -> int:
    """Append an encoded item to `instance["media"][kind]` (creating the media dict) and return its index."""
    media = instance.get("media")
    if media is None:
        media = instance["media"] = empty_media()
    items = media.setdefault(kind, [])
    media.setdefault("images", [])
    media.setdefault("audios", [])
    items.append(encoded)
    return len(items) - 1


def image_reference(instance: Dict[str, Any], value: Any) -> str:
    """Move an image into the instance's media and return the placeholder that refers to it."""
    return IMAGE_PLACEHOLDER.format(index=add_media(instance, "images", encode_image(value)))


def audio_reference(instance: Dict[str, Any], value: Any) -> str:
    """Move an audio clip into the instance's media and return the placeholder that refers to it."""
    return AUDIO_PLACEHOLDER.format(index=add_media(instance, "audios", encode_audio(value)))


def shift_media_references(text: str, image_offset: int, audio_offset: int) -> str:
    """Renumber placeholders of a text whose media are appended after `offset` existing items."""
    if not (image_offset or audio_offset) or "media/" not in text:
        return text

    def shift(match: "re.Match") -> str:
        tag, kind, index = match.groups()
        offset = image_offset if kind == "images" else audio_offset
        return f'<{tag} src="media/{kind}/{int(index) + offset}">'

    return PLACEHOLDER_PATTERN.sub(shift, text)


def merge_media(target: Dict[str, List[str]], source: Optional[Dict[str, Any]], texts: Dict[str, Any]) -> Dict[str, Any]:
    """Append `source` media to `target` and return `texts` (string values) with placeholders renumbered."""
    if not source or not (source.get("images") or source.get("audios")):
        return texts
    image_offset, audio_offset = len(target["images"]), len(target["audios"])
    target["images"].extend(source.get("images") or [])
    target["audios"].extend(source.get("audios") or [])
    return {
        key: shift_media_references(value, image_offset, audio_offset) if isinstance(value, str) else value
        for key, value in texts.items()
    }


def content_parts(text: str, media: Optional[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """OpenAI-style content parts of a text: text parts around `image_url` / `input_audio` parts."""
    media = media or {}
    parts: List[Dict[str, Any]] = []
    position = 0
    for match in PLACEHOLDER_PATTERN.finditer(text):
        _, kind, index = match.groups()
        items = media.get(kind) or []
        if int(index) >= len(items):
            continue  # a placeholder without media stays text
        if match.start() > position:
            parts.append({"type": "text", "text": text[position:match.start()]})
        url = items[int(index)]
        if kind == "images":
            parts.append({"type": "image_url", "image_url": {"url": url}})
        else:
            mime, data = parse_data_url(url)
            audio_format = {"audio/mpeg": "mp3"}.get(mime, mime.split("/")[-1])
            parts.append({"type": "input_audio", "input_audio": {"data": base64.b64encode(data).decode("ascii"),
                                                                 "format": audio_format}})
        position = match.end()
    if position < len(text) or not parts:
        parts.append({"type": "text", "text": text[position:]})
    return parts


def to_content_parts(messages: List[Dict[str, Any]], media: Optional[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Chat messages whose `content` is a list of content parts (string contents are split at placeholders)."""
    result = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            message = dict(message, content=content_parts(content, media))
        result.append(message)
    return result


def clean_content_parts(messages: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Drop the None keys that Arrow adds to content parts (rows read back from a saved dataset)."""
    cleaned = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            content = [{key: value for key, value in part.items() if value is not None} for part in content]
            message = dict(message, content=content)
        cleaned.append(message)
    return cleaned


__all__ = [
    "IMAGE_PLACEHOLDER",
    "AUDIO_PLACEHOLDER",
    "PLACEHOLDER_PATTERN",
    "require_pillow",
    "encode_image",
    "encode_audio",
    "decode_image",
    "pil_to_data_url",
    "parse_data_url",
    "image_reference",
    "audio_reference",
    "add_media",
    "merge_media",
    "normalize_media",
    "content_parts",
    "to_content_parts",
    "clean_content_parts",
    "is_image_value",
    "is_audio_value",
]
