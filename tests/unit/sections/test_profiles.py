"""A profile's address from the handle or address a fact gives, on that network's own site only."""

from __future__ import annotations

import pytest

from charlotte.sections.profiles import profile_href


@pytest.mark.parametrize(
    ("title", "value", "href"),
    [
        ("Instagram", "@crumb_co", "https://www.instagram.com/crumb_co"),
        ("TikTok", "@crumb.co", "https://www.tiktok.com/@crumb.co"),
        ("X (Twitter)", "@crumb", "https://x.com/crumb"),
        ("Facebook", "facebook.com/crumbandco", "https://facebook.com/crumbandco"),
        ("Facebook", "https://www.facebook.com/crumbandco", "https://www.facebook.com/crumbandco"),
        ("Instagram", "instagram.com/crumb", "https://instagram.com/crumb"),
        # Not a profile there: another site, words, a handle where the network has no handle address.
        ("Instagram", "https://evil.example/instagram.com", None),
        ("Facebook", "facebook.com.evil.example/x", None),
        ("Instagram", "find us as crumb", None),
        ("LinkedIn", "@crumb", None),
        ("Instagram", "@", None),
    ],
)
def test_a_profile_is_on_its_networks_site_or_none(title: str, value: str, href: str | None) -> None:
    assert profile_href(title, value) == href
