"""The test project's URLconf: charlotte under ``builder/``, as the README says; the site's pages at the root."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import include, path

from charlotte.contrib.django.views import published_page


def login(request: HttpRequest) -> HttpResponse:
    return HttpResponse("the host's login page")


def tags(request: HttpRequest) -> HttpResponse:
    """A host's own view whose template places the published ``home`` page by its key."""
    return render(request, "site/tags.html")


urlpatterns = [
    path("login/", login),
    path("builder/", include("charlotte.contrib.django.urls")),
    # The published home page in the host's own template, then as the standalone document.
    path("", published_page, {"page": "home", "template_name": "site/page.html"}),
    path("standalone/", published_page, {"page": "home"}),
    path("pages/<str:page>/", published_page),
    path("tags/", tags),
]
