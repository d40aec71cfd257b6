"""The demo casinos: Casino Demo Macau, with tables at several tiers in both variants, a user per
role, and one gaming day of jogos recorded through the real service (fixtures/demo.json is this,
dumped); and Casino Demo Taipa, a second casino of the group with two tables, its own dealer and
supervisor and a played day (`group`). Each person is given the casino he works at; the inspector
and the manager are given both, and see the group's totals (docs/casinos.md).

Every figure below comes from the engine; the comments only say what each jogo shows. The demo
keeps the money rules the project ships (docs/rules.md §11, docs/money.md): every seat sits down
with at least the table's minimum capital (C-1; 600 at 25/50, 2,400 at 100/200, 24,000 at
1000/2000, and 800 and 2,000 for the simplified tables' three and two players), a supervisor
witnesses every seating's buy-ins, and the players are people (`Patron`), known by name and seated
again by it, so that a player has a day. Under C-1's default a winner always holds more than he
can win, so Art. 9's cap never binds here (a casino's lower minimum lets it; tests show it).
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from django.contrib.auth.models import Group, User
from django.db import transaction
from django.utils import timezone

from . import errors, patrons, selectors, services
from .models import Casino, Patron, Table
from .roles import DEALER, INSPECTOR, MANAGER, SUPERVISOR

PASSWORD = "mahjong-demo"
USERS = [("dealer", DEALER, "Ana", "Dealer"), ("dealer2", DEALER, "Bruno", "Dealer"),
         ("supervisor", SUPERVISOR, "Carla", "Supervisor"), ("inspector", INSPECTOR, "Diogo", "Inspector"),
         ("manager", MANAGER, "Eva", "Manager")]
MACAU, TAIPA = "Casino Demo Macau", "Casino Demo Taipa"
# Casino Demo Taipa's people and tables (`group`); the inspector and the manager work at both.
TAIPA_USERS = [("dealer3", DEALER, "Hélio", "Dealer"), ("supervisor2", SUPERVISOR, "Inês", "Supervisor")]
TAIPA_TABLES = [("T-01", "conventional", 25), ("T-02", "conventional", 100)]
GROUP = ("inspector", "manager")
TABLES = [("C-01", "conventional", 25), ("C-02", "conventional", 100), ("C-03", "conventional", 1000),
          ("S-01", "simplified", 100), ("S-02", "simplified", 500)]
DAY_START = dt.datetime(2026, 11, 21, 14, 0)

# Later steps of the demo day that other apps add (the count room's boxes): (app label, build).
# An app registers its step from its AppConfig.ready, so that the pit imports none of them; the
# demo command runs each after `build` and dumps its app with the pit.
STEPS: list[tuple[str, Callable[[], None]]] = []

# Who works where: the rotation decides who records at a table (casino/count/receivers.py), so
# the demo puts each dealer on his table's rotation before he records. The count registers the
# step (casino/count/demo.py): `step(table=, person=, duty=, at=, by=)` records the entry for the
# shift running at `at` and answers when it starts.
STAFFING: list[Callable[..., dt.datetime]] = []


def _on_rotation(table: Table, person: User, at: dt.datetime, by: User, duty: str = "dealer") -> dt.datetime:
    """Put `person` on `table`'s rotation for the shift running at `at`; when the entry starts."""
    starts = [step(table=table, person=person, duty=duty, at=at, by=by) for step in STAFFING]
    return max(starts, default=at)

CHICKEN = {"winner": "S", "discarder": "W", "declared_fan": 0,
           "hand": {"concealed": "345m678p234s99m11p", "winning_tile": "1p"}}
DRAGON_SELF_DRAWN = {"winner": "E", "discarder": None, "declared_fan": 1,
                     "hand": {"concealed": "345m678p234s99m77z", "winning_tile": "7z"}}
PURE_ONE_SUIT = {"winner": "W", "discarder": "N", "declared_fan": 2,
                 "hand": {"concealed": "123m456m789m234m5m", "winning_tile": "5m"}}
