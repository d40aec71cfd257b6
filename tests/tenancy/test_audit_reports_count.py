"""The casino group's walls in the audit, the reports and the count (docs/casinos.md): Casino B's
people, each of the role that may use a route at his own casino, get a 404 for Casino A's jogo,
flag, table, casino, box, case or rotation entry (as for one that does not exist), and their
write changes nothing; a list, an export or a log shows them none of A's objects. Each route is
also shown working for B's person on B's own object, so that a 404 is the wall and not a broken
route. Then the group's totals: the sum of the casinos a person is given, and only of those."""
from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from casino.audit.ledger import Days
from casino.audit.selectors import commission_audit
from casino.count import cases, services as count_services, shifts
from casino.count.models import Box, Case, CaseEvent, Count, Decision, Rotation, RotationEnd, Signature
from casino.pit import services
from casino.pit.days import gaming_day
from casino.pit.models import Casino, DayEvent, Flag, FlagComment, Jogo
from casino.pit.roles import COUNTER, INSPECTOR, MANAGER, SUPERVISOR
from tests.builders.casinos import Site, group, site
from tests.builders.count import PASSWORD
from tests.builders.pit import DRAW, record_next, user

pytestmark = [pytest.mark.django_db, pytest.mark.casinos]

ROUTES = {
    "audit/", "audit/accounted/", "audit/commission/", "audit/exceptions/", "audit/export/", "audit/flags/",
    "audit/flags/<int:pk>/", "audit/flags/<int:pk>/comment", "audit/flags/<int:pk>/resolve", "audit/group/",
    "audit/jogos/<int:pk>/", "audit/mtl/", "audit/mtl/export/", "audit/readings/", "audit/tables/<int:pk>/trend/",
    "reports/", "reports/<int:casino_id>/<isodate:day>/close", "reports/<int:casino_id>/<isodate:day>/daily-report.pdf",
    "reports/<int:casino_id>/<isodate:day>/reopen",
    "count/boxes/", "count/boxes/<int:pk>/", "count/boxes/<int:pk>/accept-recount",
    "count/boxes/<int:pk>/approve-recount", "count/boxes/<int:pk>/recount", "count/cases/", "count/cases/<int:pk>/",
    "count/cases/<int:pk>/<str:language>.pdf", "count/cases/<int:pk>/<str:step>", "count/rotation/",
    "count/rotation/<int:pk>/close", "count/rotation/<int:pk>/relieve", "count/rotation/draft",
    "api/v1/count/boxes/$", "api/v1/count/boxes/(?P<pk>[^/.]+)/$", "api/v1/count/boxes/(?P<pk>[^/.]+)/accept-recount/$",
    "api/v1/count/boxes/(?P<pk>[^/.]+)/approve-recount/$", "api/v1/count/boxes/(?P<pk>[^/.]+)/count/$",
    "api/v1/count/boxes/(?P<pk>[^/.]+)/recount/$", "api/v1/count/cases/$", "api/v1/count/cases/(?P<pk>[^/.]+)/$",
    "api/v1/count/cases/(?P<pk>[^/.]+)/notes/$", "api/v1/count/cases/(?P<pk>[^/.]+)/state/$",
    "api/v1/count/rotation/$", "api/v1/count/rotation/(?P<pk>[^/.]+)/$",
    "api/v1/count/rotation/(?P<pk>[^/.]+)/close/$", "api/v1/count/rotation/(?P<pk>[^/.]+)/relieve/$",
    "api/v1/count/rotation/confirm/$", "api/v1/count/rotation/draft/$",
    "api/v1/flags/$", "api/v1/flags/(?P<pk>[^/.]+)/$", "api/v1/gaming-days/close/",
}

TODAY = gaming_day(timezone.now())  # the builders' jogos are recorded now
YESTERDAY = TODAY - dt.timedelta(days=1)  # the boxes: ended shifts
QUIET_DAY = TODAY - dt.timedelta(days=2)  # a day without play nor boxes, which a manager may close
RUNNING = shifts.shift_of(timezone.now())  # the gaming day and shift running: its draft holds `watch`
COUNTED = 1000  # what the counters of each casino counted in yesterday's first box (expected 0)


