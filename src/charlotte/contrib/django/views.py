"""The views of ``charlotte.contrib.django.urls`` (the JSON API, the live stream, the builder page) and ``published_page``.

The API view hands each request to the framework-free ``Api`` with the
request's ``Envelope`` (charlotte's own cross-site rules still apply;
``If-None-Match`` for the published page's 304), the
host's user (``request.user``) and tenant. Django's CSRF check runs first on
every state-changing request, with the host's CSRF settings; a request it
refuses is answered 403 ``cross_site`` as JSON (not Django's HTML page). The
builder page carries the CSRF token in a ``<meta name="charlotte-csrf">``
tag, which ``builder.js`` sends back in Django's CSRF header.

The stream view is async: under ASGI it answers a ``StreamingHttpResponse``
over ``charlotte.http.follow.Follow.frames`` (the notifier's live events;
the server cancels it when the client goes). A WSGI server cannot hold a
stream without a thread per reader: there it answers the events there are
now and a ``retry`` hint, and the browser's ``EventSource`` comes back with
``Last-Event-ID`` (polling, see ``docs/django.md``).

``published_page`` is for the host's own URLconf: the published page as a
whole HTML document at the host's URL (``docs/hosting.md``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urlencode

from asgiref.sync import sync_to_async
from django.conf import settings as django_settings
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.core.exceptions import ImproperlyConfigured, SuspiciousOperation
from django.core.handlers.asgi import ASGIRequest
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    StreamingHttpResponse,
)
from django.middleware.csrf import CsrfViewMiddleware, get_token
from django.shortcuts import resolve_url
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.decorators import decorator_from_middleware
from django.utils.html import escape
from django.views.decorators.csrf import csrf_exempt, ensure_csrf_cookie

from charlotte.contrib.django.instance import get_charlotte
from charlotte.contrib.django.published import NOT_PUBLISHED, published_for
from charlotte.http.api import DEFAULT_MAX_BODY, Api, Response, error_body, error_response
from charlotte.http.csrf import Envelope
from charlotte.http.follow import DEFAULT_HEARTBEAT_SECONDS, STREAM_HEADERS, open_stream
from charlotte.http.page import PAGE_HEADERS, web_file

if TYPE_CHECKING:
    from charlotte.app import Charlotte

__all__ = ["api", "asset", "page", "published_page", "stream"]

log = logging.getLogger(__name__)
_csrf_log = logging.getLogger("django.security.csrf")

#: Seconds an ``EventSource`` waits before it asks again, when the server is WSGI.
WSGI_RETRY_MILLISECONDS: Final = 2_000
_SAFE_METHODS: Final = ("GET", "HEAD")
_CSRF_META: Final = b'<meta charset="utf-8">'


# -- the JSON API --------------------------------------------------------------------


class _CsrfCheck(CsrfViewMiddleware):  # type: ignore[misc]  # Django ships no type hints
    """Django's CSRF check, refusing with charlotte's JSON error instead of Django's HTML page."""

    def _reject(self, request: HttpRequest, reason: str) -> HttpResponse:
        # ``reason`` is one of Django's fixed sentences, never request data.
        _csrf_log.warning("Forbidden (%s): %s", reason, request.path)
        return _error("cross_site")


def _api(request: HttpRequest, path: str = "") -> HttpResponse:
    try:
        return _answer(request, "/" + path)
    except (SuspiciousOperation, ImproperlyConfigured):
        raise  # Django answers these itself (400 for a disallowed host)
    except Exception as error:
        return _internal(error)


#: Every method of every API route. Django's own CSRF middleware skips it
#: (``csrf_exempt``) because the same check runs inside, answering JSON.
api = csrf_exempt(decorator_from_middleware(_CsrfCheck)(_api))


