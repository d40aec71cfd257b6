"""The casino group's walls (issue 26 §4; docs/casinos.md) around the pit, the floor, the players
and the suspicious-transaction cases: on every page and API route named in `ROUTES`, Casino B's
person of the role that uses the route at his own casino is refused Casino A's object as one that
does not exist (404 on the object's address; on an id sent in the body, the answer an unknown id
gets), and nothing is written; on a list he is shown none of A's objects. The same person on
Casino B's own object succeeds, so that a 404 is not a broken route. The group's inspector, given
both casinos, sees both."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from casino.aml import cases
from casino.aml.models import SuspicionCase, SuspicionEvent
from casino.floor import alerts
from casino.floor.models import Alert
from casino.floor.rules import REFUSALS, Raise, table_key
from casino.pit import errors, services
from casino.pit.days import gaming_day
from casino.pit.models import (
    Amendment,
    DocumentRead,
    Flag,
    Game,
    Jogo,
    Movement,
    MovementRefusal,
    Patron,
    PatronChange,
    Refusal,
    RefusalConfirmation,
    Table,
)
from casino.pit.roles import DEALER, INSPECTOR, MANAGER, SUPERVISOR
from tests.builders.casinos import Site, group
from tests.builders.pit import next_record, patron

pytestmark = [pytest.mark.django_db, pytest.mark.casinos]

UNKNOWN = 2**31 - 1  # an id no object has


@dataclass
class Objects:
    """One casino's objects, each of a kind a route shows or acts on."""

    site: Site
    jogo: Jogo
    movement: Movement
    refusal: Refusal
    movement_refusal: MovementRefusal
    amendment: Amendment
    alert: Alert
    player: Patron  # a player of the casino, known by name, with a case open on him
    seated: Patron  # the player in chair 1 of the game in progress, whom its supervisor may identify
    case: SuspicionCase
    escalated: SuspicionCase

    @property
    def table(self) -> Table:
        return self.site.table

    @property
    def game(self) -> Game:
        return self.site.game


def objects_of(site: Site, word: str) -> Objects:
    people, now = site.people, timezone.now()
    jogo = Jogo.objects.filter(game=site.game).get()
    try:  # a stake the table does not play: refused, and kept
        services.record_jogo(table=site.table, user=people[DEALER], record=next_record(site.game, stake=50))
    except errors.Refused:
        pass
    draw = {**jogo.record, "result": "draw", "winner": None, "discarder": None, "hand": None, "declared_fan": None}
    amendment = services.propose_amendment(jogo=jogo, user=people[SUPERVISOR], record=draw, reason="It was a draw.")
    seated = site.game.players.get(chair=1).patron
    refused = MovementRefusal.objects.create(table=site.table, game=site.game, chair=1, patron=seated, kind="buy_in",
                                             amount=600_000, attempted_at=now, attempted_by=people[SUPERVISOR],
                                             gaming_day=gaming_day(now), errors=[])
    with transaction.atomic():
        alert = alerts.write(site.casino.pk, [Raise(REFUSALS, site.table.pk, table_key(site.table.pk),
                                                    {"table": site.table.number, "count": 3, "minutes": 10})],
                             [], at=now)[0][0]
    player, other = (patron(site.casino, f"{name} {word}", identified=True, by=people[SUPERVISOR])
                     for name in ("Chan", "Leong"))
    case = cases.open_case(patron=player, user=people[INSPECTOR], note="Buy-ins just below the threshold.")
    escalated = cases.open_case(patron=other, user=people[INSPECTOR], note="Cash out without play.")
    cases.decide(case=escalated, user=people[INSPECTOR], report=True, note="To be reported.")
    cases.escalate(case=escalated, user=people[MANAGER], note="Sent.")
    return Objects(site, jogo, Movement.objects.filter(game=site.game).first(), Refusal.objects.get(table=site.table),
                   refused, amendment, alert, player, seated, case, escalated)


