"""``random.randrange(n)`` without importing :mod:`random`: start-up.

``random`` brings ``warnings``, ``hashlib``, ``bisect`` and more to a command that only needs one
number (a broker of a route, a round-robin start, a class-loader hash). :func:`randbelow` draws from
the generator ``random`` builds on (``_random.Random``, seeded from the system as ``random`` seeds
it), uniformly, as ``random.randrange`` does.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import _random

__all__ = ["randbelow"]

_RNG: list[_random.Random] = []


def randbelow(n: int) -> int:
    """A uniform integer in ``[0, n)`` (``n`` > 0): ``random.randrange(n)``'s rejection sampling."""
    if n <= 0:
        raise ValueError(f"randbelow takes a positive bound, not {n}")
    if not _RNG:
        import _random

        _RNG.append(_random.Random())
    bits, rng = n.bit_length(), _RNG[0]
    r = rng.getrandbits(bits)
    while r >= n:
        r = rng.getrandbits(bits)
    return r