@dataclass
class Furnished:
    """A site of the group with what the routes act on."""

    site: Site
    jogo: Jogo
    flag: Flag
    counted: Box  # yesterday's shift 1: counted alike by both counters, COUNTED over: its case escalated
    waiting: Box  # yesterday's shift 2: not counted
    case: Case
    entry: Rotation  # the dealer's entry of today
    watch: Rotation  # the supervisor's, from the start of the shift before the one running: in its draft
    people: dict[str, User] = field(default_factory=dict)

    @property
    def table(self) -> str:
        return self.site.table.number


def furnish(at: Site, prefix: str) -> Furnished:
    """A draw after the site's jogo (a jogo the register of readings lists: I-1 decides it), a flag
    on the first jogo, two boxes of yesterday (one counted over with its case escalated, one
    waiting), a second counter, and the supervisor on the rotation since the start of the shift
    before the one running, all at the site's casino."""
    people = dict(at.people)
    people["counter2"] = user(f"{prefix}_counter2", COUNTER)
    at.casino.staff.add(people["counter2"])
    record_next(at.game, people["dealer"], at=timezone.now(), **DRAW)
    jogo = at.game.jogos.get(number=1)
    flag = services.flag(jogo=jogo, user=people[INSPECTOR], note="the grade looks wrong")
    now = timezone.now()
    counted = count_services.box_for(table=at.table, gaming_day=YESTERDAY, shift=1)
    for counter in (people[COUNTER], people["counter2"]):
        count_services.sign_count(box=counted, user=counter, password=PASSWORD, counted=COUNTED, at=now)
    case = Case.objects.get(box=counted)
    cases.escalate(case=case, user=people[INSPECTOR], note="a large overage")
    waiting = count_services.box_for(table=at.table, gaming_day=YESTERDAY, shift=2)
    entry = Rotation.objects.filter(table=at.table, person=people["dealer"]).latest("pk")
    before = count_services.previous_shift(*RUNNING)  # RUNNING's, even if a shift began since the import
    watch = count_services.rotation_start(table=at.table, person=people[SUPERVISOR], duty=Rotation.SUPERVISOR,
                                          starts_at=shifts.shift_bounds(*before)[0], user=people[SUPERVISOR],
                                          gaming_day=before[0])
    return Furnished(at, jogo, flag, counted, waiting, case, entry, watch, people)


@pytest.fixture
def world(settings):
    """Casino A and Casino B furnished, and the inspector given both."""
    settings.COUNT_VARIANCE_ABSOLUTE, settings.COUNT_VARIANCE_PERCENT = 100, 2
    a, b, both = group()
    return furnish(a, "a"), furnish(b, "b"), both


def client_of(person: User) -> APIClient:
    client = APIClient()
    client.force_login(person)
    return client


def clock(minutes_ago: int = 1) -> str:
    """A time of today's gaming day on the 24-hour clock, a little before now."""
    return timezone.localtime(timezone.now() - dt.timedelta(minutes=minutes_ago)).strftime("%H:%M")


def moment(minutes_ago: int = 1) -> str:
    return (timezone.now() - dt.timedelta(minutes=minutes_ago)).isoformat()


# --- Objects: another casino's is a 404, and a write changes nothing ----------------------------------


@dataclass(frozen=True)
class Wall:
    """A route tried by B's person of `role` on A's object, then on B's own: `url` and `data`
    are built from a furnished site; `rows` counts what a write would make; A's answer is
    `refused` (404: as for what does not exist), B's own is `own`."""

    route: str
    role: str
    url: Callable[[Furnished], str]
    own: int
    method: str = "get"
    data: Callable[[Furnished], dict] | None = None
    rows: Callable[[], int] | None = None
    refused: int = 404
    api: bool = False
    ready: Callable[[Furnished], None] | None = None  # done at both sites first


def _comments() -> int:
    return FlagComment.objects.count()


def _resolved() -> int:
    return Flag.objects.filter(resolved_at__isnull=False).count()


def _day_events() -> int:
    return DayEvent.objects.count()


def _closed(at: Furnished) -> None:
    services.close_day(casino=at.site.casino, day=QUIET_DAY, user=at.people[MANAGER])


def _note(at: Furnished) -> dict:
    return {"note": "seen"}


