"""Builders for the report tests: a known gaming day recorded through the pit's service, and
days of many jogos for the query count."""
from __future__ import annotations

import datetime as dt
import io
import re
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils import timezone
from pypdf import PdfReader

from casino.pit import demo, errors, selectors, services
from casino.pit.models import Casino, Jogo, Table
from casino.pit.roles import DEALER, INSPECTOR, MANAGER, SUPERVISOR
from tests.builders.pit import on_rotation, seat, table, user

DAY = dt.date(2026, 11, 21)
NOON = timezone.make_aware(dt.datetime(2026, 11, 21, 12, 0))


def at(hours: float) -> dt.datetime:
    """A moment `hours` after noon of DAY, Macau time (15 hours on is 03:00 of the 22nd, still DAY)."""
    return NOON + dt.timedelta(hours=hours)


def record_at(game, fields: dict, when: dt.datetime, by: User) -> Jogo:
    on_rotation(game.table, by, when)
    row, _ = services.record_jogo(table=game.table, user=by,
                                  record={**selectors.record_header(game), "result": "win", **fields}, at=when)
    return row


@dataclass
class KnownDay:
    casino: Casino
    r1: Table
    r2: Table
    people: dict[str, User]


def known_day() -> KnownDay:
    """Casino Lisboa's DAY, whose figures the tests work out by hand:

    R1, conventional 25/50 (Art. 8: 10 per won jogo), one game, 7 jogos from 12:00:
      1 chicken hand, South on West's discard (0 fán)   win    10
      2 draw                                              draw    0
      3 false win by North                                void    0
      4 dragon pong, banker self-drawn (1 fán)            win    10
      5 pure one suit, West on North's discard (2 fán)    win    10
      6 pure one suit, West pays all (2 fán)              win    10   pay-all
      7 dragon pong declared as 2 fán (1 fán)             win    10   fán mismatch
      → 7 jogos, wins 1/2/2 at 0/1/2 fán, 1 draw, 1 false win, 1 pay-all, commission 50
    R2, conventional 100/200 (40 per won jogo), South has only 300 at stake:
      1 chicken hand, South on West's discard, 14:00: he is owed 400, capped at 300   win 40 capped
      2 chicken hand at 03:00 on the 22nd (still DAY), amended to a draw              draw 0
      → 2 jogos (4 rows in the ledger; only current revisions count), 1 win at 0 fán, 1 draw,
        1 capped, commission 40
    R3 plays on the next gaming day only: not in DAY's report.
    Casino: 9 jogos, 2 games, wins 2/2/2, 2 draws, 1 false win, 1 pay-all, 1 capped,
    commission 50 + 40 = 90. Exceptions: 1 fán mismatch, 1 amendment, 1 flag (on R1 jogo 1),
    1 refusal (R1, 12:30).
    """
    people = {"dealer": user("dealer", DEALER), "supervisor": user("supervisor", SUPERVISOR),
              "inspector": user("inspector", INSPECTOR), "manager": user("manager", MANAGER)}
    dealer = people["dealer"]
    r1 = table("R1", stake=25)
    r2 = table("R2", stake=100)
    r3 = table("R3", stake=25)

    game = seat(r1, dealer, at=NOON)
    script = [demo.CHICKEN, demo.DRAW, demo.FALSE_WIN, demo.DRAGON_SELF_DRAWN, demo.PURE_ONE_SUIT, demo.PAY_ALL,
              demo.MISDECLARED]
    jogos = [record_at(game, fields, at(0.1 * (index + 1)), dealer) for index, fields in enumerate(script)]
    try:
        services.record_jogo(table=r1, user=dealer,
                             record={**selectors.record_header(game), "result": "win", **demo.CHICKEN,
                                         "stake": 50}, at=at(0.5))
    except errors.Refused:
        pass
    services.flag(jogo=jogos[0], user=people["inspector"], note="Check the camera", at=at(1))

    game = seat(r2, dealer, capital=[5000, 300, 2000, 4000], at=at(2))
    record_at(game, demo.CHICKEN, at(2), dealer)
    second = record_at(game, demo.CHICKEN, at(15), dealer)
    amendment = services.propose_amendment(jogo=second, user=people["supervisor"], record={**second.record, **demo.DRAW,
                                          "winner": None, "discarder": None, "hand": None},
                                          reason="Nobody won: the wall was exhausted", at=at(16))
    services.decide_amendment(amendment=amendment, user=people["manager"], approve=True, at=at(16))

    game = seat(r3, dealer, at=at(20))  # 08:00 on the 22nd: the next gaming day
    record_at(game, demo.CHICKEN, at(20), dealer)
    return KnownDay(r1.casino, r1, r2, people)


def draws(at_table: Table, count: int, by: User, start: dt.datetime) -> None:
    """`count` drawn jogos in a new game (a draw never moves the bank, so the game never ends)."""
    if (playing := selectors.open_game(at_table)) is not None:
        services.end_game(game=playing, user=by, at=start)
    game = seat(at_table, by, at=start)
    for index in range(count):
        record_at(game, demo.DRAW, start + dt.timedelta(minutes=index), by)


def pdf_text(pdf: bytes) -> str:
    """The PDF's text (pypdf), every run of whitespace one space."""
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages))
