"""The page's visible copy in reading order, and the copy check (placeholder or broken copy).

Reading order is the renderer's: depth-first over the roots in order, a node
before its children; leaf types (text, heading, …) never show children and an
island shows nothing of its own, so neither contributes copy from inside.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from charlotte.checks._memo import Memo
from charlotte.checks.findings import Finding, quote
from charlotte.page.model import DEFAULT_TITLE, node_map
from charlotte.page.render import LEAF_TYPES
from charlotte.page.seo import MAX_DESCRIPTION, MAX_TITLE, page_meta
from charlotte.page.tree import children_index, children_of

#: Node type → the prop that holds its visible words.
COPY_PROPS: Mapping[str, str] = {
    "text": "content",
    "heading": "content",
    "link": "content",
    "callout": "content",
    "code": "content",
    "button": "label",
    "image": "alt",
}

#: Types whose words must not be empty (a code block or image alt may be).
NEEDS_WORDS: Mapping[str, str] = {
    "text": "text",
    "heading": "heading",
    "link": "link",
    "callout": "callout",
    "button": "button",
}

#: Longest heading before the check warns (characters, after trimming).
HEADING_LIMIT = 80
_QUOTE_LIMIT = 60

_LOREM = re.compile(r"(?i)\blorem\s+ipsum\b|\bdolor\s+sit\s+amet\b|\bconsectetur\s+adipiscing\b")
# Upper case only: "todo list" is a product, "TODO" a note left behind.
_NOTE = re.compile(r"\b(?:TODO|TBD|TBA|FIXME|XXX+)\b")
_THING = (
    r"(?:headline|heading|title|subtitle|text|copy|content|tagline|slogan|description|"
    r"paragraph|name|company|logo|image|photo|picture|button|link|email|e-mail|phone|"
    r"address|number|quote|testimonial)"
)
_TEMPLATE = re.compile(
    rf"(?i)\b(?:your|insert|add|enter|put)\s+(?:[\w'-]+\s+){{0,2}}{_THING}\s+(?:goes\s+)?here\b"
    rf"|\b{_THING}\s+goes\s+here\b|\bclick\s+(?:here\s+)?to\s+edit\b"
    r"|\b(?:sample|dummy|placeholder|filler)\s+(?:text|copy|content|title|heading|headline)\b"
)
# A bracket pair with a letter inside. The letter is looked for in the pair
# found, not by the pattern: "[" + two runs of "anything but a bracket" around
# a letter tried every split of a long run (quadratic on "[aaaa…").
_BRACKETS = re.compile(r"\[[^\[\]\n]*\]")
_LETTER = re.compile(r"[^\W\d_]")
_BRACES = re.compile(r"\{\{[^{}\n]*\}\}|\{%[^{}\n]*%\}|\{[A-Za-z_][\w .\-]{0,40}\}")


def node_type(node: Mapping[str, Any]) -> str:
    """The node's type, or ``""`` when it is not a string."""
    value = node.get("type")
    return value if isinstance(value, str) else ""


def props_of(node: Mapping[str, Any]) -> Mapping[str, Any]:
    """The node's props, or an empty map when they are malformed."""
    props = node.get("props")
    return props if isinstance(props, dict) else {}


def is_binding(value: object) -> bool:
    """True for a ``{"$bind": "a.b"}`` data binding (filled in by the host at render)."""
    return isinstance(value, dict) and isinstance(value.get("$bind"), str)


def reading_order(doc: object) -> list[dict[str, Any]]:
    """The rendered nodes in reading order (each once; cycles and orphans never reached)."""
    index = children_index(doc)
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    stack = list(reversed(children_of(doc, None)))
    while stack:
        node = stack.pop()
        node_id: str = node["id"]
        if node_id in seen:
            continue
        seen.add(node_id)
        out.append(node)
        if not node.get("island") and node_type(node) not in LEAF_TYPES:
            stack.extend(reversed(index.get(node_id, [])))
    return out


def every_node(doc: object) -> list[dict[str, Any]]:
    """Rendered nodes in reading order, then the nodes the page does not show, by id."""
    shown = reading_order(doc)
    seen = {n["id"] for n in shown}
    rest = [
        n
        for n in node_map(doc).values()
        if isinstance(n, dict) and isinstance(n.get("id"), str) and n["id"] not in seen
    ]
    rest.sort(key=lambda n: str(n["id"]))
    unique: dict[str, dict[str, Any]] = {}
    for n in rest:
        unique.setdefault(n["id"], n)
    return shown + list(unique.values())


def copy_of(doc: object) -> list[tuple[str, str]]:
    """(node id, words) for every piece of visible copy, in reading order."""
    out: list[tuple[str, str]] = []
    for node in reading_order(doc):
        if node.get("island"):
            continue
        prop = COPY_PROPS.get(node_type(node))
        words = props_of(node).get(prop) if prop else None
        if isinstance(words, str) and words.strip():
            out.append((node["id"], words))
    return out


