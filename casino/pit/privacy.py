"""Who sees a player's personal data, and the log of every read of a document number
(docs/patrons.md).

- Inspectors and managers (`pit.view_personal_data`) see the name, document and date of birth of
  every player of their casinos (`access.casinos_of`; docs/casinos.md).
- A supervisor (`pit.move_money`) sees the names of the players at the tables he is assigned to
  (he witnesses their cash), and a document number only where he records or checks it for a
  movement he witnesses: the identification form of a player seated at his table in a game in
  progress (`read_document_as_witness`), each read logged.
- Everyone else (dealers, counters) sees names and document numbers masked: "C*** T** M**",
  "*****567".

Every page, export or API route that shows a document number reads it through `read_document`
(or `read_document_as_witness`), which logs the read (`DocumentRead`) in the same breath. A
template shows a name through the `privacy` tag library (casino/pit/templatetags/privacy.py):
`{% load privacy %}{% shown_name player.name table %}`.
"""
from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.utils import timezone

from .access import at_casino, casinos_of
from .days import gaming_day
from .models import DocumentRead, Patron, Table

PERSONAL_DATA = "pit.view_personal_data"
WITNESS = "pit.move_money"


def sees_personal_data(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Inspectors and managers: every player's personal data."""
    return user.has_perm(PERSONAL_DATA)


def sees_names(user: AbstractBaseUser | AnonymousUser, table: Table | int | None = None) -> bool:
    """Whether `user` sees players' names (at `table`, when given): inspectors and managers
    everywhere, a supervisor at the tables he is assigned to."""
    if sees_personal_data(user):
        return True
    if table is None or not user.has_perm(WITNESS):
        return False
    table_id = table.pk if isinstance(table, Table) else table
    return table_id in _assigned_tables(user)


def _assigned_tables(user: AbstractBaseUser) -> frozenset[int]:
    """The ids of the tables `user` is assigned to, read once per user object (one request), as
    Django's ModelBackend keeps his permissions: a change of assignment shows from the next
    request (a WebSocket's user object lives as long as its connection)."""
    if not hasattr(user, "_privacy_tables"):
        user._privacy_tables = frozenset(Table.objects.filter(staff=user, casino__in=casinos_of(user))
                                         .values_list("pk", flat=True))
    return user._privacy_tables


def witnesses(user: AbstractBaseUser | AnonymousUser, patron: Patron) -> bool:
    """Whether `user` is a supervisor of a table where `patron` sits in a game in progress, or
    where a movement of his (a seating buy-in included) was refused this gaming day: the one
    whose cash he witnesses, and so may identify (issue 25 §2)."""
    if not user.has_perm(WITNESS) or not at_casino(user, patron.casino_id):
        return False
    return (patron.seats.filter(game__ended_at__isnull=True, game__table__staff=user).exists()
            or patron.refused_movements.filter(table__staff=user, gaming_day=gaming_day(timezone.now())).exists())


def sees_patron(user: AbstractBaseUser | AnonymousUser, patron: Patron) -> bool:
    """Whether `user` sees `patron`'s name: inspectors and managers of his casino, and a supervisor
    of a table where he has sat."""
    if not at_casino(user, patron.casino_id):
        return False
    if sees_personal_data(user):
        return True
    return user.has_perm(WITNESS) and patron.seats.filter(game__table__staff=user).exists()


def readable_patrons(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Patron]:
    """The players `user` may look up, of his casinos only: every one for inspectors and managers,
    those who sat at his tables for a supervisor, none for anybody else."""
    of_his_casinos = Patron.objects.filter(casino__in=casinos_of(user))
    if sees_personal_data(user):
        return of_his_casinos
    if not user.has_perm(WITNESS):
        return Patron.objects.none()
    return of_his_casinos.filter(pk__in=Patron.objects.filter(seats__game__table__staff=user).values("pk"))


def mask_name(name: str) -> str:
    """Each word's first letter and a star for each other letter: "Chan Tai Man" → "C*** T** M**"
    (a Chinese name, "陳大文" → "陳**")."""
    return " ".join(word[:1] + "*" * (len(word) - 1) for word in (name or "").split())


def mask_number(number: str) -> str:
    """All but the last three characters starred: "M1234567" → "*****567"."""
    number = number or ""
    return "*" * max(len(number) - 3, 0) + number[-3:]


def shown_name(user: AbstractBaseUser | AnonymousUser, name: str, table: Table | int | None = None) -> str:
    """`name` as `user` may see it (at `table`): plain or masked."""
    return name if sees_names(user, table) else mask_name(name)


def read_document(user: AbstractBaseUser, patron: Patron, purpose: str) -> str:
    """The patron's document number for `user`, logged as read for `purpose` (the page, export
    or route); masked, and not logged, for a person who may not read it. (A supervisor reads it
    only where he identifies a player for a movement he witnesses: that page calls
    `read_document_as_witness`.)"""
    if not patron.document_number:
        return ""
    if not sees_personal_data(user) or not at_casino(user, patron.casino_id):
        return mask_number(patron.document_number)
    DocumentRead.objects.create(patron=patron, read_by=user, read_at=timezone.now(), purpose=purpose)
    return patron.document_number


def read_document_as_witness(user: AbstractBaseUser, patron: Patron, purpose: str) -> str:
    """The document number for the supervisor identifying `patron` for a movement he witnesses
    (`witnesses`: the player sits at his table in a game in progress), or for an inspector or
    manager, logged; masked, and not logged, for anybody else."""
    if not patron.document_number:
        return ""
    if not at_casino(user, patron.casino_id) or not (sees_personal_data(user) or witnesses(user, patron)):
        return mask_number(patron.document_number)
    DocumentRead.objects.create(patron=patron, read_by=user, read_at=timezone.now(), purpose=purpose)
    return patron.document_number
