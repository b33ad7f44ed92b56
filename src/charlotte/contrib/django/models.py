"""The Django permissions of charlotte's abilities, on a model with no table and no migration.

``BuilderAccess`` is unmanaged (``managed = False``): Django never creates,
alters or queries a table for it, and the app ships no migration. It only
carries ``Meta.permissions``: Django's ``migrate`` (its ``post_migrate``
step) stores them as ``Permission`` rows of the ``charlotte`` app, so a host
grants ``charlotte.publish_page`` and the others like any permission
(admin, groups, ``user.user_permissions``). charlotte's own tables live in
charlotte's database, created by ``manage.py charlotte_migrate``.
"""

from __future__ import annotations

from django.db import models

from charlotte.contrib.django.permissions import PERMISSIONS


class BuilderAccess(models.Model):  # type: ignore[misc]  # Django ships no type hints
    """Carries charlotte's permissions; never stored (no table)."""

    class Meta:
        managed = False
        default_permissions = ()
        permissions = tuple(PERMISSIONS.values())
