"""Oversight: the inspectors' flags on jogos (raised, commented on, resolved by another person)
and a second person's confirmation of a refused attempt.
"""
from __future__ import annotations

import datetime as dt

from django.contrib.auth.base_user import AbstractBaseUser as User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from casino.terms.vocabulary import person_name

from ..days import minute
from ..errors import refuse
from ..models import Flag, FlagComment, Jogo, Refusal, RefusalConfirmation
from ..signals import happened


def flag(*, jogo: Jogo, user: User, note: str, at: dt.datetime | None = None) -> Flag:
    """An inspector flags a jogo for the exception queue, saying what he saw. The flag is open
    until someone else resolves it (`resolve_flag`)."""
    if not note or not note.strip():
        raise refuse(code="note", template=gettext_noop("A flag says what the inspector saw."), field="note")
    at = at or timezone.now()
    with transaction.atomic():
        raised = Flag.objects.create(table=jogo.table, number=jogo.number, note=note.strip(), raised_by=user,
                                     raised_at=at)
        happened("flag_raised", table=jogo.table, subject=raised, user=user, at=at)
        return raised


def comment_on_flag(*, flag: Flag, user: User, note: str, at: dt.datetime | None = None) -> FlagComment:
    """A comment on a flag, open or resolved: always a new row, never an edit of an earlier one."""
    if not note or not note.strip():
        raise refuse(code="note", template=gettext_noop("A comment says something: write it first."), field="note")
    with transaction.atomic():
        return FlagComment.objects.create(flag=flag, note=note.strip(), written_by=user,
                                          written_at=at or timezone.now())


def resolve_flag(*, flag: Flag, user: User, note: str, at: dt.datetime | None = None) -> Flag:
    """Resolve a flag with a note of what was found: once, and by a person other than the one
    who raised it (four eyes, as for amendments). Refused when it is already resolved."""
    at = at or timezone.now()
    if not note or not note.strip():
        raise refuse(code="note", template=gettext_noop("A resolution says what was found."), field="note")
    with transaction.atomic():
        flag = Flag.objects.select_for_update().get(pk=flag.pk)
        if not flag.is_open:
            raise refuse(code="flag_resolved", conflict=True,
                         template=gettext_noop("This flag was already resolved by {who} on {when}."),
                         who=person_name(flag.resolved_by),
                         when=minute(flag.resolved_at))
        if flag.raised_by_id == user.pk:
            raise refuse(code="own_flag", template=gettext_noop("Nobody resolves a flag he raised himself: another "
                                                                "inspector or a manager must."), conflict=True)
        flag.resolved_by, flag.resolved_at, flag.resolution = user, at, note.strip()
        flag.save(update_fields=["resolved_by", "resolved_at", "resolution"])
        happened("flag_resolved", table=flag.table, subject=flag, user=user, at=at)
        return flag


def confirm_refusal(*, refusal: Refusal, user: User, note: str, at: dt.datetime | None = None) -> RefusalConfirmation:
    """A supervisor confirms a refused attempt with a note of why it was abandoned: once, and
    not the person who attempted it (four eyes, as for amendments). The caller checks that the
    supervisor holds pit.confirm_refusal at the refusal's table (access.require)."""
    if not note or not note.strip():
        raise refuse(code="note", field="note",
                     template=gettext_noop("A confirmation says why the attempt was abandoned."))
    with transaction.atomic():
        refusal = Refusal.objects.select_for_update().get(pk=refusal.pk)
        earlier = RefusalConfirmation.objects.filter(refusal=refusal).select_related("confirmed_by").first()
        if earlier is not None:
            raise refuse(code="refusal_confirmed", conflict=True,
                         template=gettext_noop("This refused attempt was already confirmed by {who} on {when}."),
                         who=person_name(earlier.confirmed_by),
                         when=minute(earlier.confirmed_at))
        if refusal.attempted_by_id == user.pk:
            raise refuse(code="own_refusal", template=gettext_noop("Nobody confirms his own refused attempt: another "
                                                                   "supervisor of the table must."), conflict=True)
        return RefusalConfirmation.objects.create(refusal=refusal, confirmed_by=user, confirmed_at=at or timezone.now(),
                                                  note=note.strip())
