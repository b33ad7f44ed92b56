"""The HTTP transport: ``api`` (framework-free routes → status + JSON) and the ASGI adapter.

``charlotte.http.api.Api`` is the whole transport contract and imports no web
framework (with ``routes``, ``handlers``, ``specs``, ``bodies`` and ``csrf``,
the cross-site rules; ``openapi`` writes the document from the routes);
``charlotte.http.asgi`` (Starlette) only adds the body limit, the request's
``Envelope``, the host's user and tenant, and the live event stream.
Importing this package loads neither.
"""

from __future__ import annotations
