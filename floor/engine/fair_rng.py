"""The random source of a draw anyone can check (``docs/draw-spec.md``, ``fair.SPEC``).

A draw's randomness comes from one secret seed of the tournament's committed chain, revealed
once the draw is made, mixed with what was public when it was made (``fair.material``). This
source turns that material into the choices the engine's seating makes, by steps written
down so that another program can make them again: a byte stream from SHA-256 in counter
mode, whole numbers below a bound by rejection, and choice, shuffle and sample defined on
them here rather than taken from Python's ``random`` (whose algorithms are its own and may
change between versions).

It is a ``random.Random`` so that the engine, which is given one, needs no change; every
method the engine uses is defined here, and the rest refuse.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence, Sequence
from typing import Any, NoReturn, Protocol, TypeVar

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class _Indexable(Protocol[T_co]):
    """What a choice is made from: a length and items by index (a list, a tuple, a range)."""

    def __len__(self) -> int: ...
    def __getitem__(self, i: int, /) -> T_co: ...


#: Bits of a float in [0, 1): a double's mantissa.
_FLOAT_BITS = 53


class FairRng(random.Random):
    """Choices drawn from ``material`` (32 bytes), the same wherever they are made again."""

    def __init__(self, material: bytes) -> None:
        if len(material) != 32:
            raise ValueError("a draw's material is 32 bytes (a SHA-256)")
        self._material = material
        self._block = 0
        self._buffer = b""
        #: Bytes taken from the stream: none means the decision drew nothing.
        self.taken = 0
        super().__init__()

    # ``random.Random.__init__`` seeds itself; this source has its seed already.
    def seed(self, *args: Any, **kwargs: Any) -> None:
        return None

    def getstate(self) -> NoReturn:
        raise TypeError("a fair draw's source is not saved: it is made again from its seed")

    def setstate(self, state: object) -> NoReturn:
        raise TypeError("a fair draw's source is not restored: it is made again from its seed")

    @property
    def used(self) -> bool:
        return self.taken > 0

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hashlib.sha256(self._material + self._block.to_bytes(8, "big")).digest()
            self._buffer += block
            self._block += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        self.taken += n
        return out

    def getrandbits(self, k: int) -> int:
        """``k`` bits: the first ``ceil(k / 8)`` bytes of the stream, big-endian, shifted
        right to ``k`` bits."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        n = (k + 7) // 8
        return int.from_bytes(self._bytes(n), "big") >> (8 * n - k)

    def below(self, n: int) -> int:
        """A whole number in [0, n): ``k`` bits, ``k`` the bit length of ``n - 1`` (at least
        1), drawn again until below ``n``."""
        if n <= 0:
            raise ValueError("a draw needs at least one choice")
        k = max(1, (n - 1).bit_length())
        while True:
            r = self.getrandbits(k)
            if r < n:
                return r

    def _randbelow(self, n: int) -> int:
        return self.below(n)

    def random(self) -> float:
        return self.getrandbits(_FLOAT_BITS) / (1 << _FLOAT_BITS)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        if step <= 0:
            raise ValueError("a draw's range steps forward")
        count = (stop - start + step - 1) // step
        return start + step * self.below(count)

    def randint(self, a: int, b: int) -> int:
        return self.randrange(a, b + 1)

    def uniform(self, a: float, b: float) -> float:
        return a + (b - a) * self.random()

    def choice(self, seq: _Indexable[T]) -> T:
        """The item at ``below(len(seq))``."""
        return seq[self.below(len(seq))]

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Fisher-Yates from the end: for i from len - 1 down to 1, swap i with below(i + 1)."""
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population: Sequence[T], k: int, *, counts: object = None) -> list[T]:
        """``k`` items without replacement: the i-th is ``pool[j]``, j = below(n - i), and
        ``pool[j]`` is replaced by the pool's last item not yet taken."""
        if counts is not None:
            raise TypeError("a fair draw samples without counts")
        pool = list(population)
        n = len(pool)
        if not 0 <= k <= n:
            raise ValueError("sample larger than population or is negative")
        out: list[T] = []
        for i in range(k):
            j = self.below(n - i)
            out.append(pool[j])
            pool[j] = pool[n - i - 1]
        return out

    def choices(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a fair draw has no weighted choices")

    def gauss(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a fair draw has no normal variates")