@pytest.fixture
def world():
    a, b, both = group()
    return objects_of(a, "Amber"), objects_of(b, "Beryl"), both


def written() -> tuple:
    """Everything a refused action must leave as it was."""
    return (Jogo.objects.count(), Movement.objects.count(), Refusal.objects.count(), MovementRefusal.objects.count(),
            list(Game.objects.order_by("pk").values_list("pk", "ended_at")),
            list(Amendment.objects.order_by("pk").values_list("pk", "state")), RefusalConfirmation.objects.count(),
            list(Table.objects.order_by("pk").values_list("pk", "is_open", "rule_set_code", "rule_set_version")),
            list(Alert.objects.order_by("pk").values_list("pk", "acknowledged_at")), Flag.objects.count(),
            list(SuspicionCase.objects.order_by("pk").values_list("pk", "state")), SuspicionEvent.objects.count(),
            Patron.objects.count(), PatronChange.objects.count(), DocumentRead.objects.count())


# --- One object: (route, role, method, address, body) --------------------------------------------

Address = Callable[[Objects], str]
IDENTITY = {"document_type": Patron.MACAU_ID, "document_number": "1234567(8)", "document_country": "MO",
            "date_of_birth": "1970-01-02", "nationality": "MO"}


def _record(o: Objects) -> dict:
    """The table's next jogo, and its number (sent as the Jogo-Number header)."""
    return {**next_record(o.game), "number": o.table.jogos_recorded + 1}