WALLS = [
    # The audit's pages (inspectors; a manager resolves).
    Wall("audit/jogos/<int:pk>/", INSPECTOR, lambda f: f"/audit/jogos/{f.jogo.pk}/", 200),
    Wall("audit/jogos/<int:pk>/", INSPECTOR, lambda f: f"/audit/jogos/{f.jogo.pk}/", 302, "post",
         lambda f: {"note": "again"}, Flag.objects.count),
    Wall("audit/flags/<int:pk>/", INSPECTOR, lambda f: f"/audit/flags/{f.flag.pk}/", 200),
    Wall("audit/flags/<int:pk>/comment", INSPECTOR, lambda f: f"/audit/flags/{f.flag.pk}/comment", 302, "post",
         _note, _comments),
    Wall("audit/flags/<int:pk>/resolve", MANAGER, lambda f: f"/audit/flags/{f.flag.pk}/resolve", 302, "post",
         lambda f: {"note": "recounted, fine", "confirmed": "yes"}, _resolved),
    Wall("audit/tables/<int:pk>/trend/", INSPECTOR, lambda f: f"/audit/tables/{f.site.table.pk}/trend/", 200),
    Wall("audit/mtl/", INSPECTOR, lambda f: f"/audit/mtl/?day={TODAY}&casino={f.site.casino.pk}", 200),
    Wall("audit/mtl/export/", INSPECTOR, lambda f: f"/audit/mtl/export/?day={TODAY}&casino={f.site.casino.pk}", 200),
    # The reports (managers).
    Wall("reports/", MANAGER, lambda f: f"/reports/?casino={f.site.casino.pk}&day={TODAY}", 200),
    Wall("reports/<int:casino_id>/<isodate:day>/daily-report.pdf", MANAGER,
         lambda f: f"/reports/{f.site.casino.pk}/{QUIET_DAY}/daily-report.pdf", 200),
    Wall("reports/<int:casino_id>/<isodate:day>/close", MANAGER,
         lambda f: f"/reports/{f.site.casino.pk}/{QUIET_DAY}/close", 302, "post",
         lambda f: {"confirm": "on", "note": "reviewed"}, _day_events),
    Wall("reports/<int:casino_id>/<isodate:day>/reopen", MANAGER,
         lambda f: f"/reports/{f.site.casino.pk}/{QUIET_DAY}/reopen", 302, "post", lambda f: {"reason": "a correction"},
         _day_events, ready=_closed),
    # The count's screens: counters count, managers decide, inspectors work the cases, supervisors keep the log.
    Wall("count/boxes/<int:pk>/", COUNTER, lambda f: f"/count/boxes/{f.waiting.pk}/", 200),
    Wall("count/boxes/<int:pk>/", COUNTER, lambda f: f"/count/boxes/{f.waiting.pk}/", 302, "post",
         lambda f: {"attempt": 1, "counted": 0, "password": PASSWORD}, Signature.objects.count),
    Wall("count/boxes/<int:pk>/recount", COUNTER, lambda f: f"/count/boxes/{f.counted.pk}/recount", 409, "post",
         lambda f: {"reason": "the seal was broken"}, Count.objects.count),
    Wall("count/boxes/<int:pk>/approve-recount", MANAGER, lambda f: f"/count/boxes/{f.counted.pk}/approve-recount",
         302, "post", lambda f: {"reason": "the seal was broken"}, Decision.objects.count),
    Wall("count/boxes/<int:pk>/accept-recount", MANAGER, lambda f: f"/count/boxes/{f.counted.pk}/accept-recount",
         409, "post", lambda f: {"reason": "the recount holds", "attempt": 2}, Decision.objects.count),
    Wall("count/cases/<int:pk>/", INSPECTOR, lambda f: f"/count/cases/{f.case.pk}/", 200),
    Wall("count/cases/<int:pk>/<str:language>.pdf", INSPECTOR, lambda f: f"/count/cases/{f.case.pk}/en.pdf", 200),
    Wall("count/cases/<int:pk>/<str:step>", INSPECTOR, lambda f: f"/count/cases/{f.case.pk}/note", 302, "post",
         _note, CaseEvent.objects.count),
    Wall("count/rotation/<int:pk>/close", SUPERVISOR, lambda f: f"/count/rotation/{f.entry.pk}/close", 302, "post",
         lambda f: {"ends": clock()}, RotationEnd.objects.count),
    Wall("count/rotation/<int:pk>/relieve", SUPERVISOR, lambda f: f"/count/rotation/{f.entry.pk}/relieve", 302,
         "post", lambda f: {"relief-person": f.people[SUPERVISOR].pk, "relief-at": clock()}, Rotation.objects.count),
    # A new entry at A's table: not a table among B's supervisor's, refused as one that does not exist.
    Wall("count/rotation/", SUPERVISOR, lambda f: f"/count/rotation/?day={TODAY}", 302, "post",
         lambda f: {"table": f.site.table.pk, "person": f.people[SUPERVISOR].pk, "duty": "supervisor",
                    "starts": clock(2)}, Rotation.objects.count, refused=400),
    # Keeping A's line of a draft: not a line of B's supervisor's draft (whose form asks for his own lines), so
    # refused, and nothing is confirmed.
    Wall("count/rotation/draft", SUPERVISOR, lambda f: f"/count/rotation/draft?day={RUNNING[0]}&shift={RUNNING[1]}",
         302, "post", lambda f: {f"keep_{f.watch.pk}": "on", f"person_{f.watch.pk}": f.people[SUPERVISOR].pk,
                                 # after the first shift the dealer's entry is a line of the draft too, not kept
                                 f"person_{f.entry.pk}": f.people["dealer"].pk},
         Rotation.objects.count, refused=400),
    # The count's API.
    Wall("api/v1/count/boxes/(?P<pk>[^/.]+)/$", COUNTER, lambda f: f"/api/v1/count/boxes/{f.waiting.pk}/", 200,
         api=True),
    Wall("api/v1/count/boxes/(?P<pk>[^/.]+)/count/$", COUNTER, lambda f: f"/api/v1/count/boxes/{f.waiting.pk}/count/",
         201, "post", lambda f: {"count": 1, "counted": 0, "password": PASSWORD}, Signature.objects.count, api=True),
    Wall("api/v1/count/boxes/(?P<pk>[^/.]+)/recount/$", COUNTER,
         lambda f: f"/api/v1/count/boxes/{f.counted.pk}/recount/", 409, "post", lambda f: {"reason": "seal broken"},
         Count.objects.count, api=True),
    Wall("api/v1/count/boxes/(?P<pk>[^/.]+)/approve-recount/$", MANAGER,
         lambda f: f"/api/v1/count/boxes/{f.counted.pk}/approve-recount/", 201, "post",
         lambda f: {"reason": "seal broken"}, Decision.objects.count, api=True),
    Wall("api/v1/count/boxes/(?P<pk>[^/.]+)/accept-recount/$", MANAGER,
         lambda f: f"/api/v1/count/boxes/{f.counted.pk}/accept-recount/", 409, "post",
         lambda f: {"count": 2, "reason": "the recount holds"}, Decision.objects.count, api=True),
    Wall("api/v1/count/cases/(?P<pk>[^/.]+)/$", INSPECTOR, lambda f: f"/api/v1/count/cases/{f.case.pk}/", 200,
         api=True),
    Wall("api/v1/count/cases/(?P<pk>[^/.]+)/notes/$", INSPECTOR, lambda f: f"/api/v1/count/cases/{f.case.pk}/notes/",
         201, "post", _note, CaseEvent.objects.count, api=True),
    Wall("api/v1/count/cases/(?P<pk>[^/.]+)/state/$", MANAGER, lambda f: f"/api/v1/count/cases/{f.case.pk}/state/",
         201, "post", lambda f: {"state": "resolved", "note": "explained by a miscount"}, CaseEvent.objects.count,
         api=True),
    Wall("api/v1/count/rotation/(?P<pk>[^/.]+)/$", SUPERVISOR, lambda f: f"/api/v1/count/rotation/{f.entry.pk}/", 200,
         api=True),
    Wall("api/v1/count/rotation/(?P<pk>[^/.]+)/close/$", SUPERVISOR,
         lambda f: f"/api/v1/count/rotation/{f.entry.pk}/close/", 200, "post", lambda f: {"ends_at": moment()},
         RotationEnd.objects.count, api=True),
    Wall("api/v1/count/rotation/(?P<pk>[^/.]+)/relieve/$", SUPERVISOR,
         lambda f: f"/api/v1/count/rotation/{f.entry.pk}/relieve/", 201, "post",
         lambda f: {"person": f.people[SUPERVISOR].pk, "at": moment()}, Rotation.objects.count, api=True),
    # A new entry at A's table: "no table among yours", as for a table that does not exist.
    Wall("api/v1/count/rotation/$", SUPERVISOR, lambda f: "/api/v1/count/rotation/", 201, "post",
         lambda f: {"table": f.site.table.pk, "person": f.people[SUPERVISOR].pk, "duty": "supervisor",
                    "starts_at": moment(2)}, Rotation.objects.count, refused=400, api=True),
    # Confirming a draft line of A's: not in B's draft, so refused, as a line that does not exist.
    Wall("api/v1/count/rotation/confirm/$", SUPERVISOR, lambda f: "/api/v1/count/rotation/confirm/", 201, "post",
         lambda f: {"day": RUNNING[0].isoformat(), "shift": RUNNING[1], "lines": [{"entry": f.watch.pk}]},
         Rotation.objects.count, refused=409, api=True),
    Wall("api/v1/flags/(?P<pk>[^/.]+)/$", INSPECTOR, lambda f: f"/api/v1/flags/{f.flag.pk}/", 200, api=True),
    # Closing A's day: A is not a casino of B's manager, refused as a casino that does not exist.
    Wall("api/v1/gaming-days/close/", MANAGER, lambda f: "/api/v1/gaming-days/close/", 200, "post",
         lambda f: {"casino": f.site.casino.pk, "day": QUIET_DAY.isoformat()}, _day_events, refused=400, api=True),
]


