"""Who may see and act at which table: the role's permission (roles.py) and, for pit staff,
the assignment to the table. Inspectors and managers see every table and need no assignment.
Shared by the API and the web screens."""
from __future__ import annotations

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group, Permission, User
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import Value
from django.utils.translation import gettext as _
from rest_framework import authentication
from rest_framework.authtoken.models import Token

from .models import Table


def visible_tables(user):
    """Inspectors and managers see every table; pit staff the tables they are assigned to."""
    if user.has_perm("pit.view_all_tables"):
        return Table.objects.all()
    if user.has_perm("pit.view_table"):
        return Table.objects.filter(staff=user)
    return Table.objects.none()


def visible_tables_marked(user):
    """`visible_tables(user)`, each table read with `assigned_user`, the user's id, when he is
    pit staff: every table he sees is then one he is assigned to, and `require` needs no query
    of its own to know it. Inspectors' and managers' tables are not marked (they need no
    assignment)."""
    tables = visible_tables(user)
    if not user.has_perm("pit.view_all_tables") and user.has_perm("pit.view_table"):
        tables = tables.annotate(assigned_user=Value(user.pk))
    return tables


def require(user, permission: str, table: Table | None = None) -> None:
    """Refuse unless the user holds `permission` and, for a table's pit staff permission, is
    assigned to that table (inspectors and managers need no assignment)."""
    if not user.has_perm(permission):
        raise PermissionDenied(_("Your role does not allow this."))
    if table is not None and not user.has_perm("pit.view_all_tables") and not _assigned(user, table):
        raise PermissionDenied(_("You are not assigned to table %(table)s.") % {"table": table.number})


def _assigned(user, table: Table) -> bool:
    if user.pk is not None and getattr(table, "assigned_user", None) == user.pk:  # read by visible_tables_marked
        return True
    return table.staff.filter(pk=user.pk).exists()


class PermissionBackend(ModelBackend):
    """Django's ModelBackend, reading a user's permissions (his own and his groups') in one
    plain SQL query instead of two ORM queries: every API request asks for them, and the ORM
    took longer to write the queries than the database to answer them."""

    def get_all_permissions(self, user_obj, obj=None):
        if not user_obj.is_active or user_obj.is_anonymous or obj is not None:
            return set()
        if not hasattr(user_obj, "_perm_cache"):
            with connection.cursor() as cursor:
                cursor.execute(_ALL_PERMISSIONS if user_obj.is_superuser else _PERMISSIONS,
                               [] if user_obj.is_superuser else [user_obj.pk])
                user_obj._perm_cache = {f"{app}.{name}" for app, name in cursor.fetchall()}
        return user_obj._perm_cache


class TokenAuthentication(authentication.TokenAuthentication):
    """REST framework's token authentication, reading the token's user and his permissions
    (as PermissionBackend reads them) in one query: an API request makes one round trip to the
    database for both."""

    def authenticate_credentials(self, key):
        rows = list(User.objects.raw(_TOKEN_USER, [key]))
        if not rows or not rows[0].is_active:
            return super().authenticate_credentials(key)  # refused, in REST framework's own words
        user = rows[0]
        if not user.is_superuser:  # a superuser holds every permission: PermissionBackend reads them
            user._perm_cache = {f"{row.permission_app}.{row.permission}" for row in rows if row.permission}
        return user, Token(key=key, user=user)


# Each permission a user holds, his own or his groups', as (user_id, permission_id): joined to
# the user, PostgreSQL looks each branch up by the user's id.
_HELD = (f"(SELECT user_id, permission_id FROM {User.user_permissions.through._meta.db_table} UNION ALL "
         f"SELECT m.user_id, g.permission_id FROM {User.groups.through._meta.db_table} m "
         f"JOIN {Group.permissions.through._meta.db_table} g ON g.group_id = m.group_id)")
_NAMED = (f"{Permission._meta.db_table} p ON p.id = h.permission_id "
          f"{{join}} {ContentType._meta.db_table} c ON c.id = p.content_type_id")
_ALL_PERMISSIONS = (f"SELECT c.app_label, p.codename FROM {Permission._meta.db_table} p "
                    f"JOIN {ContentType._meta.db_table} c ON c.id = p.content_type_id")
_PERMISSIONS = f"SELECT c.app_label, p.codename FROM {_HELD} h JOIN {_NAMED.format(join='JOIN')} WHERE h.user_id = %s"
_TOKEN_USER = (f"SELECT u.*, c.app_label AS permission_app, p.codename AS permission "
               f"FROM {Token._meta.db_table} t JOIN {User._meta.db_table} u ON u.id = t.user_id "
               f"LEFT JOIN {_HELD} h ON h.user_id = u.id LEFT JOIN {_NAMED.format(join='LEFT JOIN')} "
               f"WHERE t.{Token._meta.pk.column} = %s")
