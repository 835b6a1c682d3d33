"""Image operators: `ImageToText` (an image field becomes a media placeholder) and image augmentors.

`ImageToText(field="image", to_field="context")` stores the image in the instance's `media["images"]` as a data URL
and writes `<img src="media/images/i">` into `to_field`, so any text template can place it; chat formats turn the
placeholder into an `image_url` content part. Image augmentors (white noise, grid lines, gray scale) edit every image
of the instance (media images and image-valued input fields) and need Pillow, imported lazily.
"""

from typing import Any, Dict, List, Optional

from .augmentors import Augmentor
from .data_types import is_image_value, is_video_value
from .dict_utils import dict_get, dict_set
from .errors import InstanceTypeError
from .image_utils import decode_image, image_reference, pil_to_data_url, require_pillow
from .operator import InstanceOperator
from .random_utils import InstanceRandom


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

    def augment_image(self, image: Any, rng: InstanceRandom) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.augment_image(image, rng)")

    def _augment_encoded(self, value: Any, rng: InstanceRandom) -> str:
        image = decode_image(value, self.artifact_name)
        return pil_to_data_url(self.augment_image(image, rng), "PNG")

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


class WhiteNoise(ImageAugmentor):
    """Adds Gaussian pixel noise with standard deviation `std` (pixel units, 0..255)."""

    std: float = 25.0

    def augment_image(self, image, rng):
        import numpy as np

        Image = require_pillow(self.artifact_name)
        pixels = np.asarray(image.convert("RGB"), dtype=np.float32)
        noisy = pixels + _numpy_rng(rng).normal(0.0, self.std, size=pixels.shape)
        return Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8), mode="RGB")


class GridLines(ImageAugmentor):
    """Draws horizontal and vertical lines every `spacing` pixels (random offset) of `line_width` and `color`."""

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


__all__ = ["ImageToText", "ImageAugmentor", "WhiteNoise", "GridLines", "GrayScale"]
