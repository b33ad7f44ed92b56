"""The Django app config: label ``charlotte``, so the permissions read ``charlotte.publish_page``."""

from __future__ import annotations

from django.apps import AppConfig


class CharlotteConfig(AppConfig):  # type: ignore[misc]  # Django ships no type hints
    """charlotte's Django app; the one ``Charlotte`` is built on first use (``instance.py``)."""

    name = "charlotte.contrib.django"
    label = "charlotte"
    verbose_name = "charlotte page builder"
    default = True
    # Named, so a project without DEFAULT_AUTO_FIELD gets no warning for BuilderAccess.
    default_auto_field = "django.db.models.AutoField"
