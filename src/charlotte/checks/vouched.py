"""What people vouched for on a page, as texts the facts check takes as evidence.

A session's brief and facts are not all a page's truth: the copy a person
published, the words a person wrote in their own edits and the content of
change sets a person approved are theirs too. ``vouched_texts`` turns them
(as ``storage.VouchedStore`` and the page repository read them) into texts,
each read like the brief (``Evidence.of_messages``), so a later session, with
another brief or other facts, is not told that the page's own prices, phone
numbers and hours are made up, and no builder is led to delete them.

Each text is one piece of copy or one written value (a node's words, a link's
target), never several joined: a phone number at the end of one text is not
read on into the next. What counts is bounded (``counted_vouched``): at most
``VOUCHED_TEXTS`` texts of ``VOUCHED_CHARACTERS`` characters together, the
published copy first, then the approved change sets and the people's edits,
newest first; a text past the budget is passed over. Every step is linear in
what was read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Final
from urllib.parse import unquote

from charlotte.checks.copytext import copy_of, every_node, props_of

__all__ = ["VOUCHED_CHARACTERS", "VOUCHED_TEXTS", "counted_vouched", "vouched_texts"]

#: The most texts of what people vouched for that count as evidence…
VOUCHED_TEXTS: Final = 2_000
#: …and the most characters they may have together.
VOUCHED_CHARACTERS: Final = 200_000

#: The op fields whose strings a person wrote: a node's props, a patch.
_WRITTEN: Final = ("insert_node", "restore_node", "set_node_props", "set_meta", "restore_meta")


def vouched_texts(
    published: object, approved: Iterable[object], people_ops: Iterable[object]
) -> tuple[str, ...]:
    """The texts of the published copy, the approved change sets' ops and the people's ops, counted.

    ``approved``: each approved set's op list, oldest first; ``people_ops``:
    the ops people wrote, oldest first. Malformed values give no text.
    """
    ordered: list[str] = list(_doc_texts(published))
    for ops in reversed(list(approved)):
        for op in reversed(ops if isinstance(ops, list) else []):
            ordered.extend(_op_texts(op))
    for op in reversed(list(people_ops)):
        ordered.extend(_op_texts(op))
    return counted_vouched(ordered)


def counted_vouched(texts: Sequence[str]) -> tuple[str, ...]:
    """The texts that count, in ``texts``' order (most weighty first): bounded, each once.

    At most ``VOUCHED_TEXTS`` texts of ``VOUCHED_CHARACTERS`` characters in
    all; a text that would go past the characters is passed over.
    """
    kept: list[str] = []
    seen: set[str] = set()
    total = 0
    for text in texts:
        if len(kept) >= VOUCHED_TEXTS:
            break
        if not isinstance(text, str) or not text.strip() or text in seen:
            continue
        if total + len(text) > VOUCHED_CHARACTERS:
            continue
        seen.add(text)
        total += len(text)
        kept.append(text)
    return tuple(kept)


def _doc_texts(doc: object) -> Iterator[str]:
    """The published copy's words, then the targets of its links, in reading order."""
    for _node_id, words in copy_of(doc):
        yield words
    for node in every_node(doc):
        href = _target(props_of(node).get("href"))
        if href:
            yield href


def _op_texts(op: object) -> Iterator[str]:
    if not isinstance(op, Mapping) or op.get("t") not in _WRITTEN:
        return
    node = op.get("node")
    if isinstance(node, Mapping):
        yield from _strings(props_of(node))
    for field in ("patch", "meta"):
        value = op.get(field)
        if isinstance(value, Mapping):
            yield from _strings(value)


def _strings(values: Mapping[str, Any]) -> Iterator[str]:
    for key, value in values.items():
        if isinstance(value, str):
            yield _target(value) if key == "href" else value


def _target(href: object) -> str:
    """A link's target as words: ``tel:`` and ``mailto:`` dropped, escapes decoded."""
    if not isinstance(href, str):
        return ""
    scheme, colon, rest = href.partition(":")
    if colon and scheme.lower() in ("tel", "mailto"):
        return unquote(rest.split("?", 1)[0]).strip()
    return href
