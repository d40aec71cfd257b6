"""The Django admin, for superusers. Ledger rows (jogos, movements) and the records around them
are read-only here: the only way to write the ledger is the recording service. So are the roles'
groups: every migrate sets each role to exactly its permissions (roles.py)."""
from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin
from django.contrib.auth.models import Group

from .models import Amendment, Casino, Flag, Game, Jogo, Movement, Player, Refusal, Table


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records shown, never added, changed or deleted here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Jogo)
class JogoAdmin(ReadOnlyAdmin):
    list_display = ["table", "number", "revision", "kind", "gaming_day", "result", "fan", "commission", "seq"]
    list_filter = ["gaming_day", "result", "kind", "fan_mismatch", "capped", "pay_all"]


@admin.register(Movement)
class MovementAdmin(ReadOnlyAdmin):
    list_display = ["table", "seq", "game", "chair", "kind", "amount", "gaming_day"]


@admin.register(Amendment, Refusal, Flag, Game, Player)
class RecordAdmin(ReadOnlyAdmin):
    pass


@admin.register(Casino)
class CasinoAdmin(admin.ModelAdmin):
    """A casino and its people: a person's roles apply at the casinos he is given here
    (docs/casinos.md); an inspector given several sees the group's totals."""

    list_display = ["name"]
    filter_horizontal = ["staff"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["casino", "number", "area", "variant", "stake", "rule_set_code", "rule_set_version", "is_open"]
    list_filter = ["area", "variant", "is_open"]
    readonly_fields = ["ledger_seq", "ledger_head", "jogos_recorded"]
    filter_horizontal = ["staff"]

    def get_readonly_fields(self, request, obj=None):
        # Once a table has a ledger, its variant and tier are part of what was recorded.
        fixed = ["variant", "stake", "casino", "number"] if obj and obj.ledger_seq else []
        return self.readonly_fields + fixed


admin.site.unregister(Group)


@admin.register(Group)
class RoleAdmin(ReadOnlyAdmin, GroupAdmin):
    """The roles, to read: a group changed here would be set back to roles.py by the next
    migrate, so it is changed there. People are given their roles on the user's page."""
