"""The builder page follows the draft from the stream, without reading it again: a real Chromium, a real server.

Once the page has loaded, a hand edit, an agent turn and an undo each reach
the preview through the ``page.changed`` event's ops (``js/store.js``): the
browser sends no ``GET /draft``, and the frame's body is the server's
rendering of the draft, node for node, with the server's stylesheet. On a
page of about a thousand nodes a hand edit reads back one small answer and
the stream's event; the test prints how many bytes.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

import pytest
from playwright.sync_api import Page, Request, expect
from tests.support.browser import Watched, chromium, watched_page
from tests.support.browser_server import BrowserServer, serve_builder

from charlotte.demo import SAMPLE_BRIEF, SAMPLE_FACTS

FRAME: Final = '[data-testid="preview-frame"]'
FIRST_MESSAGE: Final = "Build the first draft of the page from the brief."
#: The node the offline builder's FAQ section is written under.
FAQ_NODE: Final = "questions"
#: The goal for a hand edit on a page of about a thousand nodes: what the browser reads back.
EDIT_BYTES_GOAL: Final = 4096
BULK_SECTIONS: Final = 5
BULK_PER_SECTION: Final = 199  # a section and its texts: 200 ops, one edit each

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


@dataclass
class Builder:
    """The shared page, its server and session, and every request the page sent."""

    page: Page
    server: BrowserServer
    session: str
    watched: Watched
    requests: list[str] = field(default_factory=list)

    def draft(self) -> dict[str, Any]:
        answer = self.page.request.get(f"{self.server.url}/sessions/{self.session}/draft")
        assert answer.ok
        body: dict[str, Any] = answer.json()
        return body

    def edit(self, ops: list[dict[str, Any]]) -> dict[str, Any]:
        answer = self.page.request.post(
            f"{self.server.url}/sessions/{self.session}/edits",
            data={"ops": ops, "basedOn": self.draft()["revision"]},
            headers={"Origin": self.server.url},
        )
        assert answer.ok, answer.text()
        body: dict[str, Any] = answer.json()
        return body

    def draft_reads(self, since: int) -> list[str]:
        return [seen for seen in self.requests[since:] if re.search(r"^GET .*/draft(\?|$)", seen)]

    def row(self, node_id: str) -> Any:
        return self.page.locator(f'[data-testid="outline-tree"] [data-node="{node_id}"]')

    def in_frame(self, selector: str) -> Any:
        return self.page.frame_locator(FRAME).locator(selector)

    def hand_edit(self, node_id: str, text: str) -> None:
        """Type ``text`` into the selected node's content field, as a person does."""
        self.row(node_id).click()
        expect(self.row(node_id)).to_have_attribute("aria-selected", "true")
        field = self.page.locator('[data-testid="inspector"] [data-prop="content"]').locator("input, textarea").first
        field.fill(text)
        field.press("Enter")

    def assert_preview_is_the_servers(self) -> None:
        """The frame shows the draft's current revision, and its body and styles are the server's rendering."""
        draft = self.draft()
        expect(self.page.locator(FRAME)).to_have_attribute("data-revision", str(draft["revision"]))
        expect(self.page.get_by_test_id("revision")).to_have_text(str(draft["revision"]))
        verdict = self.page.evaluate(
            """([html, css]) => {
                const frame = document.querySelector('[data-testid="preview-frame"]');
                const doc = frame.contentDocument;
                // The server's HTML parsed as the frame parses a body: equal markup, node for node.
                const parsed = doc.createElement("body");
                parsed.append(doc.createRange().createContextualFragment(html));
                const styles = doc.querySelector("style[data-cms-styles]").textContent;
                return {
                    body: parsed.innerHTML === doc.body.innerHTML,
                    nodes: doc.body.querySelectorAll("[data-cms]").length,
                    css: styles === css || styles === css.replaceAll("<", "\\\\3c "),
                };
            }""",
            [draft["html"], draft["css"]],
        )
        assert verdict["body"], "the preview's body is not the server's rendering of the draft"
        assert verdict["nodes"] == len(draft["page"]["nodes"])
        assert verdict["css"], "the preview's stylesheet is not the server's"


@pytest.fixture(scope="module")
def builder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Builder]:
    with (
        chromium() as browser,
        serve_builder(tmp_path_factory.mktemp("store")) as server,
        watched_page(browser, 1280, 900) as watched,
    ):
        page = watched.page
        requests: list[str] = []

        def on_request(request: Request) -> None:
            requests.append(f"{request.method} {request.url}")

        page.on("request", on_request)
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
        built = Builder(page, server, session, watched, requests)
        expect(built.row("contact-address")).to_be_visible()
        yield built


def test_the_page_reads_the_draft_once_and_the_first_turn_arrives_as_ops(builder: Builder) -> None:
    # The whole first turn (dozens of writes) came through the stream's events.
    assert len(builder.draft_reads(0)) == 1, builder.draft_reads(0)
    builder.assert_preview_is_the_servers()


