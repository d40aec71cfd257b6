"""What the floor view shows of each table: its card, read for many tables at once in a fixed
number of queries (at most fourteen, whatever the number of tables, games, jogos or people).

A card holds codes, numbers and names, never a word of a language: the page says the codes in
the reader's language (`labels`), and the same card travels to every open floor view over the
socket (live.py). docs/floor.md gives its shape.

- The shift is the one `at` falls in (casino/count/shifts.py); its jogos are those whose first
  revision was recorded in it, and its commission theirs at their current revision: the box's
  expected commission as the count reads it (`count.selectors.live_expected`), read for the
  cards' tables only, so that a card costs the same late on a busy day as at its start.
- The box's state: a variance case open on any of the table's boxes comes first; then a box of
  an earlier shift of this gaming day with jogos and no agreed count (waiting for the count);
  then the box of this shift, in play while it fills; otherwise there is none.
- Each seat says whether its capital is below zero, or below the table's minimum (casino rule
  C-1, casino.pit.capital) and by how much: the next jogo waits for a top-up or the seat's change.
- Players' names: a card carries them plain, and it travels to every open floor view; what a
  person is shown is `for_person`'s (casino.pit.privacy: inspectors and managers read every
  name, a supervisor those at his tables, anyone else masked).
"""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable

