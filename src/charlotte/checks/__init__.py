"""Page checks: what the agent (and a reviewer) should fix before a page is ready.

``PageChecks(facts=..., brief=..., site_origin=..., allowed_origins=..., assets=...,
person_said=...)`` runs five checks over a page document and returns ``Finding``s:

- ``facts``: prices, phone numbers, e-mail and web addresses, percentages,
  opening hours, years and numbers with units that the brief, the host's
  facts and the person's own messages do not support (``claims``, ``facts``);
- ``copy``: placeholder or broken copy (``copy``);
- ``links``: unsafe hrefs, external origins not allowed, in-page ``#`` links the rendered page cannot scroll to (``links``);
- ``assets``: what ``AssetPolicy`` would refuse;
- ``quality``: contrast, text alternatives, headings, names, placeholders (``quality``).

>>> checks = PageChecks(brief="Rose Bakery, open Mon-Fri 7-15.")
>>> doc = {"nodes": {"h": {"id": "h", "type": "heading", "parent": None, "order": "V",
...                        "props": {"content": "Open Monday to Friday, 7am-3pm"}}}}
>>> checks.run(doc)
[]
"""

from __future__ import annotations

from charlotte.checks.findings import Claim, Finding
from charlotte.checks.page_checks import PageChecks

__all__ = ["Claim", "Finding", "PageChecks"]
