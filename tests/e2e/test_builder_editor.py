"""Editing the draft by hand in the builder page: a real Chromium against a real server.

One server, one browser page and one session (the offline builder's first
draft of the sample bakery) are shared by the whole module, so the tests run
in file order and each works on nodes of its own. Every edit is checked where
it lands: ``GET /draft`` read through the browser's own request context.
The last tests lay the page out at 1280, 1024, 768 and 390 px (with
``CHARLOTTE_DOCS_SCREENSHOTS=1`` they write the editing pictures of
``docs/builder.md``) and check that nothing went wrong in the console all along.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Route, expect
from tests.support.browser import WAIT_MS, chromium
from tests.support.browser_server import BrowserServer, serve_builder

from charlotte.demo import SAMPLE_BRIEF, SAMPLE_FACTS

FRAME: Final = '[data-testid="preview-frame"]'
SCREENSHOTS: Final = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
FIRST_MESSAGE: Final = "Build the first draft of the page from the brief."
#: Refusals the tests provoke on purpose; the browser logs each such answer as a console error.
EXPECTED_REFUSALS: Final = re.compile(r"/(edits|edits/undo|published|palette/section)$")
WAIT_S: Final = 20.0

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


@dataclass
class Editor:
    """The shared page, its server and session, and what went wrong in the console."""

    page: Page
    server: BrowserServer
    session: str
    problems: list[str] = field(default_factory=list)

    def draft(self) -> dict[str, Any]:
        answer = self.page.request.get(f"{self.server.url}/sessions/{self.session}/draft")
        assert answer.ok
        body: dict[str, Any] = answer.json()
        return body

    def nodes(self) -> dict[str, Any]:
        nodes: dict[str, Any] = self.draft()["page"]["nodes"]
        return nodes

    def edit(self, ops: list[dict[str, Any]]) -> dict[str, Any]:
        """An edit through the API, as another tab of the same person would send it."""
        answer = self.page.request.post(
            f"{self.server.url}/sessions/{self.session}/edits",
            data={"ops": ops, "basedOn": self.draft()["revision"]},
            headers={"Origin": self.server.url},
        )
        assert answer.ok, answer.text()
        body: dict[str, Any] = answer.json()
        return body

    def until(self, check: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        """Read the draft's nodes until ``check`` holds; fail saying ``what`` after a while."""
        deadline = time.monotonic() + WAIT_S
        while True:
            nodes = self.nodes()
            if check(nodes):
                return nodes
            if time.monotonic() > deadline:
                said = self.page.get_by_test_id("editor-notice").text_content()
                errors = self.page.locator('[data-testid="inspector"] .inspector-error').all_text_contents()
                errors.append(str(self.page.evaluate("Array.from(document.querySelectorAll('[data-testid=inspector] [data-prop] .inspector-input'), i => i.value)")))
                errors.append(str(self.page.evaluate("document.activeElement.outerHTML.slice(0, 120)")))
                errors.append(str(self.draft()["revision"]) + " " + str(self.page.get_by_test_id("outline-tree").get_attribute("data-revision")))
                raise AssertionError(f"the draft never showed {what} (notice {said!r}, fields {errors!r})")
            time.sleep(0.1)

    def settled(self) -> None:
        """Wait until the outline shows the draft's current revision (no redraw is on its way)."""
        expect(self.page.get_by_test_id("outline-tree")).to_have_attribute(
            "data-revision", str(self.draft()["revision"])
        )

    def row(self, node_id: str) -> Any:
        return self.page.locator(f'[data-testid="outline-tree"] [data-node="{node_id}"]')

    def select(self, node_id: str) -> None:
        self.row(node_id).click()
        expect(self.row(node_id)).to_have_attribute("aria-selected", "true")

    def in_frame(self, selector: str) -> Any:
        return self.page.frame_locator(FRAME).locator(selector)

    def expect_outlined(self, node_id: str, outlined: bool = True) -> None:
        """Wait until the frame's editor style outlines ``node_id`` (or no longer does)."""
        self.page.wait_for_function(
            """([id, outlined]) => {
                const frame = document.querySelector('[data-testid="preview-frame"]');
                const style = frame.contentDocument && frame.contentDocument.querySelector('style[data-editor]');
                if (!style) return false;
                return style.textContent.includes(`[data-cms="${id}"]{outline:2px solid`) === outlined;
            }""",
            arg=[node_id, outlined],
            timeout=WAIT_MS,
        )

    def prop_input(self, prop: str) -> Any:
        return self.page.locator(f'[data-testid="inspector"] [data-prop="{prop}"]').locator("input, textarea, select").first

    def style_input(self, key: str) -> Any:
        return self.page.locator(f'[data-testid="inspector"] .inspector-input[data-style="{key}"]')


