"""``builder/mcp``: the MCP server for outside agents under Django (``docs/mcp.md``; the ``mcp`` extra).

Each request is one stateless JSON-RPC exchange (``POST``, JSON answers), so
the view is a plain sync view: it works under WSGI and ASGI. It runs the MCP
server's ASGI endpoint (``charlotte.mcp.server.HttpEndpoint``) on the one
request in an event loop of its own, with the caller the adapter resolved
(``request.user``, ``CHARLOTTE_TENANT``) in the scope; the adapter's
permissions decide as for the API.

Who is asking: MCP clients send no cookies, only what the host's
authentication middleware reads (a bearer token that sets ``request.user``).
A request that carries cookies is a browser's: Django's CSRF check runs
first, with the host's settings (``403 cross_site`` as JSON when it refuses),
and charlotte's own cross-site rules apply to every request.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import TYPE_CHECKING, Any, Final

from django.core.exceptions import ImproperlyConfigured, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import decorator_from_middleware
from django.views.decorators.csrf import csrf_exempt

from charlotte.contrib.django.instance import get_charlotte
from charlotte.contrib.django.views import _CsrfCheck, _envelope, _error, _internal, _limited_body
from charlotte.http.csrf import refusal

if TYPE_CHECKING:
    from charlotte.app import Charlotte

__all__ = ["mcp"]

#: The scope key the view hands the resolved ``(user, tenant)`` on in.
_CALLER: Final = "charlotte.caller"
_endpoints: weakref.WeakKeyDictionary[Charlotte, Any] = weakref.WeakKeyDictionary()


def _endpoint(charlotte: Charlotte) -> Any:
    # Imported here: the MCP SDK is an extra, and the URLconf loads this module.
    from charlotte.mcp.outside import Caller
    from charlotte.mcp.server import MAX_MCP_BODY, HttpEndpoint, build_server

    found = _endpoints.get(charlotte)
    if found is None:

        def identify(request: Any, client: object) -> Caller | None:
            user, tenant = request.scope[_CALLER]
            return None if user is None else Caller(user, tenant, client)

        found = (HttpEndpoint(build_server(charlotte, identify)), MAX_MCP_BODY)
        _endpoints[charlotte] = found
    return found


def _answer(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        response = _error("invalid_request", status=405)
        response["Allow"] = "POST"
        return response
    charlotte = get_charlotte()
    trusted = frozenset(charlotte.settings.trusted_origins)
    code = refusal(_envelope(request), changes_state=True, has_body=True, trusted=trusted)
    if code is not None:
        return _error(code)
    try:
        endpoint, limit = _endpoint(charlotte)
    except ImportError:
        return _error("not_found")
    body = _limited_body(request, limit)
    if isinstance(body, HttpResponse):
        return body
    caller = (charlotte.resolve_user(request), charlotte.resolve_tenant(request))
    headers = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in request.headers.items()]
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": request.scheme, "path": "/mcp", "raw_path": b"/mcp", "query_string": b"",
        "root_path": "", "headers": headers, "server": None, "client": None, _CALLER: caller,
    }  # fmt: skip
    status, answer_headers, content = asyncio.run(_exchange(endpoint, scope, body))
    response = HttpResponse(content, status=status)
    for name, value in answer_headers:
        if name.lower() not in {"content-length", "transfer-encoding", "connection"}:
            response[name] = value
    return response


async def _exchange(endpoint: Any, scope: dict[str, Any], body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
    """One request through the ASGI ``endpoint``: its status, headers and whole body."""
    messages = [{"type": "http.request", "body": body, "more_body": False}]
    started: dict[str, Any] = {}
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop(0)
        await asyncio.Event().wait()  # no more body: a disconnect never comes before the answer
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            started.update(message)
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await endpoint(scope, receive, send)
    headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in started.get("headers", [])]
    return int(started.get("status", 500)), headers, b"".join(chunks)


def _view(request: HttpRequest) -> HttpResponse:
    try:
        return _answer(request)
    except (SuspiciousOperation, ImproperlyConfigured):
        raise  # Django answers these itself (400 for a disallowed host)
    except Exception as error:
        return _internal(error)


_checked = decorator_from_middleware(_CsrfCheck)(_view)


def _mcp(request: HttpRequest) -> HttpResponse:
    # Cookies are a browser's ambient credentials: only then is there a request to forge.
    return _checked(request) if request.COOKIES else _view(request)


#: ``builder/mcp``. Django's own CSRF middleware skips it (``csrf_exempt``): the check runs inside.
mcp = csrf_exempt(_mcp)