PAGES: list[tuple[str, str, str, Address, Callable[[Objects], dict] | None]] = [
    ("pit/tables/<int:pk>/", DEALER, "get", lambda o: f"/pit/tables/{o.table.pk}/", None),
    ("pit/tables/<int:pk>/seat", DEALER, "post", lambda o: f"/pit/tables/{o.table.pk}/seat",
     lambda o: {"first_banker": 0}),
    ("pit/tables/<int:pk>/end", DEALER, "post", lambda o: f"/pit/tables/{o.table.pk}/end", None),
    ("pit/tables/<int:pk>/jogo", DEALER, "post", lambda o: f"/pit/tables/{o.table.pk}/jogo",
     lambda o: {"action": "save", "number": 2, "result": "draw"}),
    ("pit/tables/<int:pk>/preview", DEALER, "post", lambda o: f"/pit/tables/{o.table.pk}/preview",
     lambda o: {"result": "draw"}),
    ("pit/tables/<int:pk>/money", SUPERVISOR, "get", lambda o: f"/pit/tables/{o.table.pk}/money", None),
    ("pit/tables/<int:pk>/money", SUPERVISOR, "post", lambda o: f"/pit/tables/{o.table.pk}/money",
     lambda o: {"chair": 0, "kind": "buy_in", "amount": 100}),
    ("pit/tables/<int:pk>/open", SUPERVISOR, "post", lambda o: f"/pit/tables/{o.table.pk}/open", None),
    ("pit/tables/<int:pk>/close", SUPERVISOR, "post", lambda o: f"/pit/tables/{o.table.pk}/close",
     lambda o: {"confirmed": "1"}),
    ("pit/tables/<int:pk>/rule-set", SUPERVISOR, "post", lambda o: f"/pit/tables/{o.table.pk}/rule-set",
     lambda o: {"rule_set": "portaria-135-91-m@1"}),
    ("pit/tables/<int:pk>/history", INSPECTOR, "get", lambda o: f"/pit/tables/{o.table.pk}/history", None),
    ("pit/tables/<int:pk>/day", INSPECTOR, "get", lambda o: f"/pit/tables/{o.table.pk}/day", None),
    ("pit/games/<int:pk>/summary", INSPECTOR, "get", lambda o: f"/pit/games/{o.game.pk}/summary", None),
    ("pit/jogos/<int:pk>/", DEALER, "get", lambda o: f"/pit/jogos/{o.jogo.pk}/", None),
    ("pit/jogos/<int:pk>/correction", SUPERVISOR, "get", lambda o: f"/pit/jogos/{o.jogo.pk}/correction", None),
    ("pit/jogos/<int:pk>/correction", SUPERVISOR, "post", lambda o: f"/pit/jogos/{o.jogo.pk}/correction",
     lambda o: {"action": "propose", "result": "draw", "reason": "It was a draw."}),
    ("pit/jogos/<int:pk>/correction/preview", SUPERVISOR, "post",
     lambda o: f"/pit/jogos/{o.jogo.pk}/correction/preview", lambda o: {"result": "draw"}),
    ("pit/corrections/<int:pk>/", MANAGER, "get", lambda o: f"/pit/corrections/{o.amendment.pk}/", None),
    ("pit/corrections/<int:pk>/", MANAGER, "post", lambda o: f"/pit/corrections/{o.amendment.pk}/",
     lambda o: {"action": "reject", "reason": "Not a draw.", "confirmed": "1"}),
    ("pit/refusals/<int:pk>/confirm", SUPERVISOR, "post", lambda o: f"/pit/refusals/{o.refusal.pk}/confirm",
     lambda o: {"note": "The dealer keyed the wrong stake."}),
    ("pit/players/<int:pk>/", INSPECTOR, "get", lambda o: f"/pit/players/{o.player.pk}/", None),
    ("pit/players/<int:pk>/identify", SUPERVISOR, "get", lambda o: f"/pit/players/{o.seated.pk}/identify", None),
    ("pit/players/<int:pk>/identify", SUPERVISOR, "post", lambda o: f"/pit/players/{o.seated.pk}/identify",
     lambda o: IDENTITY),
    ("floor/alerts/<int:pk>/acknowledge", SUPERVISOR, "post", lambda o: f"/floor/alerts/{o.alert.pk}/acknowledge",
     lambda o: {"note": "Seen."}),
    ("aml/<int:pk>/", INSPECTOR, "get", lambda o: f"/aml/{o.case.pk}/", None),
    ("aml/<int:pk>/<str:language>.pdf", MANAGER, "get", lambda o: f"/aml/{o.escalated.pk}/en.pdf", None),
    ("aml/<int:pk>/<str:step>", INSPECTOR, "post", lambda o: f"/aml/{o.case.pk}/note", lambda o: {"note": "Seen."}),
    ("aml/open/<int:patron_id>/", INSPECTOR, "get", lambda o: f"/aml/open/{o.seated.pk}/", None),
    ("aml/open/<int:patron_id>/", INSPECTOR, "post", lambda o: f"/aml/open/{o.seated.pk}/",
     lambda o: {"note": "Large buy-in.", "gaming_day": gaming_day(timezone.now()).isoformat()}),
    # The API: an object's address.
    ("api/v1/tables/(?P<pk>[^/.]+)/$", DEALER, "get", lambda o: f"/api/v1/tables/{o.table.pk}/", None),
    ("api/v1/tables/(?P<pk>[^/.]+)/open/$", SUPERVISOR, "post", lambda o: f"/api/v1/tables/{o.table.pk}/open/", None),
    ("api/v1/tables/(?P<pk>[^/.]+)/close/$", SUPERVISOR, "post", lambda o: f"/api/v1/tables/{o.table.pk}/close/",
     None),
    ("api/v1/tables/(?P<pk>[^/.]+)/games/$", DEALER, "post", lambda o: f"/api/v1/tables/{o.table.pk}/games/",
     lambda o: {"first_banker": 0, "players": [{"chair": c, "name": f"New {c}", "capital": 5000} for c in range(4)]}),
    ("api/v1/tables/(?P<pk>[^/.]+)/jogos/$", DEALER, "post", lambda o: f"/api/v1/tables/{o.table.pk}/jogos/",
     _record),
    ("api/v1/games/(?P<pk>[^/.]+)/$", DEALER, "get", lambda o: f"/api/v1/games/{o.game.pk}/", None),
    ("api/v1/games/(?P<pk>[^/.]+)/end/$", DEALER, "post", lambda o: f"/api/v1/games/{o.game.pk}/end/", None),
    ("api/v1/games/(?P<pk>[^/.]+)/movements/$", SUPERVISOR, "post", lambda o: f"/api/v1/games/{o.game.pk}/movements/",
     lambda o: {"chair": 0, "kind": "buy_in", "amount": 100}),
    ("api/v1/jogos/(?P<pk>[^/.]+)/$", DEALER, "get", lambda o: f"/api/v1/jogos/{o.jogo.pk}/", None),
    ("api/v1/jogos/(?P<pk>[^/.]+)/flag/$", INSPECTOR, "post", lambda o: f"/api/v1/jogos/{o.jogo.pk}/flag/",
     lambda o: {"note": "Looks wrong."}),
    ("api/v1/movements/(?P<pk>[^/.]+)/$", SUPERVISOR, "get", lambda o: f"/api/v1/movements/{o.movement.pk}/", None),
    ("api/v1/movement-refusals/(?P<pk>[^/.]+)/$", INSPECTOR, "get",
     lambda o: f"/api/v1/movement-refusals/{o.movement_refusal.pk}/", None),
    ("api/v1/movement-refusals/(?P<pk>[^/.]+)/$", SUPERVISOR, "get",
     lambda o: f"/api/v1/movement-refusals/{o.movement_refusal.pk}/", None),
    ("api/v1/refusals/(?P<pk>[^/.]+)/$", SUPERVISOR, "get", lambda o: f"/api/v1/refusals/{o.refusal.pk}/", None),
    ("api/v1/amendments/(?P<pk>[^/.]+)/$", SUPERVISOR, "get", lambda o: f"/api/v1/amendments/{o.amendment.pk}/",
     None),
    ("api/v1/amendments/(?P<pk>[^/.]+)/approve/$", MANAGER, "post",
     lambda o: f"/api/v1/amendments/{o.amendment.pk}/approve/", lambda o: {"reason": ""}),
    ("api/v1/amendments/(?P<pk>[^/.]+)/reject/$", MANAGER, "post",
     lambda o: f"/api/v1/amendments/{o.amendment.pk}/reject/", lambda o: {"reason": "Not a draw."}),
    ("api/v1/players/(?P<pk>[^/.]+)/$", INSPECTOR, "get", lambda o: f"/api/v1/players/{o.player.pk}/", None),
    ("api/v1/players/(?P<pk>[^/.]+)/identify/$", SUPERVISOR, "post",
     lambda o: f"/api/v1/players/{o.seated.pk}/identify/", lambda o: IDENTITY),
    ("api/v1/alerts/(?P<pk>[^/.]+)/$", SUPERVISOR, "get", lambda o: f"/api/v1/alerts/{o.alert.pk}/", None),
    ("api/v1/alerts/(?P<pk>[^/.]+)/acknowledge/$", SUPERVISOR, "post",
     lambda o: f"/api/v1/alerts/{o.alert.pk}/acknowledge/", lambda o: {"note": "Seen."}),
    ("api/v1/aml/cases/(?P<pk>[^/.]+)/$", INSPECTOR, "get", lambda o: f"/api/v1/aml/cases/{o.case.pk}/", None),
    ("api/v1/aml/cases/(?P<pk>[^/.]+)/note/$", INSPECTOR, "post", lambda o: f"/api/v1/aml/cases/{o.case.pk}/note/",
     lambda o: {"note": "Seen."}),
    ("api/v1/aml/cases/(?P<pk>[^/.]+)/decide/$", INSPECTOR, "post",
     lambda o: f"/api/v1/aml/cases/{o.case.pk}/decide/", lambda o: {"report": False, "note": "Nothing to report."}),
    ("api/v1/aml/cases/(?P<pk>[^/.]+)/escalate/$", MANAGER, "post",
     lambda o: f"/api/v1/aml/cases/{o.case.pk}/escalate/", lambda o: {"note": "Sent."}),
]


