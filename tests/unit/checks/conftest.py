"""Page builders and the three landing-page scenarios (bakery, dentist, SaaS) for the checks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from charlotte.checks import PageChecks
from charlotte.page.assets import InMemoryAssetLibrary
from charlotte.page.ordering import key_between

Item = tuple[str, str, dict[str, Any]] | dict[str, Any]
Build = Callable[..., dict[str, Any]]


def build_page(*items: Item) -> dict[str, Any]:
    """A page with one root section ``main`` holding ``items`` in order.

    An item is ``(id, type, props)`` or a whole node dict (parent/order filled in
    when missing).
    """
    nodes: dict[str, Any] = {
        "main": {
            "id": "main",
            "type": "section",
            "parent": None,
            "order": "V",
            "props": {},
            "style": {"base": {}},
        }
    }
    order: str | None = None
    for item in items:
        order = key_between(order, None)
        if isinstance(item, dict):
            node = {"parent": "main", "order": order, "props": {}, "style": {"base": {}}, **item}
        else:
            node_id, node_type, props = item
            node = {
                "id": node_id,
                "type": node_type,
                "parent": "main",
                "order": order,
                "props": props,
                "style": {"base": {}},
            }
        nodes[node["id"]] = node
    meta = {"title": "Home", "slug": "/", "seo": {"description": "The home page."}}
    return {"id": "home", "seq": 0, "meta": meta, "nodes": nodes}


@pytest.fixture
def build() -> Build:
    """The page builder (see ``build_page``)."""
    return build_page


@dataclass(frozen=True)
class Scenario:
    """A business: its brief, its facts, and the checks built from them."""

    brief: str
    facts: dict[str, str]
    site_origin: str

    def checks(self, **overrides: Any) -> PageChecks:
        """``PageChecks`` for this business (asset library with ``hero`` and ``team``)."""
        options: dict[str, Any] = {
            "brief": self.brief,
            "facts": self.facts,
            "site_origin": self.site_origin,
            "assets": InMemoryAssetLibrary({"hero": "/media/hero.jpg", "team": "/media/team.jpg"}),
        }
        options.update(overrides)
        return PageChecks(**options)


BAKERY = Scenario(
    brief=(
        "Landing page for Rose Bakery, a family-run bakery in Bristol since 1985. Warm, "
        "friendly tone. Prices: sourdough loaf £4.50, butter croissant £2.20, celebration "
        "cakes from £35. Open Monday to Saturday 7am to 3pm."
    ),
    facts={
        "phone": "0117 496 0123",
        "email": "hello@rosebakery.co.uk",
        "website": "https://rosebakery.co.uk",
        "address": "12 Mill Lane, Bristol BS1 4DJ",
        "delivery": "Free delivery within 5 km",
        "shops": "2",
    },
    site_origin="https://rosebakery.co.uk",
)

DENTIST = Scenario(
    brief=(
        "Website for Harbour Dental, a family dental practice in Leeds. Calm, reassuring "
        "tone. Check-up £45, hygiene appointment £65, teeth whitening £295. New patients "
        "welcome."
    ),
    facts={
        "phone": "+44 113 496 0456",
        "emergency_phone": "07700 900123",
        "email": "reception@harbourdental.co.uk",
        "opening_hours": "Mon-Fri 8:00-18:00, Sat 9:00-13:00",
        "team": "4 dentists and 2 hygienists",
        "rating": "4.9 out of 5 from 300 reviews",
    },
    site_origin="https://harbourdental.co.uk",
)

SAAS = Scenario(
    brief=(
        "Landing page for Tally, invoicing software for freelancers. Plans: Starter $9/month, "
        "Pro $29/month, Team $79/month. 14-day free trial, no credit card. 99.9% uptime SLA. "
        "Trusted by 12,000 freelancers in 40 countries."
    ),
    facts={
        "support_email": "support@tally.example",
        "sales_phone": "+1 (555) 010-2000",
        "website": "https://tally.example",
        "founded": "2019",
        "integrations": "Stripe, PayPal and Xero among 30+ integrations",
    },
    site_origin="https://tally.example",
)


@pytest.fixture
def bakery() -> Scenario:
    """Rose Bakery, Bristol."""
    return BAKERY


@pytest.fixture
def dentist() -> Scenario:
    """Harbour Dental, Leeds."""
    return DENTIST


@pytest.fixture
def saas() -> Scenario:
    """Tally, invoicing software."""
    return SAAS