DRAW = {"result": "draw", "declared_fan": None}
FALSE_WIN = {"result": "false_win", "false_win": {"seat": "N"}, "declared_fan": None}
PAY_ALL = {"winner": "S", "discarder": "W", "declared_fan": 2,
           "hand": {"concealed": "234p9p", "winning_tile": "9p",
                    "melds": [{"kind": "chow", "tiles": "123p", "exposed": True},
                              {"kind": "pong", "tiles": "555p", "exposed": True},
                              {"kind": "chow", "tiles": "789p", "exposed": True}]},
           "pay_all": {"seat": "W", "article": "10(a)(1)", "live_tile": False}}
MISDECLARED = {**DRAGON_SELF_DRAWN, "declared_fan": 2}  # the dealer announced 2 fán: flagged


def _record(game, fields: dict) -> dict:
    return {**selectors.record_header(game), "result": "win", **fields}


def _players(table: Table, seats: list[tuple[int, str, int]]) -> list[dict]:
    """The seating of (chair, name, capital): a player the casino knows by that name by his id,
    as the seating screen picks him; a new one by his name."""
    known = dict(Patron.objects.filter(casino=table.casino_id, name__in=[name for _c, name, _a in seats])
                 .values_list("name", "pk"))
    return [{"chair": chair, "capital": capital, **({"patron": known[name]} if name in known else {"name": name})}
            for chair, name, capital in seats]


def _seat(table: Table, by: User, witness: User, seats: list[tuple[int, str, int]], first_banker: int,
          at: dt.datetime):
    """Seat a game; the supervisor witnesses the buy-ins (C-1) when a dealer seats it."""
    return services.start_game(table=table, user=by, players=_players(table, seats), first_banker=first_banker,
                               witness=None if by == witness else witness, at=at)


# Two players identified under DICJ Instruction n.º 1/2016 before their cash of the day reaches the
# threshold: a Macau resident identity card, and a Portuguese passport.
IDENTITIES = {
    "Mr Chan": {"document_type": Patron.MACAU_ID, "document_number": "5215299(8)", "document_country": "MO",
                "date_of_birth": dt.date(1968, 4, 2), "nationality": "MO"},
    "Mr Leong": {"document_type": Patron.PASSPORT, "document_number": "K12345678", "document_country": "PT",
                 "date_of_birth": dt.date(1979, 10, 23), "nationality": "PT"},
}


def _identify(casino: Casino, name: str, by: User, at: dt.datetime) -> Patron:
    """The supervisor records the player's identity document, as the identification form does."""
    patron = Patron.objects.get(casino=casino, name=name)
    return patrons.identify(patron=patron, user=by, at=at, **IDENTITIES[name])


