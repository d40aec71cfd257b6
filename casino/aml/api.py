"""The suspicious-transaction cases' API under /api/v1/aml/: list and read the cases (each with
its events), open one on a player, add a note, decide it, escalate it. Same rules and error
shape as the rest of the API (casino/api_errors.py); the work is done by cases.py. A case names
its player by id only: his personal data is read on the player's own routes, where each read of
a document number is logged."""
from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import BasePermission
from rest_framework.response import Response

from casino.api_errors import validated
from casino.limits import NOTE_MAX_LENGTH
from casino.pit.access import require
from casino.pit.models import Patron
from casino.pit.serializers import OwnCasinosField
from casino.terms.vocabulary import person_name

from . import cases, selectors
from .models import SuspicionCase, SuspicionEvent

ROW_ID_MAX = 2**63 - 1  # the largest id a database row has (a 64-bit integer)


class HasPermission(BasePermission):
    """aml.view_suspicioncase for every route; the writes ask for theirs too (cases.py)."""

    def has_permission(self, request, view):
        return request.user.is_authenticated and request.user.has_perm(cases.VIEW)


# A state and a kind as plain text, their values listed: the count's cases and the floor's alerts
# have a "state" and a "kind" of their own, and one enum name each in the schema.
STATE_HELP = "open, report (decided: to be reported), no_report (decided: not reported, closed) or escalated"


class SuspicionEventSerializer(serializers.ModelSerializer):
    by = serializers.SerializerMethodField()
    kind = serializers.CharField(read_only=True, help_text="opened, note, decided or escalated")
    state = serializers.CharField(read_only=True, help_text=f"the case's state after it: {STATE_HELP}")

    class Meta:
        model = SuspicionEvent
        fields = ["seq", "kind", "state", "note", "movements", "by", "recorded_at", "hash"]

    def get_by(self, event) -> str:
        return person_name(event.recorded_by)


class SuspicionCaseSerializer(serializers.ModelSerializer):
    patron = serializers.IntegerField(source="patron_id", help_text="the player's id (/api/v1/players/{id}/)")
    casino = serializers.CharField(source="casino.name")
    opened_by = serializers.SerializerMethodField()
    state = serializers.CharField(read_only=True, help_text=STATE_HELP)
    events = SuspicionEventSerializer(many=True, read_only=True)

    class Meta:
        model = SuspicionCase
        fields = ["id", "casino", "patron", "gaming_day", "state", "opened_at", "opened_by", "events"]

    def get_opened_by(self, case) -> str:
        return person_name(case.opened_by)


class SuspicionOpenInputSerializer(serializers.Serializer):
    patron = OwnCasinosField(casino="casino", label=gettext_lazy("Player"), queryset=Patron.objects.all(),
                             help_text="the player's id")
    gaming_day = serializers.DateField(label=gettext_lazy("Gaming day"), required=False,
                                       help_text="the gaming day of the cash the case is about; today's if left out")
    movements = serializers.ListField(label=gettext_lazy("Movements"), required=False, max_length=1000,
                                      child=serializers.IntegerField(min_value=1, max_value=ROW_ID_MAX),
                                      help_text="ids of that day's buy-ins and cash-outs of the player the case "
                                                "concerns")
    note = serializers.CharField(label=gettext_lazy("Note"), max_length=NOTE_MAX_LENGTH,
                                 help_text="the grounds: what looks suspicious")


class SuspicionNoteInputSerializer(serializers.Serializer):
    note = serializers.CharField(label=gettext_lazy("Note"), max_length=NOTE_MAX_LENGTH)


class SuspicionDecideInputSerializer(serializers.Serializer):
    report = serializers.BooleanField(label=gettext_lazy("Report"),
                                      help_text="true: the case is to be reported to the financial intelligence "
                                                "office; false: it is not, and closes")
    note = serializers.CharField(label=gettext_lazy("Note"), max_length=NOTE_MAX_LENGTH, help_text="why")


class CaseViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Suspicious-transaction cases, each with its events (opened, notes, decided, escalated), oldest
    event first. Inspectors and managers open cases, add notes and decide them; a manager escalates
    a case decided "report" to the financial intelligence office."""

    permission_classes = [HasPermission]
    serializer_class = SuspicionCaseSerializer
    queryset = SuspicionCase.objects.all()
    filterset_fields = ["state", "patron"]

    def get_queryset(self):
        return (selectors.cases_of(self.request.user).select_related("casino", "opened_by")
                .prefetch_related("events__recorded_by").order_by("pk"))

    @extend_schema(request=SuspicionOpenInputSerializer, responses={201: SuspicionCaseSerializer})
    def create(self, request):
        """Open a case on a player, saying why; refused while he has a case in progress."""
        require(request.user, cases.WORK)
        data = validated(SuspicionOpenInputSerializer, request.data, context={"request": request})
        case = cases.open_case(patron=data["patron"], user=request.user, note=data["note"],
                               gaming_day=data.get("gaming_day"), movements=data.get("movements", []))
        opened = self.get_queryset().get(pk=case.pk)
        return Response(SuspicionCaseSerializer(opened).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=SuspicionNoteInputSerializer, responses={201: SuspicionEventSerializer})
    @action(detail=True, methods=["post"])
    def note(self, request, pk=None):
        """A note on the case, in any state."""
        require(request.user, cases.WORK)
        event = cases.add_note(case=self.get_object(), user=request.user,
                               **validated(SuspicionNoteInputSerializer, request.data))
        return Response(SuspicionEventSerializer(event).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=SuspicionDecideInputSerializer, responses={201: SuspicionEventSerializer})
    @action(detail=True, methods=["post"])
    def decide(self, request, pk=None):
        """Decide an open case: reported (a manager then escalates it) or not reported (closed)."""
        require(request.user, cases.WORK)
        data = validated(SuspicionDecideInputSerializer, request.data)
        event = cases.decide(case=self.get_object(), user=request.user, report=data["report"], note=data["note"])
        return Response(SuspicionEventSerializer(event).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=SuspicionNoteInputSerializer, responses={201: SuspicionEventSerializer})
    @action(detail=True, methods=["post"])
    def escalate(self, request, pk=None):
        """A manager escalates a case decided "report" to the financial intelligence office."""
        require(request.user, cases.ESCALATE)
        event = cases.escalate(case=self.get_object(), user=request.user,
                               **validated(SuspicionNoteInputSerializer, request.data))
        return Response(SuspicionEventSerializer(event).data, status=status.HTTP_201_CREATED)
