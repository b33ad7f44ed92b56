"""The page document core: pure Python, no I/O, imports nothing else of charlotte.

The one exception: ``charlotte.errors``, a leaf module holding every exception
of charlotte (``PageSessionError`` included), which imports nothing itself.

Modules: ``model`` (document shape), ``ordering`` (fractional keys), ``tree``
(walks), ``op_table`` (what each op means, the reasons it gives), ``ops``
(the reducer), ``working_copy`` (copy-on-write replays), ``inverse`` (exact
undo ops), ``migrate`` (legacy ``sections``), ``css`` (stylesheet emitter),
``render`` (HTML), ``node_types`` (catalogue), ``validate`` (node and op
checks), ``integrity`` (whole-document checks), ``seo`` (the page's metadata fields
and the bounds a ``set_meta`` keeps), ``session`` (the validating
``PageSession``), ``hrefs`` (browser-grade href safety), ``assets`` (the asset
library port), ``diff`` (how a change set's working copy differs from the
draft).
"""
