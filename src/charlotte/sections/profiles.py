"""A business's profile on a social network, from the handle or address its facts give.

``profile_href("Instagram", "@crumbandco")`` is ``https://www.instagram.com/crumbandco``;
an address on the network's own site is that address (``https://`` added when
it has no scheme); anything else is no profile (None). The first page links a
"Follow us" row to it, and a follow-up's "make our insta handle a link" does
too; the host's link policy decides whether the page may.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final
from urllib.parse import urlsplit

__all__ = ["HANDLE", "HOSTS", "PROFILE_URLS", "on_network", "profile_href"]

#: A network's profile address for a handle (``@name``), by the title the page shows it by.
PROFILE_URLS: Final[Mapping[str, str]] = {
    "Instagram": "https://www.instagram.com/{}",
    "TikTok": "https://www.tiktok.com/@{}",
    "X (Twitter)": "https://x.com/{}",
    "X": "https://x.com/{}",
    "Twitter": "https://x.com/{}",
    "Facebook": "https://www.facebook.com/{}",
}
#: The sites a network's profiles live on, by its title.
HOSTS: Final[Mapping[str, tuple[str, ...]]] = {
    "Instagram": ("instagram.com",), "Facebook": ("facebook.com", "fb.com"), "TikTok": ("tiktok.com",),
    "X (Twitter)": ("x.com", "twitter.com"), "X": ("x.com", "twitter.com"), "Twitter": ("twitter.com", "x.com"),
    "LinkedIn": ("linkedin.com",), "YouTube": ("youtube.com", "youtu.be"), "Pinterest": ("pinterest.com",),
}  # fmt: skip
#: A handle as people write it: ``@name``.
HANDLE: Final = re.compile(r"@([A-Za-z0-9_.]{1,30})")


def on_network(title: str, url: str) -> bool:
    """True when ``url`` (with or without a scheme) is an address on the network ``title``'s site."""
    host = urlsplit(url if "//" in url else f"https://{url}").hostname or ""
    host = host.removeprefix("www.").removeprefix("m.")
    return any(host == h or host.endswith(f".{h}") for h in HOSTS.get(title, ()))


def profile_href(title: str, value: str) -> str | None:
    """The profile address ``value`` (a handle or an address) names on the network ``title``; else None."""
    value = value.strip()
    handle = HANDLE.fullmatch(value)
    if handle is not None:
        url = PROFILE_URLS.get(title)
        return url.format(handle.group(1)) if url else None
    if " " in value or not value:
        return None
    href = value if value.startswith(("https://", "http://")) else f"https://{value}"
    return href if on_network(title, href) else None
