"""Fractional ordering keys, byte-compatible with the keys stored in fancy-cms pages.

A key is a string over the base-62 alphabet ``0-9A-Za-z`` read as a fraction in
(0, 1). Stored documents hold keys minted by the upstream implementation and
are never re-keyed on load, so new keys must sort against old ones forever:
this module reproduces the upstream algorithm exactly, quirks included.
"""

from __future__ import annotations

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
RADIX = len(ALPHABET)  # 62
MID = RADIX // 2  # 31, the digit "V"
_VALUE = {c: i for i, c in enumerate(ALPHABET)}


def _digit(key: str, i: int) -> int:
    # Past the end reads as 0; a character outside the alphabet also reads as 0
    # (upstream behaviour, kept so foreign keys never raise).
    return _VALUE.get(key[i], 0) if i < len(key) else 0


def key_between(a: str | None, b: str | None) -> str:
    """A key strictly between ``a`` and ``b`` (``None`` is an open bound).

    >>> key_between(None, None), key_between("a0", None), key_between("a0", "a0V")
    ('V', 'a0V', 'a0F')

    Raises ``ValueError`` when ``a >= b``. Like upstream, an upper bound that is
    the lower bound plus trailing ``0``s yields an out-of-range key
    (``key_between(None, "0") == "0V"``); charlotte never mints such a bound.
    """
    lo = "" if a is None else a
    if b is None:
        return lo + ALPHABET[MID]
    if lo >= b:
        raise ValueError("key_between: lower bound is not below upper bound")
    out: list[str] = []
    i = 0
    while True:
        ca = _digit(lo, i)
        cb = _VALUE.get(b[i], 0) if i < len(b) else RADIX
        if cb - ca > 1:
            out.append(ALPHABET[ca + (cb - ca) // 2])
            return "".join(out)
        out.append(ALPHABET[ca])
        i += 1
        if ca == cb:
            continue
        # Adjacent digits: keep the lower digit, then descend into the rest of
        # ``a`` with an open upper bound until a gap opens.
        while True:
            da = _digit(lo, i)
            if RADIX - da > 1:
                out.append(ALPHABET[da + (RADIX - da) // 2])
                return "".join(out)
            out.append(ALPHABET[da])
            i += 1
