"""Image operators: `ImageToText` (an image field becomes a media placeholder) and image augmentors.

`ImageToText(field="image", to_field="context")` stores the image in the instance's `media["images"]` as a data URL
and writes `<img src="media/images/i">` into `to_field`, so any text template can place it; chat formats turn the
placeholder into an `image_url` content part. Image augmentors (white noise, grid lines, gray scale) edit every image
of the instance (media images and image-valued input fields) and need Pillow, imported lazily.
"""

from typing import Any, Dict, List, Optional

from ..augmentors import Augmentor
from ..dict_utils import dict_get, dict_set
from ..errors import InstanceTypeError
from ..image_utils import decode_image, image_reference, open_image, pil_to_data_url, require_pillow
from ..operator import FieldOperator, InstanceOperator, PackageRequirementsMixin
from ..random_utils import InstanceRandom
from ..types.definitions import is_image_value, is_video_value
from ..module_aliases import moved_classes
from ..artifact import InertField


class ImageToText(InstanceOperator):
    """Move the image in `field` into `media["images"]`; `to_field` (default: `field`) gets its placeholder."""

    field: str
    to_field: Optional[str] = None
    produces_media = True  # class marker read by the recipe's schema detection (not a field)

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        value = dict_get(instance, self.field)
        if not is_image_value(value):
            raise InstanceTypeError(
                f"ImageToText: field '{self.field}' holds a {type(value).__name__}, not an image (a PIL image, image "
                "bytes, a data URL, an image file path or an HF Image dict).",
                artifact=self.artifact_name, field=self.field,
            )
        dict_set(instance, self.to_field or self.field, image_reference(instance, value))
        return instance


class ImageAugmentor(Augmentor):
    """Base of image augmentors: `augment_image(pil_image, rng) -> pil_image` is applied to every image."""

    augmented_type: Any = InertField(
        default=None, reason='this augmentor changes the field it is given, whatever its type')

    def augment_image(self, image: Any, rng: InstanceRandom) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.augment_image(image, rng)")

    def process_image(self, image: Any) -> Any:
        """The original's hook: a PIL image in, the augmented image out (augment_image with the instance's random
        generator); subclasses may override it."""
        return self.augment_image(image, self.__dict__.get("_instance_rng") or InstanceRandom(f"{image.size}"))

    def process_value(self, value: Any) -> Any:
        """An image value (PIL image, bytes, data URL, ...) in, the augmented image as a PNG data URL out."""
        return pil_to_data_url(self.process_image(decode_image(value, self.artifact_name)), "PNG")

    def _augment_encoded(self, value: Any, rng: InstanceRandom) -> str:
        self.__dict__["_instance_rng"] = rng
        try:
            return self.process_value(value)
        finally:
            self.__dict__.pop("_instance_rng", None)

    def _augment_field(self, value: Any, rng: InstanceRandom) -> Any:
        if is_image_value(value):
            return self._augment_encoded(value, rng)
        if isinstance(value, list) and is_video_value(value):
            return [self._augment_encoded(frame, rng) for frame in value]
        return value

    def augment_instance(self, instance, task, rng):
        require_pillow(self.artifact_name)
        result = dict(instance)
        media = instance.get("media")
        if media and media.get("images"):
            result["media"] = dict(media, images=[self._augment_encoded(url, rng) for url in media["images"]])
        inputs = instance.get("input_fields")
        if isinstance(inputs, dict):
            result["input_fields"] = {name: self._augment_field(value, rng) for name, value in inputs.items()}
        return result


def _numpy_rng(rng: InstanceRandom) -> Any:
    import numpy as np

    return np.random.default_rng(rng.randrange(2**32))


_BAND_PIXELS = 1 << 20  # pixels per band of rows edited at once: float temporaries stay a few MB per band


