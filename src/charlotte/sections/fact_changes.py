"""A phone number, e-mail or address changed wherever the page shows it.

``fact_ops(page, kind, value, facts)`` is the ops putting the person's
``value`` where the page shows its phone number (any run the checks read as
one), e-mail address (a word with an ``@``) or address (the facts' address,
else the builder's address line), and pointing every ``tel:`` / ``mailto:``
link at it, whatever the link's label says ("Call us"). A link whose label is
the number or address alone is worded and sized as the first draft would
(``bands.link_label``: smaller to fit a phone, "Send an e-mail" when no size
fits). ``shown_facts(page, facts)`` reads back what the page shows now where
it differs from the facts, so a section added later shows the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from charlotte.checks.contacts import parse_phone
from charlotte.sections.bands import link_label
from charlotte.sections.facts import contact_items, fact_key
from charlotte.sections.page_view import PROP, PageView
from charlotte.sections.style import CARD_WIDTH

__all__ = ["fact_ops", "phone_runs", "shown_facts"]

#: The largest size of a contact link (the first draft's, ``bands``).
_LINK_SIZE: Final = 18
_LINK_SCHEMES: Final = {"phone": "tel:", "email": "mailto:"}


def phone_runs(text: str) -> list[tuple[int, int]]:
    """(start, end) of each run that reads as a phone number (seven digits or more), one scan."""
    runs: list[tuple[int, int]] = []
    start, digits = -1, 0
    for i, c in enumerate(f"{text}\n"):
        if c.isdigit() or (c in " +-().\u00a0" and start >= 0) or (c == "+" and start < 0):
            if start < 0:
                start = i
            digits += c.isdigit()
            continue
        if start >= 0:
            end = i
            while end > start and not text[end - 1].isdigit():
                end -= 1
            # The checks' own phone reader decides: "8.30-17.30" is opening hours, not a number.
            if digits >= 7 and parse_phone(text[start:end]) is not None:
                runs.append((start, end))
        start, digits = -1, 0
    return runs


def _contacts(facts: object) -> dict[str, str]:
    """The facts' phone, e-mail and address by kind, verbatim."""
    table = {fact_key(str(k)): v for k, v in facts.items()} if isinstance(facts, Mapping) else {}
    return {label: words for label, words, _href in contact_items(table)}


def _digits(text: str) -> str:
    """The last nine digits of a phone number: "+44 1603 …" and "01603 …" are the same."""
    return "".join(c for c in text if c.isdigit())[-9:]


def _phones(page: PageView, facts: object) -> set[str]:
    """The page's own phone numbers (the facts' and every call link's), by ``_digits``.

    Another number the page shows (an out-of-hours line) is a different fact and stays.
    """
    out = {_digits(phone)} if (phone := _contacts(facts).get("phone")) else set()
    for node in page.nodes:
        href = node.get("props", {}).get("href")
        if isinstance(href, str) and href.startswith("tel:"):
            out.add(_digits(href[4:]))
    return out


def _shown(
    text: str, node: Mapping[str, Any], kind: str, value: str, facts: object, phones: set[str]
) -> str:
    """``text`` with the page's phone number, e-mail or address replaced by ``value``."""
    if kind == "phone":
        new = text
        for start, end in reversed(phone_runs(text)):
            if _digits(text[start:end]) in phones or not phones:
                new = new[:start] + value + new[end:]
        return new
    if kind == "email":
        return " ".join(value if "@" in w.strip(".,;:()") else w for w in text.split(" "))
    # The address as the facts give it, wherever it is shown, else the builder's address line.
    old = _contacts(facts).get("address")
    if old and old in text:
        return text.replace(old, value)
    return value if str(node.get("id", "")).endswith("-address") else text


def _relabelled(
    node: Mapping[str, Any], patch: dict[str, Any], href: str, value: str
) -> list[dict[str, Any]]:
    """A call/write button's new label as the first draft would word and size it.

    A label that is the number or address alone is sized to fit a phone, and a
    verb ("Send an e-mail") when no size fits; a longer label ("Call …") past
    40 characters becomes the verb. Returns the ``set_style`` op for a new size.
    """
    label = str(patch["label"])
    style = node.get("style")
    base = style.get("base", {}) if isinstance(style, dict) else {}
    size = base.get("fontSize") if isinstance(base, dict) else None
    px = size.get("value") if isinstance(size, dict) else None
    if label == value:
        words, fitted = link_label(label, href, CARD_WIDTH, _LINK_SIZE)
        patch["label"] = words
        if fitted != px:
            sized = {"fontSize": {"value": fitted, "unit": "px"}}
            return [{"t": "set_style", "id": node["id"], "breakpoint": "base", "patch": sized}]
        return []
    if len(label) > 40:
        patch["label"] = "Call us" if href.startswith("tel:") else "Send an e-mail"
    return []


def fact_ops(page: PageView, kind: str, value: str, facts: object) -> list[dict[str, Any]]:
    """The ops showing ``value`` as the page's ``kind`` (phone, email, address) wherever shown."""
    ops: list[dict[str, Any]] = []
    scheme = _LINK_SCHEMES.get(kind)
    digits = "".join(c for c in value if c.isdigit() or c == "+")
    target = f"tel:{digits}" if kind == "phone" else f"mailto:{value}"
    phones = _phones(page, facts) if kind == "phone" else set()
    for node in page.nodes:
        node_type = str(node.get("type"))
        if node_type not in PROP:
            continue
        text = page.words(node)
        new = _shown(text, node, kind, value, facts, phones)
        patch: dict[str, Any] = {PROP[node_type]: new} if new != text else {}
        href = node.get("props", {}).get("href")
        if scheme is not None and isinstance(href, str) and href.startswith(scheme):
            # A call or write link reaches the new number or address whatever its label says.
            if href != target:
                patch["href"] = target
            if node_type == "button" and PROP[node_type] in patch:
                ops += _relabelled(node, patch, target, value)
        if patch:
            ops.append({"t": "set_node_props", "id": node["id"], "patch": patch})
    return ops


def shown_facts(page: PageView, facts: object) -> dict[str, str]:
    """The phone, e-mail and address the page shows now, where they differ from the facts.

    The phone is the number of the first call link's label (else the number it
    dials), the e-mail the first write link's address, the address the
    builder's address line.
    """
    known = _contacts(facts)
    out: dict[str, str] = {}
    for node in page.nodes:
        props = node.get("props")
        href = props.get("href") if isinstance(props, dict) else None
        words = page.words(node)
        if "phone" not in out and isinstance(href, str) and href.startswith("tel:"):
            runs = phone_runs(words)
            out["phone"] = words[runs[0][0] : runs[0][1]] if runs else href[4:]
        elif "email" not in out and isinstance(href, str) and href.startswith("mailto:"):
            out["email"] = href[7:]
        elif (
            "address" not in out and node.get("type") == "text" and node["id"].endswith("-address")
        ):
            out["address"] = words
    return {
        kind: value
        for kind, value in out.items()
        if value and kind in known and _same(kind, known[kind], value) is False
    }


def _same(kind: str, old: str, new: str) -> bool:
    if kind == "phone":
        return [c for c in old if c.isdigit()] == [c for c in new if c.isdigit()]
    return old.strip().casefold() == new.strip().casefold()
