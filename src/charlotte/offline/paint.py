"""The page's colours as its nodes wear them: the accent, the grounds, recolouring.

``looks.py`` reads what a person asks of the look; the colour ops are here: every
``#rgb``/``#rrggbb`` in a node's colour keys passed through a change (``recolour``),
the page's accent (``accent_of``: the buttons' colour, never the bands' ink), new
band and card grounds (``backgrounds``) and the words a change left under 4.5:1
(``kept_legible``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from charlotte.sections.colours import (
    HEX,
    NAMED_COLOURS,
    contrast,
    hsv,
    legible,
    legible_words,
    long_hex,
    pale,
    word_grounds,
)
from charlotte.sections.dark import DARK_BANDS, DARK_CARDS, DARK_INK
from charlotte.sections.page_view import PageView

__all__ = [
    "GROUNDS",
    "HEX",
    "NAMED",
    "accent_of",
    "accent_ops",
    "backgrounds",
    "base_of",
    "first_hex",
    "kept_legible",
    "long_hex",
    "on_grounds",
    "page_colour",
    "recolour",
    "replace_hex",
    "style_of",
]

# A dark page built from a brief and one a restyle darkens wear the same grounds and words.
_DARK_BANDS, _DARK_CARDS, _DARK_INK = DARK_BANDS, DARK_CARDS, DARK_INK
_LIGHT_BANDS, _LIGHT_CARDS, _LIGHT_INK = "#ffffff", "#ffffff", "#111827"
#: Style keys whose strings may hold colours.
_COLOUR_KEYS: Final = ("background", "color", "border", "boxShadow")


def replace_hex(text: str, change: Callable[[str], str]) -> str:
    """``text`` with every ``#rgb``/``#rrggbb`` colour passed through ``change`` (one scan)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] == "#":
            j = i + 1
            while j < n and j - i <= 7 and text[j] in HEX:
                j += 1
            if j - i in (4, 7):
                out.append(change(long_hex(text[i:j])))
                i = j
                continue
        out.append(text[i])
        i += 1
    return "".join(out)


def style_of(node: Mapping[str, Any]) -> dict[str, Any]:
    style = node.get("style")
    return style if isinstance(style, dict) else {}


def base_of(node: Mapping[str, Any]) -> dict[str, Any]:
    base = style_of(node).get("base")
    return base if isinstance(base, dict) else {}


def recolour(
    nodes: Sequence[Mapping[str, Any]], change: Callable[[str], str]
) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = []
    for node in nodes:
        for bp, values in style_of(node).items():
            if not isinstance(values, dict):
                continue
            patch = {
                key: new
                for key in _COLOUR_KEYS
                if isinstance(values.get(key), str)
                and (new := replace_hex(values[key], change)) != values[key]
            }
            if patch:
                ops.append({"t": "set_style", "id": node["id"], "breakpoint": bp, "patch": patch})
    return ops


def accent_of(nodes: Sequence[Mapping[str, Any]]) -> str | None:
    """The page's accent colour: its first button's background, else its first link's colour.

    A contact link drawn as a button without a background (in the accent colour) counts
    as a link. The bands' ink is never the accent: a minimal page's dark buttons wear
    the colour of its words, and recolouring that would recolour every word.
    """
    ink = {
        first_hex(c)
        for n in nodes
        if n.get("parent") is None and isinstance(c := base_of(n).get("color"), str)
    }
    for kind, key in (("button", "background"), ("link", "color"), ("button", "color")):
        for node in nodes:
            value = base_of(node).get(key)
            if key == "color" and "background" in base_of(node):
                continue  # a label on its button's own ground
            if node.get("type") == kind and isinstance(value, str):
                found = first_hex(value)
                if found is not None and found not in ink:
                    return found
    return None


def first_hex(text: str) -> str | None:
    """The first ``#rgb``/``#rrggbb`` colour in ``text``, long form."""
    found: list[str] = []

    def keep(value: str) -> str:
        found.append(value)
        return value

    replace_hex(text, keep)
    return found[0] if found else None


def _ink_for(background: str) -> str:
    """The page's ink that reads best on ``background`` (a bright blue takes white, not black)."""
    ground = first_hex(background)
    if ground is None:
        return _LIGHT_INK
    return max((_LIGHT_INK, _DARK_INK), key=lambda ink: contrast(ink, ground))


