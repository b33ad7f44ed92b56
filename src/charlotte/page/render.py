"""The page as HTML: every node a ``[data-cms]`` element, styled by ``emit_css``.

The structure follows the fancy-cms renderers: each node is a
``<div data-cms="<id>">`` wrapper (with ``data-cms-island`` for islands and
``class`` from ``className``) around its inner content; containers hold their
children in ``children_of`` order; an island is an empty placeholder the host
hydrates. Inner content by type:

=========  ==============================================================
text       the escaped ``content``
heading    ``<hN>`` with ``N`` = ``level`` clamped to 1..6 (default 2)
link       ``<a href>``; the ``href`` only when ``is_safe_href`` passes
button     ``<a href class="cms-button cms-button--<variant>">`` with a safe
           ``href``, else ``<button type="button" class=…>``
image      ``<img src alt>`` with ``src`` from the host asset library, or
           nothing (the sized wrapper is the placeholder) for an unknown asset
divider    ``<hr>``
callout    ``<div class="cms-callout cms-callout--<variant>">``
code       ``<pre><code>``
richtext   nothing, ever
other      the children (containers and unknown types)
=========  ==============================================================

Where charlotte differs from upstream, on purpose:

- An island is always empty, even when its type has a renderer (the PHP
  renderer's rule; the React one renders the type's content).
- No placeholder texts ("Heading", "Button", …) and no inline ``style``
  attributes: a published page shows what was authored, styled by CSS.
- Images come from the asset library only; an authored ``src`` is ignored.
- Bindings (``{"$bind": …}``) and non-string props render as empty text:
  there is no data context here.

Everything from the document is escaped with markupsafe. Malformed documents
render as an empty page, never raise, and a node is rendered at most once, so
cycles and duplicate ids cannot loop.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from markupsafe import Markup, escape

from charlotte.page.assets import AssetLibrary
from charlotte.page.hrefs import is_safe_href
from charlotte.page.tree import children_index, children_of

#: Types whose content is their children.
CONTAINER_TYPES = frozenset({"section", "frame", "stack", "grid", "card", "shape"})

#: Types with their own content: they never render children.
LEAF_TYPES = frozenset(
    {"text", "heading", "link", "button", "image", "divider", "callout", "code", "richtext"}
)

BUTTON_VARIANTS = ("primary", "secondary", "ghost")
CALLOUT_VARIANTS = ("info", "success", "warning", "danger")


# Characters HTML forbids in a document (controls other than whitespace, lone
# surrogates, noncharacters): browsers flag them and a lone surrogate cannot
# even be encoded as UTF-8, so they are replaced before escaping.
_NOT_HTML = re.compile(
    "[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef"
    + "".join(
        f"{chr(plane + 0xFFFE)}{chr(plane + 0xFFFF)}" for plane in range(0, 0x110000, 0x10000)
    )
    + "]"
)


def _clean(text: str) -> str:
    return _NOT_HTML.sub("\ufffd", text)


def _esc(text: str) -> Markup:
    return escape(_clean(text))


def escape_text(text: str) -> Markup:
    """``text`` escaped for HTML (text or a quoted attribute), what HTML cannot hold as U+FFFD."""
    return _esc(text)


def _text(value: object) -> Markup:
    return _esc(value) if isinstance(value, str) else Markup("")


def _variant(value: object, allowed: tuple[str, ...]) -> str:
    # Only known variants become class names: a free string could add classes.
    return value if isinstance(value, str) and value in allowed else allowed[0]


def heading_level(value: object) -> int:
    """The ``N`` of the ``<hN>`` a heading's ``level`` renders as: clamped to 1..6, 2 when not a whole number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 2
    if isinstance(value, float) and not value.is_integer():
        return 2  # also NaN and infinities
    return max(1, min(6, int(value)))


def _href_attr(props: Mapping[str, Any]) -> str:
    href = props.get("href")
    return f' href="{_esc(href)}"' if isinstance(href, str) and is_safe_href(href) else ""


def _button(props: Mapping[str, Any]) -> str:
    variant = _variant(props.get("variant"), BUTTON_VARIANTS)
    attrs = f' class="cms-button cms-button--{variant}" data-cms-button="{variant}"'
    label = _text(props.get("label"))
    href = _href_attr(props)
    if href:
        return f"<a{href}{attrs}>{label}</a>"
    return f'<button type="button"{attrs}>{label}</button>'


