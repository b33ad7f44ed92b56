"""charlotte's URLconf: ``path("builder/", include("charlotte.contrib.django.urls"))``.

Under the prefix: the builder page (the prefix itself) and its files, the live
stream ``sessions/<id>/stream``, the MCP server for outside agents ``mcp``
(``charlotte.contrib.django.outside``), and every route of the JSON API
(``charlotte.http.routes``: ``sessions``, ``sessions/<id>/turns``, …,
``openapi.json``). The page names its files and the API by relative URLs, so
any prefix works.
"""

from __future__ import annotations

from django.urls import path, re_path

from charlotte.contrib.django import outside, views
from charlotte.http.page import PAGE_BASE_CSS, WEB_ASSETS

app_name = "charlotte"

urlpatterns = [
    path("", views.page, name="page"),
    *(
        path(name, views.asset, {"name": name})
        for name in (*WEB_ASSETS, PAGE_BASE_CSS)
        if name != "index.html"
    ),
    path("sessions/<str:session_id>/stream", views.stream, name="stream"),
    path("mcp", outside.mcp, name="mcp"),
    re_path(r"^(?P<path>.*)$", views.api, name="api"),
]
