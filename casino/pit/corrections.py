"""The reads of the corrections screens (maker/checker, `service.propose_amendment` and
`service.decide_amendment`): which corrections wait for whom, and a recorded jogo set beside
its correction in the user's language."""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, QuerySet
from django.utils.translation import gettext as _

from casino.terms.vocabulary import fan_item_name, result_name, seat_label, seat_player

from .access import at_casino, visible_tables
from .forms import CONDITIONS, MELD_KINDS, RESULTS, JogoForm, initial_from_record
from .models import Amendment, Jogo


def stale() -> Exists:
    """True for a correction of a jogo revision that a later revision has superseded since it was
    proposed: another correction of the same jogo, or one of an earlier jogo of the game that
    carried its capital, was approved. Approving it would amend a revision that no longer stands
    (the service refuses: "superseded"), so it is no longer waiting for a decision.

    Derived from the ledger, not stored: the ledger's revisions already say it, append-only and
    chained; a stored mark would need a writer at every approval for every other pending
    correction of the game, and could disagree with the ledger it restates."""
    return Exists(Jogo.objects.filter(table=OuterRef("jogo__table"), number=OuterRef("jogo__number"),
                                      revision__gt=OuterRef("jogo__revision")))


def pending(user) -> QuerySet[Amendment]:
    """The pending corrections at the tables the user sees, oldest first, each with `is_stale`."""
    return (Amendment.objects.filter(state=Amendment.PENDING, jogo__table__in=visible_tables(user))
            .annotate(is_stale=stale())
            .select_related("jogo__table", "jogo__game", "proposed_by").order_by("proposed_at"))


def awaiting_count(user) -> int:
    """How many pending corrections the user may decide: at his tables (every table for a
    manager), proposed by someone else, not stale. One query; 0 for those who may not decide."""
    if not user.is_authenticated or not user.has_perm("pit.approve_amendment"):
        return 0
    return (Amendment.objects.filter(~stale(), state=Amendment.PENDING, jogo__table__in=visible_tables(user))
            .exclude(proposed_by=user).count())


@dataclass(frozen=True)
class Staleness:
    """Why a pending correction is stale: the revision that superseded the one it corrects, and
    the approved correction that wrote it (None only for a ledger that lost it)."""

    revision: Jogo
    by: Amendment | None
    current: Jogo


def staleness(amendment: Amendment) -> Staleness | None:
    """None while the correction's revision still stands (or once it is decided); else what made
    it stale. The revision after it is the approved correction's own (amended) or one it carried,
    written in the same transaction as its amended revision (see `carried_revisions`)."""
    if amendment.state != Amendment.PENDING:
        return None
    jogo = amendment.jogo
    later = list(Jogo.objects.filter(table=jogo.table_id, number=jogo.number, revision__gt=jogo.revision)
                 .order_by("revision"))
    if not later:
        return None
    following = later[0]
    amended = following
    if following.kind == Jogo.CARRIED:
        amended = (Jogo.objects.filter(table=following.table_id, game=following.game_id, kind=Jogo.AMENDED,
                                       recorded_at=following.recorded_at, seq__lt=following.seq)
                   .order_by("-seq").first())
    by = (Amendment.objects.filter(revision=amended, state=Amendment.APPROVED)
          .select_related("jogo", "decided_by").first() if amended is not None else None)
    return Staleness(revision=following, by=by, current=later[-1])


def may_redo(user, amendment: Amendment) -> bool:
    """Only its proposer redoes a stale correction: proposes it again on the current revision."""
    return amendment.proposed_by_id == user.pk and user.has_perm("pit.propose_amendment")


def may_decide(user, amendment: Amendment) -> bool:
    """A second person decides: another supervisor of the table, or a manager of its casino."""
    if amendment.proposed_by_id == user.pk or not user.has_perm("pit.approve_amendment"):
        return False
    if not at_casino(user, amendment.jogo.table.casino_id):
        return False
    return user.has_perm("pit.view_all_tables") or amendment.jogo.table.staff.filter(pk=user.pk).exists()


def carried_revisions(amendment: Amendment) -> list[tuple[Jogo, Jogo]]:
    """The carried revisions an approval added, each after the revision it carried on from. They
    were written with the amended revision, in the same transaction (same moment, same game),
    after it in the table's ledger."""
    revision = amendment.revision
    if revision is None:
        return []
    carried = list(Jogo.objects.filter(table=revision.table_id, game=revision.game_id, kind=Jogo.CARRIED,
                                       recorded_at=revision.recorded_at, seq__gt=revision.seq)
                   .select_related("game").order_by("seq"))
    earlier = {(row.number, row.revision): row for row in Jogo.objects.filter(
        table=revision.table_id, number__in=[row.number for row in carried]).select_related("game")}
    return [(earlier[(row.number, row.revision - 1)], row) for row in carried]


