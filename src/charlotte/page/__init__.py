"""The page document core: pure Python, no I/O, imports nothing else of charlotte.

Modules: ``model`` (document shape), ``ordering`` (fractional keys), ``tree``
(walks), ``ops`` (reducer and inverse), ``migrate`` (legacy ``sections``),
``css`` (stylesheet emitter), ``render`` (HTML), ``node_types`` (catalogue),
``session`` (the validating ``PageSession``), ``errors`` (``PageSessionError``),
``hrefs`` (browser-grade href safety).
"""