def client_of(person, route: str):
    if route.startswith("api/"):
        client = APIClient()
        client.force_authenticate(person)
        return client
    client = Client()
    client.force_login(person)
    return client


def send(client, method: str, url: str, body: dict | None, route: str):
    headers = {}
    if route.endswith("/jogos/$") and body:
        body = dict(body)
        headers["HTTP_JOGO_NUMBER"] = str(body.pop("number"))
    if route.startswith("api/"):
        return getattr(client, method)(url, body, format="json", **headers)
    return getattr(client, method)(url, body or {})


def _unknown(url: str) -> str:
    """The same address with an id no object has in place of the object's (each address names one)."""
    return re.sub(r"/\d+(/|$)", rf"/{UNKNOWN}\1", url, count=1)


@pytest.mark.parametrize(("route", "role", "method", "address", "body"), PAGES,
                         ids=[f"{method} {route} as {role}" for route, role, method, _a, _b in PAGES])
def test_another_casino_s_object_is_not_found_and_nothing_is_written(world, route, role, method, address, body):
    a, b, _both = world
    person = b.site.people[role]
    client = client_of(person, route)
    before = written()
    answer = send(client, method, address(a), body(a) if body else None, route)
    assert answer.status_code == 404, (answer.status_code, getattr(answer, "content", b"")[:300])
    assert written() == before
    # The same as an object that does not exist: nothing says that it does.
    unknown = send(client, method, _unknown(address(a)), body(a) if body else None, route)
    assert unknown.status_code == 404
    # His own casino's object: the route answers him (not found would be a broken route).
    own = send(client, method, address(b), body(b) if body else None, route)
    assert own.status_code != 404 and own.status_code < 500, (own.status_code, getattr(own, "content", b"")[:300])


