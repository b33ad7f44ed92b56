"""Reading claims out of text and normalising them: one value per fact, whatever the format."""

# Page copy is typeset: the en dashes (U+2013) in the test data are deliberate.
# ruff: noqa: RUF001

from __future__ import annotations

from decimal import Decimal

import pytest

from charlotte.checks.amounts import currencies_match, digits_for_words, parse_amount
from charlotte.checks.claims import read
from charlotte.checks.contacts import parse_phone
from charlotte.checks.facts import Evidence


def claims(text: str) -> list[tuple[str, str]]:
    return [(f.kind, f.value) for f in read(text).found]


def supported(source: str, page: str) -> bool:
    evidence = Evidence(source, None)
    found = read(page).found
    assert found, f"nothing read from {page!r}"
    return all(evidence.supports(f) for f in found)


# --- amounts -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("12.50", "12.5"),
        ("12,50", "12.5"),
        ("1,299", "1299"),
        ("1.299", "1299"),
        ("1,299.00", "1299"),
        ("1.299,00", "1299"),
        ("1 299,00", "1299"),
        ("1'299.50", "1299.5"),
        ("0.125", "0.125"),
        ("1000", "1000"),
        ("5", "5"),
    ],
)
def test_amounts_read_either_separator_convention(text: str, value: str) -> None:
    assert parse_amount(text) == Decimal(value)
    assert str(parse_amount(text)) == value


def test_currency_marks_match_their_codes_and_generic_marks_match_each_member() -> None:
    assert currencies_match("$", "USD") and currencies_match("CAD", "$")
    assert currencies_match("¥", "JPY") and currencies_match(None, "EUR")
    assert not currencies_match("EUR", "GBP") and not currencies_match("$", "EUR")


# --- prices --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("$1,299", "$ 1299"),
        ("from $5", "$ 5"),
        ("12,50 €", "EUR 12.5"),
        ("€12.50", "EUR 12.5"),
        ("1.299,00 EUR", "EUR 1299"),
        ("EUR 1.299,00", "EUR 1299"),
        ("USD 9", "USD 9"),
        ("US$29", "USD 29"),
        ("£4.50", "GBP 4.5"),
        ("4.50 GBP", "GBP 4.5"),
        ("¥500", "¥ 500"),
        ("20 dollars", "$ 20"),
        ("5 euros", "EUR 5"),
        ("$5k", "$ 5000"),
        ("€2 million", "EUR 2000000"),
        ("129 kr", "kr 129"),
        ("CHF 12", "CHF 12"),
        ("6.50", "6.5"),
    ],
)
def test_prices_in_many_formats(text: str, value: str) -> None:
    assert claims(text) == [("price", value)]


def test_a_price_range_is_two_prices() -> None:
    assert claims("Cakes $25–$40") == [("price", "$ 25"), ("price", "$ 40")]
    assert claims("Cakes 25-40 €") == [("price", "EUR 25"), ("price", "EUR 40")]


@pytest.mark.parametrize(
    ("source", "page"),
    [
        ("Sourdough £4.50", "sourdough 4.50 GBP"),
        ("Pro plan USD 29", "Pro is $29.00"),
        ("Laptop 1.299,00 EUR", "€1,299"),
        ("Price: 12,50 €", "EUR 12.50"),
        ("Loaf 6.50", "$6.50"),  # an amount without currency in the brief backs any currency
        ("Coffee 3", "£3"),
    ],
)
def test_prices_are_supported_across_formats(source: str, page: str) -> None:
    assert supported(source, page)


@pytest.mark.parametrize(
    ("source", "page"),
    [("Sourdough £4.50", "€4.50"), ("Pro $29", "$39"), ("Cakes from £35", "£3.50")],
)
def test_a_different_currency_or_amount_is_not_supported(source: str, page: str) -> None:
    assert not supported(source, page)


def test_version_numbers_and_times_are_not_bare_prices() -> None:
    assert claims("Version 2.10 is out") == []
    assert claims("Lunch is served from 12.30") == []
    assert claims("Version\n  2.10, then 3.50 and at 4.20") == [("price", "3.5")]


def test_a_grouped_number_has_at_most_fifteen_digits() -> None:
    assert claims("1 234 567 890 123") == [("number", "1234567890123")]
    # More groups are no one number: spaced, they are read in pieces (nothing hides in them).
    assert claims("€1 234 567 890 123 456") == [("price", "EUR 1234567890123"), ("number", "456")]
    assert claims("1,234,567,890,123,456") == []


