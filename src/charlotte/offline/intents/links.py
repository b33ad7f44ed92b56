"""The intent on a link to the business's profile elsewhere: "add a link to our Facebook page".

The address is the one the message gives (on that network's site), else the
one a fact gives (a fact named after the network, or any fact whose value is
an address on its site; a handle such as ``@name`` in a fact named after the
network is its profile there); with neither, nothing is added and the reply
asks for it. When the page already shows that handle or address as words
("make our insta handle a link"), those words become the link, in their place;
otherwise the link goes in the contact section, as a card like its others (a
label and the link), else at the end of the page's last band. The host's link
policy decides, as for every link: an origin it does not allow is refused by
the page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents.facts import unaccounted
from charlotte.offline.intents.intent import FILLERS, Clause, Intent, Reading
from charlotte.offline.requests import AddLink
from charlotte.page.hrefs import is_safe_href
from charlotte.sections.page_view import PageView
from charlotte.sections.profiles import HANDLE, HOSTS, on_network, profile_href

__all__ = ["ADD_LINK"]

#: Networks by the words a person calls them, with the title a page shows (its hosts: ``profiles.HOSTS``).
NETWORKS: Final[Mapping[str, str]] = {
    "facebook": "Facebook", "instagram": "Instagram", "twitter": "Twitter", "linkedin": "LinkedIn",
    "tiktok": "TikTok", "youtube": "YouTube", "pinterest": "Pinterest",
}  # fmt: skip
#: Short names people use for a network.
_ALIASES: Final = {"insta": "instagram", "fb": "facebook"}
_WORDS: Final = FILLERS | frozenset(NETWORKS) | frozenset(_ALIASES) | frozenset(
    {"add", "include", "put", "link", "links", "a", "an", "to", "our", "my", "the", "page",
     "profile", "account", "feed", "channel", "on", "in", "at", "contact", "section", "social",
     "media", "us", "of", "for", "people", "can", "find", "follow", "site", "website", "bottom",
     "business", "group", "-", "\u2013", "\u2014", "here", "it's", "make", "turn", "into",
     "handle", "username", "clickable"}
)  # fmt: skip


def _on(network: str, url: str) -> bool:
    return on_network(NETWORKS[network], url)


def _read(clause: Clause) -> Reading | None:
    words = clause.words_of(0, len(clause.lower))
    urls = [f for f in clause.found if f.kind == "url"]
    named = list(dict.fromkeys(_ALIASES.get(w, w) for w in words if w in NETWORKS or w in _ALIASES))
    named += [n for f in urls for n in NETWORKS if _on(n, f.text) and n not in named]
    if not named or not {"link", "links", "profile", "page", "account"} & set(words):
        return None
    outside = [w for w in words if not any(w in f.text.lower() for f in urls)]
    left = unaccounted(outside, _WORDS)
    if len(set(named)) > 1 or len(urls) > 1 or left:
        why = f'I did not understand "{" ".join(left)}"' if left else "I can add one link at a time"
        return Reading(88, (), why=why)
    network = named[0]
    url = urls[0].text if urls else None
    if url is not None and not _on(network, url):
        return Reading(88, (), why=f"{url} is not an address on {NETWORKS[network]}")
    return Reading(88, (AddLink(network, url),))


def _from_facts(network: str, facts: object) -> str | None:
    """The one address on the network's site the facts give (a fact named after it first)."""
    table = facts if isinstance(facts, Mapping) else {}
    values = [(str(k).lower(), v.strip()) for k, v in table.items() if isinstance(v, str)]
    named = [v for k, v in values if network in k or _ALIASES.get(k) == network]
    found = [v for v in named if _on(network, v)]
    found = found or [v for _k, v in values if _on(network, v) and " " not in v]
    if not found:
        title = NETWORKS[network]
        found = [href for v in named if HANDLE.fullmatch(v) and (href := profile_href(title, v))]
    return found[0] if len(set(found)) == 1 else None