@pytest.mark.parametrize(("route", "role", "method", "address", "body"),
                         [row for row in PAGES if row[2] == "get" and not row[0].endswith(".pdf")],
                         ids=[f"{route} as {role}" for route, role, method, _a, _b in PAGES
                              if method == "get" and not route.endswith(".pdf")])
def test_his_own_casino_s_object_is_shown(world, route, role, method, address, body):
    _a, b, _both = world
    answer = send(client_of(b.site.people[role], route), method, address(b), None, route)
    assert answer.status_code == 200


def test_an_escalated_case_of_his_casino_prints(world):
    _a, b, _both = world
    answer = client_of(b.site.people[MANAGER], "aml/").get(f"/aml/{b.escalated.pk}/en.pdf")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"


# --- An id in the body: (route, role, url, body naming A's or B's object, what the right one makes) -

BODIES = [
    ("api/v1/amendments/$", SUPERVISOR, "/api/v1/amendments/",
     lambda o, jogo: {"jogo": jogo, "reason": "It was a draw.",
                      "record": {**o.jogo.record, "result": "draw", "winner": None, "discarder": None,
                                 "hand": None, "declared_fan": None}}),
    ("api/v1/players/$", SUPERVISOR, "/api/v1/players/", lambda o, casino: {"casino": casino, "name": "Mr New"}),
    ("api/v1/aml/cases/$", INSPECTOR, "/api/v1/aml/cases/", lambda o, patron: {"patron": patron, "note": "Large."}),
]
NAMED = {"api/v1/amendments/$": lambda o: o.jogo.pk, "api/v1/players/$": lambda o: o.site.casino.pk,
         "api/v1/aml/cases/$": lambda o: o.seated.pk}


@pytest.mark.parametrize(("route", "role", "url", "body"), BODIES, ids=[row[0] for row in BODIES])
def test_an_id_of_another_casino_in_the_body_is_unknown_and_nothing_is_written(world, route, role, url, body):
    a, b, _both = world
    client = client_of(b.site.people[role], route)
    if route == "api/v1/amendments/$":  # B's jogo is free to be corrected again
        services.decide_amendment(amendment=b.amendment, user=b.site.people[MANAGER], approve=False, reason="No.")
    before = written()
    named = NAMED[route](a)
    answer = client.post(url, body(b, named), format="json")
    unknown = client.post(url, body(b, UNKNOWN), format="json")
    assert answer.status_code == unknown.status_code  # the same words, but for the id
    assert answer.content.decode() == unknown.content.decode().replace(str(UNKNOWN), str(named))
    assert answer.status_code == 400 and written() == before
    assert client.post(url, body(b, NAMED[route](b)), format="json").status_code == 201


