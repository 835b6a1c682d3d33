"""Images under hostile sizes: a decompression bomb is a clear UnitxtError (not Pillow's raw error), and the pixel
augmentors edit a large image band by band, so their peak memory grows by a few bytes per pixel (measured in a
subprocess), with the same output as one edit of the whole image."""

import base64
import struct
import subprocess
import sys
import textwrap
import zlib

import pytest

from unitxt.errors import UnitxtError
from unitxt.image_utils import decode_image
from unitxt.operators.images import DecodeImage, Oldify, WhiteNoise, data_url_to_image
from unitxt.random_utils import InstanceRandom


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG declaring width x height RGB pixels with no pixel data: a few dozen bytes that decode to gigabytes."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b"")


def test_a_decompression_bomb_is_refused_clearly():
    bomb = _png_header_only(40_000, 40_000)  # 1.6 gigapixels, 4.8 GB as RGB
    url = "data:image/png;base64," + base64.b64encode(bomb).decode()
    with pytest.raises(UnitxtError, match=r"WhiteNoise: refusing an image too large to decode safely \(.*"
                                          r"1600000000 pixels"):
        WhiteNoise().augment_instance({"media": {"images": [url]}}, None, InstanceRandom("x"))
    with pytest.raises(UnitxtError, match="refusing an image too large"):
        decode_image(url)
    with pytest.raises(UnitxtError, match="data_url_to_image: refusing an image too large"):
        data_url_to_image(url)
    with pytest.raises(UnitxtError, match="DecodeImage: refusing an image too large"):
        DecodeImage(field="image").process_value(base64.b64encode(bomb).decode())
    with pytest.raises(UnitxtError, match=r"DecodeImage: the data is not an image Pillow can read"):
        DecodeImage(field="image").process_value(base64.b64encode(b"not an image").decode())


PEAK = textwrap.dedent("""
    import resource, sys
    from PIL import Image
    from unitxt.image_utils import pil_to_data_url
    from unitxt.operators import images
    from unitxt.random_utils import InstanceRandom
    url = pil_to_data_url(Image.new("RGB", (2500, 2000), (120, 80, 40)), "PNG")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    getattr(images, sys.argv[1])().augment_instance({"media": {"images": [url]}}, None, InstanceRandom("x"))
    print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024)
""")


@pytest.mark.parametrize("augmentor", ["WhiteNoise", "Oldify"])
def test_augmentors_edit_a_large_image_in_bounded_memory(augmentor):
    grown = int(subprocess.run([sys.executable, "-c", PEAK, augmentor], capture_output=True, text=True, check=True,
                               timeout=300).stdout)
    pixels = 2500 * 2000
    # the decoded image, its uint8 copy and result, the PNG and its base64 text: ~25 bytes a pixel; float copies of
    # the whole image (the edit before banding) cost 60-90 bytes a pixel
    assert grown < 40 * pixels, f"{augmentor} grew the peak RSS by {grown / pixels:.1f} bytes per pixel"


def test_banded_edits_equal_one_edit_of_the_whole_image(monkeypatch):
    import numpy as np
    from PIL import Image

    from unitxt.operators import images

    image = Image.fromarray(np.random.default_rng(0).integers(0, 256, (900, 700, 3), dtype=np.uint8))
    for augmentor in (WhiteNoise(std=30.0), Oldify()):
        whole = augmentor.augment_image(image, InstanceRandom("k"))
        with monkeypatch.context() as patch:
            patch.setattr(images, "_BAND_PIXELS", 700 * 7)  # bands of 7 rows
            banded = augmentor.augment_image(image, InstanceRandom("k"))
        assert np.array_equal(np.asarray(whole), np.asarray(banded))
        assert not np.array_equal(np.asarray(whole), np.asarray(image))