def test_a_hand_edit_reaches_the_preview_without_reading_the_draft(builder: Builder) -> None:
    mark = len(builder.requests)
    builder.hand_edit("about-us-heading", "About the bakery")
    expect(builder.in_frame('[data-cms="about-us-heading"]')).to_have_text("About the bakery")
    builder.assert_preview_is_the_servers()
    # A style too: the stylesheet is the client's, equal to the server's.
    field = builder.page.locator('[data-testid="inspector"] .inspector-input[data-style="color"]')
    field.fill("#aa3300")
    field.press("Enter")
    builder.page.wait_for_function(
        """() => document.querySelector('[data-testid="preview-frame"]').contentDocument
            .querySelector("style[data-cms-styles]").textContent.includes("#aa3300")"""
    )
    builder.assert_preview_is_the_servers()
    sent = builder.requests[mark:]
    assert builder.draft_reads(mark) == [], sent
    assert [seen for seen in sent if seen.startswith("POST")] == [
        f"POST {builder.server.url}/sessions/{builder.session}/edits"
    ] * 2, sent


def test_an_agent_turn_reaches_the_preview_without_reading_the_draft(builder: Builder) -> None:
    mark = len(builder.requests)
    page = builder.page
    page.get_by_test_id("chat-input").fill("Add an FAQ section.")
    page.get_by_test_id("send-button").click()
    expect(page.get_by_test_id("status")).to_have_text("idle")
    expect(builder.in_frame(f'[data-cms="{FAQ_NODE}"]')).to_have_count(1)
    builder.assert_preview_is_the_servers()
    assert builder.draft_reads(mark) == [], builder.requests[mark:]


def test_an_undo_reaches_the_preview_without_reading_the_draft(builder: Builder) -> None:
    mark = len(builder.requests)
    page = builder.page
    # The person's own last edit (the colour), then the builder's FAQ turn from the chat.
    page.get_by_test_id("editor-undo").click()
    expect(page.get_by_test_id("editor-notice")).to_have_text("Undone.")
    builder.assert_preview_is_the_servers()
    page.get_by_test_id("chat-log").get_by_role("button", name="Undo this turn").last.click()
    expect(builder.in_frame(f'[data-cms="{FAQ_NODE}"]')).to_have_count(0)
    builder.assert_preview_is_the_servers()
    assert builder.draft_reads(mark) == [], builder.requests[mark:]


def test_a_hand_edit_on_a_thousand_node_page_reads_back_one_small_answer(builder: Builder) -> None:
    page = builder.page
    for section in range(BULK_SECTIONS):
        sid = f"bulk-{section}"
        ops: list[dict[str, Any]] = [
            {"t": "insert_node", "node": {"id": sid, "type": "section", "parent": None, "order": f"z{section}"}}
        ]
        ops += [
            {
                "t": "insert_node",
                "node": {
                    "id": f"{sid}-{n:03d}",
                    "type": "text",
                    "parent": sid,
                    "order": f"a{n:03d}",
                    "props": {"content": f"Line {n} of section {section}: fresh bread, every morning."},
                },
            }
            for n in range(BULK_PER_SECTION)
        ]
        builder.edit(ops)
    # The page opened afresh on the big draft: its one read, then the stream.
    page.reload()
    nodes = len(builder.draft()["page"]["nodes"])
    assert nodes >= 1000
    builder.assert_preview_is_the_servers()
    time.sleep(0.5)  # the replayed events after the conversation settle

    target = "bulk-2-100"
    # Choosing the node reads its quality findings once (js/quality.js): that is the selection's read, not the edit's.
    builder.row(target).scroll_into_view_if_needed()
    with page.expect_response(lambda r: r.url.endswith("/publish-preview")):
        builder.row(target).click()
    cdp = page.context.new_cdp_session(page)
    received: dict[str, int] = {}
    urls: dict[str, str] = {}
    cdp.on("Network.requestWillBeSent", lambda event: urls.__setitem__(event["requestId"], event["request"]["url"]))
    cdp.on(
        "Network.dataReceived",
        lambda event: received.__setitem__(
            event["requestId"], received.get(event["requestId"], 0) + int(event["dataLength"])
        ),
    )
    cdp.send("Network.enable")
    mark = len(builder.requests)
    builder.hand_edit(target, "Rye on Saturdays.")
    expect(builder.in_frame(f'[data-cms="{target}"]')).to_have_text("Rye on Saturdays.")
    builder.assert_preview_is_the_servers()
    page.wait_for_timeout(300)  # anything else the edit would read has been asked for by now
    cdp.detach()
    # The checks read GET /draft through the test's own request context, which the page's requests do not list.
    sent = builder.requests[mark:]
    assert sent == [f"POST {builder.server.url}/sessions/{builder.session}/edits"], sent
    total = sum(received.values())
    print(f"\na hand edit on a {nodes}-node page read back {total} bytes: "
          + ", ".join(f"{urls.get(rid, rid).rsplit('/', 1)[-1]} {size}" for rid, size in received.items()))
    assert total <= EDIT_BYTES_GOAL
    builder.watched.assert_clean()
