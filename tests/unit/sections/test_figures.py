"""A fact's entry splits into a row (name · figure) only where the figure is a price or a time."""

from __future__ import annotations

import time

import pytest

from charlotte.sections.brief import business_name
from charlotte.sections.facts import fact_items, quotes_in, split_figure


@pytest.mark.parametrize(
    ("entry", "row"),
    [
        ("Full service £95", ("Full service", "£95")),
        ("Wheel build from £90", ("Wheel build", "from £90")),
        ("Puncture repair — £12", ("Puncture repair", "£12")),
        ("Buttonholes £12 each", ("Buttonholes", "£12 each")),
        ("3 sessions £100", ("3 sessions", "£100")),
        ("Mon-Fri 8:30-17:30", ("Mon-Fri", "8:30-17:30")),
        ("Sat 10am-4pm", ("Sat", "10am-4pm")),
        ("Tue 9-5", ("Tue", "9-5")),
        ("Sun closed", ("Sun closed", None)),  # one cell, as a person reads it
        ("Ada Moss: physiotherapist", ("Ada Moss", "physiotherapist")),
        ("Monday: Norwich market 11-3", ("Monday", "Norwich market 11-3")),
        # No price and no time: the words stay whole, never "Children from age" · "6".
        ("Children from age 6", ("Children from age 6", None)),
        ("Free 20-minute trial", ("Free 20-minute trial", None)),
        ("Room for 2 people", ("Room for 2 people", None)),
        ("Open 7 days", ("Open 7 days", None)),
        # A number before a price is the name's ("NHS Band 1", never "NHS Band" · "1 £26.80");
        # a number with its currency after it is the price.
        ("NHS Band 1 £26.80", ("NHS Band 1", "£26.80")),
        ("Room 2 £40 per night", ("Room 2", "£40 per night")),
        ("Haircut 25 €", ("Haircut", "25 €")),
        ("Coupe dès 25€", ("Coupe dès", "25€")),
    ],
)
def test_an_entry_splits_only_at_a_price_or_a_time(entry: str, row: tuple[str, str | None]) -> None:
    assert split_figure(entry) == row


def test_a_list_keeps_each_entry_that_is_no_pair_whole() -> None:
    assert fact_items("Children from age 6; Free 20-minute trial; Drop-in class £12") == [
        ("Children from age 6", None),
        ("Free 20-minute trial", None),
        ("Drop-in class", "£12"),
    ]


def test_splitting_is_linear_in_the_entry() -> None:
    # Four times the entry takes about four times as long (a quadratic reader: sixteen); the
    # bound is loose, as the machine may be busy with other work.
    def took(n: int) -> float:
        started = time.perf_counter()
        split_figure(" ".join(["12"] * n))
        split_figure("1" * n + " x " + "9-" * n)
        return time.perf_counter() - started

    small, large = min(took(10_000) for _ in range(3)), min(took(40_000) for _ in range(3))
    assert large < 10 * small + 0.05, (small, large)


def test_a_name_ends_at_a_line_break() -> None:
    assert business_name("Rose \n Rose called Rose.", {}) != "Rose \n Rose"
    assert "\n" not in (business_name("Rose \n Rose Bakery is a bakery.", {}) or "")


@pytest.mark.parametrize(
    ("value", "items"),
    [
        # One name and its own comma list: one entry, the fact's words as written.
        ("Bootcamp: Tue & Thu 7am, Sat 9am on Hove Lawns",
         [(None, "Bootcamp: Tue & Thu 7am, Sat 9am on Hove Lawns")]),
        ("Drop-in clinic: Mondays, Wednesdays and Fridays",
         [(None, "Drop-in clinic: Mondays, Wednesdays and Fridays")]),
        # Several names with colons, or a comma before the colon: entries split at the commas.
        ("Mon: 9-5, Tue: 9-5", [("Mon", "9-5"), ("Tue", "9-5")]),
        ("Mon-Fri 8-6, Sat 9-1", [("Mon-Fri", "8-6"), ("Sat", "9-1")]),
        ("Yoga, Pilates: £8", [("Yoga", None), ("Pilates", "£8")]),
        ("Bootcamp: Tue 7am; Yoga: Sat 9am", [("Bootcamp", "Tue 7am"), ("Yoga", "Sat 9am")]),
    ],
)  # fmt: skip
def test_a_names_own_comma_list_stays_one_entry(
    value: str, items: list[tuple[str | None, str | None]]
) -> None:
    assert fact_items(value) == items


def test_days_listed_before_hours_share_them() -> None:
    # "Mon, Tue, Thu 10am-8pm" is one entry: the bare days before a comma are its days.
    assert fact_items("Mon, Tue, Thu 10am-8pm; Sat 9am-3pm") == [("Mon, Tue, Thu", "10am-8pm"), ("Sat", "9am-3pm")]
    assert fact_items("Tue-Sat 10:00-17:00, Sun 12:00-16:00, Mon closed") == [
        ("Tue-Sat", "10:00-17:00"), ("Sun", "12:00-16:00"), ("Mon closed", None),
    ]  # fmt: skip
    assert fact_items("Candles, Ceramics; Mon; Sat 9-5") == [("Candles", None), ("Ceramics", None), ("Mon", None), ("Sat", "9-5")]


@pytest.mark.parametrize(
    ("text", "quotes"),
    [
        ('"Came home to a spotless house, honestly life-changing" - Nadia',
         [("Came home to a spotless house, honestly life-changing", "Nadia")]),
        ("“Brilliant with our nervous collie” \u2013 Sam P.; \"Five stars\" - Jo",
         [("Brilliant with our nervous collie", "Sam P."), ("Five stars", "Jo")]),
        ("'Bella came back looking like a show dog' - Tina", [("Bella came back looking like a show dog", "Tina")]),
        ('"Top" - Al\n"Great service" - Bea', [("Top", "Al"), ("Great service", "Bea")]),
        ("“Worth every penny”", [("Worth every penny", None)]),
        # No quote marks, or words around the quotes: one quote, whole, nobody named.
        ("Great service, would recommend - Tom", [("Great service, would recommend - Tom", None)]),
        ("We're proud: 'best in town' says the Echo", [("We're proud: 'best in town' says the Echo", None)]),
        ("It's the team's best year", [("It's the team's best year", None)]),
    ],
)  # fmt: skip
def test_quotes_are_read_with_who_said_them_and_nothing_else_is_dropped(
    text: str, quotes: list[tuple[str, str | None]]
) -> None:
    assert quotes_in(text) == quotes