# --- Lists: (route, role, url, the ids it shows, the id of an object of a casino) ------------------

def _context(key: str, pick: Callable) -> Callable:
    return lambda answer: {pick(row) for row in answer.context[key]}


def _api(answer) -> set[int]:
    body = answer.json()
    return {row["id"] for row in (body["results"] if isinstance(body, dict) else body)}


def _hits(answer) -> set[str]:
    """Where each hit leads: its page, or for an alert the alert's place in the list."""
    return {hit.url.rpartition("#")[2] or hit.url for hit in answer.context["hits"]}


LISTS: list[tuple[str, str, Callable[[Objects], str], Callable, Callable[[Objects], object]]] = [
    ("pit/", DEALER, lambda o: "/pit/", _context("tables", lambda row: row[0].pk), lambda o: o.table.pk),
    ("pit/", INSPECTOR, lambda o: "/pit/", _context("tables", lambda row: row[0].pk), lambda o: o.table.pk),
    ("pit/corrections/", SUPERVISOR, lambda o: "/pit/corrections/",
     _context("rows", lambda row: row["amendment"].pk), lambda o: o.amendment.pk),
    ("pit/refusals/", INSPECTOR, lambda o: "/pit/refusals/", _context("rows", lambda row: row[0].pk),
     lambda o: o.refusal.pk),
    ("pit/players/", INSPECTOR, lambda o: "/pit/players/", _context("rows", lambda row: row["patron"].pk),
     lambda o: o.player.pk),
    ("pit/players/find", INSPECTOR, lambda o: "/pit/players/find?q=Chan", lambda answer: {
        row["id"] for row in answer.json()}, lambda o: o.player.pk),
    ("floor/", SUPERVISOR, lambda o: "/floor/", _context("cards", lambda card: card["id"]), lambda o: o.table.pk),
    ("floor/", INSPECTOR, lambda o: "/floor/", _context("cards", lambda card: card["id"]), lambda o: o.table.pk),
    ("floor/cards.json", INSPECTOR, lambda o: "/floor/cards.json",
     lambda answer: {card["id"] for card in answer.json()["cards"]}, lambda o: o.table.pk),
    ("floor/alerts/", SUPERVISOR, lambda o: "/floor/alerts/?state=all", _context("rows", lambda row: row.alert.pk),
     lambda o: o.alert.pk),
    ("floor/alerts/", INSPECTOR, lambda o: "/floor/alerts/?state=all", _context("rows", lambda row: row.alert.pk),
     lambda o: o.alert.pk),
    ("floor/search/", INSPECTOR, lambda o: "/floor/search/?q=Chan", _hits, lambda o: f"/pit/players/{o.player.pk}/"),
    ("floor/search/", INSPECTOR, lambda o: f"/floor/search/?q={o.table.number}", _hits,
     lambda o: f"/pit/tables/{o.table.pk}/"),
    ("floor/search/", INSPECTOR, lambda o: f"/floor/search/?q=alert {o.alert.pk}", _hits,
     lambda o: f"alert-{o.alert.pk}"),
    ("floor/search/", INSPECTOR, lambda o: f"/floor/search/?q={o.jogo.hash[:8]}", _hits,
     lambda o: f"/pit/jogos/{o.jogo.pk}/"),
    ("aml/", INSPECTOR, lambda o: "/aml/?state=all", _context("cases", lambda case: case.pk), lambda o: o.case.pk),
    ("api/v1/tables/$", DEALER, lambda o: "/api/v1/tables/", _api, lambda o: o.table.pk),
    ("api/v1/tables/$", INSPECTOR, lambda o: "/api/v1/tables/", _api, lambda o: o.table.pk),
    ("api/v1/games/$", INSPECTOR, lambda o: "/api/v1/games/", _api, lambda o: o.game.pk),
    ("api/v1/jogos/$", INSPECTOR, lambda o: "/api/v1/jogos/", _api, lambda o: o.jogo.pk),
    ("api/v1/movements/$", SUPERVISOR, lambda o: "/api/v1/movements/", _api, lambda o: o.movement.pk),
    ("api/v1/movement-refusals/$", SUPERVISOR, lambda o: "/api/v1/movement-refusals/", _api,
     lambda o: o.movement_refusal.pk),
    ("api/v1/movement-refusals/$", INSPECTOR, lambda o: "/api/v1/movement-refusals/", _api,
     lambda o: o.movement_refusal.pk),
    ("api/v1/refusals/$", INSPECTOR, lambda o: "/api/v1/refusals/", _api, lambda o: o.refusal.pk),
    ("api/v1/amendments/$", INSPECTOR, lambda o: "/api/v1/amendments/", _api, lambda o: o.amendment.pk),
    ("api/v1/players/$", INSPECTOR, lambda o: "/api/v1/players/", _api, lambda o: o.player.pk),
    ("api/v1/alerts/$", SUPERVISOR, lambda o: "/api/v1/alerts/?state=all", _api, lambda o: o.alert.pk),
    ("api/v1/alerts/$", MANAGER, lambda o: "/api/v1/alerts/?state=all", _api, lambda o: o.alert.pk),
    ("api/v1/aml/cases/$", INSPECTOR, lambda o: "/api/v1/aml/cases/", _api, lambda o: o.case.pk),
]


