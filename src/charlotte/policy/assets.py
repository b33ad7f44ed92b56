"""What a page may show and emit: library assets only, inert style values only.

``AssetPolicy`` runs after every write (agent op, human edit, change-set replay,
publish). Image URLs come from the host's asset library, never from the page,
and every string the CSS emitter copies verbatim (style and constraint values
at every breakpoint) must be one inert CSS value (see ``css_values``).

``FolderAssetLibrary`` is an ``AssetLibrary`` over a folder of files, for hosts
that keep their media on disk and for the demo.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from charlotte.errors import Refused
from charlotte.page.assets import AssetLibrary
from charlotte.page.model import node_map
from charlotte.page.seo import page_meta
from charlotte.policy.css_values import css_value_reason

#: Props through which a page would name an image URL itself (any node type:
#: fancy-cms addons other than ``image`` may read them too).
AUTHORED_URL_PROPS = ("src", "srcset")

#: Image props the asset library owns.
DIMENSION_PROPS = ("width", "height")

#: Per-breakpoint maps whose strings reach the stylesheet.
CSS_SECTIONS = ("style", "constraints")

_MAX_FIELD_LEN = 120

#: A problem: (node id, ``#meta`` for the page's metadata, or None for a document-level one, reason, field path).
_Problem = tuple[str | None, str, str]

#: The node key of the page's metadata in a problem, a refusal's detail and a finding
#: (as in history's conflicts): no node id can be it.
META_KEY = "#meta"


class AssetPolicy:
    """Refuses authored image URLs and dimensions, unknown assets, and unsafe CSS values.

    The page's social image (``meta.seo.image``, ``page.seo``) is an asset id
    like an image node's ``asset``: an id the library does not know is
    ``authored_asset`` on ``#meta`` (field ``meta.seo.image``), checked with
    the whole document and, on a write, when the write touched the meta.

    >>> from charlotte.page.assets import InMemoryAssetLibrary
    >>> policy = AssetPolicy(InMemoryAssetLibrary({"logo": "/m/logo.png"}))
    >>> doc = {"nodes": {"a": {"id": "a", "type": "image", "props": {"asset": "logo"},
    ...                        "style": {"base": {"background": "url(x.png)"}}}}}
    >>> policy.problems(doc)
    [('a', 'css_fetch')]
    """

    __slots__ = ("_assets",)

    def __init__(self, assets: AssetLibrary) -> None:
        self._assets = assets

    @property
    def assets(self) -> AssetLibrary:
        """The host's asset library this policy checks against."""
        return self._assets

    def problems(self, doc: object) -> list[tuple[str | None, str]]:
        """Every (node id, reason) the policy refuses, nodes by id, each pair once."""
        seen: set[tuple[str | None, str]] = set()
        out: list[tuple[str | None, str]] = []
        for node_id, reason, _field in self._problems(doc, None, meta=True):
            if (node_id, reason) not in seen:
                seen.add((node_id, reason))
                out.append((node_id, reason))
        return out

    def assert_doc(self, doc: object) -> None:
        """Raise ``Refused`` for the first problem of the whole document (nodes by id, then the meta)."""
        _raise_first(self._problems(doc, None, meta=True))

    def assert_nodes(self, doc: object, node_ids: Iterable[str], meta: bool = False) -> None:
        """Like ``assert_doc`` but only for ``node_ids`` (ids no longer on the page are skipped), and the meta when ``meta``.

        A write passes ``meta`` when one of its ops wrote the meta
        (``page.ops.writes_meta``), so an unknown social image is refused as
        an image node's unknown asset is, and a write that leaves the meta
        alone never asks the library about it.
        """
        _raise_first(self._problems(doc, set(node_ids), meta=meta))

    def _problems(self, doc: object, only: set[str] | None, *, meta: bool) -> Iterator[_Problem]:
        nodes = node_map(doc)
        ids = nodes.keys() if only is None else (i for i in only if i in nodes)
        known: dict[str, bool] = {}
        for node_id in sorted(ids, key=str):
            node = nodes[node_id]
            if isinstance(node, dict):
                yield from self._node_problems(str(node_id), node, known)
        if meta:
            image = page_meta(doc).image
            if image and not self._asset_known(image, known):
                yield META_KEY, "authored_asset", "meta.seo.image"

    def _node_problems(
        self, node_id: str, node: dict[str, Any], known: dict[str, bool]
    ) -> Iterator[_Problem]:
        props = node.get("props")
        if isinstance(props, dict):
            for name in AUTHORED_URL_PROPS:
                if props.get(name) is not None:
                    yield node_id, "authored_asset", f"props.{name}"
            if node.get("type") == "image":
                if props.get("asset") is not None and not self._asset_known(props["asset"], known):
                    yield node_id, "authored_asset", "props.asset"
                for name in DIMENSION_PROPS:
                    if props.get(name) is not None:
                        yield node_id, "asset_dimensions", f"props.{name}"
        for section in CSS_SECTIONS:
            per_breakpoint = node.get(section)
            if per_breakpoint is None or _all_inert(per_breakpoint):
                continue
            for where, key, text in _strings(per_breakpoint, section):
                reason = css_value_reason(text)
                if reason is not None:
                    yield node_id, reason, _field(where, key)

    def _asset_known(self, asset: object, known: dict[str, bool]) -> bool:
        # A binding or any non-string cannot be checked against the library.
        if not isinstance(asset, str):
            return False
        if asset not in known:
            known[asset] = bool(self._assets.exists(asset))
        return known[asset]


