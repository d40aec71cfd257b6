"""The count room's API under /api/v1/count/, for count-room equipment and systems: the boxes
ready to count, a counter's signed count, a recount; and the variance cases (read them, add a
note, change their state). Same rules and error shape as the pit's API (casino/pit/api.py,
casino/api_errors.py); the work is done by the services (services.py, cases.py).

Counters see and do only counting, and see a box's expected figure only once both have signed
the same total (blind.py); inspectors and managers read the boxes and work the cases.
"""
from __future__ import annotations

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import BasePermission
from rest_framework.response import Response

from casino.api_errors import validated
from casino.pit.access import require

from . import blind, cases, services
from .models import Box, Case, CaseEvent, Count, Signature


class HasPermission(BasePermission):
    """The view's `permission` (a role's permission, roles.py) for every action."""

    def has_permission(self, request, view):
        return request.user.is_authenticated and request.user.has_perm(view.permission)


class BoxSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="box.pk")
    table = serializers.CharField(source="box.table.number")
    casino = serializers.CharField(source="box.table.casino.name")
    gaming_day = serializers.DateField(source="box.gaming_day")
    shift = serializers.IntegerField(source="box.shift")
    starts_at = serializers.DateTimeField(source="box.starts_at")
    ends_at = serializers.DateTimeField(source="box.ends_at")
    state = serializers.ChoiceField(choices=blind.STATES,
                                    help_text="waiting: not counted; counting: signed by fewer than two counters; "
                                              "disagreed: the two totals differ (recount); counted: both agree")
    attempt = serializers.IntegerField(allow_null=True, help_text="1 the count, 2 and more recounts")
    signed_by = serializers.ListField(child=serializers.CharField())
    totals = serializers.ListField(child=serializers.IntegerField(), allow_null=True,
                                   help_text="each counter's total, once both signed")
    expected = serializers.IntegerField(allow_null=True, help_text="hidden from counters until the box is counted")
    counted = serializers.IntegerField(allow_null=True)
    variance = serializers.IntegerField(allow_null=True, help_text="counted − expected")


class SignatureSerializer(serializers.ModelSerializer):
    counter = serializers.CharField(source="recorded_by.username")
    attempt = serializers.IntegerField(source="count.attempt")

    class Meta:
        model = Signature
        fields = ["id", "box", "attempt", "counter", "counted", "denominations", "recorded_at", "hash"]


class CountSerializer(serializers.ModelSerializer):
    opened_by = serializers.CharField(source="recorded_by.username")

    class Meta:
        model = Count
        fields = ["id", "box", "attempt", "reason", "opened_by", "recorded_at", "hash"]


class SignInputSerializer(serializers.Serializer):
    counted = serializers.IntegerField(label="Amount counted", help_text="whole currency units")
    password = serializers.CharField(label="Password", trim_whitespace=False, style={"input_type": "password"},
                                     help_text="the counter's own password: his signature")
    denominations = serializers.DictField(child=serializers.IntegerField(), required=False, label="Chips by value",
                                          help_text='chips of each value, e.g. {"1000": 3, "100": 5}')


class RecountInputSerializer(serializers.Serializer):
    reason = serializers.CharField(label="Reason", help_text="why the box is counted again")


class BoxFilterSerializer(serializers.Serializer):
    gaming_day = serializers.DateField(label="Gaming day", required=False)


class BoxViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Commission boxes of the table-shifts that have ended (the last two gaming days), each with
    where its count stands. Listing makes the boxes of shifts that ended since."""

    permission_classes = [HasPermission]
    permission = "count.view_box"
    serializer_class = BoxSerializer
    queryset = Box.objects.all()
    pagination_class = None

    def get_queryset(self):
        return blind.with_latest_counts(Box.objects.filter(ends_at__lte=timezone.now()))

    @extend_schema(parameters=[OpenApiParameter("gaming_day", OpenApiTypes.DATE,
                                                description="only this gaming day's boxes")])
    def list(self, request, *args, **kwargs):
        day = validated(BoxFilterSerializer, request.query_params).get("gaming_day")
        ready = {box.pk for box in services.boxes_ready()}
        boxes = self.get_queryset().filter(pk__in=ready).order_by("gaming_day", "shift", "table__number")
        if day is not None:
            boxes = boxes.filter(gaming_day=day)
        return Response(BoxSerializer([blind.view(box, request.user) for box in boxes], many=True).data)

    def retrieve(self, request, *args, **kwargs):
        return Response(BoxSerializer(blind.view(self.get_object(), request.user)).data)

    @extend_schema(request=SignInputSerializer, responses={201: SignatureSerializer})
    @action(detail=True, methods=["post"])
    def count(self, request, pk=None):
        """A counter's counted total of the box, signed with his password (the first signature
        opens the count). The second counter's signature completes it."""
        require(request.user, "count.count_box")
        box = self.get_object()
        signature = services.sign_count(box=box, counter=request.user, **validated(SignInputSerializer, request.data))
        return Response(SignatureSerializer(signature).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=RecountInputSerializer, responses={201: CountSerializer})
    @action(detail=True, methods=["post"])
    def recount(self, request, pk=None):
        """Count the box again, saying why; the earlier count and its signatures are kept."""
        require(request.user, "count.count_box")
        box = self.get_object()
        count = services.recount(box=box, opened_by=request.user, **validated(RecountInputSerializer, request.data))
        return Response(CountSerializer(count).data, status=status.HTTP_201_CREATED)


# --- Variance cases ------------------------------------------------------------------------------

class CaseEventSerializer(serializers.ModelSerializer):
    by = serializers.CharField(source="recorded_by.username")

    class Meta:
        model = CaseEvent
        fields = ["seq", "kind", "state", "note", "expected", "counted", "variance", "by", "recorded_at", "hash"]


class CaseSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="box.table.number")
    gaming_day = serializers.DateField(source="box.gaming_day")
    shift = serializers.IntegerField(source="box.shift")
    events = CaseEventSerializer(many=True, read_only=True)

    class Meta:
        model = Case
        fields = ["id", "box", "table", "gaming_day", "shift", "state", "opened_at", "events"]


class NoteInputSerializer(serializers.Serializer):
    note = serializers.CharField(label="Note")


# The states a person moves a case to (opened and reopened happen by themselves).
CASE_STEPS = [Case.EXPLAINED, Case.ESCALATED, Case.RESOLVED]


class StepInputSerializer(serializers.Serializer):
    state = serializers.ChoiceField(label="State", choices=CASE_STEPS)
    note = serializers.CharField(label="Note", help_text="what explains the variance, why it is escalated, or what "
                                                         "was found and done")


class CaseViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Variance cases, each with its events (opened, notes, explained, escalated, resolved,
    reopened), oldest event first. Inspectors and managers add notes, mark a case explained and
    escalate it; a manager resolves it."""

    permission_classes = [HasPermission]
    permission = "count.view_case"
    serializer_class = CaseSerializer
    queryset = Case.objects.all()
    filterset_fields = ["state"]

    def get_queryset(self):
        return Case.objects.select_related("box__table").prefetch_related("events__recorded_by").order_by("pk")

    @extend_schema(request=NoteInputSerializer, responses={201: CaseEventSerializer})
    @action(detail=True, methods=["post"])
    def notes(self, request, pk=None):
        """A note on the case, in any state."""
        require(request.user, "count.work_case")
        case = self.get_object()
        event = cases.add_note(case=case, by=request.user, **validated(NoteInputSerializer, request.data))
        return Response(CaseEventSerializer(event).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=StepInputSerializer, responses={201: CaseEventSerializer})
    @action(detail=True, methods=["post"])
    def state(self, request, pk=None):
        """Mark the case explained, escalate it to the regulator, or (a manager) resolve it, with a note."""
        data = validated(StepInputSerializer, request.data)
        require(request.user, "count.resolve_case" if data["state"] == Case.RESOLVED else "count.work_case")
        case = self.get_object()
        step = {Case.EXPLAINED: cases.mark_explained, Case.ESCALATED: cases.escalate, Case.RESOLVED: cases.resolve}
        event = step[data["state"]](case=case, by=request.user, note=data["note"])
        return Response(CaseEventSerializer(event).data, status=status.HTTP_201_CREATED)
