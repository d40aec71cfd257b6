"""Builders for the pit tests: a casino with a conventional 25/50 table, a user per role and a
game of four players seated in chairs 0–3 with chair 0 as first banker."""
from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import Group, User
from django.utils import timezone

from casino.pit import selectors, services
from casino.pit.models import Casino, Jogo, Patron, Table
from casino.pit.roles import DEALER, INSPECTOR, MANAGER, SUPERVISOR

CAPITAL = [5000, 3000, 2000, 4000]
NOON = timezone.make_aware(dt.datetime(2026, 11, 21, 12, 0))


def user(name: str, role: str | None) -> User:
    person = User.objects.create_user(name, password="correct horse battery")
    if role:
        person.groups.add(Group.objects.get(name=role))
    return person


def table(number="T1", variant="conventional", stake=25, staff=()) -> Table:
    """A table of Casino Lisboa; the dealers of its `staff` on its rotation for today's gaming day."""
    casino, _ = Casino.objects.get_or_create(name="Casino Lisboa")
    made = Table.objects.create(casino=casino, number=number, variant=variant, stake=stake)
    made.staff.set(staff)
    for person in staff:  # its dealers on its rotation today, so that they record now on screen and by the API
        on_rotation(made, person, timezone.now())
    return made


def staff():
    """dealer and supervisor assigned to T1; a second dealer at T2; inspector; manager. Each dealer
    is on his table's rotation for today's gaming day (`table`)."""
    people = {"dealer": user("dealer", DEALER), "supervisor": user("supervisor", SUPERVISOR),
              "supervisor2": user("supervisor2", SUPERVISOR), "other_dealer": user("other_dealer", DEALER),
              "inspector": user("inspector", INSPECTOR), "manager": user("manager", MANAGER)}
    t1 = table("T1", staff=[people["dealer"], people["supervisor"], people["supervisor2"]])
    t2 = table("T2", staff=[people["other_dealer"]])
    return people, t1, t2


def on_rotation(at_table: Table, person: User, at=NOON) -> None:
    """Put a dealer on `at_table`'s rotation from the start of the gaming day of `at`, through the
    count's service, unless an entry already holds him there at `at`: the rotation decides who
    records (casino/count/receivers.py). A supervisor records as he is (covering his table)."""
    from casino.count import rotation, services as count_services
    from casino.pit import days

    if person.has_perm("pit.open_close_table") or rotation.on_rotation(table=at_table, person=person, at=at):
        return
    starts = days.day_bounds(days.gaming_day(at))[0]
    count_services.rotation_start(table=at_table, person=person, starts_at=starts, user=person, at=at)


def seat(at_table: Table, by: User, capital=CAPITAL, first_banker=0, at=NOON, witness: User | None = None):
    """Seat "Player 0".."Player 3" (new players, by name) with `capital` per chair; the seating
    buy-ins witnessed by `by` when he is a supervisor, else by `witness` or a supervisor of the
    table (`witness_of`)."""
    on_rotation(at_table, by, at)
    players = [{"chair": c, "name": f"Player {c}", "capital": amount}
               for c, amount in enumerate(capital) if amount is not None]
    if witness is None and not by.has_perm("pit.move_money"):
        witness = witness_of(at_table)
    return services.start_game(table=at_table, user=by, players=players, first_banker=first_banker, at=at,
                               witness=witness)


def witness_of(at_table: Table) -> User:
    """A supervisor assigned to `at_table`, who witnesses its seating buy-ins: the first one, or a
    new one named "witness" (assigned to every table that needs one)."""
    found = at_table.staff.filter(groups__name=SUPERVISOR).order_by("pk").first()
    if found is None:
        found = User.objects.filter(username="witness").first() or user("witness", SUPERVISOR)
        at_table.staff.add(found)
    return found


def patron(casino: Casino, name: str, identified: bool = False, by: User | None = None) -> Patron:
    """A player of `casino` known by `name`; `identified`, with a Macau identity card, a date of
    birth and a nationality (DICJ Instruction n.º 1/2016)."""
    at = timezone.now()
    by = by or User.objects.filter(username="witness").first() or user("witness", SUPERVISOR)
    document = {"document_type": Patron.MACAU_ID, "document_number": f"1{Patron.objects.count():06d}(1)",
                "document_country": "MO", "date_of_birth": dt.date(1980, 5, 17), "nationality": "MO"}
    return Patron.objects.create(casino=casino, name=name, created_at=at, created_by=by, changed_at=at,
                                 changed_by=by, **(document if identified else {}))


def next_record(game, **fields) -> dict:
    """The portable record of the game's next jogo: by default South wins a chicken hand on
    West's discard (0 fán), with round wind and capital as the ledger has them."""
    record = {
        **selectors.record_header(game),
        "result": "win", "winner": "S", "discarder": "W",
        "hand": {"concealed": "345m678p234s99m11p", "winning_tile": "1p"}, "declared_fan": 0,
    }
    record.update(fields)
    return record


def record_next(game, by, at=NOON, **fields) -> Jogo:
    """Record the game's next jogo (`next_record`) through the service, `by` on the rotation."""
    on_rotation(game.table, by, at)
    jogo, created = services.record_jogo(table=game.table, user=by, record=next_record(game, **fields), at=at)
    assert created
    return jogo


DRAW = {"result": "draw", "winner": None, "discarder": None, "hand": None, "declared_fan": None}


def api_routes(prefix: str, *, but: str | None = None) -> set[str]:
    """Every route under `prefix` (e.g. "api/v1/"), but those under `but`, as Django's resolver
    names them, for the permission matrices' check that each route is in the matrix."""
    from django.urls import get_resolver

    def routes(entries, above=""):
        for entry in entries:
            here = above + str(entry.pattern).removeprefix("^")
            if hasattr(entry, "url_patterns"):
                yield from routes(entry.url_patterns, here)
            else:
                yield here

    return {route for route in routes(get_resolver().url_patterns)
            if route.startswith(prefix) and not (but and route.startswith(but)) and "format" not in route}


# Art. 10(a)(3): North discards the green dragon that completes West's big three dragons, so
# North pays for the other losers (包輸). Chairs 0–3 are East, South, West, North.
BIG_THREE_DRAGONS_PAY_ALL = {
    "result": "win", "winner": "W", "discarder": "N", "declared_fan": None,
    "pay_all": {"seat": "N", "article": "10(a)(3)", "live_tile": False},
    "hand": {"concealed": "66z22m", "winning_tile": "6z", "melds": [
        {"kind": "pong", "tiles": "555z", "exposed": True}, {"kind": "pong", "tiles": "777z", "exposed": True},
        {"kind": "chow", "tiles": "345s", "exposed": True}]},
}
