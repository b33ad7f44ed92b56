"""Whole-document checks: top-level fields, meta, theme, breakpoints and tree shape.

``check_doc`` is what loading a ``PageSession`` runs on a stored document; any
problem becomes ``PageSessionError("invalid_state")`` whose detail names where
(``"nodes.hero: style.base.padding: must be a Length {value, unit}"``).
Orphans (a parent id that is not in the map) are tolerated, as upstream
documents may hold them; cycles are not. No op writes a new orphan
(``restore_node`` puts a node back only under a parent that exists, see
``page.inverse``), so undoing the removal of an orphan a page came with is
refused rather than writing a node nobody sees.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NoReturn

from charlotte.errors import PageSessionError
from charlotte.page.node_types import MAX_DEPTH, MAX_NODES, NodeTypes
from charlotte.page.validate import check_json, check_node, is_id, key_name

_BREAKPOINT = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")
_SEO_KEY = re.compile(r"[A-Za-z][A-Za-z0-9:_.-]{0,63}")
_TOKEN_KEY = re.compile(r"[A-Za-z0-9_$:.-]{1,64}")
_CTRL = re.compile(r"[\x00-\x1f\x7f]")
_DOC_KEYS = ("id", "seq", "meta", "theme", "breakpoints", "nodes")
_META_KEYS = frozenset({"title", "slug", "scrollMode", "seo"})
MAX_BREAKPOINTS = 8
MAX_SEO = 20
MAX_THEME_TOKENS = 100


def _fail(code: str, path: str, reason: str) -> NoReturn:
    raise PageSessionError(code, detail=f"{path}: {reason}")


def _line(value: object, lo: int, hi: int) -> bool:
    return type(value) is str and lo <= len(value) <= hi and _CTRL.search(value) is None


def check_breakpoints(value: object) -> tuple[str, ...]:
    """``breakpoints``: 1-8 distinct names, ``base`` first (mobile first)."""
    if (
        type(value) is not list
        or not 1 <= len(value) <= MAX_BREAKPOINTS
        or value[0] != "base"
        or not all(type(bp) is str and _BREAKPOINT.fullmatch(bp) for bp in value)
        or len(set(value)) != len(value)
    ):
        _fail("invalid_style", "breakpoints", "must be 1..8 distinct names starting with base")
    return tuple(value)


def check_meta(meta: object) -> None:
    """``meta``: title ≤ 300, slug 1-500, scrollMode snap|smooth, seo ≤ 20 short strings."""
    if type(meta) is not dict:
        _fail("invalid_props", "meta", "must be an object")
    for key in meta:
        if type(key) is not str or key not in _META_KEYS:
            _fail("invalid_props", f"meta.{key_name(key)}", "unknown field")
    if not _line(meta.get("title"), 0, 300):
        _fail("invalid_props", "meta.title", "must be a string of at most 300 chars")
    if not _line(meta.get("slug"), 1, 500):
        _fail("invalid_props", "meta.slug", "must be a string of 1..500 chars")
    if meta.get("scrollMode") not in ("snap", "smooth") or type(meta.get("scrollMode")) is not str:
        _fail("invalid_props", "meta.scrollMode", "must be snap|smooth")
    if "seo" in meta:
        seo = meta["seo"]
        if type(seo) is not dict or len(seo) > MAX_SEO:
            _fail("invalid_props", "meta.seo", f"must be an object of at most {MAX_SEO} entries")
        for key, text in seo.items():
            if type(key) is not str or not _SEO_KEY.fullmatch(key) or not _line(text, 0, 1_000):
                _fail("invalid_props", f"meta.seo.{key_name(key)}", "must be a string of at most 1000 chars")


def check_theme(theme: object) -> None:
    """``theme``: ≤ 100 tokens; ``name`` a short string; values bounded JSON without null."""
    if type(theme) is not dict or len(theme) > MAX_THEME_TOKENS:
        _fail("invalid_style", "theme", f"must be an object of at most {MAX_THEME_TOKENS} tokens")
    for key, value in theme.items():
        if type(key) is not str or not _TOKEN_KEY.fullmatch(key):
            _fail("invalid_style", f"theme.{key_name(key)}", "token names are 1..64 plain characters")
        check_json(value, f"theme.{key}", "invalid_style")
    if "name" in theme and not _line(theme["name"], 1, 100):
        _fail("invalid_style", "theme.name", "must be a string of 1..100 chars")


def node_depths(nodes: Mapping[str, Any]) -> dict[str, int]:
    """Depth of every node (a root, or the top of an orphan chain, is 1); raises ``cycle``.

    Linear: each node's depth is computed once and reused by its descendants.
    """
    depth: dict[str, int] = {}
    for start in nodes:
        path: list[str] = []
        on_path: set[str] = set()
        current = start
        base = 0
        while True:
            if current in depth:
                base = depth[current]
                break
            if current in on_path:
                _fail("cycle", "parent", "the tree has a cycle")
            on_path.add(current)
            path.append(current)
            parent = nodes[current]["parent"]
            if parent is None or parent not in nodes:
                break
            current = parent
        for id in reversed(path):
            base += 1
            depth[id] = base
    return depth


def check_doc(doc: object, types: NodeTypes) -> tuple[str, ...]:
    """Validate a whole (migrated) document; returns its breakpoints.

    Raises ``PageSessionError("invalid_state")`` with a detail saying where.
    """
    try:
        return _check_doc(doc, types)
    except PageSessionError as e:
        if e.code == "invalid_state":
            raise
        raise PageSessionError("invalid_state", detail=f"{e.code}: {e.detail}") from None


def _check_doc(doc: object, types: NodeTypes) -> tuple[str, ...]:
    if type(doc) is not dict:
        _fail("invalid_state", "doc", "not an object")
    for key in doc:
        if key not in _DOC_KEYS:
            _fail("invalid_state", key_name(key), "unknown document field")
    for key in _DOC_KEYS:
        if key not in doc:
            _fail("invalid_state", key, "required")
    if not _line(doc["id"], 1, 200):
        _fail("invalid_state", "id", "must be a string of 1..200 chars")
    seq = doc["seq"]
    if type(seq) is not int or seq < 0:
        _fail("invalid_state", "seq", "must be a non-negative integer")
    breakpoints = check_breakpoints(doc["breakpoints"])
    check_meta(doc["meta"])
    check_theme(doc["theme"])
    nodes = doc["nodes"]
    if type(nodes) is not dict:
        _fail("invalid_state", "nodes", "must be an object")
    if len(nodes) > MAX_NODES:
        _fail("limit_exceeded", "nodes", f"more than {MAX_NODES}")
    for key, node in nodes.items():
        where = f"nodes.{key}" if is_id(key) else "nodes.?"
        try:
            check_node(node, types, breakpoints)
        except PageSessionError as e:
            _fail("invalid_state", where, f"{e.code}: {e.detail}")
        if node["id"] != key:
            _fail("invalid_state", where, "key differs from the node's id")
    depths = node_depths(nodes)
    if depths and max(depths.values()) > MAX_DEPTH:
        _fail("limit_exceeded", "depth", f"more than {MAX_DEPTH}")
    return breakpoints
