"""Amendments (maker/checker): a supervisor proposes a correction of a jogo with a reason; a
second person approves it, adding the corrected revision to the ledger and carrying the changed
capital through the game's later jogos, or rejects it.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import msgspec
from django.contrib.auth.base_user import AbstractBaseUser as User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from casino.terms.vocabulary import CARRIED_REASON
from regulation import MalformedRecord, read_record

from ..errors import capital_article, refuse
from ..models import Amendment, Jogo, Movement, Table
from ..scoring import jogo_row, scored
from ..selectors import current_jogos, current_revision, last_jogo, replayed, with_movements
from ..signals import correction_approved, happened
from .closing import refuse_if_day_closed
from .ledger import append_row, locked_table, move_projection, projection


@dataclass(frozen=True)
class Correction:
    """What approving a correction adds to the ledger, not yet written: the amended revision,
    and for each later jogo of the game whose capital changes, its current revision and the
    carried revision that would follow it."""

    original: Jogo
    amended: Jogo
    carried: list[tuple[Jogo, Jogo]]


def _same_jogo(recorded: dict, corrected: dict) -> bool:
    """True when both records say the same jogo, however written (the order of tiles, melds,
    conduct and claimants; amounts as text): such a correction corrects nothing."""
    try:
        first, second = read_record(recorded), read_record(corrected)
    except MalformedRecord:
        return False

    def canonical(jogo) -> tuple:
        hand = jogo.hand
        if hand is not None:
            hand = (sorted(hand.concealed), hand.winning_tile,
                    sorted((meld.kind, sorted(meld.tiles), meld.exposed) for meld in hand.melds))
        return (msgspec.structs.replace(jogo, hand=None, conduct=(), claimants=()), hand,
                sorted((c.seat, c.kind) for c in jogo.conduct), sorted(jogo.claimants))

    return canonical(first) == canonical(second)


def _check_correction(row: Jogo, record: dict) -> Correction:
    """The checks a correction of `row` meets when proposed and previewed: `row` is the current
    revision, its gaming day is open, the record changes the jogo, the engine accepts it played
    with the same seats and capital, and no player's capital goes negative after it."""
    current = current_revision(row)
    if current.pk != row.pk:
        raise refuse(code="superseded", conflict=True,
                     template=gettext_noop("Jogo {jogo} revision {revision} is superseded by revision {current}; "
                                           "amend the current revision."), jogo=row.number, revision=row.revision,
                     current=current.revision)
    refuse_if_day_closed(row.table, current.gaming_day)
    if _same_jogo(current.record, record):
        raise refuse(code="identical", template=gettext_noop("The correction is identical to the recorded jogo {jogo}: "
                                                             "change what was recorded wrongly."), jogo=row.number)
    return _correction(row.table, current, record)


def preview_amendment(*, jogo: Jogo, record: dict) -> Correction:
    """What approving a correction of `row` to `record` would add to the ledger, checked as
    `propose_amendment` checks it; writes nothing. Refused with every problem."""
    return _check_correction(jogo, record)


def propose_amendment(*, jogo: Jogo, user: User, record: dict, reason: str,
                      at: dt.datetime | None = None) -> Amendment:
    """A supervisor's correction of a jogo: checked now like a new jogo played with the same
    seats and capital, applied only when a second person approves it."""
    at = at or timezone.now()
    if not reason or not reason.strip():
        raise refuse(code="reason", template=gettext_noop("An amendment states its reason."), field="reason")
    with transaction.atomic():
        locked_table(jogo.table)
        correction = _check_correction(jogo, record)
        proposed = Amendment.objects.create(jogo=correction.original, record=record, reason=reason.strip(),
                                            proposed_by=user, proposed_at=at)
        happened("correction_proposed", table=jogo.table, subject=proposed, user=user, at=at)
        return proposed


def decide_amendment(*, amendment: Amendment, user: User, approve: bool, reason: str = "",
                     at: dt.datetime | None = None) -> Amendment:
    """Approve (adding the revision to the ledger) or reject a pending amendment. Nobody decides
    on his own amendment; a rejection states its reason (an approval may)."""
    at = at or timezone.now()
    reason = (reason or "").strip()
    with transaction.atomic():
        table = locked_table(amendment.jogo.table)
        amendment = Amendment.objects.select_for_update().select_related("jogo__game").get(pk=amendment.pk)
        if amendment.state != Amendment.PENDING:
            raise refuse(code="decided", template=gettext_noop("Amendment {amendment} was already {state}."),
                         conflict=True, amendment=amendment.pk, state=amendment.state)
        if amendment.proposed_by_id == user.pk:
            raise refuse(code="own_amendment", template=gettext_noop("Nobody approves or rejects his own amendment "
                                                                     "(maker/checker): a second person must decide."))
        if not approve and not reason:
            raise refuse(code="reason", template=gettext_noop("A rejection states its reason."), field="reason")
        if approve:
            refuse_if_day_closed(table, amendment.jogo.gaming_day)
            amendment.revision = _apply(table, amendment, user, at)
        amendment.state = Amendment.APPROVED if approve else Amendment.REJECTED
        amendment.decided_by, amendment.decided_at, amendment.decision_reason = user, at, reason
        amendment.save()
        if approve:
            correction_approved.send(sender=Amendment, amendment=amendment)
        happened("correction_decided", table=table, subject=amendment, user=user, at=at)
        return amendment