def _image(props: Mapping[str, Any], assets: AssetLibrary) -> str:
    asset = props.get("asset")
    if not isinstance(asset, str) or not asset or not assets.exists(asset):
        return ""
    url = assets.url(asset)
    if not isinstance(url, str):
        return ""
    return f'<img src="{_esc(url)}" alt="{_text(props.get("alt"))}">'


def _leaf_content(node_type: str, props: Mapping[str, Any], assets: AssetLibrary) -> str:
    if node_type == "text":
        return _text(props.get("content"))
    if node_type == "heading":
        level = heading_level(props.get("level", 2))
        return f"<h{level}>{_text(props.get('content'))}</h{level}>"
    if node_type == "link":
        return f"<a{_href_attr(props)}>{_text(props.get('content'))}</a>"
    if node_type == "button":
        return _button(props)
    if node_type == "image":
        return _image(props, assets)
    if node_type == "divider":
        return "<hr>"
    if node_type == "callout":
        variant = _variant(props.get("variant"), CALLOUT_VARIANTS)
        return (
            f'<div class="cms-callout cms-callout--{variant}" data-cms-callout="{variant}">'
            f"{_text(props.get('content'))}</div>"
        )
    if node_type == "code":
        return f"<pre><code>{_text(props.get('content'))}</code></pre>"
    return ""  # richtext: never rendered


def _open_tag(node: Mapping[str, Any], node_type: str, island: bool) -> str:
    attrs = f' data-cms="{_esc(node["id"])}"'
    if island:
        attrs += f' data-cms-island="{_esc(node_type)}"'
    class_name = node.get("className")
    if isinstance(class_name, str) and class_name:
        attrs += f' class="{_esc(class_name)}"'
    return f"<div{attrs}>"


def render_html(doc: object, *, assets: AssetLibrary) -> str:
    """The page's roots, in order, as an HTML fragment.

    >>> from charlotte.page.assets import InMemoryAssetLibrary
    >>> doc = {"nodes": {"t": {"id": "t", "type": "text", "parent": None, "order": "V",
    ...                        "props": {"content": "Hi <you>"}, "style": {"base": {}}}}}
    >>> render_html(doc, assets=InMemoryAssetLibrary())
    '<div data-cms="t">Hi &lt;you&gt;</div>'
    """
    index = children_index(doc)
    out: list[str] = []
    rendered: set[str] = set()
    # An explicit stack instead of recursion: a deep or cyclic malformed
    # document must not hit the interpreter's recursion limit.
    stack: list[dict[str, Any] | str] = list(reversed(children_of(doc, None)))
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        node_id: str = item["id"]
        if node_id in rendered:
            continue
        rendered.add(node_id)
        raw_type = item.get("type")
        node_type = raw_type if isinstance(raw_type, str) else ""
        island = bool(item.get("island"))
        out.append(_open_tag(item, node_type, island))
        if island:
            out.append("</div>")
        elif node_type in LEAF_TYPES:
            props = item.get("props")
            out.append(_leaf_content(node_type, props if isinstance(props, dict) else {}, assets))
            out.append("</div>")
        else:
            stack.append("</div>")
            stack.extend(reversed(index.get(node_id, [])))
    return "".join(out)


def style_text(css: str) -> str:
    """``css`` safe inside a ``<style>`` element (see ``_style_text``)."""
    return _style_text(css)


def _style_text(css: str) -> str:
    # A "<" could close the <style> element early ("</style><script>…"). Valid
    # pages never contain one (PageSession refuses it); for any other document
    # the CSS escape keeps the meaning and the HTML closed.
    return _clean(css).replace("<", "\\3c ")


#: Base rules for a standalone page: the element defaults the fancy-cms
#: renderers leave to the host's theme (body margin, callout boxes). A button's
#: look comes from its node's style on the ``[data-cms]`` wrapper, so the link
#: inside only inherits it. They come *before* the page's own stylesheet and
#: select by class only, so every ``[data-cms]`` rule of the document still wins.
BASE_CSS = """\
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; }
img { max-width: 100%; height: auto; }
.cms-button { display: inline-block; color: inherit; font: inherit; font-weight: 600; text-decoration: none; cursor: pointer; }
.cms-button--secondary, .cms-button--ghost { text-decoration: underline; text-underline-offset: 0.2em; }
.cms-callout { padding: 1em 1.25em; border-radius: 8px; border-left: 4px solid #2563eb; background: #eff6ff; }
.cms-callout--success { border-color: #16a34a; background: #f0fdf4; }
.cms-callout--warning { border-color: #d97706; background: #fffbeb; }
.cms-callout--danger { border-color: #dc2626; background: #fef2f2; }
"""
