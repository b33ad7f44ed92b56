"""The facts check on realistic landing pages: supported facts pass, invented ones are caught."""

# Page copy is typeset: the en dashes (U+2013) in the test data are deliberate.
# ruff: noqa: RUF001

from __future__ import annotations

from typing import Any

import pytest

from charlotte.checks import Finding, PageChecks


def facts_findings(checks: PageChecks, doc: dict[str, Any]) -> list[tuple[str | None, str, str]]:
    return [(f.node, f.code, f.severity) for f in checks.run(doc, only=["facts"])]


# --- bakery -----------------------------------------------------------------------


def bakery_page(build: Any) -> dict[str, Any]:
    return build(
        ("h1", "heading", {"content": "Bread worth getting up for", "level": 1}),
        (
            "story",
            "text",
            {"content": "Baking in Bristol since 1985: three generations, one oven."},
        ),
        (
            "prices",
            "text",
            {
                "content": "A sourdough loaf is 4.50 GBP, a butter croissant £2.20, and "
                "celebration cakes start at GBP 35.00."
            },
        ),
        ("hours", "text", {"content": "Open Mon–Sat, 07:00–15:00."}),
        (
            "contact",
            "text",
            {"content": "Ring +44 117 496 0123 or write to Hello@RoseBakery.co.uk."},
        ),
        ("delivery", "text", {"content": "Free delivery within 5 kilometres of our 2 shops."}),
        ("call", "button", {"label": "Call the bakery", "href": "tel:+44-117-496-0123"}),
        (
            "mail",
            "link",
            {"content": "hello@rosebakery.co.uk", "href": "mailto:HELLO@rosebakery.co.uk"},
        ),
        ("order", "link", {"content": "rosebakery.co.uk/order", "href": "/order"}),
    )


def test_bakery_copy_that_restates_the_facts_in_other_formats_passes(
    build: Any, bakery: Any
) -> None:
    checks = bakery.checks()
    doc = bakery_page(build)
    assert facts_findings(checks, doc) == []
    # ...and it is not empty because nothing was read: every fact above is a claim.
    kinds = [c.kind for c in checks.facts(doc)]
    assert kinds.count("price") == 3 and kinds.count("phone") == 2 and kinds.count("email") == 3
    assert {"hours", "year", "number", "url"} <= set(kinds)


@pytest.mark.parametrize(
    ("copy", "code", "severity"),
    [
        ("Sourdough loaves from £3.95.", "unsupported_price", "error"),
        ("Celebration cakes from $35.", "unsupported_price", "error"),
        ("Questions? Call 0117 496 9999.", "unsupported_phone", "error"),
        ("Order at orders@rosebakery.com.", "unsupported_email", "error"),
        ("See www.rosebakery-cakes.com for cakes.", "unsupported_url", "error"),
        ("Open Sundays 8am–1pm.", "unsupported_hours", "warning"),
        ("Open Sunday 7am–3pm too.", "unsupported_hours", "warning"),
        ("Open until 8pm.", "unsupported_hours", "warning"),
        ("10% off your first order.", "unsupported_percent", "warning"),
        ("Family-run since 1979.", "unsupported_year", "warning"),
        ("Over 500 happy customers every week.", "unsupported_number", "warning"),
        ("Free delivery within 10 km.", "unsupported_number", "warning"),
    ],
)
def test_bakery_invented_facts_are_caught(
    build: Any, bakery: Any, copy: str, code: str, severity: str
) -> None:
    doc = build(("h1", "heading", {"content": "Rose Bakery"}), ("claim", "text", {"content": copy}))
    assert facts_findings(bakery.checks(), doc) == [("claim", code, severity)]


def test_an_invented_phone_in_a_tel_link_is_caught(build: Any, bakery: Any) -> None:
    doc = build(("call", "button", {"label": "Call us", "href": "tel:+441174969999"}))
    assert facts_findings(bakery.checks(), doc) == [("call", "unsupported_phone", "error")]


def test_an_invented_address_in_a_mailto_link_is_caught(build: Any, bakery: Any) -> None:
    doc = build(
        ("mail", "link", {"content": "Write to us", "href": "mailto:cakes@rosebakery.co.uk"})
    )
    assert facts_findings(bakery.checks(), doc) == [("mail", "unsupported_email", "error")]