def _send(client: APIClient, wall: Wall, at: Furnished):
    data = wall.data(at) if wall.data else None
    if wall.method == "get":
        return client.get(wall.url(at))
    if wall.api:
        return client.post(wall.url(at), data, format="json")
    return client.post(wall.url(at), data)


@pytest.mark.parametrize("wall", WALLS, ids=lambda wall: f"{wall.method} {wall.route} as {wall.role}")
def test_b_staff_cannot_read_or_act_on_casino_a_s_objects(world, wall):
    a, b, _ = world
    for at in (a, b) if wall.ready else ():
        wall.ready(at)
    client = client_of(b.people[wall.role])
    before = wall.rows() if wall.rows else None
    refused = _send(client, wall, a)
    assert refused.status_code == wall.refused, refused.content[:500]
    if wall.rows:
        assert wall.rows() == before  # nothing written
    if wall.refused == 400 and wall.route == "api/v1/gaming-days/close/":  # the same answer as no such casino
        nowhere = client.post(wall.url(a), {"casino": Casino.objects.order_by("-pk").first().pk + 100,
                                            "day": QUIET_DAY.isoformat()}, format="json")
        assert nowhere.status_code == 400
        assert refused.json()["errors"][0]["code"] == nowhere.json()["errors"][0]["code"]
    own = _send(client, wall, b)
    assert own.status_code == wall.own, own.content[:500]
    if wall.rows and wall.own in (200, 201, 302):
        assert wall.rows() != before  # B's own write was made


