"""The alerts' API under /api/v1/alerts/: list the alerts a person sees (`?state=open|acknowledged|
cleared|all`, `?table=ID`, `?rule=CODE`), read one, and acknowledge one with a note. Same rules
and error shape as the pit's and the count's API (casino/api_errors.py): floor.view_alert reads
(a supervisor the alerts of his tables, inspectors and managers every alert); acknowledging is
`alerts.acknowledge`'s to allow (floor.acknowledge_alert; an escalated alert, a manager)."""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import BasePermission
from rest_framework.response import Response

from casino.api_errors import validated
from casino.limits import NOTE_MAX_LENGTH, ROW_ID_MAX
from casino.terms.vocabulary import alert_message, alert_rule_name, person_name

from . import alert_selectors as selectors, alerts
from .models import Alert
from .rules import RULES, article_of

SUBJECTS = ("jogo", "movement", "refusal", "amendment", "flag", "box", "case", "rotation")


class MayViewAlerts(BasePermission):
    def has_permission(self, request, view):
        return request.user.is_authenticated and request.user.has_perm("floor.view_alert")


class AlertSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.number", allow_null=True, default=None,
                                  help_text="the table's number; null for a finding of the ledger's check")
    table_id = serializers.IntegerField(allow_null=True)
    name = serializers.SerializerMethodField(help_text="the rule's name, in the request's language")
    message = serializers.SerializerMethodField(help_text="what the alert says, in the request's language")
    article = serializers.SerializerMethodField(help_text="the Portaria's article it cites, if any (e.g. 9(a)(4))")
    control = serializers.SerializerMethodField(help_text="the control it comes from, as a code")
    state = serializers.ChoiceField(choices=["open", "acknowledged", "cleared"])
    subjects = serializers.SerializerMethodField(help_text="the ids of the records behind it, by kind")
    acknowledged_by = serializers.SerializerMethodField()

    class Meta:
        model = Alert
        fields = ["id", "rule", "name", "severity", "table", "table_id", "gaming_day", "raised_at", "message",
                  "article", "control", "params", "subjects", "state", "acknowledged_at", "acknowledged_by",
                  "acknowledgement", "escalated_at", "cleared_at", "seq", "hash"]

    def get_name(self, alert) -> str:
        return alert_rule_name(alert.rule)

    def get_message(self, alert) -> str:
        return alert_message(alert)

    def get_article(self, alert) -> str:
        return article_of(alert)

    def get_control(self, alert) -> str:
        rule = RULES.get(alert.rule)
        return rule.control if rule else ""

    def get_subjects(self, alert) -> dict[str, int]:
        return {name: getattr(alert, f"{name}_id") for name in SUBJECTS if getattr(alert, f"{name}_id")}

    def get_acknowledged_by(self, alert) -> str | None:
        return person_name(alert.acknowledged_by) if alert.acknowledged_by_id else None


class AlertFilterSerializer(serializers.Serializer):
    state = serializers.ChoiceField(label="State", choices=list(selectors.STATES), required=False,
                                    help_text="open (the default): neither acknowledged nor cleared")
    table = serializers.IntegerField(label="Table", required=False, min_value=1, max_value=ROW_ID_MAX,
                                     help_text="the table's id")
    rule = serializers.ChoiceField(label="Rule", choices=list(RULES), required=False)


class AcknowledgeInputSerializer(serializers.Serializer):
    note = serializers.CharField(label="Note", max_length=NOTE_MAX_LENGTH,
                                 help_text="what the person saw or did about the alert")


class AlertViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The alerts the rules raised (docs/alerts.md), newest first, each citing its article or
    control and naming the records behind it."""

    permission_classes = [MayViewAlerts]
    serializer_class = AlertSerializer
    queryset = Alert.objects.none()

    def get_queryset(self):
        return (alerts.visible_alerts(self.request.user).select_related("table", "acknowledged_by")
                .order_by("-raised_at", "-pk"))

    @extend_schema(parameters=[AlertFilterSerializer])
    def list(self, request, *args, **kwargs):
        asked = validated(AlertFilterSerializer, request.query_params)
        choice = selectors.AlertFilter(asked.get("state", "open"), asked.get("table"), asked.get("rule", ""))
        page = self.paginate_queryset(selectors.filtered(self.get_queryset(), choice))
        return self.get_paginated_response(AlertSerializer(page, many=True).data)

    @extend_schema(request=AcknowledgeInputSerializer, responses={200: AlertSerializer})
    @action(detail=True, methods=["post"])
    def acknowledge(self, request, pk=None):
        """Acknowledge the alert with a note (once): who and when are kept."""
        if not request.user.has_perm("floor.acknowledge_alert"):
            raise PermissionDenied(_("Your role does not allow this."))
        alert = self.get_object()
        data = validated(AcknowledgeInputSerializer, request.data)
        alert = alerts.acknowledge(alert=alert, user=request.user, note=data["note"])
        return Response(AlertSerializer(alert).data)