# --- phones ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "+44 20 7946 0958",
        "+44 (0)20 7946 0958",
        "020 7946 0958",
        "0044 20 7946 0958",
        "+442079460958",
        "020-7946-0958",
    ],
)
def test_uk_phone_formats_are_one_number(text: str) -> None:
    assert supported("Call +44 20 7946 0958", text)
    assert supported(text, "Call 020 7946 0958")


@pytest.mark.parametrize(
    "text",
    ["+1 (555) 010-2000", "555-010-2000", "(555) 010-2000", "555.010.2000", "1-555-010-2000"],
)
def test_us_phone_formats_are_one_number(text: str) -> None:
    assert claims(text)[0][0] == "phone"
    assert supported("+1 (555) 010-2000", text)


def test_a_different_country_code_or_number_is_not_supported() -> None:
    assert not supported("+44 20 7946 0958", "+33 20 7946 0958")
    assert not supported("+44 20 7946 0958", "020 7946 0959")


@pytest.mark.parametrize(
    "text",
    ["2019-2024", "1 000 000", "in 2019 and 2024", "10 - 12 14 - 18", "12345", "3.14159"],
)
def test_dates_ranges_and_plain_numbers_are_not_phones(text: str) -> None:
    assert "phone" not in [kind for kind, _ in claims(text)]


def test_phone_values() -> None:
    phone = parse_phone("+44 (0)20 7946 0958")
    assert phone is not None and phone.value == "+44 2079460958"
    assert parse_phone("2019-2024") is None
    assert parse_phone("5550102000") is None  # ten bare digits in prose: not a phone
    dialled = parse_phone("5550102000", dialled=True)  # but a tel: link is one
    assert dialled is not None and dialled.value == "5550102000"


# --- e-mail and web addresses ---------------------------------------------------------


def test_emails_compare_case_insensitively() -> None:
    assert claims("Write to Hello@RoseBakery.co.uk.") == [("email", "hello@rosebakery.co.uk")]
    assert supported("hello@rosebakery.co.uk", "HELLO@ROSEBAKERY.CO.UK")
    assert not supported("hello@rosebakery.co.uk", "orders@rosebakery.co.uk")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("https://www.RoseBakery.co.uk/menu/", "rosebakery.co.uk/menu"),
        ("www.rosebakery.co.uk", "rosebakery.co.uk"),
        ("rosebakery.co.uk/order.", "rosebakery.co.uk/order"),
        ("http://tally.example/docs?x=1#y", "tally.example/docs"),
    ],
)
def test_web_addresses(text: str, value: str) -> None:
    assert claims(text) == [("url", value)]


def test_web_addresses_are_supported_by_host_and_path() -> None:
    assert supported("Website: https://rosebakery.co.uk", "www.rosebakery.co.uk")
    assert supported("hello@rosebakery.co.uk", "rosebakery.co.uk")
    assert not supported("https://rosebakery.co.uk", "rosebakery.co.uk/secret-menu")
    assert not supported("https://rosebakery.co.uk", "rosebakery.com")


def test_the_site_origin_supports_any_address_on_it() -> None:
    evidence = Evidence("", None, "https://rosebakery.co.uk")
    (found,) = read("See rosebakery.co.uk/menu").found
    assert evidence.supports(found)


def test_ordinary_dotted_words_are_not_web_addresses() -> None:
    assert claims("Built with Node.js, e.g. for speed, i.e. fast. Ready.Set.Go") == []


# --- hours ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Mon–Fri 8am–6pm", "mon-fri 08:00-18:00"),
        ("Monday to Friday, 8:00-18:00", "mon-fri 08:00-18:00"),
        ("weekdays 8 a.m. – 6 p.m.", "mon-fri 08:00-18:00"),
        ("open daily 7–15", "daily 07:00-15:00"),
        ("Sat 9–1", "sat 09:00-13:00"),
        ("Sat & Sun 10am-4pm", "sat-sun 10:00-16:00"),
        ("8am–6pm weekdays", "mon-fri 08:00-18:00"),
        ("open 9–5pm", "09:00-17:00"),
        ("open 1–5pm", "13:00-17:00"),
        ("11am to 2", "11:00-14:00"),
        ("Fri noon–midnight", "fri 12:00-24:00"),
        ("Fri 8.30–17.30, closed weekends", "fri 08:30-17:30"),
        ("from 7am", "07:00"),
        ("Open 24/7", "daily 00:00-24:00"),
    ],
)
def test_hours_in_many_formats(text: str, value: str) -> None:
    assert claims(text) == [("hours", value)]