def test_b_supervisor_cannot_put_casino_a_s_staff_on_b_s_rotation(world):
    """The rotation's people are the staff of the table's casino: A's dealer is no choice at B's
    table, on the screen or by the API."""
    a, b, _ = world
    client = client_of(b.people[SUPERVISOR])
    before = Rotation.objects.count()
    page = client.post(f"/count/rotation/?day={TODAY}", {"table": b.site.table.pk, "person": a.people["dealer"].pk,
                                                          "duty": "dealer", "starts": clock(2)})
    api = client.post("/api/v1/count/rotation/", {"table": b.site.table.pk, "person": a.people["dealer"].pk,
                                                  "duty": "dealer", "starts_at": moment(2)}, format="json")
    assert (page.status_code, api.status_code) == (400, 400)
    assert Rotation.objects.count() == before
    shown = client.get(f"/count/rotation/?day={TODAY}").context["form"].fields["person"].queryset
    assert a.people["dealer"] not in shown and b.people["dealer"] in shown


def test_a_supervisor_of_both_casinos_puts_only_the_table_s_casino_s_staff_on_its_rotation(world):
    a, b, _ = world
    both = user("group_supervisor", SUPERVISOR)
    both.casinos.add(a.site.casino, b.site.casino)
    b.site.table.staff.add(both)
    before = Rotation.objects.count()
    page = client_of(both).post(f"/count/rotation/?day={TODAY}", {
        "table": b.site.table.pk, "person": a.people["dealer"].pk, "duty": "dealer", "starts": clock(2)})
    assert page.status_code == 400
    assert "is not on the staff of table B1" in page.content.decode().replace("&#x27;", "'")
    assert Rotation.objects.count() == before


