"""Browser-grade href safety: which links a page may carry, and where they lead.

Hrefs are parsed the way a browser parses them (WHATWG URL parsing through
``ada_url``), never with a prefix test: a browser strips leading control
characters and spaces and drops tabs and newlines *inside* a scheme, so
``" java\\tscript:"`` is ``javascript:`` to it. On top of the parse, anything a
browser might read differently from a plain look (whitespace, control
characters, backslashes, encoded schemes, ``//host``) is refused outright.

>>> is_safe_href("/about"), is_safe_href("JaVa\\tScript:alert(1)")
(True, False)
>>> external_origin("https://Example.com:443/x", "https://mysite.test")
'https://example.com'
"""

from __future__ import annotations

import html
import re
import unicodedata
from urllib.parse import unquote

from ada_url import URL

#: Longest href accepted (the node catalogue bounds ``href`` props the same way).
MAX_HREF_LENGTH = 2048

#: Schemes a link may use; compared with ada's lower-cased ``protocol``.
SAFE_PROTOCOLS = frozenset({"http:", "https:", "mailto:", "tel:"})

# A relative href is resolved against this base: a reserved, never-resolvable
# host, so "did the href switch host?" is a plain comparison.
_DUMMY_BASE = "https://charlotte.invalid/base/"
_DUMMY_HOST = "charlotte.invalid"

# The scheme syntax of the URL standard (after a browser's whitespace cleanup).
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")

# How many rounds of entity/percent decoding are tried when looking for a
# hidden scheme (``%2526%2523106;`` needs three).
_DECODE_ROUNDS = 4

# Unicode categories that must not appear anywhere in an href: controls,
# format characters (zero-width, BOM, bidi overrides) and every kind of space.
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp"})


# ASCII controls, space, DEL and the backslash: checked in one regex pass.
_FORBIDDEN_ASCII = re.compile(r"[\x00-\x20\x7f\\]")

# What a browser strips from the front of an href before parsing.
_LEADING_C0_AND_SPACE = "".join(chr(c) for c in range(0x21))


def _has_forbidden_char(href: str) -> bool:
    if _FORBIDDEN_ASCII.search(href):
        return True
    return not href.isascii() and any(
        ch.isspace() or unicodedata.category(ch) in _FORBIDDEN_CATEGORIES for ch in href
    )


def _own_scheme(text: str) -> str | None:
    """The lower-cased scheme ``text`` starts with, as a browser would read it."""
    # Browsers strip leading C0 controls and spaces, and remove every tab and
    # newline before parsing; do the same before matching the scheme syntax.
    cleaned = text.lstrip(_LEADING_C0_AND_SPACE)
    cleaned = cleaned.replace("\t", "").replace("\n", "").replace("\r", "")
    match = _SCHEME.match(cleaned)
    return match.group(0).lower() if match else None


def _hides_a_scheme(href: str) -> bool:
    """True when entity- or percent-decoding ``href`` reveals a different scheme or a control."""
    plain = _own_scheme(href)
    current = href
    for _ in range(_DECODE_ROUNDS):
        decoded = unquote(html.unescape(current))
        if decoded == current:
            return False
        current = decoded
        if any(ch == "\ufffd" or unicodedata.category(ch) in ("Cc", "Cf") for ch in current):
            # An encoded control or NUL (``&#0;`` decodes to U+FFFD) has no
            # place in a link and only serves to hide what follows it.
            return True
        revealed = _own_scheme(current)
        if revealed is not None and revealed != plain:
            return True
    return False


def _parse(href: str, base: str = _DUMMY_BASE) -> URL | None:
    try:
        return URL(href, base=base)
    except ValueError:
        return None


def is_safe_href(href: object) -> bool:
    """True when ``href`` may be emitted as a link: relative, ``#``, ``?``, http(s), mailto, tel.

    >>> [is_safe_href(h) for h in ["#top", "mailto:a@b.c", "data:text/html,x", "//evil.example"]]
    [True, True, False, False]
    """
    if not isinstance(href, str) or not href or len(href) > MAX_HREF_LENGTH:
        return False
    if _has_forbidden_char(href) or href.startswith("//"):
        return False
    if _hides_a_scheme(href):
        return False
    url = _parse(href)
    if url is None or url.protocol not in SAFE_PROTOCOLS:
        return False
    scheme = _own_scheme(href)
    if scheme is None:
        # Relative: it must stay on the page's own host (no //host tricks).
        return bool(url.host == _DUMMY_HOST and url.protocol == "https:")
    if scheme != url.protocol:
        return False
    if scheme in ("http:", "https:"):
        # "https://trusted.example@evil.example/" shows one host and opens another.
        return not (url.username or url.password)
    return True


def _origin_of(site_origin: str) -> URL | None:
    url = _parse(site_origin, base=_DUMMY_BASE) if site_origin else None
    if url is None or url.protocol not in ("http:", "https:") or url.host == _DUMMY_HOST:
        return None
    return url


def external_origin(href: object, site_origin: str) -> str | None:
    """The lower-cased origin an absolute http(s) ``href`` leads to, when it leaves ``site_origin``.

    Relative hrefs, same-origin links, mailto/tel and unsafe hrefs give ``None``.
    Default ports are dropped (``https://a.example:443`` is ``https://a.example``);
    other ports are part of the origin.

    >>> external_origin("/pricing", "https://mysite.test") is None
    True
    """
    if not isinstance(href, str) or not is_safe_href(href):
        return None
    if _own_scheme(href) not in ("http:", "https:"):
        return None
    site = _origin_of(site_origin)
    url = _parse(href, base=site.href if site is not None else _DUMMY_BASE)
    if url is None or url.host == _DUMMY_HOST:
        return None
    origin = str(url.origin).lower()
    if site is not None and origin == str(site.origin).lower():
        return None
    return origin


def serialised_origin(text: object) -> str | None:
    """``text`` spelled as a browser's ``Origin`` header spells it, when it is an http(s) origin and nothing more.

    Lower case, default port dropped, a host in its ASCII (punycode) form; None
    for a path, query, fragment, user name, another scheme or ``null``.

    >>> serialised_origin("https://Admin.Example.com:443"), serialised_origin("https://a.example/x")
    ('https://admin.example.com', None)
    """
    if not isinstance(text, str) or not text or len(text) > MAX_HREF_LENGTH or _has_forbidden_char(text):
        return None
    if _own_scheme(text) not in ("http:", "https:") or "?" in text or "#" in text:
        return None
    url = _parse(text)
    if url is None or url.host == _DUMMY_HOST or url.pathname != "/" or url.username or url.password:
        # ``https:x`` resolves against the base: not an origin of its own.
        return None
    return str(url.origin).lower()
