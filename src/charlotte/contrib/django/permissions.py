"""Each charlotte ability as a Django permission, and the authorizer that asks for them.

======== ====================================== ===============================
ability  permission                             what it allows
======== ====================================== ===============================
open     ``charlotte.open_session``             open a builder session
view     ``charlotte.view_session``             read a session, its log, draft
send     ``charlotte.send_message``             send the builder a message
stop     ``charlotte.stop_turn``                stop the running turn
edit     ``charlotte.edit_draft``               edit the draft by hand
approve  ``charlotte.approve_change_set``       approve or reject a change set
publish  ``charlotte.publish_page``             publish the draft
======== ====================================== ===============================

``read_published`` (read a published page, ``GET pages/<page>/published``)
needs no permission: anyone may, signed in or not, as a site's visitors do. A
host that keeps some published pages private names its own authorizer
(``CHARLOTTE_AUTHORIZER``). An active superuser has them all (Django's rule). The user is fetched again
for every question: Django caches permissions on a user object, and a live
stream keeps its user for as long as it runs, so a permission taken away (or
a user deactivated) ends the stream at its next check.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from django.contrib.auth import get_user_model

__all__ = ["APP_LABEL", "PERMISSIONS", "permission_authorizer", "permission_of"]

#: The Django app label of charlotte's permissions.
APP_LABEL: Final = "charlotte"

#: ability → (permission codename, its label in Django's admin).
PERMISSIONS: Final[Mapping[str, tuple[str, str]]] = {
    "open": ("open_session", "Can open a charlotte builder session"),
    "view": ("view_session", "Can view charlotte builder sessions"),
    "send": ("send_message", "Can send the charlotte builder a message"),
    "stop": ("stop_turn", "Can stop a charlotte builder turn"),
    "edit": ("edit_draft", "Can edit a charlotte draft by hand"),
    "approve": ("approve_change_set", "Can approve or reject a charlotte change set"),
    "publish": ("publish_page", "Can publish a charlotte page"),
}


def permission_of(ability: str) -> str:
    """The permission ``user.has_perm`` is asked for ``ability`` (``charlotte.publish_page``)."""
    return f"{APP_LABEL}.{PERMISSIONS[ability][0]}"


def permission_authorizer(user: Any, ability: str, session: object) -> bool:
    """``Charlotte.authorize_using`` hook: ``ability``'s permission, on the user as stored now."""
    if ability == "read_published":
        return True
    if user is None or ability not in PERMISSIONS:
        return False
    fresh = get_user_model()._default_manager.filter(pk=user.pk).first()
    return fresh is not None and fresh.has_perm(permission_of(ability)) is True
