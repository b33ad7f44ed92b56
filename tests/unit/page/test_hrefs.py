"""Href safety: known XSS obfuscations refused, ordinary links accepted."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from charlotte.page.hrefs import MAX_HREF_LENGTH, external_origin, is_safe_href, serialised_origin

REFUSED = [
    # plain dangerous and unknown schemes
    "javascript:alert(1)",
    "javascript://%0Aalert(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "data:image/svg+xml,<svg onload=alert(1)>",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    "ftp://example.com/x",
    "blob:https://example.com/uuid",
    "chrome://settings",
    "intent://scan/#Intent;scheme=zxing;end",
    "sms:+123",
    "foo:bar",
    # mixed case
    "JavaScript:alert(1)",
    "JAVASCRIPT:alert(1)",
    "jAvAsCrIpT:alert(1)",
    "DATA:text/html,x",
    "VbScript:x",
    # whitespace and control characters inside the scheme
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "java\rscript:alert(1)",
    "jav\u0000ascript:alert(1)",
    "javascript\t:alert(1)",
    "j\na\tv\ra script:alert(1)",
    # leading spaces and control characters
    " javascript:alert(1)",
    "\tjavascript:alert(1)",
    "\x01javascript:alert(1)",
    "\x00javascript:alert(1)",
    "\x1fjavascript:alert(1)",
    "\u00a0javascript:alert(1)",
    "\ufeffjavascript:alert(1)",
    "\u200bjavascript:alert(1)",
    "\u2028javascript:alert(1)",
    # trailing or embedded whitespace anywhere
    "/about us",
    "https://example.com/ ",
    # entity-encoded schemes
    "&#106;avascript:alert(1)",
    "&#x6A;avascript:alert(1)",
    "&#0000106&#0000097vascript:alert(1)",
    "javascript&colon;alert(1)",
    "java&Tab;script:alert(1)",
    "&#x64;ata:text/html,x",
    # percent-encoded schemes
    "%6Aavascript:alert(1)",
    "%4A%41%56%41script:alert(1)",
    "javascript%3Aalert(1)",
    "%20javascript:alert(1)",
    "java%09script:alert(1)",
    "%256Aavascript:alert(1)",
    # backslashes
    "/\\evil.example/x",
    "\\\\evil.example",
    "https:\\\\evil.example",
    "https://example.com\\@evil.example/",
    # protocol-relative
    "//evil.example",
    "//evil.example/path",
    "///evil.example",
    # credentials that hide the real host
    "https://trusted.example@evil.example/",
    "http://user:pass@example.com/",
    # not a string, empty, overlong
    "",
    "/" + "a" * MAX_HREF_LENGTH,
]

ACCEPTED = [
    "/",
    "/about",
    "/about?x=1#team",
    "about",
    "./about",
    "../up",
    "#",
    "#top",
    "?page=2",
    "https://example.com",
    "https://example.com/a/b?c=d#e",
    "HTTPS://EXAMPLE.COM/",
    "http://example.com:8080/x",
    "https://bücher.example/",
    "mailto:hello@example.com",
    "mailto:hello@example.com?subject=Hi%20there",
    "MailTo:someone@example.com",
    "tel:+1-555-0100",
    "/search?q=javascript:alert",
    "/files/a%20b.pdf",
    "https://example.com/?next=javascript%3Aalert(1)",
    "/" + "a" * (MAX_HREF_LENGTH - 1),
]


def test_the_refusal_table_is_large_enough() -> None:
    assert len(REFUSED) >= 40


@pytest.mark.parametrize("href", REFUSED)
def test_known_obfuscations_are_refused(href: str) -> None:
    assert is_safe_href(href) is False


@pytest.mark.parametrize("href", ACCEPTED)
def test_ordinary_links_are_accepted(href: str) -> None:
    assert is_safe_href(href) is True


@pytest.mark.parametrize("value", [None, 1, b"/about", ["/"], {"href": "/"}, True])
def test_non_strings_are_refused(value: object) -> None:
    assert is_safe_href(value) is False


DANGEROUS = ["javascript", "vbscript", "data", "file"]
# Characters a browser strips before, or drops inside, a scheme.
LEADING = [chr(c) for c in range(0x21)] + ["\u00a0", "\ufeff", "\u200b", "\u3000"]
INSIDE = ["\t", "\n", "\r", "\x00", "\x0b", " ", "\u200b"]


@st.composite
def obfuscated(draw: st.DrawFn) -> str:
    scheme = draw(st.sampled_from(DANGEROUS))
    chars = [c.upper() if draw(st.booleans()) else c for c in scheme]
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(chars)))
        chars.insert(at, draw(st.sampled_from(INSIDE)))
    lead = "".join(draw(st.lists(st.sampled_from(LEADING), max_size=3)))
    encode = draw(st.sampled_from(["none", "entity", "percent"]))
    body = "".join(chars)
    if encode == "entity":
        body = f"&#{ord(body[0])};{body[1:]}"
    elif encode == "percent":
        # The first character's UTF-8 bytes, each as %XX (as a URL encodes it).
        body = "".join(f"%{byte:02X}" for byte in body[0].encode("utf-8")) + body[1:]
    payload = draw(st.sampled_from(["alert(1)", "//%0Aalert(1)", "text/html,<b>", "///etc"]))
    return f"{lead}{body}:{payload}"


@given(obfuscated())
def test_generated_obfuscations_are_refused(href: str) -> None:
    assert is_safe_href(href) is False


@given(st.text(max_size=60))
def test_never_raises_on_arbitrary_text(href: str) -> None:
    assert is_safe_href(href) in (True, False)
    assert external_origin(href, "https://site.example") is None or is_safe_href(href)


SITE = "https://site.example"


@pytest.mark.parametrize(
    ("href", "origin"),
    [
        ("https://example.com/a", "https://example.com"),
        ("HTTPS://EXAMPLE.COM/A", "https://example.com"),
        ("https://example.com:443/", "https://example.com"),
        ("http://example.com:80/", "http://example.com"),
        ("https://example.com:8443/x", "https://example.com:8443"),
        ("http://site.example/", "http://site.example"),
        ("https://site.example:444/", "https://site.example:444"),
        ("https://sub.site.example/", "https://sub.site.example"),
        ("https://bücher.example/", "https://xn--bcher-kva.example"),
        ("https://site.example/about", None),
        ("HTTPS://Site.Example:443/about", None),
        ("/about", None),
        ("about", None),
        ("#top", None),
        ("?q=1", None),
        ("https:about", None),
        ("mailto:a@example.com", None),
        ("tel:+1", None),
        ("javascript:alert(1)", None),
        ("//evil.example", None),
        ("", None),
    ],
)
def test_external_origin(href: str, origin: str | None) -> None:
    assert external_origin(href, SITE) == origin


def test_external_origin_site_with_port_and_case() -> None:
    assert external_origin("https://site.example:8443/x", "HTTPS://Site.Example:8443") is None
    assert external_origin("https://site.example/x", "https://site.example:8443") == (
        "https://site.example"
    )


def test_external_origin_with_an_unusable_site_origin_treats_every_host_as_external() -> None:
    assert external_origin("https://example.com/x", "") == "https://example.com"
    assert external_origin("https://example.com/x", "not a url") == "https://example.com"
    assert external_origin("/about", "") is None


def test_encoded_controls_are_refused() -> None:
    # Found by the generator: "&#0;" decodes to U+FFFD and hid the scheme.
    for href in ["&#0;data:alert(1)", "%00javascript:x", "&#9;javascript:x", "a%0Ab", "a%E2%80%8Bb"]:
        assert is_safe_href(href) is False


@pytest.mark.parametrize(
    ("text", "origin"),
    [
        ("https://admin.example.com", "https://admin.example.com"),
        ("HTTPS://Admin.Example.COM:443/", "https://admin.example.com"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("http://a.example:80", "http://a.example"),
        ("https://b\u00fccher.example", "https://xn--bcher-kva.example"),
        ("https://a.example/admin", None),
        ("https://a.example?x=1", None),
        ("https://a.example#top", None),
        ("https://user@a.example", None),
        ("https:a.example", None),
        ("//a.example", None),
        ("null", None),
        ("*", None),
        ("ftp://a.example", None),
        (" https://a.example", None),
        ("", None),
        (None, None),
    ],
)
def test_serialised_origin_spells_an_origin_as_a_browser_sends_it(text: object, origin: str | None) -> None:
    assert serialised_origin(text) == origin


@given(st.text(max_size=80))
def test_serialised_origin_never_raises(text: str) -> None:
    found = serialised_origin(text)
    assert found is None or serialised_origin(found) == found