@pytest.mark.parametrize(("route", "role", "url", "shown", "key"), LISTS,
                         ids=[f"{route} as {role}: {i}" for i, (route, role, *_rest) in enumerate(LISTS)])
def test_a_list_shows_none_of_another_casino_s_objects(world, route, role, url, shown, key):
    a, b, _both = world
    answer = client_of(b.site.people[role], route).get(url(b))
    assert answer.status_code == 200
    listed = shown(answer)
    assert key(b) in listed and key(a) not in listed
    # Asked for A's object by what names it (a table number, a hash), B's person finds nothing of A.
    if url(a) != url(b):
        assert key(a) not in shown(client_of(b.site.people[role], route).get(url(a)))


# A list filtered by another casino's object answers as for an id that exists nowhere: the same
# empty list, never a 400 that would tell which ids exist elsewhere (casino/api_filters.py).
FILTERS = [
    (INSPECTOR, "/api/v1/games/?table={}", lambda o: o.table.pk),
    (INSPECTOR, "/api/v1/jogos/?table={}", lambda o: o.table.pk),
    (INSPECTOR, "/api/v1/jogos/?game={}", lambda o: o.game.pk),
    (SUPERVISOR, "/api/v1/movements/?game={}", lambda o: o.game.pk),
    (INSPECTOR, "/api/v1/refusals/?table={}", lambda o: o.table.pk),
    (INSPECTOR, "/api/v1/amendments/?jogo={}", lambda o: o.jogo.pk),
    (INSPECTOR, "/api/v1/movement-refusals/?patron={}", lambda o: o.player.pk),
    (INSPECTOR, "/api/v1/aml/cases/?patron={}", lambda o: o.player.pk),
]


@pytest.mark.parametrize(("role", "url", "key"), FILTERS, ids=[url for _r, url, _k in FILTERS])
def test_a_filter_on_another_casino_s_object_answers_as_on_an_unknown_id(world, role, url, key):
    a, b, _both = world
    client = client_of(b.site.people[role], "api/")
    elsewhere, nowhere = client.get(url.format(key(a))), client.get(url.format(UNKNOWN))
    assert elsewhere.status_code == nowhere.status_code == 200
    assert elsewhere.json() == nowhere.json() and elsewhere.json()["count"] == 0
    assert client.get(url.format(key(b))).status_code == 200