def _wait_for(page: Page, check: Callable[[], bool], what: str) -> None:
    """Wait until ``check`` holds; the page's events (responses) keep arriving meanwhile."""
    deadline = time.monotonic() + WAIT_S
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never saw {what}")
        page.wait_for_timeout(50)


def _roots(nodes: dict[str, Any]) -> list[str]:
    return _children(nodes, None)


def _children(nodes: dict[str, Any], parent: str | None) -> list[str]:
    kids = [n for n in nodes.values() if n["parent"] == parent]
    return [n["id"] for n in sorted(kids, key=lambda n: (n.get("order") or "", n["id"]))]


@pytest.fixture(scope="module")
def editor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Editor]:
    with chromium() as browser, serve_builder(tmp_path_factory.mktemp("editor")) as server:
        yield from _open(browser, server)


def _open(browser: Browser, server: BrowserServer) -> Iterator[Editor]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, device_scale_factor=1)
    context.set_default_timeout(WAIT_MS)
    expect.set_options(timeout=WAIT_MS)
    page = context.new_page()
    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        expected = EXPECTED_REFUSALS.search(str(message.location.get("url", "")).split("?")[0])
        if message.type == "error" and not expected:
            problems.append(f"console: {message.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.goto(server.url)
    page.get_by_test_id("start-brief").fill(SAMPLE_BRIEF)
    for index, (key, value) in enumerate(SAMPLE_FACTS.items()):
        page.get_by_role("button", name="+ Add a fact").click()
        page.locator('[data-role="fact-key"]').nth(index).fill(key)
        page.locator('[data-role="fact-value"]').nth(index).fill(value)
    page.get_by_test_id("start-button").click()
    expect(page).to_have_url(re.compile(r"#session="))
    session = page.url.split("#session=")[1]
    page.get_by_test_id("chat-input").fill(FIRST_MESSAGE)
    page.get_by_test_id("send-button").click()
    expect(page.get_by_test_id("status")).to_have_text("idle")
    editor = Editor(page, server, session, problems)
    expect(editor.row("contact-address")).to_be_visible()
    try:
        yield editor
    finally:
        context.close()


# ------------------------------------------------------------------ select


def test_a_click_in_the_preview_selects_the_node_and_the_tree_shows_it(editor: Editor) -> None:
    page = editor.page
    editor.in_frame('[data-cms="hero-heading"] h1').click()
    expect(page.locator(".inspector-name")).to_have_text("Rosa's Bakery")
    expect(page.locator(".inspector-type")).to_have_text("heading")
    expect(editor.row("hero-heading")).to_have_attribute("aria-selected", "true")
    editor.expect_outlined("hero-heading")
    # A row of the tree selects too; Esc clears.
    editor.select("menu-note")
    expect(page.locator(".inspector-name")).to_have_text("Baked every morning.")
    editor.expect_outlined("menu-note")
    page.locator("#inspector-title").click()  # focus leaves the tree: Esc still clears
    page.keyboard.press("Escape")
    expect(page.locator('[data-testid="outline-tree"] [aria-selected="true"]')).to_have_count(0)
    expect(page.get_by_test_id("inspector")).to_be_empty()
    editor.expect_outlined("menu-note", outlined=False)


# ------------------------------------------------------------------ edit


def test_a_prop_typed_in_the_inspector_reaches_the_draft_and_the_outline_survives_the_reload(editor: Editor) -> None:
    editor.select("about-us-heading")
    field = editor.prop_input("content")
    expect(field).to_have_attribute("maxlength", "300")
    field.fill("About the bakery")
    field.press("Enter")
    editor.until(lambda n: n["about-us-heading"]["props"]["content"] == "About the bakery", "the new heading")
    expect(editor.in_frame('[data-cms="about-us-heading"]')).to_have_text("About the bakery")
    # The preview reloaded with the edit; the selection is outlined in the new document.
    editor.expect_outlined("about-us-heading")
    # A heading's level is chosen from 1 to 6, not typed.
    level = editor.prop_input("level")
    expect(level.locator("option:not([value=''])")).to_have_text(["1", "2", "3", "4", "5", "6"])
    level.select_option("3")
    editor.until(lambda n: n["about-us-heading"]["props"]["level"] == 3, "level 3")
    expect(editor.in_frame('[data-cms="about-us-heading"] h3')).to_have_text("About the bakery")


def test_a_double_click_edits_the_text_in_place_enter_saves_and_escape_cancels(editor: Editor) -> None:
    page = editor.page
    text = editor.in_frame('[data-cms="menu-note"]')
    text.dblclick()
    expect(text).to_have_attribute("contenteditable", "plaintext-only")
    page.keyboard.press("Control+a")
    page.keyboard.type("Baked fresh every morning.")
    page.keyboard.press("Enter")
    editor.until(lambda n: n["menu-note"]["props"]["content"] == "Baked fresh every morning.", "the text edited in place")
    expect(text).to_have_text("Baked fresh every morning.")
    expect(text).not_to_have_attribute("contenteditable", "plaintext-only")
    other = editor.in_frame('[data-cms="hero-text"]')
    other.dblclick()
    page.keyboard.press("Control+a")
    page.keyboard.type("Not this")
    page.keyboard.press("Escape")
    expect(other).to_have_text("A family bakery in Lisbon.")
    time.sleep(0.3)
    assert editor.nodes()["hero-text"]["props"]["content"] == "A family bakery in Lisbon."


# ------------------------------------------------------------------ style


def test_style_lands_in_the_breakpoint_of_the_device_and_shows_what_it_inherits(editor: Editor) -> None:
    page = editor.page
    editor.select("about-us-heading")
    page.get_by_test_id("device-tablet").click()
    expect(page.locator(".inspector-breakpoint")).to_have_text("Tablet (md)")
    padding = editor.style_input("padding")
    page.locator('[data-testid="inspector"] [data-style="padding"] .inspector-unit').select_option("rem")
    padding.fill("1.5")
    padding.press("Enter")
    nodes = editor.until(
        lambda n: n["about-us-heading"]["style"].get("md", {}).get("padding") == {"value": 1.5, "unit": "rem"},
        "padding 1.5rem at md",
    )
    assert "padding" not in nodes["about-us-heading"]["style"]["base"]
    assert "padding" not in nodes["about-us-heading"]["style"].get("lg", {})
    page.get_by_test_id("device-phone").click()
    expect(page.locator(".inspector-breakpoint")).to_have_text("Phone (base)")
    colour = editor.style_input("color")
    colour.fill("#aa3300")
    colour.press("Enter")
    editor.until(lambda n: n["about-us-heading"]["style"]["base"].get("color") == "#aa3300", "the colour at base")
    page.get_by_test_id("device-desktop").click()
    expect(page.locator(".inspector-breakpoint")).to_have_text("Desktop (lg)")
    padding_field = page.locator('[data-testid="inspector"] [data-style="padding"].inspector-field')
    expect(padding_field).to_have_attribute("data-inherited", "true")
    expect(padding_field).to_contain_text("Inherited from Tablet (md): 1.5rem")
    expect(page.locator('[data-testid="inspector"] [data-style="color"].inspector-field')).to_contain_text(
        "Inherited from Phone (base): #aa3300"
    )


# ------------------------------------------------------------------ structure


def test_a_node_of_a_type_is_added_after_the_selection(editor: Editor) -> None:
    page = editor.page
    editor.select("menu-note")
    before = set(editor.nodes())
    page.get_by_test_id("palette-type").select_option("button")
    page.get_by_test_id("palette-where").select_option("after")
    page.get_by_test_id("palette-add").click()
    nodes = editor.until(lambda n: len(n) == len(before) + 1, "a new node")
    (added,) = set(nodes) - before
    assert nodes[added]["type"] == "button" and nodes[added]["props"]["label"]
    siblings = _children(nodes, "menu")
    assert siblings[siblings.index("menu-note") + 1] == added
    expect(page.locator(".inspector-type")).to_have_text("button")
    expect(editor.row(added)).to_have_attribute("aria-selected", "true")


def test_a_whole_section_is_added_from_the_palette(editor: Editor) -> None:
    page = editor.page
    sections = page.get_by_test_id("palette-section")
    # A kind the brief and facts cannot fill is offered, but cannot be chosen.
    expect(sections.locator("option[disabled]").first).to_contain_text("nothing to fill it with")
    editor.select("about-us")
    before = _roots(editor.nodes())
    sections.select_option("faq")
    page.get_by_test_id("palette-add-section").click()
    nodes = editor.until(lambda n: len(_roots(n)) == len(before) + 1, "a new section")
    roots = _roots(nodes)
    (added,) = set(roots) - set(before)
    assert roots.index(added) == roots.index("about-us") + 1
    expect(page.get_by_test_id("editor-notice")).to_contain_text("Added the FAQ section.")
    expect(editor.row(added)).to_have_attribute("aria-selected", "true")


def test_move_up_and_down_and_a_drag_reorder_siblings(editor: Editor) -> None:
    page = editor.page
    editor.select("opening-hours")
    before = _roots(editor.nodes())
    at = before.index("opening-hours")
    page.get_by_test_id("editor-move-up").click()
    editor.until(lambda n: _roots(n).index("opening-hours") == at - 1, "the section one place up")
    editor.row("opening-hours").focus()
    page.keyboard.press("Alt+ArrowDown")
    editor.until(lambda n: _roots(n) == before, "the section back in its place")
    editor.settled()
    editor.row("menu-item-3").drag_to(editor.row("menu-item-1"), target_position={"x": 20, "y": 3})
    editor.until(
        lambda n: _children(n, "menu-grid") == ["menu-item-3", "menu-item-1", "menu-item-2"], "the card dragged first"
    )


def test_duplicate_copies_the_subtree_and_delete_removes_it(editor: Editor) -> None:
    page = editor.page
    editor.select("menu-item-2")
    before = set(editor.nodes())
    page.get_by_test_id("editor-duplicate").click()
    nodes = editor.until(lambda n: len(n) == len(before) + 2, "the card and its heading copied")
    copies = set(nodes) - before
    (card,) = [c for c in copies if nodes[c]["type"] == "card"]
    (title,) = [c for c in copies if c != card]
    assert nodes[title]["parent"] == card and nodes[title]["props"]["content"] == "Pastel de nata"
    grid = _children(nodes, "menu-grid")
    assert grid[grid.index("menu-item-2") + 1] == card
    expect(editor.row(card)).to_have_attribute("aria-selected", "true")
    editor.row(card).focus()
    page.keyboard.press("Delete")
    editor.until(lambda n: card not in n and title not in n, "the copy removed")
    # The copy was the last card: the one before it is selected now.
    expect(editor.row("menu-item-2")).to_have_attribute("aria-selected", "true")
    editor.select("menu-featured-1-label")
    page.keyboard.press("Backspace")
    editor.until(lambda n: "menu-featured-1-label" not in n, "the label removed")


def test_arrow_keys_move_the_selection_in_the_tree_and_in_the_preview(editor: Editor) -> None:
    page = editor.page
    editor.select("hero")
    for key, expected in [
        ("ArrowDown", "hero-heading"),
        ("ArrowDown", "hero-text"),
        ("ArrowLeft", "hero"),
        ("ArrowRight", "hero-heading"),
        ("ArrowUp", "hero"),
    ]:
        page.keyboard.press(key)
        expect(editor.row(expected)).to_have_attribute("aria-selected", "true")
        expect(editor.row(expected)).to_be_focused()
    editor.in_frame('[data-cms="about-us-text"]').click()
    expect(editor.row("about-us-text")).to_have_attribute("aria-selected", "true")
    page.keyboard.press("ArrowLeft")
    expect(editor.row("about-us")).to_have_attribute("aria-selected", "true")
    editor.expect_outlined("about-us")
    page.keyboard.press("Escape")
    expect(page.locator('[data-testid="outline-tree"] [aria-selected="true"]')).to_have_count(0)


# ------------------------------------------------------------------ undo


def test_ctrl_z_undoes_my_edit_and_shift_ctrl_z_redoes_it_and_a_conflict_is_said(editor: Editor) -> None:
    page = editor.page
    editor.select("contact-address")
    field = editor.prop_input("content")
    field.fill("Rua das Flores 14, Lisbon")
    field.press("Control+Enter")  # a text's content is a text area
    editor.until(lambda n: n["contact-address"]["props"]["content"].endswith("14, Lisbon"), "the new address")
    editor.row("contact-address").focus()
    page.keyboard.press("Control+z")
    editor.until(lambda n: n["contact-address"]["props"]["content"].endswith("12, Lisbon"), "the address undone")
    expect(field).to_have_value("Rua das Flores 12, Lisbon")
    page.keyboard.press("Control+Shift+z")
    editor.until(lambda n: n["contact-address"]["props"]["content"].endswith("14, Lisbon"), "the address redone")
    page.keyboard.press("Control+z")
    editor.until(lambda n: n["contact-address"]["props"]["content"].endswith("12, Lisbon"), "undone again")
    page.keyboard.press("Control+y")
    editor.until(lambda n: n["contact-address"]["props"]["content"].endswith("14, Lisbon"), "redone by Ctrl+Y")
    # A new edit empties the redo stack.
    page.keyboard.press("Control+z")
    expect(page.get_by_test_id("editor-redo")).to_be_enabled()
    editor.until(lambda n: n["contact-address"]["props"]["content"].endswith("12, Lisbon"), "undone once more")
    field.fill("Rua das Flores 14, Lisbon")
    field.press("Control+Enter")
    editor.until(lambda n: n["contact-address"]["props"]["content"].endswith("14, Lisbon"), "typed again")
    expect(page.get_by_test_id("editor-redo")).to_be_disabled(timeout=5000)
    editor.row("contact-address").focus()  # a field being typed in is not refreshed under the typist
    # A later write touched the node: the undo is refused, and the page says why.
    editor.edit([{"t": "set_node_props", "id": "contact-address", "patch": {"content": "Rua das Flores 16, Lisbon"}}])
    expect(field).to_have_value("Rua das Flores 16, Lisbon")
    editor.row("contact-address").focus()
    page.keyboard.press("Control+z")
    expect(page.get_by_test_id("editor-notice")).to_contain_text(
        "Could not undo: later changes touched Text “Rua das Flores 16, Lisbon”"
    )
    assert editor.nodes()["contact-address"]["props"]["content"] == "Rua das Flores 16, Lisbon"


# ------------------------------------------------------------------ the builder writes too


def test_a_stale_revision_is_read_again_and_the_edit_applied_once_more(editor: Editor) -> None:
    page = editor.page
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if r.url.endswith("/edits") else None)
    slipped = {"done": False}

    def write_first(route: Route) -> None:
        # Another write lands between the page's read and its edit.
        if not slipped["done"]:
            slipped["done"] = True
            editor.edit([{"t": "set_node_props", "id": "hero-text", "patch": {"content": "Written in between."}}])
        route.continue_()

    page.route("**/edits", write_first)
    try:
        editor.select("opening-hours-heading")
        field = editor.prop_input("content")
        field.fill("When we are open")
        field.press("Enter")
        nodes = editor.until(
            lambda n: n["opening-hours-heading"]["props"]["content"] == "When we are open", "the edit applied on retry"
        )
        assert nodes["hero-text"]["props"]["content"] == "Written in between."
        _wait_for(page, lambda: statuses[:2] == [409, 200], "a 409 answered, then a 200")
        # The node the edit names is gone by the time it is sent again: not applied, said so.
        slipped["done"] = False
        page.unroute("**/edits")

        def remove_first(route: Route) -> None:
            if not slipped["done"]:
                slipped["done"] = True
                editor.edit([{"t": "remove_node", "id": "opening-hours-row-1-figure"}])
            route.continue_()

        page.route("**/edits", remove_first)
        editor.select("opening-hours-row-1-figure")
        figure = editor.prop_input("content")
        figure.fill("7:00-16:00")
        figure.press("Tab")
        expect(page.get_by_test_id("editor-notice")).to_have_text(
            "The page changed meanwhile, so your edit was not applied."
        )
        editor.until(lambda n: "opening-hours-row-1-figure" not in n, "the node removed in between")
        # A whole section (nodes inserted under nodes of the same edit) is sent again too.
        page.unroute("**/edits")
        slipped["done"] = False
        page.route("**/edits", write_first)
        editor.select("about-us")
        roots = _roots(editor.nodes())
        statuses.clear()
        page.get_by_test_id("palette-section").select_option("location")
        page.get_by_test_id("palette-add-section").click()
        editor.until(lambda n: len(_roots(n)) == len(roots) + 1, "the section added on retry")
        _wait_for(page, lambda: statuses[:2] == [409, 200], "a 409 answered, then a 200")
    finally:
        page.unroute("**/edits")