def _correction(table: Table, original: Jogo, record: dict, *, reason: str = "", **ledger) -> Correction:
    """The amended revision of `original`, then the changed capital carried through every later
    jogo of the game: each whose capital changes gets a new revision re-scored by the engine (its
    cap may bind differently). Later jogos keep the seats they were played with. `ledger` holds
    the new rows' ledger fields (who, when); nothing is written."""
    game = original.game
    parsed, result = scored(table, original.progress, original.capital_before, record, original.rules)
    amended = jogo_row(original.progress, original.capital_before, record, parsed, result, game=game,
                        number=original.number, position=original.position, revision=original.revision + 1,
                        kind=Jogo.AMENDED, reason=reason, gaming_day=original.gaming_day, **ledger)
    moved: dict[int, list[tuple[int, int]]] = {}
    for movement in Movement.objects.filter(game=game).order_by("seq"):
        moved.setdefault(movement.after_jogos, []).append((movement.chair, movement.signed_amount))
    jogos = current_jogos(game)
    after = {row.position: row.capital_after for row in jogos}
    after[original.position] = amended.capital_after

    def capital_at(position: int) -> list[int | None]:  # as `capital(game, position)` would be
        return with_movements(after[position], moved.get(position, ()))

    carried = []
    for later in jogos[original.position:]:
        amounts = capital_at(later.position - 1)
        if amounts == later.capital_before:
            continue
        if any(amount is not None and amount < 0 for amount in amounts):
            raise refuse(code="capital", article=capital_article(table.variant),
                         template=gettext_noop("With this amendment a player's capital before jogo {jogo} would be "
                                               "negative (a cash-out larger than his capital)."), jogo=later.number)
        if later.gaming_day != original.gaming_day:  # a game that ran past the start of the next day
            refuse_if_day_closed(table, later.gaming_day)
        later_record = {**later.record,
                        "capital": {seat: amounts[chair] for seat, chair in later.progress.seats.items()}}
        parsed, result = scored(table, later.progress, amounts, later_record, later.rules)
        row = jogo_row(later.progress, amounts, later_record, parsed, result, game=game, number=later.number,
                        position=later.position, revision=later.revision + 1, kind=Jogo.CARRIED,
                        reason=CARRIED_REASON.format(number=original.number),
                        gaming_day=later.gaming_day, **ledger)
        after[later.position] = row.capital_after
        carried.append((later, row))
    if any(amount is not None and amount < 0 for amount in capital_at(max(after))):
        raise refuse(code="capital", article=capital_article(table.variant),
                     template=gettext_noop("With this amendment a player's capital now would be negative (he has "
                                           "cashed out more than the corrected jogos leave him)."))
    return Correction(original, amended, carried)


def _apply(table: Table, amendment: Amendment, user: User, at: dt.datetime) -> Jogo:
    """Add the amendment's correction to the ledger (see `_correction`), and end or reopen the
    game when the correction completes or un-completes its North round (I-2)."""
    original = amendment.jogo
    if current_revision(original).pk != original.pk:
        raise refuse(code="superseded", template=gettext_noop("Jogo {jogo} changed since the amendment was proposed; "
                                                              "propose it again."), conflict=True, jogo=original.number)
    game = original.game
    correction = _correction(table, original, amendment.record, reason=amendment.reason, approved_by=user,
                             recorded_at=at, recorded_by=amendment.proposed_by)
    amended = correction.amended
    append_row(table, amended, jogo=True)
    for _later, row in correction.carried:
        append_row(table, row, jogo=True)
    now = replayed(game)
    state = now.progress
    if game.ended_by_id is None:  # not ended by hand: I-2 alone says whether the game is over
        later_game = table.games.filter(started_at__gt=game.started_at).exists()
        if state.complete and game.ended_at is None:
            game.ended_at = amended.recorded_at
            game.save(update_fields=["ended_at"])
        elif not state.complete and game.ended_at is not None and not later_game:
            game.ended_at = None  # the corrected last jogo no longer ends the North round
            game.save(update_fields=["ended_at"])
    if game.ended_at is None:
        last = last_jogo(game)
        move_projection(table, projection(game, state, last.position if last else 0, now.capital))
    elif table.game_id == game.pk:
        move_projection(table, projection(None))
    return amended
