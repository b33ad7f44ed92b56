"""Adapters for third-party engines, each behind an extra and imported only here.

``charlotte.contrib.celery`` (extra ``celery``): the Celery turn queue. Core
charlotte imports without any of these engines installed.
"""

from __future__ import annotations
