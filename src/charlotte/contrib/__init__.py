"""Adapters for third-party engines, each behind an extra and imported only here.

``charlotte.contrib.celery`` (extra ``celery``): the Celery turn queue.
``charlotte.contrib.django`` (extra ``django``): the Django app serving the
API, the live stream and the builder page, and the published page on the
host's own pages (template tags, a ready view). ``charlotte.contrib.jinja``
(extra ``fastapi``): the published page in Jinja2 templates. Core charlotte
imports without any of these engines installed.
"""

from __future__ import annotations