# --- Lists: another casino's objects are not in them -------------------------------------------------


def _csv_column(response, column: int) -> set[str]:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return {row[column] for row in list(csv.reader(io.StringIO(body.decode())))[1:]}


def _results(response) -> list:
    data = response.json()
    return data["results"] if isinstance(data, dict) and "results" in data else data


@dataclass(frozen=True)
class Listing:
    """A list read by B's person of `role`: `shown` says which tables it shows (their numbers, or
    for the API's flags their ids)."""

    route: str
    role: str
    url: str
    shown: Callable[[object], set]


LISTINGS = [
    Listing("audit/", INSPECTOR, "/audit/", lambda r: {f"{r.context['open_flags']} open flag"}),
    Listing("audit/commission/", INSPECTOR, f"/audit/commission/?day={TODAY}",
            lambda r: {line.label for line in r.context["audit"].tables}),
    Listing("audit/exceptions/", INSPECTOR, f"/audit/exceptions/?day={TODAY}",
            lambda r: {entry.table for entry in r.context["entries"]}),
    Listing("audit/export/", INSPECTOR, f"/audit/export/?day={TODAY}&format=csv", lambda r: _csv_column(r, 1)),
    Listing("audit/flags/", INSPECTOR, "/audit/flags/", lambda r: {flag.table.number for flag in r.context["flags"]}),
    Listing("audit/mtl/", INSPECTOR, f"/audit/mtl/?day={TODAY}",
            lambda r: {line.table for player in r.context["log"].players for line in player.lines}),
    Listing("audit/mtl/export/", INSPECTOR, f"/audit/mtl/export/?day={TODAY}", lambda r: _csv_column(r, 6)),
    Listing("audit/readings/", INSPECTOR, f"/audit/readings/?day={TODAY}",
            lambda r: {jogo.table for point in r.context["points"] for jogo in point.jogos}),
    Listing("audit/accounted/", INSPECTOR, f"/audit/accounted/?day={TODAY}",
            lambda r: {account.table.number for account in r.context["account"].tables}),
    Listing("reports/", MANAGER, "/reports/",
            lambda r: {casino.name for casino in r.context["form"].fields["casino"].queryset}
            | {r.context["casino"].name}),
    Listing("count/boxes/", COUNTER, "/count/boxes/",
            lambda r: {view.box.table.number for view in r.context["to_count"] + r.context["counted"]}),
    Listing("count/cases/", INSPECTOR, "/count/cases/",
            lambda r: {case.box.table.number for case in r.context["cases"]}),
    Listing("count/rotation/", SUPERVISOR, f"/count/rotation/?day={TODAY}",
            lambda r: {entry.table.number for entry, *_ in r.context["rows"]}),
    Listing("count/rotation/draft", SUPERVISOR, f"/count/rotation/draft?day={RUNNING[0]}&shift={RUNNING[1]}",
            lambda r: {line.entry.table.number for line in r.context["form"].lines}),
    Listing("api/v1/count/boxes/$", COUNTER, "/api/v1/count/boxes/", lambda r: {box["table"] for box in _results(r)}),
    Listing("api/v1/count/cases/$", INSPECTOR, "/api/v1/count/cases/",
            lambda r: {case["table"] for case in _results(r)}),
    Listing("api/v1/count/rotation/$", SUPERVISOR, f"/api/v1/count/rotation/?day={TODAY}",
            lambda r: {entry["table"] for entry in _results(r)}),
    Listing("api/v1/count/rotation/draft/$", SUPERVISOR,
            f"/api/v1/count/rotation/draft/?day={RUNNING[0]}&shift={RUNNING[1]}",
            lambda r: {line["table"] for line in r.json()["lines"]}),
    Listing("api/v1/flags/$", INSPECTOR, "/api/v1/flags/", lambda r: {flag["table"] for flag in _results(r)}),
]


