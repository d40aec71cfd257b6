"""Every page and API route is proved walled between the casinos of the group (docs/casinos.md):
each test module of this directory names, in `ROUTES`, the routes its tests show refusing one
casino's staff another casino's objects, and this test finds any route that none names. A route
with no casino's objects (logging in, the API's schema, the calculator) is listed here, with why."""
from __future__ import annotations

import importlib
from pathlib import Path

from tests.builders.pit import api_routes

# Routes that show or change no casino's objects.
NO_CASINO_DATA = {
    "healthz": "the site's health, no data",
    "i18n/setlang/": "the person's language",
    "calculator/": "the scorer on a hand typed in; it reads and writes no casino's objects",
    "api/v1/": "the API's index of routes",
    "api/v1/schema/": "the API's schema",
    "api/v1/docs/": "the API's documentation",
    "api/v1/redoc/": "the API's documentation",
    "api/v1/auth/token/": "a person's own token",
}
# Django's own pages: a person's login and password, and the admin, which only superusers reach.
NOT_OURS = ("accounts/", "admin/")


def test_every_route_is_walled_or_holds_no_casinos_data():
    named: set[str] = set()
    for path in sorted(Path(__file__).parent.glob("test_*.py")):
        if path.stem != "test_every_route":
            named |= getattr(importlib.import_module(f"tests.tenancy.{path.stem}"), "ROUTES", set())
    routes = {route for route in api_routes("") if not route.startswith(NOT_OURS)}
    unproved = routes - named - set(NO_CASINO_DATA)
    assert not unproved, sorted(unproved)
    assert not named - routes, sorted(named - routes)  # a route named that no longer exists
