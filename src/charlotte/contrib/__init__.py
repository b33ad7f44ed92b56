"""Adapters for third-party engines, each behind an extra and imported only here.

``charlotte.contrib.celery`` (extra ``celery``): the Celery turn queue.
``charlotte.contrib.django`` (extra ``django``): the Django app serving the
API, the live stream and the builder page. Core charlotte imports without any
of these engines installed.
"""

from __future__ import annotations