#: The colours a person may name (what ``colour_of`` reads as our own hex values).
NAMED: Final = frozenset(NAMED_COLOURS.values())
#: The (band, card) colours of a dark and of a light page.
GROUNDS: Final = ((_DARK_BANDS, _DARK_CARDS), (_LIGHT_BANDS, _LIGHT_CARDS))


def on_grounds(accent: str, band: str, card: str) -> str:
    """``accent`` as words on ``band`` and ``card`` show it: darkened or lightened to 4.5:1 on both."""
    band_hex, card_hex = first_hex(band), first_hex(card)
    if band_hex is None or card_hex is None:
        return accent
    return legible(legible(accent, card_hex), band_hex)


def _shades(accent: str) -> set[str]:
    """The accent and its shades on the dark and the light page (words already moved to one)."""
    return {accent, *(on_grounds(accent, band, card) for band, card in GROUNDS)}


def _ground_of(value: str) -> str:
    """A colour by name as a ground: our pick, so its shade one of the page's inks reads on
    (a red or a pink in the middle of the scale reads with neither)."""
    if max(contrast(_DARK_INK, value), contrast(_LIGHT_INK, value)) < 4.5:
        return legible(value, _DARK_INK)
    return value


def _accent_of(value: str) -> str:
    """The accent ``value`` makes: a colour by name its shade white labels read on, a hex as given."""
    return legible(value, "#ffffff") if value in NAMED else value


def backgrounds(nodes: Sequence[Mapping[str, Any]], value: str) -> list[dict[str, Any]]:
    accent = accent_of(nodes)
    band, card, ink = {
        "dark": (_DARK_BANDS, _DARK_CARDS, _DARK_INK),
        "light": (_LIGHT_BANDS, _LIGHT_CARDS, _LIGHT_INK),
    }.get(value, (value, value, ""))
    if value in NAMED:
        band = card = _ground_of(value)
    ink = ink or _ink_for(band)
    # The accent's words, in whichever shade a page showed them, take the new ground's.
    shades = _shades(accent) if accent else set()
    shown = on_grounds(accent, band, card) if accent else None
    ops: list[dict[str, Any]] = []
    for node in nodes:
        background = base_of(node).get("background")
        if node.get("parent") is None:
            if isinstance(background, str) and accent and first_hex(background) == accent:
                continue  # an accent band (the call to action) keeps its colour
            patch = {"background": band, "color": ink}
        elif node.get("type") == "card":
            border = "1px solid #374151" if ink == _DARK_INK else "1px solid #e5e7eb"
            patch = {"background": card, "border": border}
        elif (
            node.get("type") != "button"
            and isinstance(background, str)
            and first_hex(background) not in (None, accent)
        ):
            # A panel inside a band (a price list's row): it goes with the cards, or its words
            # (in the band's new ink) would vanish on its old background.
            patch = {"background": card}
        elif (
            shown is not None
            and background is None
            and isinstance(colour := base_of(node).get("color"), str)
            and (words := first_hex(colour)) in shades
            and words != shown
        ):
            # Words in the accent (a contact link, a label, an hour) on the new ground: kept
            # at 4.5:1 against both the bands and the cards (teal on a dark card is not).
            patch = {"color": shown}
        else:
            continue
        ops.append({"t": "set_style", "id": node["id"], "breakpoint": "base", "patch": patch})
    return ops