# --- dentist ----------------------------------------------------------------------


def dentist_page(build: Any) -> dict[str, Any]:
    return build(
        ("h1", "heading", {"content": "Gentle dental care in the heart of Leeds", "level": 1}),
        (
            "fees",
            "text",
            {
                "content": "Book a check-up for £45.00 or a hygiene appointment for 65 GBP. "
                "Teeth whitening: £295."
            },
        ),
        ("open", "callout", {"content": "Open weekdays 8am–6pm and Saturdays 9am–1pm."}),
        ("call", "text", {"content": "Call 0113 496 0456; for emergencies, 07700 900 123."}),
        (
            "team",
            "text",
            {"content": "Our 4 dentists and 2 hygienists look after the whole family."},
        ),
        ("stars", "text", {"content": "Rated 4.9/5 by our patients across 300 reviews."}),
        ("mail", "text", {"content": "Questions? reception@harbourdental.co.uk"}),
        ("photo", "image", {"asset": "team", "alt": "The Harbour Dental team at reception"}),
    )


def test_dentist_copy_that_restates_the_facts_passes(build: Any, dentist: Any) -> None:
    checks = dentist.checks()
    doc = dentist_page(build)
    assert facts_findings(checks, doc) == []
    values = {c.value for c in checks.facts(doc)}
    assert {"GBP 45", "GBP 65", "mon-fri 08:00-18:00", "sat 09:00-13:00", "4.9/5"} <= values


@pytest.mark.parametrize(
    ("copy", "code", "severity"),
    [
        ("Teeth whitening from £199.", "unsupported_price", "error"),
        ("Check-ups are 45 EUR.", "unsupported_price", "error"),
        ("Call 0113 496 0000 to book.", "unsupported_phone", "error"),
        ("Call +33 113 496 0456 to book.", "unsupported_phone", "error"),
        ("Email bookings@harbourdental.com.", "unsupported_email", "error"),
        ("Open until 8pm on Thursdays.", "unsupported_hours", "warning"),
        ("Emergency line open 24/7.", "unsupported_hours", "warning"),
        ("Open Saturdays 9am–5pm.", "unsupported_hours", "warning"),
        ("95% of patients recommend us.", "unsupported_percent", "warning"),
        ("Our 6 dentists are here for you.", "unsupported_number", "warning"),
        ("Rated 4.8/5 by patients.", "unsupported_number", "warning"),
    ],
)
def test_dentist_invented_facts_are_caught(
    build: Any, dentist: Any, copy: str, code: str, severity: str
) -> None:
    doc = build(
        ("h1", "heading", {"content": "Harbour Dental"}), ("claim", "text", {"content": copy})
    )
    assert facts_findings(dentist.checks(), doc) == [("claim", code, severity)]


# --- SaaS -------------------------------------------------------------------------


def saas_page(build: Any) -> dict[str, Any]:
    return build(
        ("h1", "heading", {"content": "Invoices that chase themselves", "level": 1}),
        ("plans", "text", {"content": "Starter is USD 9 a month, Pro is US$29, Team is $79.00."}),
        ("trial", "text", {"content": "Try it free for 14 days, no credit card needed."}),
        ("sla", "text", {"content": "99.9 % uptime, backed by our SLA."}),
        ("proof", "text", {"content": "Trusted by 12,000+ freelancers in 40 countries."}),
        ("help", "text", {"content": "Questions? support@TALLY.example or +1 555-010-2000."}),
        (
            "story",
            "text",
            {"content": "Built in 2019 by two freelancers who hated chasing invoices."},
        ),
        ("apps", "text", {"content": "Connect Stripe, PayPal, Xero and 30+ integrations."}),
        ("docs", "link", {"content": "Read the docs at tally.example/docs", "href": "/docs"}),
        (
            "api",
            "code",
            {
                "content": "curl https://api.tally.example/v2/invoices -d amount=1999 # 443",
                "lang": "sh",
            },
        ),
    )


