"""A small deterministic random generator seeded by text, identical on every platform and Python version.

Per-instance choices (template, number of demos, demos) draw from a generator seeded by the instance's content,
so results do not depend on data order or on the interpreter's `random` implementation. Draws are 64-bit words of
BLAKE2b-512 blocks over (seed, block counter); it is fast to create (no state table) and cheap per draw.
Where the original's own draws must be reproduced (demos, choice shuffles), `new_random_generator` builds its seeded
`random.Random`; `OriginalDraws` and `sample_like_random` give the same draws at a fraction of the cost per row.
"""

import hashlib
import math
import random
import struct
from typing import Any, Dict, List, MutableSequence, Optional, Sequence, Union

from .module_aliases import moved_classes

_TWO_64 = float(1 << 64)
_EIGHT_WORDS = struct.Struct("<8Q")


class InstanceRandom:
    """Subset of the `random.Random` API: randrange, random, choice, sample, shuffle."""

    __slots__ = ("_seed", "_counter", "_words")

    def __init__(self, seed: Union[str, bytes, int]):
        if isinstance(seed, int):
            seed = str(seed)
        if isinstance(seed, str):
            seed = seed.encode("utf-8")
        self._seed = seed
        self._counter = 0
        self._words: List[int] = []

    def _block(self) -> List[int]:
        """The next block's eight words, in draw order."""
        block = hashlib.blake2b(self._seed + self._counter.to_bytes(4, "little"), digest_size=64).digest()
        self._counter += 1
        return list(_EIGHT_WORDS.unpack(block))

    def _next64(self) -> int:
        if not self._words:
            self._words = self._block()[::-1]
        return self._words.pop()

    def _take(self, count: int) -> List[int]:
        """The next `count` words in draw order (what `count` calls of `_next64` return, in one go)."""
        if count <= 0:
            return []
        words = self._words  # pending words, the next one last
        while len(words) < count:
            words = self._block()[::-1] + words
        self._words = words[:-count]
        return words[: -count - 1 : -1]

    def randrange(self, n: int) -> int:
        """Uniform integer in [0, n) (modulo bias below 2**-40 for n < 2**24)."""
        if n <= 0:
            raise ValueError("randrange() needs n > 0")
        return self._next64() % n

    def random(self) -> float:
        return self._next64() / _TWO_64

    def choice(self, sequence: Sequence[Any]) -> Any:
        return sequence[self.randrange(len(sequence))]

    def sample(self, population: Sequence[Any], k: int) -> List[Any]:
        """k distinct items (partial Fisher-Yates over positions; the population is not modified)."""
        size = len(population)
        if not 0 <= k <= size:
            raise ValueError(f"sample of {k} from a population of {size}")
        swapped = {}  # position -> the population index currently there (only for moved positions)
        result = []
        for i, word in enumerate(self._take(k)):
            j = i + word % (size - i)
            result.append(population[swapped.get(j, j)])
            swapped[j] = swapped.get(i, i)
        return result

    def shuffle(self, items: MutableSequence[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.randrange(i + 1)
            items[i], items[j] = items[j], items[i]


def get_seed() -> int:
    """The global seed (setting `seed`, 42 unless changed)."""
    from .settings_utils import settings

    return int(settings.seed)


def new_random_generator(sub_seed: Any) -> "random.Random":
    """A `random.Random` seeded as the original's: "<global seed>/<sub seed>", where an unhashable sub seed (a dict, a
    list) counts by the first 8 hex digits of the MD5 of its text (as an integer), a string as itself and another
    hashable value by its hash - so e.g. a template's choice shuffle seeded by the input fields matches the original."""
    from collections.abc import Hashable

    if not isinstance(sub_seed, Hashable):
        sub_seed = str(int(hashlib.md5(str(sub_seed).encode("utf-8")).hexdigest()[:8], 16))
    elif not isinstance(sub_seed, str):
        sub_seed = str(hash(sub_seed))
    return random.Random(f"{get_seed()}/{sub_seed}")


# CPython's own MD5 / SHA-512 (the same digests as hashlib's OpenSSL ones, with less set-up per call: the per-row
# seeds hash a few dozen bytes, where the set-up is most of the cost)
try:
    from _md5 import md5 as _md5
    from _sha512 import sha512 as _sha512
except ImportError:  # an interpreter built without them
    _md5, _sha512 = hashlib.md5, hashlib.sha512

# the C-level seeding of random.Random's base class: Random.seed(text) is this seeding applied to the integer
# int.from_bytes(text_bytes + sha512(text_bytes).digest(), "big") (its "version 2" rule for str seeds)
_BASE_SEED = random.Random.__bases__[0].seed


class OriginalDraws:
    """The generators of `new_random_generator(sub_seed)` for dict sub seeds, cheaply: one `random.Random` re-seeded
    per sub seed (the same state as a new one, without building a generator and its Python-level seeding each time),
    the global seed read once. The generator returned is valid until the next call."""

    __slots__ = ("prefix", "generator")

    def __init__(self) -> None:
        self.prefix = f"{get_seed()}/".encode("utf-8")
        self.generator = random.Random()

    def for_fields(self, fields: Dict[str, Any], local_seed: Optional[int] = None) -> random.Random:
        """The generator of new_random_generator({**fields}) (with "local_seed": local_seed set when given)."""
        if local_seed is not None or type(fields) is not dict:
            fields = {**fields}
            if local_seed is not None:
                fields["local_seed"] = local_seed
        key = b"%s%d" % (self.prefix, int.from_bytes(_md5(str(fields).encode("utf-8")).digest()[:4], "big"))
        generator = self.generator
        _BASE_SEED(generator, int.from_bytes(key + _sha512(key).digest(), "big"))
        generator.gauss_next = None
        return generator

    def sample(self, fields: Dict[str, Any], population: Sequence[Any], k: int,
               local_seed: Optional[int] = None) -> List[Any]:
        """`for_fields(fields, local_seed).sample(population, k)` (as `sample_like_random`), in one call: the demo
        sampler's per-row path."""
        return sample_like_random(self.for_fields(fields, local_seed), population, k)


def sample_like_random(generator: random.Random, population: Sequence[Any], k: int) -> List[Any]:
    """What `generator.sample(population, k)` returns (the same words drawn, in the same way), without its per-call
    checks: for a plain `random.Random` on a sequence."""
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    getrandbits = generator.getrandbits
    setsize = 21 if k <= 5 else 21 + 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize:
        result = []
        pool = list(population)
        for i in range(k):
            size = n - i
            bits = size.bit_length()
            j = getrandbits(bits)
            while j >= size:
                j = getrandbits(bits)
            result.append(pool[j])
            pool[j] = pool[size - 1]
        return result
    bits = n.bit_length()
    picked: List[int] = []  # the positions drawn; among a few, a list finds a repeat faster than a set
    seen: Any = picked if k <= 16 else set()
    for _ in range(k):
        j = getrandbits(bits)
        while j >= n or j in seen:
            j = getrandbits(bits)
        picked.append(j)
        if seen is not picked:
            seen.add(j)
    return picked if type(population) is range and population == range(n) else [population[j] for j in picked]


__getattr__ = moved_classes(__name__)  # also the names the original imported here (ORIGINAL_IMPORTS)