def applied(nodes: Sequence[Mapping[str, Any]], ops: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``nodes`` (id, parent, type, base style) as ``ops``' base ``set_style`` patches leave them."""
    patches: dict[str, dict[str, Any]] = {}
    for op in ops:
        if op.get("t") == "set_style" and op.get("breakpoint") == "base":
            patches.setdefault(str(op["id"]), {}).update(op["patch"])
    return [
        {
            "id": n["id"],
            "parent": n.get("parent"),
            "type": n.get("type"),
            "style": {"base": {**base_of(n), **patches.get(str(n["id"]), {})}},
        }
        for n in nodes
    ]


def kept_legible(
    nodes: Sequence[Mapping[str, Any]], ops: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Ops giving each word ``ops`` moved onto another ground (or recoloured) its shade at 4.5:1."""
    after = applied(nodes, ops)
    before, now = word_grounds(nodes), word_grounds(after)  # only words the restyle moved
    return [
        {"t": "set_style", "id": node_id, "breakpoint": "base", "patch": {"color": colour}}
        for node_id, colour in legible_words(after).items()
        if before.get(node_id) != now.get(node_id)
    ]


def accent_ops(nodes: Sequence[Mapping[str, Any]], value: str) -> tuple[list[dict[str, Any]], str]:
    """The ops giving the page the accent ``value`` on every node wearing the accent, and what they do."""
    accent = accent_of(nodes)
    if accent is None:
        return [], "the page has no button or link whose colour is the accent"
    # Buttons carry white labels on the accent: a colour by name is our pick, so its
    # shade that keeps them at 4.5:1; a hex value the person gave is theirs, as given.
    new = _accent_of(value)
    # The accent's words on a dark or light page are its legible shade: they follow it.
    shades = {shade: on_grounds(new, band, card) for band, card in GROUNDS
              if (shade := on_grounds(accent, band, card)) != accent}  # fmt: skip
    shades[accent] = new
    ops = recolour(nodes, lambda h: shades.get(h, h))
    note = ""
    if new != value:
        note = f" (a darker shade of {value}, so white labels on it stay legible)"
    elif (ratio := contrast(new, "#ffffff")) < 4.5:
        note = f" (white labels on it read at {ratio:.1f}:1, below the 4.5:1 that keeps them legible)"
    return ops, f"changed the accent colour from {accent} to {new}{note}"


def _wears(colour: object, target: str) -> bool:
    """True when ``colour`` is ``target`` or near it (its hue within 15°, its value within 0.2):
    the part already wears the colour asked for ("more purple" on a purple hero)."""
    found = first_hex(colour) if isinstance(colour, str) else None
    if found is None:
        return False
    (h, s, v), (goal, s_goal, v_goal) = hsv(found), hsv(target)
    near = abs((h - goal + 0.5) % 1.0 - 0.5) < 15 / 360 and abs(v - v_goal) <= 0.2
    return found == target or (near and s >= 0.15 and s_goal >= 0.15)


def _tinted_with(colour: object, target: str) -> bool:
    """True when ``colour`` is a pale tint of ``target``'s hue (within 15°)."""
    found = first_hex(colour) if isinstance(colour, str) else None
    if found is None:
        return False
    (h, s, _v), goal = hsv(found), hsv(target)[0]
    return s >= 0.02 and abs((h - goal + 0.5) % 1.0 - 0.5) < 15 / 360


#: How strongly a tinted band shows the page's colour one step deeper ("more purple").
_DEEPER: Final = 0.22


def _tinted(nodes: Sequence[Mapping[str, Any]], skip: set[str | None]) -> list[Mapping[str, Any]]:
    """The bands (but ``skip``) whose ground is a pale tint of a colour: not white, not a colour."""
    out = []
    for node in nodes:
        ground = first_hex(str(base_of(node).get("background")))
        if node.get("parent") is None and node["id"] not in skip and ground is not None:
            _h, s, v = hsv(ground)
            if 0.02 <= s < 0.15 and v > 0.9:
                out.append(node)
    return out


def page_colour(nodes: Sequence[Mapping[str, Any]], value: str) -> tuple[list[dict[str, Any]], str]:
    """The page's colour made ``value``: its accent, the hero's ground and the tinted bands' shade.

    "Make it pinker" names no part: the page's colour is what a brief's colour
    sets (the hero, the accent, a pale shade on the tinted bands). Each that does
    not wear ``value`` yet takes it; when all of them do, the tinted bands take a
    deeper shade of it, once ("make it MORE purple" on a purple page).
    """
    ops = accent_ops(nodes, value)[0] if not _wears(accent_of(nodes), _accent_of(value)) else []
    after = applied(nodes, ops)
    view = PageView(after)
    hero = view.hero()
    ground = _ground_of(value) if value in NAMED else value
    if hero is not None and not _wears(base_of(view.by_id[hero]).get("background"), ground):
        ops += backgrounds([view.by_id[hero], *view.inside(hero)], value)
    tinted = _tinted(after, {hero})
    deeper = not ops
    if deeper:
        shade = pale(value, _DEEPER)
    else:
        shade = pale(value)
        tinted = [n for n in tinted if not _tinted_with(base_of(n).get("background"), value)]
    ops += [{"t": "set_style", "id": n["id"], "breakpoint": "base", "patch": {"background": shade}}
            for n in tinted if first_hex(str(base_of(n).get("background"))) != shade]  # fmt: skip
    if not ops:
        return [], f"the page already wears {value} (the banner, the buttons and the tinted sections)"
    if deeper:
        return ops, f"gave the tinted sections a deeper shade of {value} (the banner and the buttons wear it)"
    return ops, f"made the page's colour {value} (the banner, the buttons and links, the tinted sections)"
