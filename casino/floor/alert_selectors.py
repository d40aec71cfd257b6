"""Reading alerts for the screens and the API: the alerts a person sees, filtered by state,
table and rule, in one query with what their rows show (the table, who acknowledged); each
alert's words, citation and links (`row`) read from the alert itself, without a query."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from casino.pit import privacy
from casino.pit.access import visible_tables
from casino.pit.models import Patron, Table
from casino.terms.vocabulary import (
    alert_control_name,
    alert_message,
    alert_rule_name,
    alert_severity_name,
    alert_state_name,
    articles_name,
    person_name,
)

from .alerts import visible_alerts
from .models import Alert
from .rules import RULES, article_of

STATES = ("open", "acknowledged", "cleared", "all")


@dataclass(frozen=True)
class AlertFilter:
    state: str = "open"
    table: int | None = None
    rule: str = ""

    @classmethod
    def read(cls, query) -> AlertFilter:
        """The filter a query string asks for; what it cannot be read as is left out."""
        state = query.get("state") or "open"
        table = query.get("table") or ""
        rule = query.get("rule") or ""
        return cls(state if state in STATES else "open", int(table) if table.isdigit() else None,
                   rule if rule in RULES else "")


def filtered(alerts: QuerySet[Alert], choice: AlertFilter) -> QuerySet[Alert]:
    if choice.state == "open":
        alerts = alerts.open()
    elif choice.state == "acknowledged":
        alerts = alerts.acknowledged()
    elif choice.state == "cleared":
        alerts = alerts.cleared()
    if choice.table is not None:
        alerts = alerts.filter(table_id=choice.table)
    if choice.rule:
        alerts = alerts.filter(rule=choice.rule)
    return alerts


def alert_list(user, choice: AlertFilter) -> QuerySet[Alert]:
    """The alerts `user` sees that `choice` asks for, newest first, with their table and the
    person who acknowledged each."""
    return (filtered(visible_alerts(user), choice).select_related("table", "acknowledged_by")
            .order_by("-raised_at", "-pk"))


def tables_for(user) -> QuerySet[Table]:
    return visible_tables(user).order_by("number")


def rule_choices() -> list[tuple[str, str]]:
    return [(code, alert_rule_name(code)) for code in RULES]


def open_counts(user) -> dict[str, int]:
    """How many alerts `user` sees are open, and how many of those are escalated: one query."""
    return visible_alerts(user).open().aggregate(open=Count("pk"), escalated=Count("pk", filter=Q(
        escalated_at__isnull=False)))


def citation(alert: Alert) -> str:
    """The article and control an alert comes from, in words: "Art. 9.º(a)(4) · capital at stake"."""
    rule = RULES.get(alert.rule)
    parts = [articles_name(article_of(alert))] if article_of(alert) else []
    if rule and rule.control:
        parts.append(alert_control_name(rule.control))
    return " · ".join(parts)


def player_names(user, alerts: list[Alert]) -> dict[int, str]:
    """{patron id: his name as `user` may see it} for the players the alerts name (their params
    keep his id only: they are chained, and outlive his personal data): one query. Inspectors
    and managers read names; a supervisor the names at the tables he is assigned to (whose
    alerts are all he sees); anyone else, masked (casino.pit.privacy)."""
    ids = {(alert.params or {}).get("patron") for alert in alerts} - {None}
    if not ids:
        return {}
    names = dict(Patron.objects.filter(pk__in=ids).values_list("pk", "name"))
    return names if privacy.sees_personal_data(user) or user.has_perm(privacy.WITNESS) else {
        pk: privacy.mask_name(name) for pk, name in names.items()}


def links(alert: Alert, user, names: dict[int, str] | None = None) -> list[tuple[str, str]]:
    """(words, URL) of each record behind the alert that `user` may open; the player it names
    (`names`, from `player_names`) links to his page."""
    params: dict[str, Any] = alert.params or {}
    found = []
    patron = params.get("patron")
    if patron is not None and names and patron in names and user.has_perm("pit.view_patron"):
        found.append((_("Player: %(name)s") % {"name": names[patron] or _("anonymised")},
                      reverse("pit:patron", args=[patron])))
    day = f"?day={alert.gaming_day.isoformat()}"
    if alert.jogo_id:
        found.append((_("Jogo %(number)s") % {"number": params.get("number", "")},
                      reverse("pit:receipt", args=[alert.jogo_id])))
    if alert.movement_id and alert.table_id:
        found.append((_("The table's jogos and movements of the day"), reverse("pit:history", args=[alert.table_id])
                      + day))
    if alert.refusal_id and user.has_perm("pit.view_refusal"):
        found.append((_("Refused attempts"), reverse("pit:refusals") + day
                      + (f"&table={alert.table_id}" if alert.table_id else "")))
    if alert.amendment_id:
        found.append((_("The correction"), reverse("pit:correction", args=[alert.amendment_id])))
    if alert.flag_id:
        if user.has_perm("pit.view_all_tables"):
            found.append((_("The flag"), reverse("audit:flag", args=[alert.flag_id])))
        elif alert.table_id:
            # Supervisors read an inspector's flags on their tables in the table's history.
            found.append((_("The flag, in the table's history"), reverse("pit:history", args=[alert.table_id])
                          + f"{day}&number={params.get('number', '')}"))
    if alert.box_id and user.has_perm("count.view_box"):
        found.append((_("The box"), reverse("counting:box", args=[alert.box_id])))
    if alert.case_id and user.has_perm("count.view_case"):
        found.append((_("Variance case %(case)s") % {"case": alert.case_id},
                      reverse("count:case", args=[alert.case_id])))
    if alert.rule == "off_rotation" and user.has_perm("count.view_rotation"):
        found.append((_("The rotation log"), reverse("count:rotation")))
    return found


@dataclass
class AlertRow:
    alert: Alert
    rule: str
    message: str
    severity: str
    state: str
    citation: str
    links: list
    acknowledged_by: str
    form: Any


def row(alert: Alert, user, form=None, names: dict[int, str] | None = None) -> AlertRow:
    return AlertRow(alert, alert_rule_name(alert.rule), alert_message(alert), alert_severity_name(alert.severity),
                    alert_state_name(alert.state), citation(alert), links(alert, user, names),
                    person_name(alert.acknowledged_by) if alert.acknowledged_by_id else "", form)