def _quote(text: str) -> str:
    return quote(text, _QUOTE_LIMIT)


#: (code, message) of each placeholder a text holds.
_Problems = tuple[tuple[str, str], ...]
_PROBLEMS: Memo[tuple[str, bool], _Problems] = Memo(entries=4096, budget=16_000_000)


def placeholder_problems(words: str, kind: str) -> tuple[tuple[str, str], ...]:
    """(code, message) of each placeholder ``words`` of a ``kind`` node hold (memoised by text)."""
    return _PROBLEMS.get_or_make((words, kind == "code"), _problems, _weigh)


def _placeholders(node_id: str, words: str, kind: str) -> list[Finding]:
    problems = placeholder_problems(words, kind)
    return [Finding("copy", node_id, "error", code, message) for code, message in problems]


def _weigh(key: tuple[str, bool], problems: _Problems) -> int:
    return len(key[0]) + 200 * len(problems)


def _problems(key: tuple[str, bool]) -> _Problems:
    words, code = key
    out: list[tuple[str, str]] = []
    if _LOREM.search(words):
        out.append(("lorem_ipsum", "The copy contains lorem ipsum filler text."))
    if code:
        return tuple(out)  # code may hold TODOs, [indexes] and {{templates}} for real
    note = _NOTE.search(words) or _TEMPLATE.search(words)
    if note:
        out.append(
            ("placeholder_copy", f'The copy contains placeholder text ("{_quote(note.group(0))}").')
        )
    bracket = next((b for b in _BRACKETS.finditer(words) if _LETTER.search(b.group(0))), None)
    if bracket:
        out.append(
            (
                "bracket_placeholder",
                f'The copy contains a bracketed placeholder ("{_quote(bracket.group(0))}").',
            )
        )
    brace = _BRACES.search(words)
    if brace:
        out.append(
            (
                "brace_placeholder",
                f'The copy contains a template placeholder ("{_quote(brace.group(0))}").',
            )
        )
    return tuple(out)


def check_copy(doc: object) -> list[Finding]:
    """Placeholder or broken copy, node by node in reading order, then page-level findings, then the meta's (``#meta``)."""
    out: list[Finding] = []
    headings = 0
    for node in reading_order(doc):
        kind = node_type(node)
        if node.get("island") or kind not in COPY_PROPS:
            continue
        node_id: str = node["id"]
        props = props_of(node)
        prop = COPY_PROPS[kind]
        words = props.get(prop)
        if kind == "heading":
            headings += 1
        if is_binding(words):
            continue
        if kind == "image":
            if not isinstance(words, str):
                out.append(
                    Finding(
                        "copy",
                        node_id,
                        "error",
                        "missing_alt",
                        'The image has no alt text: describe it, or set alt to "" if it is decorative.',
                    )
                )
                continue
        elif kind in NEEDS_WORDS and (not isinstance(words, str) or not words.strip()):
            noun = "label" if kind == "button" else "text"
            out.append(
                Finding(
                    "copy",
                    node_id,
                    "error",
                    "empty_copy",
                    f"The {NEEDS_WORDS[kind]} has no {noun}.",
                )
            )
            continue
        if not isinstance(words, str):
            continue
        out.extend(_placeholders(node_id, words, kind))
        if kind == "heading" and len(words.strip()) > HEADING_LIMIT:
            out.append(
                Finding(
                    "copy",
                    node_id,
                    "warning",
                    "long_heading",
                    f"The heading is {len(words.strip())} characters long; keep headings to "
                    f"{HEADING_LIMIT} characters or fewer.",
                )
            )
    if headings == 0:
        out.append(Finding("copy", None, "warning", "no_heading", "The page has no heading."))
    out.extend(meta_findings(doc))
    return out


#: The node key of the page's metadata in a finding (as in AssetPolicy's and history's).
META_NODE = "#meta"


def meta_findings(doc: object) -> list[Finding]:
    """The page's title and description (``meta``): missing ones, and placeholders in them.

    Only a page document has a meta (a bare node map is a malformed document:
    nothing to say). The title ``empty_doc`` gives a new page counts as none.
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("meta"), dict):
        return []
    meta = page_meta(doc)
    out: list[Finding] = []
    for words in dict.fromkeys((meta.title, meta.description)):
        if words.strip():
            out.extend(_placeholders(META_NODE, words, "text"))
    if meta.title.strip() in ("", DEFAULT_TITLE):
        out.append(
            Finding(
                "copy", META_NODE, "warning", "missing_title",
                f"The page has no title: give it one of at most {MAX_TITLE} characters, "
                "such as the business name.",
            )
        )  # fmt: skip
    if not meta.description.strip():
        out.append(
            Finding(
                "copy", META_NODE, "warning", "missing_description",
                "The page has no description: give it one plain sentence of at most "
                f"{MAX_DESCRIPTION} characters about the business for search results.",
            )
        )  # fmt: skip
    return out