@transaction.atomic
def build() -> None:
    """Create the demo casino in an empty database."""
    people = {}
    for username, role, first, last in USERS:
        person = User.objects.create_user(username, password=PASSWORD, first_name=first, last_name=last)
        person.groups.add(Group.objects.get(name=role))
        people[username] = person
    casino = Casino.objects.create(name=MACAU)
    casino.staff.set(people.values())
    tables = {}
    for number, variant, stake in TABLES:
        tables[number] = Table.objects.create(casino=casino, number=number, variant=variant, stake=stake)
        tables[number].staff.set([people["dealer"] if variant == "conventional" else people["dealer2"],
                                  people["supervisor"]])
    first = timezone.make_aware(DAY_START)
    clock = iter(first + dt.timedelta(minutes=4 * i) for i in range(10_000))
    dealer = people["dealer"]
    for number, _variant, _stake in TABLES:
        _on_rotation(tables[number], people["dealer"] if number.startswith("C") else people["dealer2"], first,
                     people["supervisor"])

    # C-01, 25/50: a whole game (the bank goes round four times, I-2) with every grade, draws, a
    # false win, a pay-all, a misdeclared grade, a buy-in and a cash-out; then a second game.
    supervisor = people["supervisor"]
    game = _seat(tables["C-01"], dealer, supervisor, [(0, "Mr Chan", 5000), (1, "Ms Wong", 3000),
                                                      (2, "Mr Lei", 4000), (3, "Ms Ho", 6000)], 0, next(clock))
    script = [CHICKEN, DRAGON_SELF_DRAWN, DRAW, PURE_ONE_SUIT, FALSE_WIN, CHICKEN, PAY_ALL, MISDECLARED,
              CHICKEN, PURE_ONE_SUIT, DRAW, CHICKEN, DRAGON_SELF_DRAWN, CHICKEN, CHICKEN, PURE_ONE_SUIT]
    jogos = []
    for index, fields in enumerate(script + [CHICKEN] * 16):
        if index == 9:
            services.move_money(game=game, user=people["supervisor"], chair=2, kind="buy_in", amount=1000,
                                at=next(clock))
        if index == 12:
            services.move_money(game=game, user=people["supervisor"], chair=3, kind="cash_out", amount=500,
                                at=next(clock))
        jogos.append(services.record_jogo(table=tables["C-01"], user=dealer, record=_record(game, fields),
                                          at=next(clock))[0])
        game.refresh_from_db()
        if game.ended_at:
            break

    # The supervisor corrects jogo 14 (the winner was West, on North's discard); the manager
    # approves. The later jogos of the game carry the changed capital.
    wrong = jogos[13]
    amendment = services.propose_amendment(
        jogo=wrong, user=people["supervisor"], at=next(clock), record={**wrong.record, "winner": "W", "discarder": "N"},
        reason="Winner keyed as South; the camera shows West won on North's discard.")
    services.decide_amendment(amendment=amendment, user=people["manager"], approve=True, at=next(clock))

    game = _seat(tables["C-01"], dealer, supervisor, [(0, "Mr Chan", 4000), (1, "Ms Wong", 4000),
                                                      (2, "Mr Lei", 4000), (3, "Mr Fong", 4000)], 2, next(clock))
    for fields in (CHICKEN, DRAW, DRAGON_SELF_DRAWN):
        services.record_jogo(table=tables["C-01"], user=dealer, record=_record(game, fields), at=next(clock))

    # C-03, 1000/2000: every seat holds more than C-1's 24,000; South wins 2 fán.
    game = _seat(tables["C-03"], dealer, supervisor, [(0, "Mr Sou", 60000), (1, "Ms Lam", 50000),
                                                      (2, "Mr Ip", 50000), (3, "Ms Kou", 50000)], 0, next(clock))
    for fields in (CHICKEN, DRAW, {**PURE_ONE_SUIT, "winner": "S", "discarder": "W"}):
        services.record_jogo(table=tables["C-03"], user=dealer, record=_record(game, fields), at=next(clock))

    # S-01, simplified 100/200 with three players; S-02 with two.
    for number, names in (("S-01", ["Player 1", "Player 2", "Player 3"]), ("S-02", ["Ms Cheang", "Mr Vong"])):
        game = _seat(tables[number], people["dealer2"], supervisor,
                     [(chair, name, 10000) for chair, name in enumerate(names)], 0, next(clock))
        for result in ("win", "draw", "win", "false_win"):
            seats = list(selectors.standing(game).progress.seats)
            fields = {"result": result}
            if result == "win":
                fields |= {"winner": seats[-1], "discarder": None, "declared_fan": 1,
                           "hand": {"concealed": "1m2m3m6z", "winning_tile": "6z"}}  # green winning tile: 1 fán
            if result == "false_win":
                fields |= {"false_win": {"seat": seats[0]}}
            services.record_jogo(table=tables[number], user=people["dealer2"], record=_record(game, fields),
                                 at=next(clock))

    # A dealer's refused attempt, kept for the inspectors: a stake the table does not play.
    game = selectors.open_game(tables["C-02"]) or _seat(
        tables["C-02"], dealer, supervisor, [(c, f"Guest {c + 1}", 8000) for c in range(4)], 1, next(clock))
    try:
        services.record_jogo(table=tables["C-02"], user=dealer, record=_record(game, {**CHICKEN, "stake": 50}),
                             at=next(clock))
    except errors.Refused:
        pass
    services.record_jogo(table=tables["C-02"], user=dealer, record=_record(game, CHICKEN), at=next(clock))