def _raise_first(problems: Iterator[_Problem]) -> None:
    for node_id, reason, field in problems:
        # Detail stays short even for a pathologically nested malformed value.
        detail: dict[str, str | int] = {"field": field[:_MAX_FIELD_LEN]}
        if node_id is not None:
            detail["node"] = node_id
        raise Refused(reason, detail=detail)


def _all_inert(value: object) -> bool:
    """True when ``_strings`` finds no string in ``value`` that ``css_value_reason`` refuses.

    The usual answer, found without spelling out a field path per container:
    only a value with a problem is walked again by ``_strings`` to name it.
    """
    stack = [value]
    while stack:
        current = stack.pop()
        items: Iterable[tuple[object, object]]
        if isinstance(current, dict):
            items = current.items()
        elif isinstance(current, list):
            items = enumerate(current)
        else:
            continue
        for key, item in items:
            if isinstance(key, str):
                if css_value_reason(key) is not None:
                    return False
            elif not isinstance(key, int):
                continue
            if isinstance(item, str):
                if css_value_reason(item) is not None:
                    return False
            elif isinstance(item, dict | list):
                stack.append(item)
    return True


def _strings(value: object, path: str) -> Iterator[tuple[str, str | int, str]]:
    """(container path, key or index, text) for every string key and value in ``value``.

    Keys count too: a malformed document's keys may reach the emitter. Order is
    the document's own (deterministic for a given document); the walk is
    iterative so a deeply nested document cannot exhaust the stack, and field
    paths are only spelled out for containers (most values are plain strings).
    """
    stack: list[tuple[str, object]] = [(path, value)]
    while stack:
        where, current = stack.pop()
        items: Iterable[tuple[object, object]]
        if isinstance(current, dict):
            items = current.items()
        elif isinstance(current, list):
            items = enumerate(current)
        else:
            continue
        nested: list[tuple[str, object]] = []
        for key, item in items:
            if isinstance(key, str):
                yield where, key, key
            elif not isinstance(key, int):
                continue
            if isinstance(item, str):
                yield where, key, item
            elif isinstance(item, dict | list):
                nested.append((_field(where, key), item))
        stack.extend(reversed(nested))


def _field(where: str, key: str | int) -> str:
    return f"{where}[{key}]" if isinstance(key, int) else f"{where}.{key}"


class FolderAssetLibrary:
    """An ``AssetLibrary`` over the regular files directly inside ``root``.

    An asset id is a plain file name in that folder; ids with separators, ``..``,
    hidden names, control characters or symlinks never exist. ``url(id)`` is
    ``base_url`` followed by the percent-quoted id, so ``base_url`` usually ends
    with ``/``.

    >>> FolderAssetLibrary("/srv/media", "/media/").exists("../etc/passwd")
    False
    """

    __slots__ = ("_base_url", "_root")

    def __init__(self, root: str | os.PathLike[str], base_url: str) -> None:
        self._root = Path(root)
        self._base_url = base_url

    def exists(self, asset_id: str) -> bool:
        """True when ``asset_id`` names a regular file directly inside the folder."""
        if not _plain_file_name(asset_id):
            return False
        try:
            # lstat: a symlink is not followed, so it cannot lead out of the folder.
            mode = os.lstat(self._root / asset_id).st_mode
        except (OSError, ValueError):
            return False
        return stat.S_ISREG(mode)

    def url(self, asset_id: str) -> str:
        """``base_url`` + the quoted id; raises ``KeyError`` for an id that does not exist."""
        if not self.exists(asset_id):
            raise KeyError(asset_id)
        return self._base_url + quote(asset_id, safe="")

    def __repr__(self) -> str:
        return f"FolderAssetLibrary({str(self._root)!r}, {self._base_url!r})"


def _plain_file_name(asset_id: object) -> bool:
    if not isinstance(asset_id, str) or not asset_id or len(asset_id) > 255:
        return False
    if asset_id.startswith(".") or asset_id != asset_id.strip():
        return False
    if any(sep in asset_id for sep in ("/", "\\", os.sep, os.altsep or "/")):
        return False
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in asset_id):
        return False
    # A drive or stream name ("C:x", "a:b") means something else to some filesystems.
    return ":" not in asset_id