def _answer(request: HttpRequest, path: str) -> HttpResponse:
    charlotte = get_charlotte()
    handler = Api(charlotte, max_body=DEFAULT_MAX_BODY)
    body = _limited_body(request, handler.max_body)
    if isinstance(body, HttpResponse):
        return body
    user = charlotte.resolve_user(request)
    tenant = charlotte.resolve_tenant(request)
    answer = handler.handle(
        request.method or "",
        path,
        dict(request.GET.items()),
        body,
        user,
        tenant,
        envelope=_envelope(request),
    )
    if answer.status == 304 or answer.text is not None:
        # The published page's answers: a bodiless 304, or its HTML document.
        response = HttpResponse(answer.text or b"", status=answer.status)
        if answer.status == 304:
            del response["Content-Type"]
        for name, value in answer.headers.items():
            response[name] = value
        return response
    return _json(answer)


def _limited_body(request: HttpRequest, limit: int) -> bytes | HttpResponse:
    """The body, or the 413 answer as soon as it is known to exceed ``limit``."""
    declared = request.META.get("CONTENT_LENGTH") or ""
    digits = declared.strip()
    if digits:
        if not (digits.isascii() and digits.isdigit()):
            return _error("invalid_request")
        # Bounded before int(): a thousand digits are too large whatever they say.
        if len(digits) > len(str(limit)) or int(digits) > limit:
            return _error("body_too_large")
    body: bytes = request.read(limit + 1)
    if len(body) > limit:
        return _error("body_too_large")
    return body


def _envelope(request: HttpRequest) -> Envelope:
    return Envelope(
        content_type=request.META.get("CONTENT_TYPE"),
        origin=request.headers.get("Origin"),
        fetch_site=request.headers.get("Sec-Fetch-Site"),
        server_origin=f"{request.scheme}://{request.get_host()}",
        if_none_match=request.headers.get("If-None-Match"),
    )


# -- the live stream -----------------------------------------------------------------


async def _stream(request: HttpRequest, session_id: str) -> HttpResponse:
    """``GET sessions/<id>/stream``: Server-Sent Events (see the module docstring)."""
    if request.method != "GET":
        response = _error("invalid_request", status=405)
        response["Allow"] = "GET"
        return response
    try:
        charlotte, user, tenant = await _run(partial(_identified, request))
        opened = await open_stream(
            charlotte,
            charlotte.notifier,
            _run,
            session_id=session_id,
            user=user,
            tenant=tenant,
            last_event_id=request.headers.get("Last-Event-ID"),
            query=dict(request.GET.items()),
            heartbeat_seconds=_heartbeat_seconds(),
        )
    except ImproperlyConfigured:
        raise
    except Exception as error:
        return _internal(error)
    if isinstance(opened, str):
        return _error(opened)
    if not isinstance(request, ASGIRequest):
        retry = f"retry: {WSGI_RETRY_MILLISECONDS}\n\n".encode()
        replayed = await _run(opened.replay)
        return HttpResponse(
            retry + replayed, content_type="text/event-stream", headers=dict(STREAM_HEADERS)
        )
    return StreamingHttpResponse(
        opened.frames(), content_type="text/event-stream", headers=dict(STREAM_HEADERS)
    )


#: The stream. Only GET is answered (anything else 405, as JSON): nothing to forge.
stream = csrf_exempt(_stream)


def _identified(request: HttpRequest) -> tuple[Charlotte, Any, str | None]:
    """The instance, and the host's user and tenant for ``request``: one trip off the loop."""
    charlotte = get_charlotte()
    return charlotte, charlotte.resolve_user(request), charlotte.resolve_tenant(request)


async def _run(call: Callable[[], Any]) -> Any:
    # thread_sensitive: the request's own sync thread, where Django's database
    # connections (an authorizer's permission query) are closed with the request.
    return await sync_to_async(call, thread_sensitive=True)()


def _heartbeat_seconds() -> float:
    value = getattr(django_settings, "CHARLOTTE_HEARTBEAT_SECONDS", DEFAULT_HEARTBEAT_SECONDS)
    if type(value) not in (int, float) or not 0 < value < float("inf"):
        raise ImproperlyConfigured("CHARLOTTE_HEARTBEAT_SECONDS must be a positive number")
    return float(value)


# -- the builder page ----------------------------------------------------------------


