"""The OpenAPI document of the HTTP API, written from its routes.

``document()`` is the document (``charlotte.http.openapi.document``);
``python -m charlotte.http.openapi`` rewrites the shipped
``charlotte/schema/openapi.v1.json`` from it (``--check``: only say whether
it differs).
"""

from __future__ import annotations

from charlotte.http.openapi.document import SHIPPED, api_codes, document, render

__all__ = ["SHIPPED", "api_codes", "document", "render"]
