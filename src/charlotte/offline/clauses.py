"""A person's message split into clauses, with quoted words kept whole.

``quoted`` replaces each quoted run (straight or curly, double or single
quotes, guillemets) with a marker (its number between two NUL characters) so
that no split falls inside it and ``unquote`` puts it back
verbatim; ``split_clauses`` cuts at sentence ends and again at ``and`` /
``then`` / ``also`` / a comma when the next word opens a new clause. Both are
one scan of a bounded message.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

__all__ = ["folded", "quoted", "split_clauses", "unquote"]

_QUOTES: Final = {
    '"': '"',
    "\u201c": "\u201d",
    "\u2018": "\u2019",
    "'": "'",
    "\u00ab": "\u00bb",
}


def folded(text: str) -> str:
    """``text`` in lower case, the same length (positions in it cut the original)."""
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def quoted(message: str) -> tuple[str, list[str]]:
    """``message`` with each quoted run replaced by its marker, and the runs."""
    out: list[str] = []
    runs: list[str] = []
    i, n = 0, len(message)
    while i < n:
        c = message[i]
        close = _QUOTES.get(c)
        # A straight single quote opens only at a word start ("don't" is no quote).
        opens = close is not None and (c != "'" or i == 0 or not message[i - 1].isalnum())
        end = message.find(close, i + 1) if opens and close else -1
        if c == "'" and end > 0 and end + 1 < n and message[end + 1].isalnum():
            end = -1
        if end > i + 1:
            out.append(f"\x00{len(runs)}\x00")
            runs.append(message[i + 1 : end])
            i = end + 1
            continue
        out.append(c)
        i += 1
    return "".join(out), runs


def unquote(text: str, runs: Sequence[str]) -> str:
    """``text`` with each marker put back as the quoted run it stands for."""
    parts = text.split("\x00")
    return "".join(runs[int(p)] if k % 2 and p.isdigit() else p for k, p in enumerate(parts))


def split_clauses(text: str, opens: Callable[[str], bool]) -> list[str]:
    """Sentences, each split again at ``and``/``then``/``also``/a comma before a word that ``opens`` a clause."""
    sentences: list[str] = []
    start = 0
    for i, c in enumerate(text):
        end_here = c in ";\n!?" or (c == "." and (i + 1 == len(text) or text[i + 1] == " "))
        if end_here:
            sentences.append(text[start:i])
            start = i + 1
    sentences.append(text[start:])
    clauses: list[str] = []
    for sentence in sentences:
        words = sentence.split()
        current: list[str] = []
        for k, word in enumerate(words):
            bare = folded(word).strip(",")
            after = folded(words[k + 1]).strip(",") if k + 1 < len(words) else ""
            joins = bare in ("and", "then", "also") or word.endswith(",")
            starts = opens(after)
            if joins and current and starts:
                if not word.endswith(","):
                    clauses.append(" ".join(current))
                    current = []
                    continue
                current.append(word[:-1])
                clauses.append(" ".join(current))
                current = []
                continue
            current.append(word)
        if current:
            clauses.append(" ".join(current))
    return [c.strip() for c in clauses if c.strip(" ,")]
