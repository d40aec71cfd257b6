"""Who may see and act at which table: the role's permission (roles.py) and, for pit staff,
the assignment to the table. Inspectors and managers see every table and need no assignment.
Shared by the API and the web screens."""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from .models import Table


def visible_tables(user):
    """Inspectors and managers see every table; pit staff the tables they are assigned to."""
    if user.has_perm("pit.view_all_tables"):
        return Table.objects.all()
    if user.has_perm("pit.view_table"):
        return Table.objects.filter(staff=user)
    return Table.objects.none()


def require(user, permission: str, table: Table | None = None) -> None:
    """Refuse unless the user holds `permission` and, for a table's pit staff permission, is
    assigned to that table (inspectors and managers need no assignment)."""
    if not user.has_perm(permission):
        raise PermissionDenied(_("Your role does not allow this."))
    if table is not None and not user.has_perm("pit.view_all_tables") \
            and not table.staff.filter(pk=user.pk).exists():
        raise PermissionDenied(_("You are not assigned to table %(table)s.") % {"table": table.number})