def _shown_as(url: str, facts: object) -> set[str]:
    """The words a page may show for this profile: the address, and a fact's handle for it."""
    table = facts if isinstance(facts, Mapping) else {}
    bare = url.split("//", 1)[-1].removeprefix("www.").rstrip("/")
    shown = {url, bare, f"www.{bare}"}
    handle = bare.rsplit("/", 1)[-1].lstrip("@")
    shown |= {v.strip() for v in table.values() if isinstance(v, str) and v.strip() == f"@{handle}"}
    return shown


def _href(url: str) -> str:
    return url if url.startswith(("https://", "http://")) else f"https://{url}"


def _in_place(page: PageView, url: str, shown: set[str]) -> list[dict[str, Any]] | None:
    """The one text on the page that shows the profile, made a link in its place (same id, order, style)."""
    texts = [n for n in page.nodes if n.get("type") == "text"
             and str((n.get("props") or {}).get("content", "")).strip() in shown]  # fmt: skip
    if len(texts) != 1:
        return None
    (text,) = texts
    node = {key: text[key] for key in ("id", "parent", "order", "style", "layout") if key in text}
    props = {"content": str(text["props"]["content"]).strip(), "href": _href(url)}
    return [{"t": "remove_node", "id": text["id"]},
            {"t": "insert_node", "node": {**node, "type": "link", "props": props}}]  # fmt: skip


def _ops(page: PageView, network: str, url: str) -> list[dict[str, Any]]:
    """A card like the contact section's others (label, link), else a link at the end of the page."""
    title = NETWORKS[network]
    shown = url.split("//", 1)[-1].removeprefix("www.").rstrip("/")
    contact = next((r for r in page.roots if page.kind(r) == "contact"), None)
    inside = page.inside(contact) if contact is not None else []
    card = next((n for n in inside if n.get("type") == "card"), None)
    if card is None:
        parent = contact or (page.roots[-1] if page.roots else None)
        link = {"id": f"{network}-link", "type": "link", "parent": parent,
                "props": {"content": f"{title}: {shown}", "href": _href(url)}}  # fmt: skip
        return [{"t": "insert_node", "node": link}]
    kids = [n for n in page.nodes if n.get("parent") == card["id"]]
    label = next((n for n in kids if n.get("type") == "text"), None)
    shows = next((n for n in kids if n.get("type") in ("button", "link")), None)
    base = f"{contact}-{network}"
    nodes: list[dict[str, Any]] = [
        {"id": f"{base}-card", "type": "card", "parent": card.get("parent"),
         "layout": card.get("layout", "stack"), "style": card.get("style", {})},
        {"id": f"{base}-label", "type": "text", "parent": f"{base}-card",
         "props": {"content": title}, "style": label.get("style", {}) if label else {}},
        {"id": base, "type": "link", "parent": f"{base}-card",
         "props": {"content": shown, "href": _href(url)}, "style": shows.get("style", {}) if shows else {}},
    ]  # fmt: skip
    return [{"t": "insert_node", "node": node} for node in nodes]


def _plan(request: AddLink, page: PageView, context: Context) -> Edit | Refusal:
    title = NETWORKS[request.network]
    url = request.url or _from_facts(request.network, context.facts)
    if url is None:
        return Refusal(f"the facts give no {title} address; say it (\"add a link to {HOSTS[NETWORKS[request.network]][0]}/…\")")
    if not is_safe_href(_href(url)):
        return Refusal(f"{url} is not an address a page may link to")
    if any(_on(request.network, str((n.get("props") or {}).get("href", ""))) for n in page.nodes):
        return Refusal(f"the page already links to {title}")
    made = _in_place(page, url, _shown_as(url, context.facts))
    if made is not None:
        words = made[1]["node"]["props"]["content"]
        return Edit(tuple(made), f'made "{words}" a link to {title} ({_href(url)})')
    ops = _ops(page, request.network, url)
    if any(op["node"]["id"] in page.by_id for op in ops):
        return Refusal(f"the page already has a {title} link")
    return Edit(tuple(ops), f"added a link to {title} ({url})")


ADD_LINK: Final = Intent(
    "a link to a profile",
    _read,
    (AddLink,),
    _plan,
    "add a link to the business's Facebook, Instagram or other profile the facts or you give",
)
