"""Who may see and act at which table: the role's permission (roles.py) and, for pit staff,
the assignment to the table. Inspectors and managers see every table and need no assignment.
Shared by the API and the web screens.

A user's permissions are read by Django's own ModelBackend and API tokens by REST framework's
own TokenAuthentication (settings.py): security code stays stock."""
from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from .models import Table


def visible_tables(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Table]:
    """Inspectors and managers see every table; pit staff the tables they are assigned to."""
    if user.has_perm("pit.view_all_tables"):
        return Table.objects.all()
    if user.has_perm("pit.view_table"):
        return Table.objects.filter(staff=user)
    return Table.objects.none()


def require(user: AbstractBaseUser | AnonymousUser, permission: str, table: Table | None = None) -> None:
    """Refuse unless the user holds `permission` and, for a table's pit staff permission, is
    assigned to that table (inspectors and managers need no assignment)."""
    if not user.has_perm(permission):
        raise PermissionDenied(_("Your role does not allow this."))
    if (table is not None and not user.has_perm("pit.view_all_tables")
            and not table.staff.filter(pk=user.pk).exists()):
        raise PermissionDenied(_("You are not assigned to table %(table)s.") % {"table": table.number})
