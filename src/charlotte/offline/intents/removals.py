"""The intent on rows or a band taken off: "Please take the NHS fees off", "take the pass rate off".

"remove the NHS fees" (a price noun after words naming rows) removes the
priced rows whose names hold those words, never the whole price list; "take
the pass rate off" removes the band those words name (``RemoveSection``).
Rows whose price a text elsewhere also states, or every row of a list, are
not removed: the reply says so and points to the editor.
"""

from __future__ import annotations

from typing import Final

from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents.intent import FILLERS, REMOVE, Clause, Intent, Reading
from charlotte.offline.intents.price_places import name_words, places
from charlotte.offline.requests import RemoveRows, RemoveSection
from charlotte.sections.page_view import PageView

__all__ = ["REMOVE_ROWS"]

_PRICE_NOUNS: Final = frozenset({"fees", "prices", "price", "rates", "fee", "charges"})
_LEADS: Final = frozenset({"the", "our", "my", "all", "those", "these"})
_AFTER: Final = FILLERS | frozenset({"off", "page", "site", "website", "the", "from"})


def _read(clause: Clause) -> Reading | None:
    words = clause.words_of(clause.at, len(clause.lower))
    if not words or "\x00" in clause.text:
        return None
    if words[0] == "take" and "off" in words:
        at = words.index("off")
        target, rest = words[1:at], words[at + 1 :]
    elif words[0] in REMOVE:
        target, rest = words[1:], []
        while target and target[-1] in _AFTER - {"the"}:
            target = target[:-1]
    else:
        return None
    while target and target[0] in _LEADS:
        target = target[1:]
    if [w for w in rest if w not in _AFTER] or not target:
        return None
    if target[-1] in _PRICE_NOUNS and len(target) > 1:
        return Reading(91, (RemoveRows(" ".join(target[:-1])),))
    if words[0] == "take":
        return Reading(91, (RemoveSection(" ".join(target)),))
    return None


def _plan(request: RemoveRows, page: PageView, _context: Context) -> Edit | Refusal:
    item = set(name_words(request.item))
    found = [p for p in places(page) if item <= set(p.name)]
    rows = [p for p in found if str(p.node.get("id", "")).endswith("-figure")]
    if not rows:
        return Refusal(f'the page lists no prices named "{request.item}"')
    if len(rows) < len(found):
        return Refusal(f'a text on the page also states the "{request.item}" prices, so I left them; '
                       "you can remove them by hand")  # fmt: skip
    ids = [str(p.node.get("parent")) for p in rows]
    listing = {page.by_id[i].get("parent") for i in ids if i in page.by_id}
    siblings = [n for n in page.nodes if n.get("parent") in listing]
    if len(listing) != 1 or len(siblings) <= len(ids):
        return Refusal(f'the "{request.item}" prices are the whole list; remove the section instead')
    ops = tuple({"t": "remove_node", "id": i} for i in ids)
    shown = ", ".join(f"{page.words(n)} {p.price.text}" for p in rows
                      for n in page.nodes if n.get("parent") == p.node.get("parent") and n is not p.node)  # fmt: skip
    return Edit(ops, f"removed {len(ops)} price row{'s' if len(ops) > 1 else ''} ({shown})")


REMOVE_ROWS: Final = Intent(
    "remove price rows",
    _read,
    (RemoveRows,),
    _plan,
    "remove the prices the page lists by name (\"take the NHS fees off\")",
)
