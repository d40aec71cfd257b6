"""Who may see and act at which table: the role's permission (roles.py), at the casinos the person
is given (Casino.staff) and, for pit staff, the assignment to the table. Inspectors and managers
see every table of their casinos and need no assignment. Shared by the API and the web screens.

A user's permissions are read by Django's own ModelBackend and API tokens by REST framework's
own TokenAuthentication (settings.py): security code stays stock."""
from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from .models import Casino, Table


def casinos_of(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Casino]:
    """The casinos whose objects the person may see and act on: those he is given (a superuser,
    every one). Nothing for anyone not logged in or given none."""
    if not user.is_authenticated or not user.is_active:
        return Casino.objects.none()
    if user.is_superuser:
        return Casino.objects.all()
    return Casino.objects.filter(staff=user)


def casino_ids(user: AbstractBaseUser | AnonymousUser) -> frozenset[int]:
    """The ids of `casinos_of(user)`, read once per user object (a request's), as Django's
    ModelBackend keeps a user's permissions."""
    if not hasattr(user, "_casino_ids"):
        user._casino_ids = frozenset(casinos_of(user).values_list("pk", flat=True))
    return user._casino_ids


def at_casino(user: AbstractBaseUser | AnonymousUser, casino: Casino | int | None) -> bool:
    """Whether the person is given `casino` (an object or its id)."""
    casino_id = casino.pk if isinstance(casino, Casino) else casino
    return casino_id is not None and casino_id in casino_ids(user)


def visible_tables(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Table]:
    """Inspectors and managers see every table of their casinos; pit staff the tables they are
    assigned to there."""
    if user.has_perm("pit.view_all_tables"):
        return Table.objects.filter(casino__in=casinos_of(user))
    if user.has_perm("pit.view_table"):
        return Table.objects.filter(staff=user, casino__in=casinos_of(user))
    return Table.objects.none()


def require(user: AbstractBaseUser | AnonymousUser, permission: str, table: Table | None = None) -> None:
    """Refuse unless the user holds `permission`, is given the table's casino and, for a table's
    pit staff permission, is assigned to that table (inspectors and managers need no assignment)."""
    if not user.has_perm(permission):
        raise PermissionDenied(_("Your role does not allow this."))
    if table is None:
        return
    if user.has_perm("pit.view_all_tables"):
        allowed = at_casino(user, table.casino_id)
    else:  # assigned to the table at a casino he is given: one query
        allowed = Table.objects.filter(pk=table.pk, staff=user, casino__staff=user).exists()
    if not allowed:
        if not at_casino(user, table.casino_id):
            raise PermissionDenied(_("Table %(table)s is at a casino you are not given.") % {"table": table.number})
        raise PermissionDenied(_("You are not assigned to table %(table)s.") % {"table": table.number})