def _expected(listing: Listing, at: Furnished) -> set:
    """What the list shows of one site: its table (its id, for the API's flags)."""
    if listing.route == "api/v1/flags/$":
        return {at.site.table.pk}
    if listing.route == "audit/":
        return {"1 open flag"}
    if listing.route == "reports/":
        return {at.site.casino.name}
    return {at.table}


@pytest.mark.parametrize("listing", LISTINGS, ids=lambda listing: f"{listing.route} as {listing.role}")
def test_b_staff_see_none_of_casino_a_s_objects_in_a_list(world, listing):
    a, b, both = world
    response = client_of(b.people[listing.role]).get(listing.url)
    assert response.status_code == 200, response.content[:500]
    assert listing.shown(response) == _expected(listing, b)
    if listing.role == INSPECTOR and listing.route != "audit/":  # the group's inspector sees both: the list is real
        assert listing.shown(client_of(both).get(listing.url)) == _expected(listing, a) | _expected(listing, b)


def test_the_mtl_of_every_casino_is_the_log_of_his_casinos(world):
    """The log's "every casino" is every casino the person is given."""
    a, b, both = world
    log = client_of(both).get(f"/audit/mtl/?day={TODAY}").context["log"]
    assert {line.table for player in log.players for line in player.lines} == {a.table, b.table}


# --- The group's totals -----------------------------------------------------------------------------


def _group(person: User):
    response = client_of(person).get(f"/audit/group/?from={YESTERDAY}&to={TODAY}")
    assert response.status_code == 200
    return response.context["group"]


def test_the_group_s_totals_are_the_sum_of_the_casinos_he_is_given(world):
    a, b, both = world
    elsewhere = site("Casino C", "c")  # played, and not given to the group's inspector
    totals = _group(both)
    assert [line.casino for line in totals.lines] == [a.site.casino, b.site.casino]
    days = Days(YESTERDAY, TODAY)
    for line in totals.lines:  # each line as the commission audit and the count have it, casino by casino
        audit = commission_audit(days, casinos=[line.casino])
        assert (line.jogos, line.commission_recorded, line.commission_due) == (
            audit.total.jogos, audit.total.commission_recorded, audit.total.commission_due) == (
            2, line.commission_recorded, line.commission_due)
        assert (line.counted, line.boxes_counted, line.boxes_not_counted) == (COUNTED, 1, 1)
        assert (line.open_flags, line.open_cases) == (1, 1)
        assert line.difference == COUNTED - line.commission_due
    total = totals.total
    for name in ("jogos", "commission_recorded", "commission_due", "counted", "boxes_counted", "boxes_not_counted",
                 "open_flags", "open_cases", "difference"):
        assert getattr(total, name) == sum(getattr(line, name) for line in totals.lines), name
    assert (total.jogos, total.counted, total.open_flags) == (4, 2 * COUNTED, 2)
    assert elsewhere.casino not in [line.casino for line in totals.lines]
    assert Jogo.objects.filter(table__casino=elsewhere.casino).exists()  # C played: it is left out, not empty


def test_a_person_given_one_casino_sees_his_casino_s_line_only(world):
    a, b, _ = world
    totals = _group(b.people[INSPECTOR])
    assert [line.casino for line in totals.lines] == [b.site.casino]
    assert (totals.total.jogos, totals.total.counted) == (2, COUNTED)


def test_the_group_s_totals_are_linked_for_a_person_given_several_casinos(world):
    a, b, both = world
    group_manager = user("group_manager", MANAGER)
    group_manager.casinos.add(a.site.casino, b.site.casino)
    for person, start in ((both, "/audit/"), (group_manager, "/reports/")):
        assert b'href="/audit/group/' in client_of(person).get(start).content, start
    for person, start in ((b.people[INSPECTOR], "/audit/"), (b.people[MANAGER], "/reports/")):
        assert b'class="group"' not in client_of(person).get(start).content, start


@pytest.mark.parametrize("language", ["en", "pt", "zh-hant"])
def test_the_group_s_page_speaks_three_languages(world, language):
    a, b, both = world
    page = client_of(both).get(f"/audit/group/?day={TODAY}", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    heading = {"en": "The group's total", "pt": "Total do grupo", "zh-hant": "集團總計"}[language]
    assert heading in page.replace("&#x27;", "'")
