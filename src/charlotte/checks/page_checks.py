"""``PageChecks``: the page checks (facts, copy, links, assets, quality) behind one object."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import unquote

from charlotte.checks.claims import Found, claims_in
from charlotte.checks.contacts import EMAIL, email_value, parse_phone
from charlotte.checks.copytext import (
    check_copy,
    copy_of,
    every_node,
    node_type,
    props_of,
    reading_order,
)
from charlotte.checks.facts import CODES, ERROR_KINDS, evidence_for, message_for
from charlotte.checks.findings import CHECKS, CheckName, Claim, Finding
from charlotte.checks.links import check_links
from charlotte.checks.quality import quality_findings
from charlotte.errors import MESSAGES
from charlotte.page import hrefs
from charlotte.page.assets import AssetLibrary, InMemoryAssetLibrary
from charlotte.policy.assets import AssetPolicy
from charlotte.policy.links import normalised_origins

#: Copy the facts check does not read: code samples hold version numbers, ports…
_NOT_FACTS = frozenset({"code"})
_LINK_TYPES = frozenset({"link", "button"})


class PageChecks:
    """Checks a page against the brief, the host's facts, what people said and vouched for, its site origin and assets.

    >>> checks = PageChecks(facts={"phone": "020 7946 0958"}, brief="A bakery.")
    >>> doc = {"nodes": {"h": {"id": "h", "type": "heading", "parent": None, "order": "V",
    ...                        "props": {"content": "Call +44 20 7946 0958, from £4"}}}}
    >>> [(f.code, f.severity) for f in checks.run(doc)]
    [('unsupported_price', 'error')]
    >>> PageChecks(facts={"phone": "020 7946 0958"}, brief="A bakery.",
    ...            person_said=["Say that loaves are from £4"]).run(doc)
    []

    ``person_said``: what the person wrote in this session's turn messages,
    oldest first (the newest 200 messages and 200,000 characters count:
    ``facts.counted_messages``). A fact the person stated is supported like
    one of the brief; the draft's text, tool results and the agent's replies
    are never evidence, so never pass them here. ``vouched``: what people
    vouched for on the page, the texts of its published copy, of their own
    edits and of the change sets they approved (``vouched.vouched_texts``;
    at most 2,000 texts of 200,000 characters count), evidence the same way.
    """

    __slots__ = ("_allowed", "_assets", "_evidence", "_site_origin")

    def __init__(
        self,
        *,
        facts: Mapping[str, str] | None = None,
        brief: str = "",
        site_origin: str | None = None,
        allowed_origins: Iterable[str] = (),
        assets: AssetLibrary | None = None,
        person_said: Sequence[str] = (),
        vouched: Sequence[str] = (),
    ) -> None:
        self._site_origin = site_origin or ""
        # Read once per brief and facts (and per message), not per check (see ``evidence_for``).
        self._evidence = evidence_for(brief, facts, site_origin, person_said, vouched)
        self._allowed = normalised_origins(allowed_origins or (), self._site_origin)
        # Without a library no asset can be shown: every image asset is unknown.
        self._assets: AssetLibrary = assets if assets is not None else InMemoryAssetLibrary()

    # --- helpers the tools use too ---------------------------------------------

    def external_origin(self, href: object) -> str | None:
        """The origin ``href`` leads to when it leaves the configured site, else None."""
        return hrefs.external_origin(href, self._site_origin)

    def is_safe_href(self, href: object) -> bool:
        """True when ``href`` may be emitted as a link (see ``charlotte.page.hrefs``)."""
        return hrefs.is_safe_href(href)

    def copy(self, doc: object) -> list[tuple[str, str]]:
        """(node id, words) for all visible copy in reading order."""
        return copy_of(doc)

    def facts(self, doc: object) -> list[Claim]:
        """The factual claims the page makes, in reading order."""
        return [Claim(f.kind, f.text, f.value, node) for node, f in self._claims(doc)]

    def _claims(self, doc: object) -> list[tuple[str, Found]]:
        out: list[tuple[str, Found]] = []
        for node_id, words, href in _fact_nodes(doc):
            out.extend((node_id, found) for found in claims_in(words))
            if href is not None:
                out.append((node_id, href))
        return out

    # --- the checks --------------------------------------------------------------

    def run(self, doc: object, only: Iterable[str] | str | None = None) -> list[Finding]:
        """Findings of the chosen checks (all five by default), in a fixed order.

        Checks report in the order facts, copy, links, assets, quality whatever order
        ``only`` names them in; within a check, nodes in reading order. A
        quality finding another check already made of the node is left out
        (an empty label is ``empty_copy``, not also ``button_no_name``).
        """
        chosen = _chosen(only)
        out: list[Finding] = []
        if "facts" in chosen:
            out.extend(self._facts(doc))
        if "copy" in chosen:
            out.extend(check_copy(doc))
        if "links" in chosen:
            out.extend(
                check_links(
                    every_node(doc),
                    is_safe=self.is_safe_href,
                    origin_of=self.external_origin,
                    allowed=self._allowed,
                )
            )
        if "assets" in chosen:
            out.extend(self._asset_findings(doc))
        if "quality" in chosen:
            out.extend(_new_to(out, quality_findings(doc, assets=self._assets)))
        return out

    def _facts(self, doc: object) -> list[Finding]:
        return [
            Finding(
                "facts",
                node,
                "error" if found.kind in ERROR_KINDS else "warning",
                CODES[found.kind],
                message_for(found),
            )
            for node, found in self._unsupported(doc)
        ]

    def _unsupported(self, doc: object) -> list[tuple[str, Found]]:
        """The claims the sources do not back, in reading order, each (node, kind, value) once.

        A text's unsupported claims come from a memo (``Evidence.unsupported_in``):
        a check in the middle of a turn judges only the texts that changed.
        """
        out: list[tuple[str, Found]] = []
        for node_id, words, href in _fact_nodes(doc):
            said = self._evidence.unsupported_in(words)
            out.extend((node_id, found) for found in said)
            if (
                href is not None
                and all((f.kind, f.value) != (href.kind, href.value) for f in said)
                and not self._evidence.supports(href)
            ):
                out.append((node_id, href))
        return out

    def _asset_findings(self, doc: object) -> list[Finding]:
        position = {n["id"]: i for i, n in enumerate(every_node(doc))}
        problems = AssetPolicy(self._assets).problems(doc)
        # Reading order like the other checks; page-level problems (no node) last.
        problems.sort(
            key=lambda p: (p[0] is None, position.get(p[0], len(position)) if p[0] else 0)
        )
        return [
            Finding("assets", node, "error", reason, MESSAGES.get(reason, _ASSET_FALLBACK))
            for node, reason in problems
        ]


_ASSET_FALLBACK = "The page uses an asset or style value the site does not allow."


#: Quality codes and the other checks' codes that already say the same of a node.
_SAID_BY: Mapping[str, frozenset[str]] = {
    "placeholder": frozenset(
        {"lorem_ipsum", "placeholder_copy", "bracket_placeholder", "brace_placeholder", "authored_asset"}
    ),
    "image_no_alt": frozenset({"missing_alt"}),
    "link_no_name": frozenset({"empty_copy"}),
    "button_no_name": frozenset({"empty_copy"}),
}


def _new_to(said: list[Finding], found: list[Finding]) -> list[Finding]:
    """The quality findings the other checks did not already report on the same node."""
    seen = {(f.node, f.code) for f in said}
    return [
        f
        for f in found
        if (f.node, f.code) not in seen
        and not any((f.node, code) in seen for code in _SAID_BY.get(f.code, ()))
    ]


def _chosen(only: Iterable[str] | str | None) -> frozenset[CheckName]:
    if only is None:
        return frozenset(CHECKS)
    names = [only] if isinstance(only, str) else list(only)
    unknown = [n for n in names if n not in CHECKS]
    if unknown:
        raise ValueError("only may name facts, copy, links, assets and quality")
    return frozenset(n for n in CHECKS if n in names)


def _fact_nodes(doc: object) -> Iterator[tuple[str, str, Found | None]]:
    """(node id, its words or "", its ``tel:``/``mailto:`` claim) of every node the facts check reads."""
    words = dict(copy_of(doc))
    for node in reading_order(doc):
        node_id: str = node["id"]
        if node.get("island") or node_type(node) in _NOT_FACTS:
            continue
        href = None
        if node_type(node) in _LINK_TYPES:
            href = _contact_href(props_of(node).get("href"))
        yield node_id, words.get(node_id, ""), href


_EMAIL_ONLY = re.compile(rf"^{EMAIL.pattern}$")


def _contact_href(href: Any) -> Found | None:
    """A phone or e-mail claim made by a ``tel:`` or ``mailto:`` href."""
    if not isinstance(href, str):
        return None
    scheme, _, rest = href.partition(":")
    target = unquote(rest.split("?", 1)[0]).strip()
    if scheme.lower() == "tel":
        phone = parse_phone(target, dialled=True)
        if phone is not None:
            return Found("phone", 0, len(href), href, phone.value, phone)
    elif scheme.lower() == "mailto" and _EMAIL_ONLY.match(target):
        value = email_value(target)
        return Found("email", 0, len(href), href, value, value)
    return None
