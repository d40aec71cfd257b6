"""Players as people: recording a player, changing or identifying him, and anonymising those
whose retention period is over (docs/patrons.md). Each function is one transaction, `user` the
person who acts; each write of a player's record logs a `PatronChange` naming the fields it
wrote, never their values. Who may call which is the views' and the API's to decide
(pit.add_patron, pit.identify_patron).

A player's personal data lives in `Patron` and nowhere in the ledger: a movement is chained with
its patron's id only, so that anonymising him changes no hashed row.
"""
from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from .documents import date_of_birth_problems, document_problems, nationality_problems
from .errors import Problem, Refused
from .models import Casino, Patron, PatronChange
from .signals import keep_personal_data

# Everything a player's record holds besides his name, and what a person may write of it.
IDENTITY = ("document_type", "document_number", "document_country", "date_of_birth", "nationality")
WRITABLE = ("name", *IDENTITY)
NAME_LENGTH = Patron._meta.get_field("name").max_length

NO_NAME = gettext_noop("Give the player's name.")
NAME_TOO_LONG = gettext_noop("A player's name has at most {limit} characters.")
DOCUMENT_HELD = gettext_noop(
    "This identity document is already recorded for another player of the casino (player {other}); one document "
    "is one person.")
NEEDED_TO_IDENTIFY = gettext_noop(
    "DICJ Instruction n.º 1/2016: a player is identified by his identity document's type, number and issuing "
    "country, his date of birth and his nationality; this one is missing.")
ANONYMISED = gettext_noop("This player's personal data was removed when its retention period ended; his record "
                          "is not changed any more.")


def _problem(field: str, code: str, template: str, **params: object) -> Problem:
    return Problem.of(code, None, template, field, **params)


def _cleaned(values: dict, *, today: dt.date) -> dict:
    """`values` (some of WRITABLE) trimmed and normalised, or `Refused` naming each bad field."""
    cleaned = dict(values)
    problems: list[Problem] = []
    if "name" in cleaned:
        cleaned["name"] = " ".join((cleaned["name"] or "").split())
        if not cleaned["name"]:
            problems.append(_problem("name", "name_missing", NO_NAME))
        elif len(cleaned["name"]) > NAME_LENGTH:
            problems.append(_problem("name", "name_too_long", NAME_TOO_LONG, limit=NAME_LENGTH))
    for field in ("document_type", "document_number", "document_country", "nationality"):
        if field in cleaned:
            cleaned[field] = (cleaned[field] or "").strip()
    for field in ("document_country", "nationality"):
        if field in cleaned:
            cleaned[field] = cleaned[field].upper()
    if any(field in cleaned for field in ("document_type", "document_number", "document_country")):
        cleaned["document_number"], found = document_problems(
            cleaned.get("document_type", ""), cleaned.get("document_number", ""), cleaned.get("document_country", ""))
        problems += found
    problems += date_of_birth_problems(cleaned.get("date_of_birth"), today)
    problems += nationality_problems(cleaned.get("nationality", ""))
    if problems:
        raise Refused(*problems)
    return cleaned


def _refuse_held_document(patron: Patron) -> None:
    """Refused when another player of the casino holds the same document (the constraint
    `one_patron_per_document` would refuse it too, in a developer's words)."""
    if not patron.document_number:
        return
    other = (Patron.objects.filter(casino_id=patron.casino_id, document_type=patron.document_type,
                                   document_country=patron.document_country, document_number=patron.document_number)
             .exclude(pk=patron.pk).values_list("pk", flat=True).first())
    if other is not None:
        raise Refused(_problem("document_number", "document_held", DOCUMENT_HELD, other=other), conflict=True)


def _save(patron: Patron, **kwargs) -> None:
    """Save, answering a race the check above lost as the same refusal."""
    try:
        with transaction.atomic():
            patron.save(**kwargs)
    except IntegrityError:
        _refuse_held_document(patron)
        raise


@transaction.atomic
def create_patron(*, casino: Casino, user: User, name: str, at: dt.datetime | None = None, **identity) -> Patron:
    """A new player of `casino`: a name alone will do; any of IDENTITY (`document_type`,
    `document_number`, `document_country`, `date_of_birth`, `nationality`) may come with it."""
    at = at or timezone.now()
    unknown = set(identity) - set(IDENTITY)
    assert not unknown, unknown
    values = _cleaned({"name": name, **identity}, today=timezone.localdate(at))
    patron = Patron(casino=casino, created_at=at, created_by=user, changed_at=at, changed_by=user, **values)
    _refuse_held_document(patron)
    _save(patron)
    PatronChange.objects.create(patron=patron, action=PatronChange.CREATED, at=at, by=user,
                                fields=[field for field in WRITABLE if getattr(patron, field) not in (None, "")])
    return patron


