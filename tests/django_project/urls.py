"""The test project's URLconf: charlotte under ``builder/``, as the README says."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def login(request: HttpRequest) -> HttpResponse:
    return HttpResponse("the host's login page")


urlpatterns = [
    path("login/", login),
    path("builder/", include("charlotte.contrib.django.urls")),
]