def test_edits_land_while_a_turn_runs_and_the_selection_stays_when_the_builder_writes(editor: Editor) -> None:
    page = editor.page
    editor.server.pacer.hold()
    try:
        page.get_by_test_id("chat-input").fill("Add a gallery section")
        page.get_by_test_id("send-button").click()
        expect(page.get_by_test_id("status")).to_have_text("running")
        editor.select("contact-heading")
        field = editor.prop_input("content")
        field.fill("Find us")
        field.press("Enter")
        editor.until(lambda n: n["contact-heading"]["props"]["content"] == "Find us", "an edit during the turn")
        revision = editor.draft()["revision"]
    finally:
        editor.server.pacer.free()
    expect(page.get_by_test_id("status")).to_have_text("idle")
    assert editor.draft()["revision"] > revision
    expect(editor.row("contact-heading")).to_have_attribute("aria-selected", "true")
    expect(page.locator(".inspector-name")).to_have_text("Find us")


def test_an_unsafe_link_is_refused_in_words_beside_the_field(editor: Editor) -> None:
    page = editor.page
    editor.select("contact-phone")
    href = editor.prop_input("href")
    href.fill("javascript:alert(1)")
    href.press("Enter")
    error = page.locator('[data-testid="inspector"] [data-prop="href"] .inspector-error')
    expect(error).to_be_visible()
    expect(error).to_have_attribute("data-code", "unsafe_link")
    assert (error.text_content() or "").strip()
    expect(href).to_have_attribute("aria-invalid", "true")
    assert editor.nodes()["contact-phone"]["props"]["href"] == "tel:+351213456789"


