"""The sections of a page built from a brief and the host's facts: the catalogue, the bands, the palette.

What the offline builder writes and what the builder page's palette offers a
person are one thing: a band of a known kind, built from the brief and the
facts only (never stock copy), or nothing when nothing feeds it. This package
holds it, so the offline model (``charlotte.offline``) and the person's editor
(``CharlotteSession.palette``) share one builder and neither imports the other.

Modules: ``catalogue`` (the section kinds, each kind's names, ``kinds_in``),
``brief`` (what the brief says), ``facts`` (the host's facts, verbatim),
``context`` (the brief and facts read once), ``style`` (colour schemes,
looks, phone-width sizing), ``colours`` (tones and WCAG legibility),
``batch`` (the ops of one batch), ``bands`` (``build_section``: one band of a
kind), ``faq`` (questions the facts answer), ``writer`` (``plan_page``: the
first draft's batches), ``page_view`` (a page read band by band),
``fact_changes`` (a phone, e-mail or address changed wherever shown),
``additions`` (``section_batch``: a new band in the page's current look) and
``palette`` (the builder page's add-a-section menu: ``sections``,
``section_ops``).

Layer: below ``offline/`` and ``session.py``; imports only ``checks/``
(``parse_phone``) and ``page/`` of charlotte, and no model library.
"""