def names(game) -> dict[int, str]:
    return {player.chair: player.name for player in game.players.select_related("patron")}


def seat_labels(row: Jogo) -> dict[str, str]:
    """Seat wind → "East · Ana" for the seats of the jogo, in turn order."""
    players = names(row.game)
    return {seat: seat_label(seat, players.get(chair, "")) for seat, chair in row.progress.seats.items()}


def outcome(row: Jogo) -> dict:
    """What a jogo (stored, or a revision not yet written) settles: the result and winner, the
    grade with its items, who pays whom, the commission and each chair's capital."""
    players, state = names(row.game), row.progress

    def who(seat: str) -> str:
        return seat_player(seat, banker_chair=state.banker, names=players)

    winner = row.record.get("winner") if row.result == "win" else (row.record.get("false_win") or {}).get("seat")
    return {
        "result": result_name(row.result), "winner": who(winner) if winner else "",
        "fan": row.fan, "fan_mismatch": row.fan_mismatch, "declared_fan": row.declared_fan,
        "items": [{"name": fan_item_name(item["code"]), "article": item["article"], "fan": item["fan"]}
                  for item in row.outcome.get("items", [])],
        "payments": [f"{who(p['from'])} → {who(p['to'])}: {p['amount']}" for p in row.outcome["payments"]],
        "commission": row.commission, "capped": row.capped,
        "capital": [{"chair": chair, "label": who(state.seat_of(chair)), "before": row.capital_before[chair],
                     "after": row.capital_after[chair]}
                    for chair in sorted(players, key=lambda c: (c - state.banker) % 4)],
    }


def side_by_side(recorded: Jogo, corrected: Jogo) -> dict:
    """The recorded and the corrected outcome, line by line, each line marked when they differ."""
    old, new = outcome(recorded), outcome(corrected)
    lines = [("result", f"{old['result']} {old['winner']}".strip(), f"{new['result']} {new['winner']}".strip()),
             ("grade", old["fan"], new["fan"]), ("payments", old["payments"], new["payments"]),
             ("commission", old["commission"], new["commission"])]
    capital = [(o["label"], o["after"], n["after"]) for o, n in zip(old["capital"], new["capital"])]
    return {"recorded": old, "corrected": new, "sides": [old, new],
            "changed": {name for name, a, b in lines if a != b or (name == "grade" and old["items"] != new["items"])},
            "capital": [{"label": label, "recorded": a, "corrected": b, "changed": a != b}
                        for label, a, b in capital]}


def carried_lines(pairs: list[tuple[Jogo, Jogo]]) -> list[dict]:
    """Each later jogo carried: its number, and each chair's capital before it and the
    commission, as recorded and as carried."""
    lines = []
    for before, after in pairs:
        shown = outcome(before)
        lines.append({"number": before.number, "revision": after.revision, "pk": after.pk,
                      "commission": (before.commission, after.commission),
                      "capped": (before.capped, after.capped),
                      "capital": [{"label": c["label"], "recorded": c["before"],
                                   "carried": after.capital_before[c["chair"]]} for c in shown["capital"]]})
    return lines


def record_changes(recorded: Jogo, record: dict) -> list[dict]:
    """What the correction changes in what the dealer entered, field by field, with the form's
    own labels and the values in people's words."""
    labels = seat_labels(recorded)
    form = JogoForm(seats=labels, variant=recorded.table.variant)
    words = {**dict(RESULTS), **dict(CONDITIONS), **dict(MELD_KINDS), **labels}
    old, new = initial_from_record(recorded.record), initial_from_record(record)

    def shown(value) -> str:
        if isinstance(value, list):
            return ", ".join(str(words.get(v, v)) for v in value) or "—"
        if value is None or value == "" or value is False:
            return "—"
        if value is True:
            return _("yes")
        return str(words.get(value, value)) if isinstance(value, str) else str(value)

    changes = []
    for name, field in form.fields.items():
        if name == "key" or old.get(name) == new.get(name) or shown(old.get(name)) == shown(new.get(name)):
            continue
        label = f"{field.label} {int(name[-1]) + 1}" if name.startswith("meld_") else field.label
        changes.append({"label": label, "recorded": shown(old.get(name)), "corrected": shown(new.get(name))})
    return changes
