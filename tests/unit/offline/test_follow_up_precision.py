"""The issue's follow-ups through a real Charlotte: exactly the value on the page, nothing else changed.

Each turn's draft is compared with the draft before it: only the nodes the request
names differ, and they hold the value the person gave and nothing more. A request
not understood changes nothing, is not called done, and the reply says what was
not understood in a sentence or two.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.unit.offline.follow_up_app import FACTS, Follow, Session, Turn

from charlotte.sections.colours import contrast

NEW = "01603 555 0177"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Follow]:
    made = Follow(Path(tmp_path_factory.mktemp("precise")) / "precise.db")
    yield made
    made.close()


@pytest.fixture
def session(app: Follow) -> Session:
    return app.open()


def changed_nodes(before: dict[str, Any], turn: Turn) -> set[str]:
    """The ids of the nodes the turn added, removed or changed (order aside)."""
    after = turn.nodes
    ids = set(before) | set(after)
    return {
        i for i in ids
        if {k: v for k, v in before.get(i, {}).items() if k != "order"}
        != {k: v for k, v in after.get(i, {}).items() if k != "order"}
    }  # fmt: skip


def draft(session: Session) -> dict[str, Any]:
    nodes: dict[str, Any] = session.handle.draft()["page"]["nodes"]
    return nodes


def ready_with_only(turn: Turn) -> None:
    assert turn.refused == [] and turn.ready, turn.reply
    assert "Not done" not in turn.reply and turn.reply.startswith("Done: ")


def not_done(turn: Turn, before: dict[str, Any]) -> None:
    assert turn.revision == turn.revision_before and not turn.ready
    assert "cms_apply" not in turn.calls and "cms_ready" not in turn.calls
    assert changed_nodes(before, turn) == set()
    assert "Done" not in turn.reply.replace("Not done", "")
    assert len(turn.reply.split()) < 70, turn.reply


@pytest.mark.parametrize(
    "message",
    [
        "The number on the page is wrong, it should be 01603 555 0177",
        "phone is 01603 555 0177 now",
        "Our phone number changed, it's now 01603 555 0177",
    ],
)
def test_a_phone_number_said_in_ordinary_words_is_exactly_the_value(session: Session, message: str) -> None:
    before = draft(session)

    turn = session.turn(message)

    ready_with_only(turn)
    phones = [w for w in turn.words() if "0113 496 0321" in w or NEW in w]
    assert phones and all("0113 496 0321" not in w for w in phones)
    assert turn.words("hero", "button") == [f"Call {NEW}"]
    # Only the nodes that showed the old number changed, and nothing but the number.
    shown = {i for i, n in before.items() if "0113 496 0321" in str(n.get("props"))}
    assert changed_nodes(before, turn) == shown
    for node_id in shown:
        old = {k: str(v) for k, v in before[node_id]["props"].items()}
        new = {k: str(v) for k, v in turn.nodes[node_id]["props"].items()}
        assert {k: v.replace("0113 496 0321", NEW).replace("01134960321", "01603555" "0177")
                for k, v in old.items()} == new  # fmt: skip


@pytest.mark.parametrize(
    ("message", "named"),
    [
        ("change the phone number to 0113 496 0550 ext 12", '"ext 12"'),
        ("don't change the phone number to 01603 555 0177", "don't"),
    ],
)
def test_a_phone_number_not_understood_changes_nothing(session: Session, message: str, named: str) -> None:
    before = draft(session)

    turn = session.turn(message)

    not_done(turn, before)
    assert named in turn.reply and "select it in the preview" in turn.reply


def test_asking_for_what_the_page_already_shows_claims_nothing(session: Session) -> None:
    before = draft(session)

    turn = session.turn("Set the headline to Crumb & Co")

    not_done(turn, before)
    assert "already" in turn.reply


def sizes(nodes: dict[str, Any], node_id: str) -> dict[str, float]:
    style = nodes[node_id].get("style", {})
    return {bp: v["fontSize"]["value"] for bp, v in style.items() if "fontSize" in v}


def test_bigger_text_is_a_bigger_font_never_more_words(session: Session) -> None:
    before = draft(session)

    turn = session.turn("Make the text bigger")

    ready_with_only(turn)
    texts = {i for i, n in before.items() if n["type"] == "text" and sizes(before, i)}
    assert changed_nodes(before, turn) == texts and texts
    for node_id in texts:
        assert turn.nodes[node_id]["props"] == before[node_id]["props"]
        was, now = sizes(before, node_id), sizes(turn.nodes, node_id)
        assert was.keys() == now.keys() and all(now[bp] > was[bp] for bp in was)


def test_bigger_text_on_phones_keeps_the_wider_sizes(session: Session) -> None:
    before = draft(session)

    turn = session.turn("the text is too small on phones")

    ready_with_only(turn)
    for node_id in changed_nodes(before, turn):
        was, now = sizes(before, node_id), sizes(turn.nodes, node_id)
        assert now["base"] > was["base"]
        # What a tablet or a desktop showed, it still shows.
        assert now.get("md", was.get("md", was["base"])) == was.get("md", was["base"])


def test_a_punchier_headline_is_a_shorter_one_and_the_look_stays(session: Session) -> None:
    session.edit([{"t": "set_node_props", "id": "hero-heading",
                   "patch": {"content": "Fresh sourdough in Leeds, baked every morning"}}])  # fmt: skip
    before = draft(session)

    turn = session.turn("make the headline punchier")

    ready_with_only(turn)
    assert changed_nodes(before, turn) == {"hero-heading"}
    assert turn.words("hero", "heading") == ["Fresh sourdough in Leeds"]
    assert turn.nodes["hero-heading"]["style"] == before["hero-heading"]["style"]


STUDIO_BRIEF = (
    "Stillpoint Yoga is a yoga studio in Leicester. The page should have classes, pricing and contact."
)
STUDIO_FACTS = {
    "name": "Stillpoint Yoga",
    "phone": "0116 496 0123",
    "pricing": "Drop-in class £12; Consultation £45",
}


@pytest.mark.parametrize(
    ("message", "row", "price"),
    [
        ("Consultations now cost £52", "Consultation", "£52"),
        ("the drop-in class is £14 now, not £12", "Drop-in class", "£14"),
        ("Drop-ins are £14 from next month, can you update it?", "Drop-in class", "£14"),
        ("consultations have gone up to £52 and the drop-in class is £14", "Consultation", "£52"),
    ],
)
def test_a_price_said_in_ordinary_words_changes_that_price_only(
    app: Follow, message: str, row: str, price: str
) -> None:
    session = app.open(facts=STUDIO_FACTS, brief=STUDIO_BRIEF)
    before = draft(session)
    [name] = [i for i, n in before.items() if n.get("props", {}).get("content") == row]
    [figure] = [i for i, n in before.items()
                if n["parent"] == before[name]["parent"] and i != name]  # fmt: skip

    turn = session.turn(message)

    ready_with_only(turn)
    figures = {i for i, n in before.items() if n["parent"] and i.endswith("-figure")
               and before[n["parent"]]["parent"] == before[before[figure]["parent"]]["parent"]}  # fmt: skip
    assert changed_nodes(before, turn) <= figures and figure in changed_nodes(before, turn)
    assert turn.nodes[figure]["props"]["content"] == price
    for node_id in changed_nodes(before, turn):
        assert turn.nodes[node_id]["props"]["content"] in ("£14", "£52")


def test_a_price_the_page_does_not_show_as_the_old_one_is_not_changed(app: Follow) -> None:
    session = app.open(facts=STUDIO_FACTS, brief=STUDIO_BRIEF)
    before = draft(session)

    turn = session.turn("the drop-in class is £14 now, not £10")

    not_done(turn, before)
    assert "£12" in turn.reply and "select it in the preview" in turn.reply


def roots(nodes: dict[str, Any]) -> list[str]:
    tops = [n for n in nodes.values() if n["parent"] is None]
    return [n["id"] for n in sorted(tops, key=lambda n: n["order"])]


def test_two_sections_are_swapped_and_nothing_else_moves(session: Session) -> None:
    before = draft(session)
    order = roots(before)
    menu, hours = order.index("menu"), order.index("opening-hours")

    turn = session.turn("swap the menu and the opening hours")

    ready_with_only(turn)
    order[menu], order[hours] = order[hours], order[menu]
    assert turn.roots() == order and changed_nodes(before, turn) == set()


def test_a_shorter_page_asks_which_section_first(session: Session) -> None:
    before = draft(session)

    turn = session.turn("make the page shorter")

    not_done(turn, before)
    assert "which section should go" in turn.reply.lower() and "Menu" in turn.reply


def test_a_longer_page_gets_back_the_section_it_lost(session: Session) -> None:
    session.edit([{"t": "remove_node", "id": "about-us"}])
    before = draft(session)

    turn = session.turn("make the page longer")

    ready_with_only(turn)
    added = set(turn.nodes) - set(before)
    assert added and changed_nodes(before, turn) == added
    assert turn.root_titled("About") is not None


def colours(nodes: dict[str, Any]) -> dict[tuple[str, str, str], str]:
    return {
        (i, bp, key): str(value)
        for i, n in nodes.items()
        for bp, values in n.get("style", {}).items()
        for key, value in values.items()
        if key in ("background", "color", "border")
    }


def test_blue_instead_replaces_the_accent_just_changed(session: Session) -> None:
    session.turn("change the accent colour to green")
    before = draft(session)

    turn = session.turn("use blue instead")

    ready_with_only(turn)
    was, now = colours(before), colours(turn.nodes)
    moved = {k for k in was if was[k] != now.get(k)}
    assert moved and "hero-button" in {k[0] for k in moved}
    assert "changed the accent colour from #15803d" in turn.reply
    assert [r for r in turn.roots() if turn.nodes[r]["style"] != before[r]["style"]] == []


def test_blue_instead_after_a_background_goes_to_that_background(session: Session) -> None:
    session.turn("Make the hero background navy.")
    before = draft(session)

    turn = session.turn("use blue instead")

    # The hero's background was changed: blue goes there, not to every band.
    assert turn.refused == [] and turn.revision > turn.revision_before
    assert "Done: gave the hero the background #2563eb" in turn.reply
    was, now = colours(before), colours(turn.nodes)
    assert {k for k in was if k[2] == "background" and was[k] == "#1e3a8a"} <= {
        k for k in now if now[k] == "#2563eb"
    }
    assert turn.nodes["hero-button"]["style"] == before["hero-button"]["style"]
    others = [r for r in turn.roots() if r != "hero"]
    assert [r for r in others if turn.nodes[r]["style"] != before[r]["style"]] == []


def test_a_colour_for_no_part_is_the_pages_colour_and_instead_follows_it(session: Session) -> None:
    before = draft(session)

    turn = session.turn("make it pinker!")

    assert turn.refused == [] and turn.revision > turn.revision_before
    assert "made the page's colour #db2777" in turn.reply
    hero = turn.nodes["hero"]["style"]["base"]
    assert hero["background"] != before["hero"]["style"]["base"]["background"]
    assert contrast(hero["color"], hero["background"]) >= 4.5
    # Every node it touched changed only its colours.
    for node_id, node in turn.nodes.items():
        if node != before[node_id]:
            assert {k for k in node if node[k] != before[node_id][k]} == {"style"}, node_id

    again = session.turn("use blue instead")
    assert "made the page's colour #2563eb" in again.reply


def test_blue_instead_with_no_colour_changed_before_is_the_pages_colour(session: Session) -> None:
    # "Instead" of the colour the page is in: the one a brief's colour sets (hero, accent, tints).
    before = draft(session)

    turn = session.turn("use blue instead")

    ready_with_only(turn)
    assert "the page's colour #2563eb" in turn.reply
    assert turn.nodes["hero-button"]["style"] != before["hero-button"]["style"]
    assert turn.nodes["hero"]["style"]["base"]["background"] == "#2563eb"


FACEBOOK = "https://www.facebook.com/crumbandco"


@pytest.fixture(scope="module")
def linking(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Follow]:
    """A host whose link policy lets pages link to Facebook."""
    made = Follow(Path(tmp_path_factory.mktemp("links")) / "links.db", ("https://www.facebook.com",))
    yield made
    made.close()


def test_the_first_page_links_the_facebook_it_shows_and_a_request_for_it_changes_nothing(linking: Follow) -> None:
    session = linking.open(facts={**FACTS, "facebook": FACEBOOK})
    before = draft(session)
    (made,) = [n for n in before.values() if n.get("props", {}).get("href") == FACEBOOK]
    assert made["type"] == "link" and made["props"]["content"] == FACEBOOK
    assert not any(n.get("props", {}).get("content") == FACEBOOK for n in before.values() if n["type"] == "text")
    assert "shown as words" not in session.first_reply

    turn = session.turn("add a link to our Facebook page")

    not_done(turn, before)
    assert "already links to Facebook" in turn.reply


def test_a_facebook_address_the_message_gives_is_added_to_contact(linking: Follow) -> None:
    session = linking.open(facts=FACTS)
    before = draft(session)

    turn = session.turn(f"add a link to our Facebook page: {FACEBOOK}")

    ready_with_only(turn)
    added = set(turn.nodes) - set(before)
    assert changed_nodes(before, turn) == added
    links = [n for n in turn.nodes.values() if n.get("props", {}).get("href") == FACEBOOK]
    assert len(links) == 1 and links[0] in turn.under("contact")
    assert "Facebook" in turn.words("contact")


def test_a_link_the_hosts_policy_does_not_allow_is_not_claimed(app: Follow) -> None:
    session = app.open(facts={**FACTS, "facebook": FACEBOOK})
    before = draft(session)
    # The first page showed the address as words, and said why it is not a link.
    assert any(n.get("props", {}).get("content") == FACEBOOK and n["type"] == "text" for n in before.values())
    assert "shown as words, not links: this site's link policy" in session.first_reply

    turn = session.turn("add a link to our Facebook page")

    assert turn.revision == turn.revision_before and not turn.ready
    assert changed_nodes(before, turn) == set() and turn.refused == ["external_link"]
    assert "The page refused this change (external_link: the link points to a site that is not on" in turn.reply
    assert "it would have made" in turn.reply and "Done" not in turn.reply.replace("Not done", "")


def test_a_link_with_no_address_anywhere_asks_for_it(session: Session) -> None:
    before = draft(session)

    turn = session.turn("add a link to our Facebook page")

    not_done(turn, before)
    assert "no Facebook address" in turn.reply


def test_a_corrected_headline_holds_the_new_words_only(session: Session) -> None:
    before = draft(session)

    turn = session.turn("the headline is wrong, it should be Fresh bread daily")

    ready_with_only(turn)
    assert changed_nodes(before, turn) == {"hero-heading"}
    assert turn.words("hero", "heading") == ["Fresh bread daily"]


def test_a_move_said_in_ordinary_words_changes_only_where_the_address_shows(session: Session) -> None:
    before = draft(session)
    old = "12 Kirkgate, Leeds LS1 6BY"

    turn = session.turn("we moved to 3 Briggate, Leeds LS1 6HD")

    ready_with_only(turn)
    shown = {i for i, n in before.items() if old in str(n.get("props"))}
    assert shown and changed_nodes(before, turn) == shown
    assert all("3 Briggate, Leeds LS1 6HD" in str(turn.nodes[i]["props"]) for i in shown)


def test_a_remark_after_a_comma_removes_nothing_it_names(session: Session) -> None:
    before = draft(session)

    turn = session.turn("Please remove the about us section, the opening hours are in the contact bit anyway")

    ready_with_only(turn)
    assert "about-us" not in turn.nodes and "opening-hours" in turn.nodes and "contact" in turn.nodes
    assert {i for i in changed_nodes(before, turn) if i in turn.nodes} == set()


def test_a_moved_section_alone_changes_its_key(session: Session) -> None:
    before = draft(session)
    order = roots(before)

    turn = session.turn("move contact to the top")

    ready_with_only(turn)
    keys = {i: n["order"] for i, n in turn.nodes.items() if n["parent"] is None}
    assert [i for i in keys if keys[i] != before[i]["order"]] == ["contact"]
    assert turn.roots() == [order[0], "contact", *[r for r in order[1:] if r != "contact"]]


def test_it_is_the_section_just_added(session: Session) -> None:
    turn = session.turn("add an FAQ and move it to the top")

    assert turn.refused == [] and turn.ready, turn.reply
    assert turn.roots()[1] == next(i for i in turn.nodes if i.startswith(("faq", "questions")))


def _sizes(node: dict[str, Any]) -> dict[str, float]:
    return {bp: v["fontSize"]["value"] for bp, v in node.get("style", {}).items() if "fontSize" in v}


def test_the_phone_number_bigger_and_the_rest_smaller_changes_font_sizes_only(session: Session) -> None:
    before = draft(session)

    turn = session.turn("make the phone number even bigger and the rest smaller")

    ready_with_only(turn)
    phones = {i for i, n in before.items() if str(n.get("props", {}).get("href", "")).startswith("tel:")}
    assert phones
    for node_id in changed_nodes(before, turn):
        was, now = before[node_id], turn.nodes[node_id]
        assert {k for k in now if now[k] != was[k]} == {"style"}, node_id
        grew = all(_sizes(now)[bp] > size for bp, size in _sizes(was).items())
        shrank = all(_sizes(now).get(bp, size) <= size for bp, size in _sizes(was).items())
        assert grew if node_id in phones else shrank, node_id
    assert phones <= changed_nodes(before, turn)


def _hours_rows(nodes: dict[str, Any]) -> list[str]:
    """The hours band's rows as they read, in order."""
    [band] = [i for i, n in nodes.items() if n["parent"] is None and "hours" in i]
    [listing] = [i for i, n in nodes.items() if n["parent"] == band and n["type"] == "stack"]

    def kids(parent: str) -> list[dict[str, Any]]:
        return sorted((n for n in nodes.values() if n["parent"] == parent), key=lambda n: n["order"])

    return [" ".join(k["props"]["content"] for k in kids(r["id"])) for r in kids(listing)]


def test_a_day_added_to_the_hours_joins_its_row_and_nothing_else_changes(session: Session) -> None:
    before = draft(session)
    assert _hours_rows(before) == ["Tue-Fri 08:00-16:00", "Sat 09:00-14:00"]

    turn = session.turn("We're open on Mondays now too, 8-4")

    ready_with_only(turn)
    assert _hours_rows(turn.nodes) == ["Mon-Fri 08:00-16:00", "Sat 09:00-14:00"]
    assert changed_nodes(before, turn) == {"opening-hours-row-1-name"}


def test_hours_it_cannot_place_change_nothing(session: Session) -> None:
    before = draft(session)
    turn = session.turn("we open at 2 on sundays")
    not_done(turn, before)
    assert "am or pm" in turn.reply