def _page(request: HttpRequest) -> HttpResponse:
    """The builder page; a visitor who is not signed in goes to the login page."""
    if request.method not in _SAFE_METHODS:
        return _not_allowed()
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return _to_login(request)
    body, media_type = web_file("index.html")
    header = _csrf_header_name()
    meta = (
        f'<meta name="charlotte-csrf" content="{escape(get_token(request))}"'
        f' data-header="{escape(header)}">'
    )
    html = body.replace(_CSRF_META, _CSRF_META + b"\n  " + meta.encode(), 1)
    response = HttpResponse(html, content_type=media_type, headers=dict(PAGE_HEADERS))
    # The token differs per visitor: no shared cache may keep one for another.
    patch_vary_headers(response, ("Cookie",))
    response["Cache-Control"] = "no-cache, private"
    return response


#: The page; the CSRF cookie is set even where the host runs no CSRF middleware.
page = ensure_csrf_cookie(_page)


def _to_login(request: HttpRequest) -> HttpResponse:
    # As Django's redirect_to_login, whose module loads the auth models: this
    # URLconf imports before the app registry is ready.
    login = str(resolve_url(django_settings.LOGIN_URL))
    query = urlencode({REDIRECT_FIELD_NAME: request.get_full_path()}, safe="/")
    return HttpResponseRedirect(f"{login}{'&' if '?' in login else '?'}{query}")


def asset(request: HttpRequest, name: str) -> HttpResponse:
    """One of the page's own files (``builder.css``, ``builder.js``, ``page-base.css``)."""
    if request.method not in _SAFE_METHODS:
        return _not_allowed()
    body, media_type = web_file(name)
    return HttpResponse(body, content_type=media_type, headers=dict(PAGE_HEADERS))


def _csrf_header_name() -> str:
    """The header Django reads the token from (``HTTP_X_CSRFTOKEN`` → ``X-CSRFTOKEN``)."""
    meta_key = str(django_settings.CSRF_HEADER_NAME)
    name = meta_key.removeprefix("HTTP_")
    return name.replace("_", "-")


# -- the published page at the host's own URL ---------------------------------------


def published_page(request: HttpRequest, page: str, template_name: str | None = None) -> HttpResponse:
    """The published page as a whole HTML document: ``path("", published_page, {"page": "home"})``.

    Without ``template_name``: the standalone document of the published
    revision, its ``ETag`` the page's. With it: the host's template rendered
    with ``page`` (the ``PublishedPage``) in its context (the template tags
    place it), its ``ETag`` a digest of what was rendered. Either way
    ``If-None-Match`` gets a 304 and ``Cache-Control`` is
    ``Settings.published_cache_control``. Nothing published, or a key of
    another shape: 404; no tenant or the host's authorizer says no: 403.
    """
    if request.method not in _SAFE_METHODS:
        return _not_allowed()
    found = published_for(request, page)
    if found is None:
        raise Http404(NOT_PUBLISHED)
    published, document = found
    if template_name is None:
        body, etag = document.encode(), published.etag
    else:
        body = render_to_string(template_name, {"page": published}, request).encode()
        etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    response = HttpResponse(body, content_type="text/html; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = get_charlotte().settings.published_cache_control
    answer: HttpResponse = get_conditional_response(request, etag=etag, response=response)
    return answer


# -- answers -------------------------------------------------------------------------


def _json(answer: Response) -> HttpResponse:
    text = json.dumps(answer.json, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    response = HttpResponse(text.encode(), status=answer.status, content_type="application/json")
    for name, value in answer.headers.items():
        response[name] = value
    return response


def _error(code: str, *, status: int | None = None) -> HttpResponse:
    return _json(error_response(code, status=status))


def _not_allowed() -> HttpResponse:
    response = _error("invalid_request", status=405)
    response["Allow"] = ", ".join(_SAFE_METHODS)
    return response


def _internal(error: BaseException) -> HttpResponse:
    correlation = uuid.uuid4().hex
    # The type only: an exception's message may carry data that must not reach a log.
    log.error("request failed with %s (correlation id %s)", type(error).__name__, correlation)
    return _json(Response(500, error_body("internal"), {"X-Correlation-Id": correlation}))