# Today, live: what the floor shows a new user now. Moments run from the current shift's start
# up to now, so the demo is as fresh as the moment it is loaded.
LIVE_C01 = [CHICKEN, PAY_ALL, DRAW, FALSE_WIN, MISDECLARED, CHICKEN, DRAGON_SELF_DRAWN]
LARGE_BUY_IN = 500_000  # at or above the large-transaction threshold
STRUCTURED_BUY_IN, LEONG_AT_C02 = 150_000, 160_000  # with his 200,000 at C-03: 510,000, each below it


@transaction.atomic
def live(now: dt.datetime | None = None) -> None:
    """Today's floor, through the real services: the games left in progress on the demo day end;
    C-01, C-02 and S-01 are open with games in progress, the dealers and the supervisor on the
    rotation of the shift running now, and today's jogos up to now: at C-01 a pay-all, a false
    win, a grade declared other than the engine's, three refused attempts (a stake the table does
    not play) and a buy-in of 500,000; at C-02 the supervisor covers the table, recording with
    nobody on its rotation; at S-01 a simplified game. C-03 and S-02 are closed.

    The money of the day (C-2, DICJ Instruction n.º 1/2016): Mr Chan, identified by his Macau
    identity card, buys in 500,000 at C-01. Mr Leong sits down at C-03 with 200,000 and buys in
    150,000 more before he leaves it, and sits down at C-02 with 160,000: each below the threshold,
    510,000 together, so the supervisor identifies him (his passport) before that seating:
    structuring, and a large transaction."""
    now = now or timezone.now()
    people = {person.username: person for person in User.objects.filter(username__in=[u for u, *_ in USERS])}
    tables = {table.number: table for table in Table.objects.filter(casino__name=MACAU)}
    supervisor, dealer, dealer2 = people["supervisor"], people["dealer"], people["dealer2"]
    starts = min(_on_rotation(tables["C-01"], dealer, now, supervisor),
                 _on_rotation(tables["S-01"], dealer2, now, supervisor))
    for number in ("C-01", "S-01"):
        _on_rotation(tables[number], supervisor, now, supervisor, duty="supervisor")
    steps = 24
    clock = iter(starts + (now - starts) * i / steps for i in range(steps + 1))
    opening = next(clock)
    for table in tables.values():
        if (playing := selectors.open_game(table)) is not None:
            services.end_game(game=playing, user=supervisor, at=opening)
        if table.number == "S-02":
            services.close_table(table=table, user=supervisor, at=opening)
        else:
            services.open_table(table=table, user=supervisor, at=opening)
    casino = tables["C-01"].casino

    # Mr Leong at C-03, a short while: a seating and a buy-in, each below the threshold.
    c03 = tables["C-03"]
    game = _seat(c03, supervisor, supervisor, [(0, "Mr Leong", 200_000), (1, "Mr Sou", 40000),
                                               (2, "Ms Lam", 30000), (3, "Ms Kou", 25000)], 0, next(clock))
    services.move_money(game=game, user=supervisor, chair=0, kind="buy_in", amount=STRUCTURED_BUY_IN,
                        at=next(clock))
    services.end_game(game=game, user=supervisor, at=next(clock))
    services.close_table(table=c03, user=supervisor, at=next(clock))

    c01 = tables["C-01"]
    game = _seat(c01, dealer, supervisor, [(0, "Mr Chan", 5000), (1, "Ms Wong", 3000), (2, "Mr Lei", 4000),
                                           (3, "Ms Ho", 6000)], 0, next(clock))
    for index, fields in enumerate(LIVE_C01):
        if index == 3:
            for _attempt in range(3):
                try:
                    services.record_jogo(table=c01, user=dealer, record=_record(game, {**CHICKEN, "stake": 50}),
                                         at=next(clock))
                except errors.Refused:
                    pass
        if index == 5:
            _identify(casino, "Mr Chan", supervisor, next(clock))
            services.move_money(game=game, user=supervisor, chair=0, kind="buy_in", amount=LARGE_BUY_IN,
                                at=next(clock))
        services.record_jogo(table=c01, user=dealer, record=_record(game, fields), at=next(clock))

    c02 = tables["C-02"]
    at = next(clock)
    _identify(casino, "Mr Leong", supervisor, at)  # 350,000 today already: his 160,000 reaches the threshold
    game = _seat(c02, supervisor, supervisor, [(0, "Mr Leong", LEONG_AT_C02)] + [
        (c, f"Guest {c + 1}", 8000) for c in range(1, 4)], 1, at)
    for fields in (CHICKEN, DRAW):
        services.record_jogo(table=c02, user=supervisor, record=_record(game, fields), at=next(clock))

    s01 = tables["S-01"]
    game = _seat(s01, dealer2, supervisor, [(c, f"Player {c + 1}", 10000) for c in range(3)], 0, next(clock))
    for result in ("win", "draw"):
        fields = {"result": result}
        if result == "win":
            seats = list(selectors.standing(game).progress.seats)
            fields |= {"winner": seats[-1], "discarder": None, "declared_fan": 1,
                       "hand": {"concealed": "1m2m3m6z", "winning_tile": "6z"}}
        services.record_jogo(table=s01, user=dealer2, record=_record(game, fields), at=next(clock))


