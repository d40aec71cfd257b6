"""Who may see and act at which table: the role's permission (roles.py) and, for pit staff,
the assignment to the table. Inspectors and managers see every table and need no assignment.
Shared by the API and the web screens."""
from __future__ import annotations

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group, Permission
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Q, Subquery
from django.utils.translation import gettext as _

from .models import Table


def visible_tables(user):
    """Inspectors and managers see every table; pit staff the tables they are assigned to."""
    if user.has_perm("pit.view_all_tables"):
        return Table.objects.all()
    if user.has_perm("pit.view_table"):
        return Table.objects.filter(staff=user)
    return Table.objects.none()


def with_assignment(tables, user):
    """`tables`, each read with `assigned_user`: the user's id when he is assigned to the table,
    else None, so that `require` needs no query of its own for a table read this way."""
    staff = Table.staff.through.objects.filter(table=OuterRef("pk"), user=user.pk).values("user")[:1]
    return tables.annotate(assigned_user=Subquery(staff))


def require(user, permission: str, table: Table | None = None) -> None:
    """Refuse unless the user holds `permission` and, for a table's pit staff permission, is
    assigned to that table (inspectors and managers need no assignment)."""
    if not user.has_perm(permission):
        raise PermissionDenied(_("Your role does not allow this."))
    if table is not None and not user.has_perm("pit.view_all_tables") and not _assigned(user, table):
        raise PermissionDenied(_("You are not assigned to table %(table)s.") % {"table": table.number})


def _assigned(user, table: Table) -> bool:
    if user.pk is not None and getattr(table, "assigned_user", None) == user.pk:  # read by with_assignment
        return True
    return table.staff.filter(pk=user.pk).exists()


class PermissionBackend(ModelBackend):
    """Django's ModelBackend, reading a user's permissions (his own and his groups') in one
    query instead of two: every API request asks for them, so each saves a round trip."""

    def get_all_permissions(self, user_obj, obj=None):
        if not user_obj.is_active or user_obj.is_anonymous or obj is not None:
            return set()
        if not hasattr(user_obj, "_perm_cache"):
            if user_obj.is_superuser:
                perms = Permission.objects.all()
            else:
                own = user_obj.user_permissions.through.objects.filter(user=user_obj).values("permission")
                grouped = Group.permissions.through.objects.filter(group__user=user_obj).values("permission")
                perms = Permission.objects.filter(Q(pk__in=own) | Q(pk__in=grouped))
            user_obj._perm_cache = {f"{app}.{name}" for app, name in
                                    perms.values_list("content_type__app_label", "codename").order_by()}
        return user_obj._perm_cache
