"""The one ``Charlotte`` of a Django process, built on first use from the Django settings.

- ``CHARLOTTE``: a dict of ``charlotte.Settings`` fields (absent: the defaults);
- ``CHARLOTTE_TENANT``: dotted path to ``fn(request) -> str``; absent: every
  request is the tenant ``"default"``;
- ``CHARLOTTE_AUTHORIZER``: dotted path to ``fn(user, ability, session) -> bool``;
  absent: Django permissions (``permissions.py``);
- ``CHARLOTTE_FACTORY``: dotted path to ``fn(settings) -> Charlotte`` (the host's
  assets, page repository, modes, per-turn caps); absent: ``Charlotte(settings)``.
  The user, tenant and authorizer hooks above replace any it installed.

The user is ``request.user`` when authenticated, else None (the API answers
401). Web processes and ``manage.py charlotte_worker`` build the instance the
same way, so a worker runs turns with the host's hooks. It is closed when the
process exits (Django has no shutdown signal: ``atexit``).
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Callable
from typing import Any, Final

from django.conf import settings as django_settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string

from charlotte.app import Charlotte
from charlotte.contrib.django.permissions import permission_authorizer
from charlotte.settings import Settings

__all__ = [
    "DEFAULT_TENANT",
    "charlotte_settings",
    "close_charlotte",
    "get_charlotte",
    "request_user",
]

#: The tenant of every request when ``CHARLOTTE_TENANT`` names no resolver.
DEFAULT_TENANT: Final = "default"

_lock = threading.Lock()
_instance: Charlotte | None = None
_exit_hook = False


def charlotte_settings() -> Settings:
    """``charlotte.Settings`` from the ``CHARLOTTE`` dict (``ImproperlyConfigured`` when wrong)."""
    fields = getattr(django_settings, "CHARLOTTE", None) or {}
    if not isinstance(fields, dict):
        raise ImproperlyConfigured("CHARLOTTE must be a dict of charlotte.Settings fields")
    unknown = sorted(set(fields) - set(Settings.__dataclass_fields__))
    if unknown:
        raise ImproperlyConfigured(f"CHARLOTTE names no such setting: {', '.join(unknown)}")
    try:
        return Settings(**fields)
    except ValueError as error:
        # The message names the field and the rule only (Settings' own checks).
        raise ImproperlyConfigured(f"CHARLOTTE: {error}") from None


def get_charlotte() -> Charlotte:
    """The process's ``Charlotte``, built from the settings on the first call."""
    global _instance, _exit_hook
    with _lock:
        if _instance is None:
            _instance = _build()
            if not _exit_hook:
                atexit.register(close_charlotte)
                _exit_hook = True
        return _instance


def close_charlotte() -> None:
    """Close the process's ``Charlotte`` (if built); the next ``get_charlotte`` builds a new one."""
    global _instance
    with _lock:
        instance, _instance = _instance, None
    if instance is not None:
        instance.close()


def request_user(request: Any) -> Any:
    """``request.user`` when it is an authenticated user, else None."""
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


def _build() -> Charlotte:
    settings = charlotte_settings()
    factory: Callable[[Settings], Charlotte] = _hook("CHARLOTTE_FACTORY") or Charlotte
    charlotte = factory(settings)
    if not isinstance(charlotte, Charlotte):
        raise ImproperlyConfigured("CHARLOTTE_FACTORY must return a Charlotte")
    charlotte.resolve_user_using(request_user)
    charlotte.resolve_tenant_using(_hook("CHARLOTTE_TENANT") or _default_tenant)
    charlotte.authorize_using(_hook("CHARLOTTE_AUTHORIZER") or permission_authorizer)
    return charlotte


def _default_tenant(request: object) -> str:
    return DEFAULT_TENANT


def _hook(name: str) -> Any:
    """The callable a setting names by dotted path, or None when the setting is absent."""
    path = getattr(django_settings, name, None)
    if path is None:
        return None
    if not isinstance(path, str):
        raise ImproperlyConfigured(f"{name} must be a dotted path to a callable")
    try:
        hook = import_string(path)
    except ImportError:
        raise ImproperlyConfigured(f"{name}: cannot import {path}") from None
    if not callable(hook):
        raise ImproperlyConfigured(f"{name}: {path} is not callable")
    return hook
