"""``charlotte eval``: runs a suite of cases through a real ``Charlotte`` and measures the agent.

``cases.py`` (the case format and its loader), ``predicates.py`` (what a turn
must achieve, judged on the draft; ``colours.py`` reads a page's colours for
them), ``runner.py`` (the cases through the real runtime), ``overflow.py``
(mobile overflow and screenshots through Chromium, when present) and
``report.py`` (the table, JSON and HTML). Documented in ``docs/eval.md``.
"""
