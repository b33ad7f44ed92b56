"""The test project's ASGI application (what uvicorn serves in the stream tests)."""

from __future__ import annotations

from django.core.asgi import get_asgi_application

application = get_asgi_application()