def test_days_attach_to_the_nearest_range() -> None:
    assert claims("Mon–Fri 8–18, Sat 9–13") == [
        ("hours", "mon-fri 08:00-18:00"),
        ("hours", "sat 09:00-13:00"),
    ]
    assert claims("8am–6pm weekdays, 9am–1pm Saturdays") == [
        ("hours", "mon-fri 08:00-18:00"),
        ("hours", "sat 09:00-13:00"),
    ]


@pytest.mark.parametrize(
    ("source", "page"),
    [
        ("Open Mon-Sat 7am to 3pm", "Open Monday–Saturday, 07:00–15:00"),
        ("Open Mon-Sat 7am to 3pm", "Saturdays 7am–3pm"),  # a subset of the days
        ("Open Mon-Sat 7am to 3pm", "open from 7am"),  # a range's start
        ("Hours: 7-15", "Mon–Fri 7am–3pm"),  # the source names no days
        ("Mon-Fri 8:00-18:00, Sat 9:00-13:00", "Sat 9am–1pm"),
    ],
)
def test_hours_are_supported_across_formats(source: str, page: str) -> None:
    assert supported(source, page)


@pytest.mark.parametrize(
    ("source", "page"),
    [
        ("Open Mon-Sat 7am to 3pm", "Sunday 7am–3pm"),
        ("Open Mon-Sat 7am to 3pm", "Mon–Sat 7am–4pm"),
        ("Open Mon-Sat 7am to 3pm", "open until 5pm"),
    ],
)
def test_other_days_or_times_are_not_supported(source: str, page: str) -> None:
    assert not supported(source, page)


def test_bare_ranges_away_from_hours_words_are_not_hours() -> None:
    assert claims("Kids aged 3–5 love it") == []
    assert claims("Open daily, ready in 3-5 minutes") == [
        ("number", "5 min")
    ]  # "3-5 minutes" is a duration, not opening hours


# --- percentages, years, numbers with units ------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("20%", "20%"),
        ("20 %", "20%"),
        ("20 percent", "20%"),
        ("12,5 %", "12.5%"),
        ("99.9%", "99.9%"),
    ],
)
def test_percentages(text: str, value: str) -> None:
    assert claims(text) == [("percent", value)]


def test_years_dates_and_copyright() -> None:
    assert claims("Since 1985") == [("year", "1985")]
    assert claims("Opened 2024-05-01") == [("year", "2024")]
    assert claims("Opened 01.05.2024") == [("year", "2024")]
    assert claims("© 2024 Rose Bakery") == []
    assert supported("Founded: 1985", "since 1985")
    assert supported("opened 1985-03-01", "since 1985")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("5 km", "5 km"),
        ("5km", "5 km"),
        ("5 kilometres", "5 km"),
        ("20 minutes", "20 min"),
        ("20 mins", "20 min"),
        ("a 20-minute walk", "20 min"),
        ("48h delivery", "48 h"),
        ("100+ customers", "100 customer"),
        ("3 locations", "3 location"),
        ("12 happy patients", "12 patient"),
        ("10k+ teams", "10000 team"),
        ("3x faster", "3 x"),
        ("4.9/5", "4.9/5"),
        ("4.9 out of 5", "4.9/5"),
        ("4.9 stars", "4.9/5"),
        ("1,200 loaves", "1200"),
        ("2 million invoices", "2000000"),
        ("ISO 27001", "27001"),
    ],
)
def test_numbers_with_units(text: str, value: str) -> None:
    assert claims(text) == [("number", value)]


@pytest.mark.parametrize(
    ("source", "page"),
    [
        ("within 5 km", "5 kilometres"),
        ("over 100 customers", "100+ customers"),
        ("12,000 freelancers", "12k freelancers"),
        ("locations: 3", "3 locations"),  # a plain number in the facts
        ("4.9 out of 5", "rated 4.9/5"),
    ],
)
def test_numbers_are_supported_across_formats(source: str, page: str) -> None:
    assert supported(source, page)


def test_a_unit_number_needs_the_same_unit_unless_the_source_number_is_bare() -> None:
    assert not supported("within 5 km", "5 minutes")
    assert not supported("20 years", "20 minutes")


def test_number_words_are_read_on_the_source_side() -> None:
    assert digits_for_words("three locations, twenty-five staff, two hundred seats") == (
        "3 locations, 25 staff, 200 seats"
    )
    assert claims("three locations") == []  # the page side reads digits only (a known limit)


def test_ordinals_small_numbers_and_steps_are_not_claims() -> None:
    assert claims("the 1st, 2nd and 21st century; step 3; #1; our 3 sisters; 2 recipes") == []