@transaction.atomic
def change_patron(*, patron: Patron, user: User, at: dt.datetime | None = None, **fields) -> Patron:
    """Write `fields` (some of WRITABLE) of the player's record; a document is checked whole,
    with the fields of it not given as they stand. Nothing is logged when nothing changes."""
    at = at or timezone.now()
    unknown = set(fields) - set(WRITABLE)
    assert not unknown, unknown
    patron = Patron.objects.select_for_update().get(pk=patron.pk)
    if patron.anonymised_at is not None:
        raise Refused(_problem(None, "patron_anonymised", ANONYMISED), conflict=True)
    document = {"document_type", "document_number", "document_country"}
    if document & set(fields):
        fields = {**{name: getattr(patron, name) for name in document}, **fields}
    values = _cleaned(fields, today=timezone.localdate(at))
    changed = [name for name in WRITABLE if name in values and values[name] != getattr(patron, name)]
    if not changed:
        return patron
    for name in changed:
        setattr(patron, name, values[name])
    _refuse_held_document(patron)
    patron.changed_at, patron.changed_by = at, user
    _save(patron, update_fields=[*changed, "changed_at", "changed_by"])
    PatronChange.objects.create(patron=patron, action=PatronChange.CHANGED, at=at, by=user, fields=changed)
    return patron


def identify(*, patron: Patron, user: User, document_type: str, document_number: str, document_country: str,
             date_of_birth: dt.date | None, nationality: str, at: dt.datetime | None = None) -> Patron:
    """Record what identifies the player for a large transaction (DICJ Instruction n.º 1/2016):
    every field of IDENTITY, each checked; one missing is refused by its field."""
    given = {"document_type": document_type, "document_number": document_number,
             "document_country": document_country, "date_of_birth": date_of_birth, "nationality": nationality}
    missing = [name for name, value in given.items() if value in (None, "")]
    if missing:
        raise Refused(*(_problem(name, "identification_needed", NEEDED_TO_IDENTIFY) for name in missing))
    return change_patron(patron=patron, user=user, at=at, **given)


# --- Retention --------------------------------------------------------------------------------

def expired(*, now: dt.datetime | None = None):
    """The players not yet anonymised with nothing since the retention period began: no
    movement, no seat, no refused movement, and recorded before it."""
    since = (now or timezone.now()) - dt.timedelta(days=settings.PATRON_RETENTION_DAYS)
    return (Patron.objects.filter(anonymised_at__isnull=True, created_at__lt=since)
            .exclude(movements__recorded_at__gte=since)
            .exclude(seats__game__started_at__gte=since)
            .exclude(refused_movements__attempted_at__gte=since))


def kept(patron_ids: list[int]) -> set[int]:
    """The ids of `patron_ids` whose personal data another app keeps (`keep_personal_data`)."""
    keep: set[int] = set()
    for _receiver, answer in keep_personal_data.send(sender=Patron, patrons=patron_ids):
        keep |= set(answer or ())
    return keep


@transaction.atomic
def anonymise_expired(*, now: dt.datetime | None = None, dry_run: bool = False) -> int:
    """Remove the personal data of every player whose retention period (PATRON_RETENTION_DAYS
    after his last movement or seat) is over, but those another app keeps: name and document
    blanked, date of birth and nationality removed (his seats show his name from here, so they
    lose it too), a `PatronChange` ("anonymised", by nobody) naming the fields that held data.
    The ledger is not touched: it names him by id. Returns how many were (with `dry_run`: would be) anonymised."""
    now = now or timezone.now()
    candidates = list(expired(now=now).select_for_update().order_by("pk"))
    keep = kept([patron.pk for patron in candidates])
    patrons = [patron for patron in candidates if patron.pk not in keep]
    if dry_run:
        return len(patrons)
    for patron in patrons:
        held = [field for field in WRITABLE if getattr(patron, field) not in (None, "")]
        patron.name = patron.document_type = patron.document_number = patron.document_country = ""
        patron.nationality, patron.date_of_birth = "", None
        patron.anonymised_at = patron.changed_at = now
        patron.save(update_fields=[*WRITABLE, "anonymised_at", "changed_at"])
        PatronChange.objects.create(patron=patron, action=PatronChange.ANONYMISED, at=now, by=None, fields=held)
    return len(patrons)