@pytest.mark.parametrize("url", ["/pit/", "/floor/", "/api/v1/tables/", "/api/v1/jogos/", "/aml/?state=all"])
def test_the_group_s_inspector_sees_both_casinos(world, url):
    a, b, both = world
    client = client_of(both, url.lstrip("/"))
    answer = client.get(url)
    assert answer.status_code == 200
    if url.startswith("/api/"):
        key = (lambda o: o.table.pk) if "tables" in url else (lambda o: o.jogo.pk)
        assert {key(a), key(b)} <= _api(answer)
    elif url == "/pit/":
        assert {row[0].pk for row in answer.context["tables"]} == {a.table.pk, b.table.pk}
    elif url == "/floor/":
        assert {card["id"] for card in answer.context["cards"]} == {a.table.pk, b.table.pk}
    else:
        assert {a.case.pk, b.case.pk} <= {case.pk for case in answer.context["cases"]}


def test_the_home_page_sends_a_person_to_his_own_tables_and_shows_others_nothing(world):
    _a, b, _both = world
    assert Client().get("/").status_code == 200  # what this is, and a login link
    client = client_of(b.site.people[DEALER], "")
    assert client.get("/").url == "/pit/"
    assert [row[0].pk for row in client.get("/pit/").context["tables"]] == [b.table.pk]


# --- The floor's socket ---------------------------------------------------------------------------

def test_the_floor_socket_passes_on_only_his_casinos_tables(world):
    """The consumer keeps a person to the cards of his casinos (casino/floor/consumers.py): a
    message carrying Casino A's card and Casino B's reaches B's inspector with B's card only, and
    an event at A's table alone is not passed on to him at all."""
    from asgiref.sync import async_to_sync

    from casino.floor import live
    from casino.floor.consumers import FloorConsumer

    a, b, both = world
    sent = []

    class Listening(FloorConsumer):
        async def send_json(self, content, close=False):
            sent.append(content)

    def consumer_of(person) -> Listening:
        consumer = Listening()
        # `_access` read in the test's own thread and transaction (Channels' wrapper would close the connection)
        allowed, consumer.casinos, consumer.tables, consumer.names = FloorConsumer.__dict__["_access"].func(
            consumer, person)
        assert allowed
        return consumer

    whole_floor = live.message("table_opened", None)
    at_a = live.message("jogo_recorded", a.table.pk)
    for person, expected in ((b.site.people[INSPECTOR], [b.table.pk]), (b.site.people[SUPERVISOR], [b.table.pk]),
                             (both, [a.table.pk, b.table.pk])):
        sent.clear()
        consumer = consumer_of(person)
        async_to_sync(consumer.floor_event)(whole_floor)
        async_to_sync(consumer.floor_event)(at_a)
        assert sorted(card["id"] for card in sent[0]["cards"]) == sorted(expected)
        assert len(sent) == (2 if a.table.pk in expected else 1)


ROUTES: set[str] = {row[0] for row in PAGES} | {row[0] for row in BODIES} | {row[0] for row in LISTS} | {""}


def test_an_administrator_gives_people_their_casinos_on_the_casino_s_page(world):
    """The admin's casino page lists its people (Casino.staff), chosen among every person."""
    from django.contrib.auth.models import User

    a, b, both = world
    admin = User.objects.create_superuser("root", password="correct horse battery")
    client = Client()
    client.force_login(admin)
    page = client.get(f"/admin/pit/casino/{a.site.casino.pk}/change/")
    assert page.status_code == 200 and 'name="staff"' in page.content.decode()
    newcomer = b.site.people[DEALER]
    staff = [*a.site.casino.staff.values_list("pk", flat=True), newcomer.pk]
    assert client.post(f"/admin/pit/casino/{a.site.casino.pk}/change/",
                       {"name": a.site.casino.name, "staff": staff}).status_code == 302
    assert set(newcomer.casinos.all()) == {a.site.casino, b.site.casino}