from django.db.models import (
    Case,
    Count as Tally,
    Exists,
    IntegerField,
    Max,
    OuterRef,
    Prefetch,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Length
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_noop, pgettext

from casino.count import rotation, shifts
from casino.count.models import Box, Case as VarianceCase, Count, Rotation
from casino.pit import privacy
from casino.pit.capital import minimum_capital
from casino.pit.models import Amendment, Flag, Jogo, Player, Table, superseded
from casino.terms.vocabulary import person_name, tier_label, variant_name

# The states of a table's box, in the order they take precedence (the module's docstring).
CASE_OPEN, NOT_COUNTED, IN_PLAY, NO_BOX = "case_open", "not_counted", "in_play", "none"
_BOX = {CASE_OPEN: gettext_noop("Variance case open"), NOT_COUNTED: gettext_noop("Box of shift {shifts} not counted"),
        IN_PLAY: gettext_noop("Box of shift {shift} filling"), NO_BOX: gettext_noop("No box yet")}


# Said with the context "floor card" (`labels`).
_ROUND = {"E": "East round", "S": "South round", "W": "West round", "N": "North round"}


def floor_tables(tables: QuerySet[Table], *, area: str = "", stake: int | None = None,
                 variant: str = "") -> QuerySet[Table]:
    """`tables` in the floor's order (area, then number as people count: T2 before T10), narrowed
    by the filters given."""
    if area:
        tables = tables.filter(area=area)
    if stake:
        tables = tables.filter(stake=stake)
    if variant:
        tables = tables.filter(variant=variant)
    return tables.order_by("area", Length("number"), "number")  # T2 before T10


def cards(tables: Iterable[Table], *, at: dt.datetime | None = None) -> list[dict]:
    """The card of each of `tables` (read already, in the order given) at `at` (now)."""
    from .models import Alert  # the alerts' model, beside this module in the same app

    tables = list(tables)
    if not tables:
        return []
    at = at or timezone.now()
    ids = [table.pk for table in tables]
    day, shift = shifts.shift_of(at)

    players: dict[int, dict[int, str]] = defaultdict(dict)
    for game_id, chair, name in (Player.objects.filter(game__in=[t.game_id for t in tables if t.game_id])
                                 .values_list("game_id", "chair", "patron__name")):
        players[game_id][chair] = name
    duty = rotation.on_duty(ids, at)
    last = dict(Jogo.objects.filter(table__in=ids, revision=0).values("table").annotate(last=Max("recorded_at"))
                .values_list("table", "last").order_by())
    start, end = shifts.shift_bounds(day, shift)
    filled = _shift_so_far(ids, start, end)
    waiting = _not_counted(ids, day, shift)
    cased = set(VarianceCase.objects.filter(box__table__in=ids).exclude(state=VarianceCase.RESOLVED)
                .values_list("box__table", flat=True))
    alerts = _per_table(Alert.objects.open().filter(table__in=ids))
    corrections = _per_table(Amendment.objects.filter(state=Amendment.PENDING, jogo__table__in=ids), "jogo__table")
    flags = _per_table(Flag.objects.filter(table__in=ids, resolved_at__isnull=True))

    found = []
    for table in tables:
        on = duty.get(table.pk, {})
        jogos, commission = filled.get(table.pk, (0, 0))
        if table.pk in cased:
            box = {"state": CASE_OPEN}
        elif table.pk in waiting:
            box = {"state": NOT_COUNTED, "shifts": waiting[table.pk]}
        elif jogos:
            box = {"state": IN_PLAY, "shift": shift}
        else:
            box = {"state": NO_BOX}
        found.append({
            "id": table.pk, "casino": table.casino_id, "number": table.number, "area": table.area,
            "variant": table.variant, "stake": table.stake, "open": table.is_open,
            "game": _game(table, players[table.game_id]) if table.game_id else None,
            "next_jogo": table.jogos_recorded + 1,
            "dealers": [person_name(entry.person) for entry in on.get(Rotation.DEALER, [])],
            "supervisors": [person_name(entry.person) for entry in on.get(Rotation.SUPERVISOR, [])],
            "last_jogo_at": _clock(last.get(table.pk)),
            "shift": {"day": day.isoformat(), "number": shift, "jogos": jogos, "commission": commission},
            "alerts": alerts.get(table.pk, 0), "corrections": corrections.get(table.pk, 0),
            "flags": flags.get(table.pk, 0), "box": box,
        })
    return found


def _shift_so_far(ids: list[int], start: dt.datetime, end: dt.datetime) -> dict[int, tuple[int, int]]:
    """{table id: (jogos, commission)} of the shift from `start` to `end`: the jogos whose first
    revision was recorded in it, each at its current revision (the box's expected commission, as
    `count.selectors.live_expected` reads a whole day). Only rows recorded since the shift began
    are read: a later revision is recorded after its first."""
    first_here = Jogo.objects.filter(table=OuterRef("table"), number=OuterRef("number"), revision=0,
                                     recorded_at__gte=start, recorded_at__lt=end)
    rows = (Jogo.objects.filter(table__in=ids, recorded_at__gte=start).filter(~superseded(), Exists(first_here))
            .values("table").annotate(jogos=Tally("pk"), commission=Sum("commission")).order_by())
    return {row["table"]: (row["jogos"], row["commission"] or 0) for row in rows}


def _not_counted(ids: list[int], day: dt.date, shift: int) -> dict[int, list[int]]:
    """{table id: [shift, ...]}: the earlier shifts of the gaming day in which the table recorded a
    jogo and whose box has no agreed count (as `count.selectors.uncounted_boxes` reads a casino's
    day), in at most four queries."""
    if shift == 1:
        return {}
    bounds = [shifts.shift_bounds(day, number) for number in range(1, shift)]
    which = Case(*[When(recorded_at__lt=end, then=Value(number)) for number, (_, end) in enumerate(bounds, 1)],
                 default=Value(shift), output_field=IntegerField())
    played = set(Jogo.objects.filter(table__in=ids, revision=0, recorded_at__gte=bounds[0][0],
                                     recorded_at__lt=bounds[-1][1])
                 .annotate(shift=which).values_list("table", "shift").distinct().order_by())
    if not played:
        return {}
    counted = {(box.table_id, box.shift) for box in Box.objects.filter(table__in=ids, gaming_day=day, shift__lt=shift)
               .prefetch_related(Prefetch("count_set", queryset=Count.objects.prefetch_related("signatures")))
               if any(count.agreed for count in box.count_set.all())}
    found: dict[int, list[int]] = defaultdict(list)
    for table_id, number in sorted(played - counted):
        found[table_id].append(number)
    return found


BELOW_ZERO, BELOW_MINIMUM = "zero", "minimum"


def _game(table: Table, names: dict[int, str]) -> dict:
    """The game the table projects (Art. 3): its number at the table is its id; the banker and
    the seats by chair (0–3; people read them 1–4), each with its player and capital at stake,
    and `below`: "zero" for a capital below zero, "minimum" (with `missing`, what it lacks) for one
    below the table's minimum for as many players (C-1), else None. No query."""
    capital = table.game_capital
    seated = sum(amount is not None for amount in capital)
    minimum = minimum_capital(table, seated) if seated in (2, 3, 4) else 0
    seats = []
    for chair, amount in enumerate(capital):
        if amount is None:
            seats.append(None)
            continue
        below = BELOW_ZERO if amount < 0 else BELOW_MINIMUM if amount < minimum else None
        seats.append({"chair": chair, "player": names.get(chair, ""), "capital": amount, "below": below,
                      "missing": minimum - amount if below else 0})
    return {"id": table.game_id, "jogos": table.game_jogos, "round_wind": table.game_round_wind,
            "banker": table.game_banker, "minimum": minimum, "seats": seats}


def for_person(found: list[dict], *, sees_all: bool, named: set[int] | None) -> list[dict]:
    """`found` cards as a person sees them: players' names plain where he may read them (every
    table when `sees_all`; else the tables of `named`), masked elsewhere (casino.pit.privacy). The
    cards given are left as they are."""
    if sees_all:
        return found
    shown = []
    for card in found:
        game = card["game"]
        if game is None or (named is not None and card["id"] in named):
            shown.append(card)
            continue
        seats = [seat and {**seat, "player": privacy.mask_name(seat["player"])} for seat in game["seats"]]
        shown.append({**card, "game": {**game, "seats": seats}})
    return shown


def reader(user) -> dict:
    """Who `user` is to the cards' names (`for_person`'s arguments): inspectors and managers read
    every name; a supervisor (who witnesses the cash) the names at the tables he is assigned to;
    anyone else none. One query for a supervisor."""
    if privacy.sees_personal_data(user):
        return {"sees_all": True, "named": None}
    if user.has_perm(privacy.WITNESS):
        from casino.pit.access import casinos_of

        return {"sees_all": False, "named": set(user.tables.filter(casino__in=casinos_of(user))
                                                .values_list("pk", flat=True))}
    return {"sees_all": False, "named": set()}


def _clock(moment: dt.datetime | None) -> str | None:
    """The moment on the casino's clock, "21:07", as every screen of the floor shows a time."""
    return timezone.localtime(moment).strftime("%H:%M") if moment else None


def _per_table(rows: QuerySet, field: str = "table") -> dict[int, int]:
    return dict(rows.values(field).annotate(n=Tally("pk")).values_list(field, "n").order_by())


def labels() -> dict:
    """The words of the cards' codes in the active language, for the page (json_script): the
    socket's messages carry the codes only."""
    return {
        # A card's line is short: "South round" ("roda Sul", "南風圈"), not the round's full name.
        "round": {wind: pgettext("floor card", name) for wind, name in _ROUND.items()},
        "variant": {code: variant_name(code) for code, _label in Table._meta.get_field("variant").choices},
        "box": {state: _(text) for state, text in _BOX.items()},
        "words": {
            "open": pgettext("table", "Open"), "closed": pgettext("table", "Closed"), "game": _("Game {id}"),
            "next_jogo": _("next jogo {number}"),
            "no_game": _("No game in progress"), "banker": _("banker"), "chair": _("Chair {n}"),
            "below_zero": _("below zero"), "below_minimum": _("{missing} below the minimum"),
            "minimum": _("The table's minimum capital is {minimum} (casino rule C-1): top up or change the seat "
                         "before the next jogo."),
            "dealer": _("Dealer"), "supervisor": _("Supervisor"), "nobody": _("nobody on the rotation"),
            "last_jogo": _("Last jogo {time}"), "no_jogo": _("No jogo yet"),
            "shift": _("Shift {number} · jogos {jogos} · commission {commission}"),
            "alerts": pgettext("floor card", "Alerts"), "corrections": pgettext("floor card", "Corrections"),
            "flags": pgettext("floor card", "Flags"),
            "live": _("Live"), "dropped": _("The live connection dropped: the page refreshes every few seconds "
                                            "until it is back."),
        },
    }


def tiers(tables: Iterable[Table]) -> list[tuple[int, str]]:
    """The stakes of `tables`, each with its tier's label (Art. 8), lowest first: the tier filter."""
    return [(stake, tier_label(stake)) for stake in sorted({table.stake for table in tables})]


def areas(tables: QuerySet[Table]) -> list[str]:
    return sorted(set(tables.exclude(area="").values_list("area", flat=True)))


def shown_to(user) -> QuerySet[Table]:
    """The tables whose cards `user` sees, at his casinos only: every table of them for inspectors
    and managers, a supervisor's assigned tables (casino.pit.access.visible_tables); nobody else
    sees the floor (`may_watch`)."""
    from casino.pit.access import visible_tables

    return visible_tables(user) if may_watch(user) else Table.objects.none()


def may_watch(user) -> bool:
    """The floor is for supervisors (who open and close tables), inspectors and managers (who see
    every table). Dealers and counters do not see it."""
    return bool(user and user.is_authenticated and user.is_active
                and (user.has_perm("pit.view_all_tables") or user.has_perm("pit.open_close_table")))