def _by_bands(image: Any, edit: Any, component: str) -> Any:
    """An RGB image whose rows are `edit(uint8 band of rows) -> uint8 band`, band after band top to bottom, so a
    large image costs its uint8 pixels twice instead of float copies of the whole image (a band's random draws follow
    the previous band's, so the result equals one edit of the whole image)."""
    import numpy as np

    Image = require_pillow(component)
    pixels = np.asarray(image.convert("RGB"))
    result = np.empty_like(pixels)
    rows = max(1, _BAND_PIXELS // max(1, pixels.shape[1]))
    for start in range(0, pixels.shape[0], rows):
        result[start:start + rows] = edit(pixels[start:start + rows])
    return Image.fromarray(result, mode="RGB")


class WhiteNoise(ImageAugmentor):
    """Adds Gaussian pixel noise with standard deviation `std` (pixel units, 0..255)."""

    std: float = 25.0

    def augment_image(self, image, rng):
        import numpy as np

        generator = _numpy_rng(rng)

        def noisy(band: Any) -> Any:
            return np.clip(band.astype(np.float32) + generator.normal(0.0, self.std, size=band.shape), 0, 255)

        return _by_bands(image, noisy, self.artifact_name)


class GridLines(ImageAugmentor):
    """Draws horizontal and vertical lines every `spacing` pixels (random offset) of `line_width` and `color`."""

    line_color: Any = InertField(default=None, reason="lines are drawn in this operator's own color")
    line_thickness: Any = InertField(default=1, reason='lines are drawn one pixel wide here')
    num_lines: Any = InertField(default=128, reason="the grid is this operator's own here")

    spacing: int = 20
    line_width: int = 1
    color: List[int] = [0, 0, 0]

    def augment_image(self, image, rng):
        require_pillow(self.artifact_name)
        from PIL import ImageDraw

        image = image.convert("RGB")
        draw = ImageDraw.Draw(image)
        width, height = image.size
        spacing = max(1, self.spacing)
        offset = rng.randrange(spacing)
        color = tuple(self.color)
        for x in range(offset, width, spacing):
            draw.line([(x, 0), (x, height)], fill=color, width=self.line_width)
        for y in range(offset, height, spacing):
            draw.line([(0, y), (width, y)], fill=color, width=self.line_width)
        return image


class GrayScale(ImageAugmentor):
    """Converts to gray levels (kept as an RGB image so downstream formats stay the same)."""

    def augment_image(self, image, rng):
        return image.convert("L").convert("RGB")


class PixelNoise(ImageAugmentor):
    """Recolours a random `noise_rate` share of the `square_size` x `square_size` squares of the image."""

    square_size: int = 1
    noise_rate: float = 0.3

    def augment_image(self, image, rng):
        import numpy as np

        Image = require_pillow(self.artifact_name)
        pixels = np.asarray(image.convert("RGB"))
        height, width, channels = pixels.shape
        size = max(1, self.square_size)
        generator = _numpy_rng(rng)
        rows, columns = -(-height // size), -(-width // size)
        mask = np.repeat(np.repeat(generator.random((rows, columns)) < self.noise_rate, size, 0), size, 1)
        colours = np.repeat(np.repeat(generator.integers(0, 256, (rows, columns, channels), dtype=np.uint8),
                                      size, 0), size, 1)
        mask, colours = mask[:height, :width], colours[:height, :width]
        return Image.fromarray(np.where(mask[:, :, None], colours, pixels).astype(np.uint8), mode="RGB")


class Oldify(ImageAugmentor):
    """An old-photo look: a yellowish tint (`tint_strength`), film-grain noise (`noise_strength`), a slight blur,
    lower contrast and higher brightness."""

    noise_strength: int = 30
    tint_strength: float = 0.4

    def augment_image(self, image, rng):
        import numpy as np

        require_pillow(self.artifact_name)
        from PIL import ImageEnhance, ImageFilter

        generator = _numpy_rng(rng)
        tint = np.array([255, 228, 170], np.float32) * self.tint_strength

        def aged(band: Any) -> Any:
            tinted = band.astype(np.float32) * (1 - self.tint_strength) + tint
            return np.clip(tinted.astype(np.uint8) + generator.normal(0.0, self.noise_strength, band.shape), 0, 255)

        old = _by_bands(image, aged, self.artifact_name).filter(ImageFilter.GaussianBlur(radius=1))
        return ImageEnhance.Brightness(ImageEnhance.Contrast(old).enhance(0.6)).enhance(1.2)


class ToImage(FieldOperator):
    """A PIL image -> the Image type {"image": image, "format": its format (JPEG when unknown)}."""

    def process_value(self, value: Any) -> Any:
        return {"image": value, "format": getattr(value, "format", None) or "JPEG"}

    def process_instance_value(self, value: Any, instance: Dict[str, Any]) -> Any:
        """The original's per-instance entry point (an InstanceFieldOperator there): the same conversion."""
        return self.process_value(value)


class PillowMixin(PackageRequirementsMixin):
    """Components that need Pillow: `prepare` imports it (an install hint when absent) and keeps its modules as
    `pil`, `image`, `enhance` and `filter`."""

    _requirements_list = {"PIL": "pip install pillow"}

    def prepare(self) -> None:
        super().prepare()
        self.check_missing_requirements()
        import PIL
        from PIL import Image, ImageEnhance, ImageFilter

        self.__dict__.update(pil=PIL, image=Image, enhance=ImageEnhance, filter=ImageFilter)


class ImageFieldOperator(FieldOperator, PillowMixin):
    """Base of operators that change the PIL image of an Image value ({"image", "format"}): subclasses implement
    `process_image(image)`."""

    __abstract__ = True

    def process_image(self, image: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.process_image(image) is not implemented")

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, dict) or not isinstance(value.get("image"), self.image.Image):
            raise InstanceTypeError(f"ImageFieldOperator requires image, got {type(value)}.",
                                    artifact=self.artifact_name, field=self.field)
        value["image"] = self.process_image(value["image"])
        return value


class EncodeImageToString(FieldOperator):
    """A PIL image -> {"image": its base64 bytes in `image_format`}."""

    image_format: str = "JPEG"

    def encode_image_to_base64(self, image: Any) -> "ImageDataString":
        import base64
        import io

        buffer = io.BytesIO()
        image.save(buffer, format=self.image_format)
        return ImageDataString(base64.b64encode(buffer.getvalue()).decode("utf-8"))

    def process_value(self, value: Any) -> Any:
        return {"image": self.encode_image_to_base64(value)}


class ImageDataString(str):
    """A data URL of an image that shows only its first 30 characters in a repr (they are long)."""

    def __repr__(self) -> str:
        return '<ImageDataString "' + self[:30] + '...">' if len(self) > 30 else super().__repr__()


def image_to_data_url(image: Dict[str, Any], default_format: str = "JPEG") -> ImageDataString:
    """An Image value ({"image": PIL image, "format": ...}) as a base64 data URL, in its format (or `default_format`),
    the pixels converted to RGB."""
    import base64
    import io

    image_format = image.get("format") or default_format
    buffer = io.BytesIO()
    image["image"].convert("RGB").save(buffer, format=image_format.upper())
    encoded = base64.b64encode(buffer.getvalue()).decode("utf-8")
    return ImageDataString(f"data:image/{image_format.lower()};base64,{encoded}")


def data_url_to_image(data_url: str) -> Any:
    """A base64 image data URL ("data:image/<format>;base64,...") as a PIL image (needs Pillow)."""
    import base64
    import re

    if not data_url.startswith("data:"):
        raise ValueError("Invalid data URL")
    match = re.match(r"data:image/(.*?);base64,(.*)", data_url)
    if not match:
        raise ValueError("Invalid data URL format")
    return open_image(base64.b64decode(match.group(2)), "data_url_to_image")


def extract_images(instance: Dict[str, Any]) -> List[Any]:
    """The values the instance's `source` points at with image tags (`<unitxt-img src="path">`), in order; a path
    the instance lacks raises a ValueError."""
    import re

    from ..settings_utils import get_constants

    pattern = r"<" + get_constants().image_tag + r"\s+src=[\"'](.*?)[\"']"
    return [dict_get(instance, path) for path in re.findall(pattern, instance["source"])]


class HashImage(FieldOperator):
    """The MD5 hex digest of a PIL image's pixel bytes (an id for the image; needs Pillow)."""

    def process_value(self, value: Any) -> Any:
        import hashlib

        require_pillow(self.artifact_name)
        image = value["image"] if isinstance(value, dict) and "image" in value else value
        if not hasattr(image, "tobytes"):
            image = decode_image(image, self.artifact_name)
        return hashlib.md5(image.tobytes()).hexdigest()  # noqa: S324 - an id, not security


class DecodeImage(FieldOperator):
    """Base64 text of an image file -> a PIL image (needs Pillow)."""

    def process_value(self, value: Any) -> Any:
        import base64

        return open_image(base64.b64decode(value), self.artifact_name)


class ToRGB(FieldOperator):
    """Convert the image of an Image value ({"image", "format"}) to RGB (needs Pillow)."""

    def process_value(self, value: Any) -> Any:
        require_pillow(self.artifact_name)
        if not isinstance(value, dict) or not hasattr(value.get("image"), "convert"):
            raise InstanceTypeError(f"ToRGB needs an Image value {{'image': PIL image, 'format': ...}}, got "
                                    f"{type(value).__name__}.", artifact=self.artifact_name, field=self.field)
        return dict(value, image=self.process_image(value["image"]))

    def process_image(self, image: Any) -> Any:
        """Hook: the PIL image converted to RGB."""
        return image.convert("RGB")


__all__ = ["ImageToText", "ImageAugmentor", "WhiteNoise", "GridLines", "GrayScale", "PixelNoise", "Oldify", "ToImage",
           "HashImage", "DecodeImage", "ToRGB", "PillowMixin", "ImageFieldOperator", "EncodeImageToString",
           "ImageDataString", "image_to_data_url", "data_url_to_image",
           "extract_images"]


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