# ------------------------------------------------------------------ layout


@pytest.mark.parametrize("width", [1280, 1024, 768, 390])
def test_the_editor_fits_and_send_and_publish_stay_reachable(editor: Editor, width: int, tmp_path: Path) -> None:
    page = editor.page
    page.set_viewport_size({"width": width, "height": 900 if width > 390 else 844})
    if width <= 768:
        page.get_by_test_id("tab-page").click()
    editor.select("menu-heading")
    expect(page.locator(".inspector-name")).to_have_text("Menu")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    for target in ("send-button", "publish-button", "chat-input"):
        expect(page.get_by_test_id(target)).to_be_in_viewport()
    if width < 1100:
        # Under the preview: the selected heading at the preview's foot, the inspector below it.
        page.locator(".stage").evaluate(
            "s => s.scrollTo(0, document.querySelector('[data-testid=\"editor\"]').offsetTop - s.clientHeight / 3)"
        )
    else:
        page.locator('[data-testid="editor"]').evaluate(
            "e => e.scrollTo(0, document.querySelector('.editor-inspector').offsetTop - 200)"
        )
    page.screenshot(path=str(tmp_path / f"builder-edit-{width}.png"))
    if os.environ.get("CHARLOTTE_DOCS_SCREENSHOTS") == "1" and width != 1024:  # the pictures of docs/builder.md
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"builder-edit-{width}.png"))
    # Viewing the published page hides the editor: edits are to the draft only.
    page.get_by_test_id("published-toggle").click()
    expect(page.get_by_test_id("editor")).to_be_hidden()
    page.get_by_test_id("published-toggle").click()
    expect(page.get_by_test_id("editor")).to_be_visible()
    page.set_viewport_size({"width": 1280, "height": 900})


def test_nothing_went_wrong_in_the_console(editor: Editor) -> None:
    assert editor.problems == []
