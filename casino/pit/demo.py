"""The demo casino: tables at several tiers in both variants, a user per role, and one gaming
day of jogos recorded through the real service (fixtures/demo.json is this, dumped).

Every figure below comes from the engine; the comments only say what each jogo shows.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from django.contrib.auth.models import Group, User
from django.db import transaction
from django.utils import timezone

from . import errors, selectors, services
from .models import Casino, Table
from .roles import DEALER, INSPECTOR, MANAGER, SUPERVISOR

PASSWORD = "mahjong-demo"
USERS = [("dealer", DEALER, "Ana", "Dealer"), ("dealer2", DEALER, "Bruno", "Dealer"),
         ("supervisor", SUPERVISOR, "Carla", "Supervisor"), ("inspector", INSPECTOR, "Diogo", "Inspector"),
         ("manager", MANAGER, "Eva", "Manager")]
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


@transaction.atomic
def build() -> None:
    """Create the demo casino in an empty database."""
    people = {}
    for username, role, first, last in USERS:
        person = User.objects.create_user(username, password=PASSWORD, first_name=first, last_name=last)
        person.groups.add(Group.objects.get(name=role))
        people[username] = person
    casino = Casino.objects.create(name="Casino Demo Macau")
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
    game = services.start_game(table=tables["C-01"], user=dealer, first_banker=0, at=next(clock), players=[
        {"chair": 0, "name": "Mr Chan", "capital": 5000}, {"chair": 1, "name": "Ms Wong", "capital": 3000},
        {"chair": 2, "name": "Mr Lei", "capital": 4000}, {"chair": 3, "name": "Ms Ho", "capital": 6000}])
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

    game = services.start_game(table=tables["C-01"], user=dealer, first_banker=2, at=next(clock), players=[
        {"chair": 0, "name": "Mr Chan", "capital": 4000}, {"chair": 1, "name": "Ms Wong", "capital": 4000},
        {"chair": 2, "name": "Mr Lei", "capital": 4000}, {"chair": 3, "name": "Mr Fong", "capital": 4000}])
    for fields in (CHICKEN, DRAW, DRAGON_SELF_DRAWN):
        services.record_jogo(table=tables["C-01"], user=dealer, record=_record(game, fields), at=next(clock))

    # C-03, 1000/2000: a player with little capital wins 2 fán; the cap of Art. 9(a)(4) binds.
    game = services.start_game(table=tables["C-03"], user=dealer, first_banker=0, at=next(clock), players=[
        {"chair": 0, "name": "Mr Sou", "capital": 40000}, {"chair": 1, "name": "Ms Lam", "capital": 30000},
        {"chair": 2, "name": "Mr Ip", "capital": 3000}, {"chair": 3, "name": "Ms Kou", "capital": 25000}])
    for fields in (CHICKEN, DRAW, {**PURE_ONE_SUIT, "winner": "S", "discarder": "W"}):
        services.record_jogo(table=tables["C-03"], user=dealer, record=_record(game, fields), at=next(clock))

    # S-01, simplified 100/200 with three players; S-02 with two.
    for number, players in (("S-01", 3), ("S-02", 2)):
        seated = [{"chair": c, "name": f"Player {c + 1}", "capital": 10000} for c in range(players)]
        game = services.start_game(table=tables[number], user=people["dealer2"], first_banker=0, at=next(clock),
                                   players=seated)
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
    game = selectors.open_game(tables["C-02"]) or services.start_game(
        table=tables["C-02"], user=dealer, first_banker=1, at=next(clock),
        players=[{"chair": c, "name": f"Guest {c + 1}", "capital": 8000} for c in range(4)])
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


@transaction.atomic
def live(now: dt.datetime | None = None) -> None:
    """Today's floor, through the real services: the games left in progress on the demo day end;
    C-01, C-02 and S-01 are open with games in progress, the dealers and the supervisor on the
    rotation of the shift running now, and today's jogos up to now: at C-01 a pay-all, a false
    win, a grade declared other than the engine's, three refused attempts (a stake the table does
    not play) and a buy-in of 500,000; at C-02 the supervisor covers the table, recording with
    nobody on its rotation; at S-01 a simplified game. C-03 and S-02 are closed."""
    now = now or timezone.now()
    people = {person.username: person for person in User.objects.filter(username__in=[u for u, *_ in USERS])}
    tables = {table.number: table for table in Table.objects.all()}
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
        if table.number in ("C-03", "S-02"):
            services.close_table(table=table, user=supervisor, at=opening)
        else:
            services.open_table(table=table, user=supervisor, at=opening)

    c01 = tables["C-01"]
    game = services.start_game(table=c01, user=dealer, first_banker=0, at=next(clock), players=[
        {"chair": 0, "name": "Mr Chan", "capital": 5000}, {"chair": 1, "name": "Ms Wong", "capital": 3000},
        {"chair": 2, "name": "Mr Lei", "capital": 4000}, {"chair": 3, "name": "Ms Ho", "capital": 6000}])
    for index, fields in enumerate(LIVE_C01):
        if index == 3:
            for _attempt in range(3):
                try:
                    services.record_jogo(table=c01, user=dealer, record=_record(game, {**CHICKEN, "stake": 50}),
                                         at=next(clock))
                except errors.Refused:
                    pass
        if index == 5:
            services.move_money(game=game, user=supervisor, chair=0, kind="buy_in", amount=LARGE_BUY_IN,
                                at=next(clock))
        services.record_jogo(table=c01, user=dealer, record=_record(game, fields), at=next(clock))

    c02 = tables["C-02"]
    game = services.start_game(table=c02, user=supervisor, first_banker=1, at=next(clock), players=[
        {"chair": c, "name": f"Guest {c + 1}", "capital": 8000} for c in range(4)])
    for fields in (CHICKEN, DRAW):
        services.record_jogo(table=c02, user=supervisor, record=_record(game, fields), at=next(clock))

    s01 = tables["S-01"]
    game = services.start_game(table=s01, user=dealer2, first_banker=0, at=next(clock),
                               players=[{"chair": c, "name": f"Player {c + 1}", "capital": 10000} for c in range(3)])
    for result in ("win", "draw"):
        fields = {"result": result}
        if result == "win":
            seats = list(selectors.standing(game).progress.seats)
            fields |= {"winner": seats[-1], "discarder": None, "declared_fan": 1,
                       "hand": {"concealed": "1m2m3m6z", "winning_tile": "6z"}}
        services.record_jogo(table=s01, user=dealer2, record=_record(game, fields), at=next(clock))
