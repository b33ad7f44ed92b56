"""``charlotte demo`` then ``charlotte serve`` in one folder: the builder shows what the demo made.

Real processes in a fresh folder (the two commands as a person types them)
and a real Chromium at 390 and 1280 px: the start view lists the demo's
session under the page key ``home``, Resume opens it, and the preview shows
the demo's page, its draft and its published copy.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from typing import Final

import pytest
from playwright.sync_api import expect
from tests.support.browser import chromium, watched_page

from charlotte.demo import SAMPLE_BRIEF

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]

CHARLOTTE: Final = [sys.executable, "-m", "charlotte.cli"]


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("CHARLOTTE_", "OPENAI_", "ANTHROPIC_"))}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("demo-then-serve")
    ran = subprocess.run(
        [*CHARLOTTE, "demo"], cwd=folder, env=_env(), capture_output=True, text=True, timeout=300
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    port = _free_port()
    process = subprocess.Popen(
        [*CHARLOTTE, "serve", "--port", str(port)],
        cwd=folder, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        assert line == f"charlotte builder on http://127.0.0.1:{port}/ (model offline)", line
        yield f"http://127.0.0.1:{port}"
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_builder_lists_the_demos_session_and_resume_shows_its_page(served: str, width: int) -> None:
    with chromium() as browser, watched_page(browser, width, 844 if width == 390 else 900) as watched:
        page = watched.page
        page.goto(served)
        expect(page.get_by_test_id("start-page")).to_have_value("home")
        listed = page.get_by_test_id("session-list")
        expect(listed).to_be_visible()
        expect(listed).to_contain_text(SAMPLE_BRIEF[:60])
        listed.get_by_role("button", name="Resume").first.click()
        expect(page.get_by_test_id("chat-log")).to_contain_text("Add an FAQ section")
        if width <= 768:
            page.get_by_test_id("tab-page").click()
        frame = page.frame_locator('[data-testid="preview-frame"]')
        expect(frame.locator("h1")).to_contain_text("Rosa")
        # The demo published its page: the published view shows it too.
        page.get_by_test_id("published-toggle").click()
        expect(page.get_by_test_id("preview-frame")).to_have_attribute("data-view", "published")
        expect(frame.locator("h1")).to_contain_text("Rosa")
        watched.assert_clean()
