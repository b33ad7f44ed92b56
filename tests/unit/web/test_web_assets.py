"""The builder page's files: shipped in the package, self-contained, wired to each other."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path

import pytest

from charlotte.events import EventTypes
from charlotte.http.page import WEB_ASSETS, WEB_MODULES

FILES = tuple(WEB_ASSETS)
SCRIPTS = tuple(name for name in FILES if name.endswith(".js"))

#: Every element the browser tests drive, by its ``data-testid``.
TEST_IDS = (
    "start-page",
    "start-brief",
    "start-approve",
    "start-button",
    "chat-input",
    "send-button",
    "stop-button",
    "publish-button",
    "published-toggle",
    "preview-frame",
    "revision",
    "status",
    "change-set",
    "approve-button",
    "reject-button",
    "chat-log",
    "error-banner",
)

# Anything that would make the browser fetch from another origin.
_EXTERNAL = re.compile(r"(?i)\b(?:https?|wss?|ftp):|(?<![:\w])//[\w.-]+\.[a-z]{2,}")


def _text(name: str) -> str:
    return resources.files("charlotte").joinpath("web", *name.split("/")).read_text("utf-8")


def _scripts() -> str:
    return "\n".join(_text(name) for name in SCRIPTS)


class _Tags(HTMLParser):
    """Every start tag of a document, with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags() -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(_text("index.html"))
    return parser.tags


@pytest.mark.parametrize("name", FILES)
def test_each_file_is_a_package_resource(name: str) -> None:
    resource = resources.files("charlotte").joinpath("web", *name.split("/"))
    assert resource.is_file()
    assert len(resource.read_text("utf-8").strip()) > 100


@pytest.mark.parametrize("name", FILES)
def test_each_file_is_in_the_package_data(name: str) -> None:
    # An installed wheel only holds what package-data names.
    pyproject = Path(__file__).resolve().parents[3] / "pyproject.toml"
    patterns = tomllib.loads(pyproject.read_text("utf-8"))["tool"]["setuptools"]["package-data"]
    assert any(fnmatch.fnmatch(f"web/{name}", pattern) for pattern in patterns["charlotte"])


def test_the_page_loads_its_stylesheet_and_module_by_relative_path() -> None:
    tags = _tags()
    styles = [a.get("href") for tag, a in tags if tag == "link" and a.get("rel") == "stylesheet"]
    scripts = [a for tag, a in tags if tag == "script"]
    assert styles == ["./builder.css"]
    assert [a.get("src") for a in scripts] == ["./builder.js"]
    assert scripts[0].get("type") == "module"


#: Modules that name URL schemes to judge links (``is_safe_href``): they fetch nothing.
SCHEME_JUDGES = ("js/hrefs.js",)


@pytest.mark.parametrize("name", FILES)
def test_nothing_is_fetched_from_another_origin(name: str) -> None:
    text = _text(name)
    if name in SCHEME_JUDGES:
        assert not re.search(r"\bfetch\(|\bimport\(|XMLHttpRequest|EventSource|WebSocket", text)
    else:
        assert _EXTERNAL.search(text) is None, _EXTERNAL.search(text)
    assert "@import" not in text


def test_external_url_detector_sees_what_it_must() -> None:
    for sample in ('src="https://cdn.example/x.js"', "url(//fonts.example.com/a.woff)", "import 'http://x.io/m.js'"):
        assert _EXTERNAL.search(sample) is not None, sample
    assert _EXTERNAL.search('fetch(endpoint("sessions/1"))') is None


def test_every_driven_element_has_one_test_id() -> None:
    ids = [a.get("data-testid") for _tag, a in _tags() if a.get("data-testid")]
    for test_id in TEST_IDS:
        assert ids.count(test_id) == 1, test_id


def test_no_module_finds_or_marks_an_element_by_test_id() -> None:
    # Test ids are the tests' hooks: the page finds its elements by id, role or name.
    for name in SCRIPTS:
        text = _text(name)
        assert re.search(r"(?i)test-?id", text) is None, name


def test_every_element_a_module_finds_by_id_is_in_the_page_once() -> None:
    ids = [a.get("id") for _tag, a in _tags() if a.get("id")]
    wanted = set(re.findall(r'\bbyId\("([^"]+)"\)', _scripts()))
    assert len(wanted) >= 40
    for element_id in wanted:
        assert ids.count(element_id) == 1, element_id


def test_the_preview_is_a_sandboxed_frame_without_scripts() -> None:
    frames = [a for tag, a in _tags() if tag == "iframe"]
    assert len(frames) == 1
    assert frames[0].get("data-testid") == "preview-frame"
    assert frames[0].get("id") == "preview-frame"
    sandbox = frames[0].get("sandbox")
    assert sandbox is not None
    assert "allow-scripts" not in sandbox


def test_the_script_listens_to_every_event_type() -> None:
    # An EventSource delivers a named event only to a listener of that name.
    found = re.search(r"EVENT_TYPES = Object\.freeze\(\[(.*?)\]\)", _text("js/stream.js"), re.S)
    assert found is not None
    assert tuple(re.findall(r'"([a-z_.]+)"', found.group(1))) == EventTypes.ALL


def test_the_script_never_parses_strings_as_html() -> None:
    script = _scripts()
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "DOMParser"):
        assert sink not in script, sink
    # The one parse: the preview's, by the sandboxed frame's own document (what srcdoc would parse).
    assert script.count("createContextualFragment") == 1
    assert "return frameDoc.createRange().createContextualFragment(html);" in _text("js/preview.js")


def test_the_script_shows_the_api_error_message() -> None:
    script = _scripts()
    assert "error.message" in script
    assert 'byId("error-banner")' in script


def test_every_module_the_page_imports_is_served_and_every_served_module_is_imported() -> None:
    # A module the server does not list is a 404 and the page does not start.
    imported = set(re.findall(r'from "\./(?:js/)?([a-z_]+)\.js"', _scripts()))
    assert imported == set(WEB_MODULES)
    folder = resources.files("charlotte").joinpath("web", "js")
    assert {entry.name for entry in folder.iterdir() if entry.name.endswith(".js")} == {
        f"{name}.js" for name in (*WEB_MODULES, *NOT_YET_SERVED)
    }
    assert not imported & set(NOT_YET_SERVED)


#: Modules shipped in ``web/js/`` but neither imported nor served (none now:
#: the page core's client copies are the store's and the preview's).
NOT_YET_SERVED: tuple[str, ...] = ()
