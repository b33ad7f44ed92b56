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

__all__ = ["folded", "is_remark", "quoted", "remark_at", "split_clauses", "unquote"]

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
        # An apostrophe inside a word ("you'll") closes nothing: the next quote may.
        while c == "'" and 0 < end < n - 1 and message[end + 1].isalnum() and message[end - 1].isalnum():
            end = message.find("'", end + 1)
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


#: Words opening a remark after a comma ("…, it feels like it's shouting").
_REMARK_OPENERS: Final = frozenset(
    {"it", "it's", "its", "they", "they're", "theyre", "people", "that's", "thats", "this", "there's",
     "nobody", "because", "since", "as", "which", "looks", "feels", "seems", "cos"}
)  # fmt: skip
#: Words a remark never holds: asking for something, or going on with the request.
_ASKING: Final = frozenset(
    {"should", "must", "need", "needs", "want", "wants", "could", "would", "can", "please", "instead",
     "also", "too", "and", "but", "or", "not", "don't", "rather", "than", "more", "less"}
)  # fmt: skip


def remark_at(text: str, acts: Callable[[str], bool]) -> int:
    """Where a remark after a comma or dash starts in ``text`` (a clause), else -1.

    A remark opens with a subject ("it", "they", "people", "because") and asks
    nothing: none of its words ``acts`` (a verb, a colour, a section's name) or asks
    ("should", "instead", "and", …), and nothing in it is quoted.
    """
    lower = folded(text)
    for mark in (", ", " - ", " \u2013 ", " \u2014 "):
        at = lower.find(mark)
        if at > 0 and is_remark(text[at + len(mark) :], acts):
            return at
    return -1


def is_remark(text: str, acts: Callable[[str], bool]) -> bool:
    """Whether ``text`` is a remark: it opens with a subject and asks nothing (see ``remark_at``)."""
    words = [w.strip(".,!?;:()") for w in folded(text).split()]
    if not words or words[0] not in _REMARK_OPENERS or "\x00" in text:
        return False
    return not any(w in _ASKING or acts(w) for w in words)


def unquote(text: str, runs: Sequence[str]) -> str:
    """``text`` with each marker put back as the quoted run it stands for."""
    parts = text.split("\x00")
    return "".join(runs[int(p)] if k % 2 and p.isdigit() else p for k, p in enumerate(parts))


#: Words opening a suggestion that finishes the sentence before ("… more colourful? maybe purple").
_HEDGES: Final = frozenset({"maybe", "perhaps", "possibly", "ideally"})


def _suggestion(sentence: str, opens: Callable[[str], bool]) -> bool:
    """Whether ``sentence`` is a hedged suggestion without a verb of its own ("maybe purple")."""
    words = [folded(w).strip(".,!?;:") for w in sentence.split()]
    return len(words) >= 2 and words[0] in _HEDGES and not any(opens(w) for w in words[1:])


def split_clauses(text: str, opens: Callable[[str], bool]) -> list[str]:
    """Sentences, each split again at ``and``/``then``/``also``/a comma before a word that ``opens`` a clause.

    A hedged suggestion without a verb ("maybe purple") finishes the sentence before it.
    """
    sentences: list[str] = []
    start = 0
    for i, c in enumerate(text):
        end_here = c in ";\n!?" or (c == "." and (i + 1 == len(text) or text[i + 1] == " "))
        if end_here:
            sentences.append(text[start:i])
            start = i + 1
    sentences.append(text[start:])
    for k in range(len(sentences) - 1, 0, -1):
        if _suggestion(sentences[k], opens) and sentences[k - 1].strip():
            sentences[k - 1] = f"{sentences[k - 1].rstrip()}, {sentences.pop(k).strip()}"
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