def test_saas_copy_that_restates_the_facts_passes(build: Any, saas: Any) -> None:
    checks = saas.checks()
    doc = saas_page(build)
    assert facts_findings(checks, doc) == []
    values = {c.value for c in checks.facts(doc)}
    assert {"USD 9", "USD 29", "$ 79", "99.9%", "14 day", "+1 5550102000"} <= values


def test_code_blocks_are_not_read_for_facts(build: Any, saas: Any) -> None:
    doc = saas_page(build)
    assert not [c for c in saas.checks().facts(doc) if c.node == "api"]


@pytest.mark.parametrize(
    ("copy", "code", "severity"),
    [
        ("Pro is $25/month.", "unsupported_price", "error"),
        ("Team costs €79 a month.", "unsupported_price", "error"),
        ("Talk to sales: +1 (555) 010-9999.", "unsupported_phone", "error"),
        ("Write to sales@tally.example.", "unsupported_email", "error"),
        ("Follow us at twitter.com/tallyapp.", "unsupported_url", "error"),
        ("Save 20% with annual billing.", "unsupported_percent", "warning"),
        ("Trusted by 50,000 freelancers.", "unsupported_number", "warning"),
        ("Over 2 million invoices sent.", "unsupported_number", "warning"),
        ("Get paid 3x faster.", "unsupported_number", "warning"),
        ("Set up in 5 minutes.", "unsupported_number", "warning"),
        ("Support 9am–5pm.", "unsupported_hours", "warning"),
    ],
)
def test_saas_invented_facts_are_caught(
    build: Any, saas: Any, copy: str, code: str, severity: str
) -> None:
    doc = build(("h1", "heading", {"content": "Tally"}), ("claim", "text", {"content": copy}))
    assert facts_findings(saas.checks(), doc) == [("claim", code, severity)]


# --- prose, messages, repeats -------------------------------------------------------


PROSE = (
    "We are three sisters who started with one oven and 2 recipes. Step 1: mix. Step 2: "
    "wait. Our 1st shop opened on a rainy Tuesday, and it is still our #1 favourite. "
    "Chapter 3 of our story is yours to write. Web 2.0? Windows 11? We would rather bake. "
    "Kids aged 3–5 love our cookie class, and our 3 sisters still argue about the 2nd batch. "
    "Come by with 4 friends or 12, we will find a table."
)


@pytest.mark.parametrize("checks", [PageChecks(), PageChecks(brief="A bakery.", facts={})])
def test_no_false_positives_on_ordinary_prose(build: Any, checks: PageChecks) -> None:
    doc = build(
        ("h1", "heading", {"content": "Our story", "level": 1}), ("p", "text", {"content": PROSE})
    )
    assert checks.facts(doc) == []
    assert checks.run(doc) == []


def test_a_number_in_the_brief_verbatim_is_supported(build: Any) -> None:
    checks = PageChecks(brief="Our sourdough has proved for 36 hours; the oven runs at 250°C.")
    doc = build(("p", "text", {"content": "Proved for 36 hours, baked at 250°C."}))
    assert checks.facts(doc) != []
    assert checks.run(doc, only=["facts"]) == []


def test_numbers_written_as_words_in_the_brief_support_digits_on_the_page(build: Any) -> None:
    checks = PageChecks(brief="We have three locations and twenty-five staff.")
    doc = build(("p", "text", {"content": "3 locations, 25 staff."}))
    assert checks.run(doc, only=["facts"]) == []


def test_the_message_quotes_the_claim_and_the_same_claim_is_reported_once_per_node(
    build: Any,
) -> None:
    doc = build(("p", "text", {"content": "Loaves £3.95. Yes, really: £3.95!"}))
    findings = PageChecks().run(doc, only="facts")
    assert findings == [
        Finding(
            "facts",
            "p",
            "error",
            "unsupported_price",
            'The price "£3.95" is not in the brief or the facts.',
        )
    ]


def test_long_claims_are_shortened_in_messages(build: Any) -> None:
    url = "https://example.com/" + "a" * 200
    (finding,) = PageChecks().run(build(("p", "text", {"content": url})), only=["facts"])
    assert len(finding.message) < 140 and "…" in finding.message