@transaction.atomic
def group() -> None:
    """The group (docs/casinos.md): every person of Casino Demo Macau given it (the fixture predates
    the group, so its people have no casino yet), and Casino Demo Taipa, with its own dealer and
    supervisor, two tables and the demo day played at each, through the real services; the
    inspector and the manager are given both casinos. Taipa's tables end the day closed, its games
    ended, so that today's floor is Macau's (`live`)."""
    macau = Casino.objects.get(name=MACAU)
    taipa_people = {}
    for username, role, first, last in TAIPA_USERS:
        person = User.objects.create_user(username, password=PASSWORD, first_name=first, last_name=last)
        person.groups.add(Group.objects.get(name=role))
        taipa_people[username] = person
    macau.staff.add(*User.objects.exclude(pk__in=[person.pk for person in taipa_people.values()]))
    taipa = Casino.objects.create(name=TAIPA)
    taipa.staff.set([*taipa_people.values(), *User.objects.filter(username__in=GROUP)])
    dealer, supervisor = taipa_people["dealer3"], taipa_people["supervisor2"]
    tables = {}
    for number, variant, stake in TAIPA_TABLES:
        tables[number] = Table.objects.create(casino=taipa, number=number, variant=variant, stake=stake)
        tables[number].staff.set([dealer, supervisor])
    first = timezone.make_aware(DAY_START + dt.timedelta(hours=1))
    clock = iter(first + dt.timedelta(minutes=5 * i) for i in range(1_000))
    for table in tables.values():
        _on_rotation(table, dealer, first, supervisor)

    # T-01, 25/50: a short game of wins, a draw and a false win. T-02, 100/200: three jogos.
    game = _seat(tables["T-01"], dealer, supervisor, [(0, "Ms Tam", 3000), (1, "Mr Kuok", 3000),
                                                      (2, "Ms Chio", 2500), (3, "Mr Wu", 4000)], 0, next(clock))
    for fields in (CHICKEN, DRAW, DRAGON_SELF_DRAWN, PURE_ONE_SUIT, FALSE_WIN, CHICKEN):
        services.record_jogo(table=tables["T-01"], user=dealer, record=_record(game, fields), at=next(clock))
    services.end_game(game=game, user=supervisor, at=next(clock))
    game = _seat(tables["T-02"], dealer, supervisor, [(c, name, 6000) for c, name in
                                                      enumerate(["Mr Ao", "Ms Sio", "Mr Choi", "Ms Lao"])],
                 1, next(clock))
    for fields in (DRAGON_SELF_DRAWN, CHICKEN, DRAW):
        services.record_jogo(table=tables["T-02"], user=dealer, record=_record(game, fields), at=next(clock))
    services.end_game(game=game, user=supervisor, at=next(clock))
    for table in tables.values():
        services.close_table(table=table, user=supervisor, at=next(clock))
