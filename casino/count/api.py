"""The count room's API under /api/v1/count/, for count-room equipment and systems: the boxes
ready to count, a counter's signed count, a recount; and the variance cases (read them, add a
note, change their state). Same rules and error shape as the pit's API (casino/pit/api.py,
casino/api_errors.py); the work is done by the services (services.py, cases.py).

Counters see and do only counting, and see a box's expected figure only once both have signed
the same total (blind.py); inspectors and managers read the boxes and work the cases.

Each at the casinos he is given (`access.casinos_of`, docs/casinos.md): another casino's box,
case or rotation entry answers 404, as one that does not exist; a list holds his casinos' only.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _, gettext_noop
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import BasePermission
from rest_framework.response import Response

from casino.api_errors import validated
from casino.api_fields import WholeUnitsField
from casino.limits import NOTE_MAX_LENGTH, REASON_MAX_LENGTH, ROW_ID_MAX
from casino.pit import days
from casino.pit.access import casinos_of, require, visible_tables
from casino.pit.errors import refuse
from casino.pit.models import Casino, Table
from casino.pit.serializers import ErrorsSerializer

from . import blind, cases, services, shifts
from .forms import pit_people
from .models import Box, Case, CaseEvent, Count, Decision, Rotation, Signature

KEEP_ROTATION = "count.add_rotation"


class HasPermission(BasePermission):
    """The view's `permission` (a role's permission, roles.py) for every action."""

    def has_permission(self, request, view):
        return request.user.is_authenticated and request.user.has_perm(view.permission)


class CountDecisionSerializer(serializers.ModelSerializer):
    by = serializers.SerializerMethodField()

    class Meta:
        model = Decision
        fields = ["kind", "reason", "by", "recorded_at"]

    def get_by(self, decision) -> str:
        return blind.name(decision.recorded_by)


class CountViewSerializer(serializers.Serializer):
    attempt = serializers.IntegerField(source="count.attempt", help_text="1 the count, 2 and more recounts")
    reason = serializers.CharField(source="count.reason")
    signed_by = serializers.ListField(child=serializers.CharField())
    totals = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    expected = serializers.IntegerField(allow_null=True)
    counted = serializers.IntegerField(allow_null=True)
    variance = serializers.IntegerField(allow_null=True, help_text="counted − expected")
    of_record = serializers.BooleanField(help_text="this count's figures are the box's")
    decisions = CountDecisionSerializer(many=True)


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
                                              "disagreed: the two totals differ (recount); abandoned: its first "
                                              "signer gave the count up (recount); recount_approved: a manager "
                                              "approved counting again a box whose count agreed; counted: both "
                                              "agree")
    attempt = serializers.IntegerField(help_text="the count a signature now signs (name it as `count`): the open "
                                                 "count's, or the next")
    signed_by = serializers.ListField(child=serializers.CharField(), help_text="who signed the latest count")
    totals = serializers.ListField(child=serializers.IntegerField(), allow_null=True,
                                   help_text="each counter's total of the latest count, once both signed")
    expected = serializers.IntegerField(allow_null=True, help_text="hidden from counters until they agree")
    counted = serializers.IntegerField(allow_null=True)
    variance = serializers.IntegerField(allow_null=True, help_text="counted − expected")
    counts = CountViewSerializer(many=True, help_text="every count with its own figures (not for counters)")


class SignatureSerializer(serializers.ModelSerializer):
    counter = serializers.SerializerMethodField()
    attempt = serializers.IntegerField(source="count.attempt")

    class Meta:
        model = Signature
        fields = ["id", "box", "attempt", "counter", "counted", "denominations", "recorded_at", "hash"]

    def get_counter(self, signature) -> str:
        return blind.name(signature.recorded_by)


class CountSerializer(serializers.ModelSerializer):
    opened_by = serializers.SerializerMethodField()

    class Meta:
        model = Count
        fields = ["id", "box", "attempt", "reason", "opened_by", "recorded_at", "hash"]

    def get_opened_by(self, count) -> str:
        return blind.name(count.recorded_by)


class SignInputSerializer(serializers.Serializer):
    count = serializers.IntegerField(label="Count", min_value=1,
                                     help_text="the count this signs: the box's `attempt` as read; a count that has "
                                               "moved on is a 409")
    counted = WholeUnitsField(label="Amount counted", min_value=0)
    password = serializers.CharField(label="Password", trim_whitespace=False, max_length=128,
                                     style={"input_type": "password"},
                                     help_text="the counter's own password: his signature")
    denominations = serializers.DictField(child=WholeUnitsField(min_value=0), required=False, label="Chips by value",
                                          help_text='chips of each value, e.g. {"1000": 3, "100": 5}')


class SignHeadersSerializer(serializers.Serializer):
    key = serializers.CharField(label="Idempotency-Key", max_length=100, required=False)


class RecountInputSerializer(serializers.Serializer):
    reason = serializers.CharField(label="Reason", max_length=REASON_MAX_LENGTH,
                                   help_text="why the box is counted again")
    abandon = serializers.BooleanField(label="Abandon", required=False, default=False,
                                       help_text="the first signer of a count still waiting for its second "
                                                 "signature abandons it, for this reason")


class ApproveInputSerializer(serializers.Serializer):
    reason = serializers.CharField(label="Reason", max_length=REASON_MAX_LENGTH,
                                   help_text="why the box is counted again")


class AcceptInputSerializer(serializers.Serializer):
    count = serializers.IntegerField(label="Count", min_value=1, help_text="the recount accepted (its attempt)")
    reason = serializers.CharField(label="Reason", max_length=REASON_MAX_LENGTH,
                                   help_text="why its figure is the box's figure of record")


class BoxFilterSerializer(serializers.Serializer):
    gaming_day = serializers.DateField(label="Gaming day", required=False)


class BoxViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Commission boxes of the table-shifts that have ended, each with where its count stands:
    every box with counting still to do, however old, and those counted in the last two gaming
    days (a counter sees of these only the ones he counted); or with `?gaming_day=` that day's.
    Listing makes the boxes of shifts that ended since."""

    permission_classes = [HasPermission]
    permission = "count.view_box"
    serializer_class = BoxSerializer
    queryset = Box.objects.all()
    pagination_class = None

    def get_queryset(self):
        return blind.with_latest_counts(Box.objects.filter(ends_at__lte=timezone.now(),
                                                           casino__in=casinos_of(self.request.user)))

    @extend_schema(parameters=[OpenApiParameter("gaming_day", OpenApiTypes.DATE,
                                                description="that gaming day's boxes, counted or not")])
    def list(self, request, *args, **kwargs):
        day = validated(BoxFilterSerializer, request.query_params).get("gaming_day")
        ready = {box.pk for box in services.boxes_ready(day=day)}
        boxes = self.get_queryset().filter(pk__in=ready).order_by("gaming_day", "shift", "table__number")
        views = blind.visible_to(request.user, [blind.view(box, request.user) for box in boxes])
        return Response(BoxSerializer(views, many=True).data)

    def retrieve(self, request, *args, **kwargs):
        return Response(BoxSerializer(blind.view(self.get_object(), request.user)).data)

    @extend_schema(request=SignInputSerializer, parameters=[
        OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER,
                         description="any unique string of at most 100 characters; a retried POST with the same key "
                                     "returns the first signature")],
        responses={201: SignatureSerializer, 200: SignatureSerializer})
    @action(detail=True, methods=["post"])
    def count(self, request, pk=None):
        """A counter's counted total of the box, signed with his password, naming the count it
        signs (the first signature opens the count). The second counter's signature completes it."""
        require(request.user, "count.count_box")
        box = self.get_object()
        data = validated(SignInputSerializer, request.data)
        headers = validated(SignHeadersSerializer, {"key": request.headers["Idempotency-Key"]}
                            if "Idempotency-Key" in request.headers else {})
        signature = services.sign_count(box=box, user=request.user, password=data["password"],
                                        counted=data["counted"], denominations=data.get("denominations"),
                                        attempt=data["count"], idempotency_key=headers.get("key", ""),
                                        request=request)
        return Response(SignatureSerializer(signature).data,
                        status=status.HTTP_200_OK if signature.replayed else status.HTTP_201_CREATED)

    @extend_schema(request=RecountInputSerializer, responses={201: CountSerializer})
    @action(detail=True, methods=["post"])
    def recount(self, request, pk=None):
        """Count the box again after counts that disagreed or were abandoned, saying why; the first
        signer of a count still waiting for its second signature abandons it with `abandon`. The
        earlier counts and their signatures are kept."""
        require(request.user, "count.count_box")
        box = self.get_object()
        count = services.recount(box=box, user=request.user, **validated(RecountInputSerializer, request.data))
        return Response(CountSerializer(count).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=ApproveInputSerializer, responses={201: CountDecisionSerializer})
    @action(detail=True, methods=["post"], url_path="approve-recount")
    def approve_recount(self, request, pk=None):
        """A manager approves counting again a box whose count agreed, saying why."""
        require(request.user, services.DECIDE_RECOUNT)
        box = self.get_object()
        decision = services.approve_recount(box=box, user=request.user,
                                            **validated(ApproveInputSerializer, request.data))
        return Response(CountDecisionSerializer(decision).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=AcceptInputSerializer, responses={201: CountDecisionSerializer})
    @action(detail=True, methods=["post"], url_path="accept-recount")
    def accept_recount(self, request, pk=None):
        """A manager accepts a recount that agreed as the box's figure of record, saying why."""
        require(request.user, services.DECIDE_RECOUNT)
        box = self.get_object()
        data = validated(AcceptInputSerializer, request.data)
        decision = services.accept_recount(box=box, user=request.user, attempt=data["count"], reason=data["reason"])
        return Response(CountDecisionSerializer(decision).data, status=status.HTTP_201_CREATED)


# --- Variance cases ------------------------------------------------------------------------------

class CaseEventSerializer(serializers.ModelSerializer):
    by = serializers.SerializerMethodField()

    class Meta:
        model = CaseEvent
        fields = ["seq", "kind", "state", "note", "expected", "counted", "variance", "by", "recorded_at", "hash"]

    def get_by(self, event) -> str:
        return blind.name(event.recorded_by)


class CaseSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="box.table.number")
    gaming_day = serializers.DateField(source="box.gaming_day")
    shift = serializers.IntegerField(source="box.shift")
    events = CaseEventSerializer(many=True, read_only=True)

    class Meta:
        model = Case
        fields = ["id", "box", "table", "gaming_day", "shift", "state", "opened_at", "events"]


class NoteInputSerializer(serializers.Serializer):
    note = serializers.CharField(label="Note", max_length=NOTE_MAX_LENGTH)


# The states a person moves a case to (opened and reopened happen by themselves).
CASE_STEPS = [Case.EXPLAINED, Case.ESCALATED, Case.RESOLVED]


class StepInputSerializer(serializers.Serializer):
    state = serializers.ChoiceField(label="State", choices=CASE_STEPS)
    note = serializers.CharField(label="Note", max_length=NOTE_MAX_LENGTH,
                                 help_text="what explains the variance, why it is escalated, or what was found and "
                                           "done")


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
        return (Case.objects.filter(box__casino__in=casinos_of(self.request.user)).select_related("box__table")
                .prefetch_related("events__recorded_by").order_by("pk"))

    @extend_schema(request=NoteInputSerializer, responses={201: CaseEventSerializer})
    @action(detail=True, methods=["post"])
    def notes(self, request, pk=None):
        """A note on the case, in any state."""
        require(request.user, "count.work_case")
        case = self.get_object()
        event = cases.add_note(case=case, user=request.user, **validated(NoteInputSerializer, request.data))
        return Response(CaseEventSerializer(event).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=StepInputSerializer, responses={201: CaseEventSerializer})
    @action(detail=True, methods=["post"])
    def state(self, request, pk=None):
        """Mark the case explained, escalate it to the regulator, or (a manager) resolve it, with a note."""
        data = validated(StepInputSerializer, request.data)
        require(request.user, "count.resolve_case" if data["state"] == Case.RESOLVED else "count.work_case")
        case = self.get_object()
        step = {Case.EXPLAINED: cases.mark_explained, Case.ESCALATED: cases.escalate, Case.RESOLVED: cases.resolve}
        event = step[data["state"]](case=case, user=request.user, note=data["note"])
        return Response(CaseEventSerializer(event).data, status=status.HTTP_201_CREATED)


# --- The rotation log ----------------------------------------------------------------------------

class GamingDayField(serializers.DateField):
    """A gaming day the casino may ask for: from `days.FIRST_DAY` to `days.LAST_DAY`, as on the
    pages (`casino.pit.day_forms.GamingDayField`)."""

    def to_internal_value(self, value):
        day = super().to_internal_value(value)
        if not days.FIRST_DAY <= day <= days.LAST_DAY:
            raise serializers.ValidationError(_("choose a day from %(first)s to %(last)s.") % {
                "first": days.FIRST_DAY.isoformat(), "last": days.LAST_DAY.isoformat()})
        return day


class RotationSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.number")
    person = serializers.SerializerMethodField()
    recorded_by = serializers.SerializerMethodField()
    ended_by = serializers.SerializerMethodField()

    class Meta:
        model = Rotation
        fields = ["id", "table", "person", "person_id", "duty", "gaming_day", "starts_at", "ends_at", "recorded_by",
                  "recorded_at", "ended_by", "seq", "hash"]

    def get_person(self, entry) -> str:
        return blind.name(entry.person)

    def get_recorded_by(self, entry) -> str:
        return blind.name(entry.recorded_by)

    def get_ended_by(self, entry) -> str | None:
        return blind.name(entry.ended_by) if entry.ended_by else None


class RotationFilterSerializer(serializers.Serializer):
    day = GamingDayField(label="Gaming day", required=False)
    table = serializers.IntegerField(label="Table", required=False, min_value=1, max_value=ROW_ID_MAX)


class RotationInputSerializer(serializers.Serializer):
    table = serializers.IntegerField(label="Table", min_value=1, max_value=ROW_ID_MAX, help_text="the table's id")
    person = serializers.IntegerField(label="Person", min_value=1, max_value=ROW_ID_MAX,
                                      help_text="the id of the staff member who deals or supervises")
    duty = serializers.ChoiceField(label="Duty", choices=Rotation.DUTIES, default=Rotation.DEALER)
    starts_at = serializers.DateTimeField(label="From", help_text="a moment already past")
    gaming_day = GamingDayField(label="Gaming day", required=False,
                                help_text="when given, `starts_at` must be within it")


class RotationCloseSerializer(serializers.Serializer):
    ends_at = serializers.DateTimeField(label="Until", help_text="after its start, within its gaming day")


class RotationReliefSerializer(serializers.Serializer):
    person = serializers.IntegerField(label="Person", min_value=1, max_value=ROW_ID_MAX,
                                      help_text="the id of the staff member who takes the table over")
    at = serializers.DateTimeField(label="At", help_text="a moment already past, within the entry's gaming day")


class DraftFilterSerializer(serializers.Serializer):
    day = GamingDayField(label="Gaming day", required=False)
    shift = serializers.IntegerField(label="Shift", required=False, min_value=1, max_value=24)


class DraftLineSerializer(serializers.Serializer):
    entry = RotationSerializer(help_text="the entry holding as the previous shift ended")
    table = serializers.CharField(source="table.number")
    duty = serializers.CharField()
    person = serializers.SerializerMethodField()

    def get_person(self, line) -> str:
        return blind.name(line.person)


class DraftSerializer(serializers.Serializer):
    gaming_day = serializers.DateField()
    shift = serializers.IntegerField()
    starts_at = serializers.DateTimeField()
    lines = DraftLineSerializer(many=True)


class ConfirmLineSerializer(serializers.Serializer):
    entry = serializers.IntegerField(label="Entry", min_value=1, max_value=ROW_ID_MAX,
                                     help_text="the id of a draft line's entry")
    person = serializers.IntegerField(label="Person", min_value=1, max_value=ROW_ID_MAX, required=False,
                                      help_text="who works the line; the entry's person when left out")


class ConfirmSerializer(serializers.Serializer):
    day = GamingDayField(label="Gaming day")
    shift = serializers.IntegerField(label="Shift", min_value=1, max_value=24)
    lines = ConfirmLineSerializer(label="Lines", many=True, help_text="the draft lines kept; the others are dropped")


def _staff_of(table: Table):
    """The active staff given the table's casino: who may be on its rotation (`forms.pit_people`);
    another casino's are refused as staff that do not exist."""
    return pit_people(Casino.objects.filter(pk=table.casino_id))


def _one(queryset, pk, field: str, template: str):
    try:
        return queryset.get(pk=pk)
    except queryset.model.DoesNotExist:
        raise refuse(code=f"no_{field}", template=template, field=field, **{field: pk}) from None


class RotationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The rotation log: who dealt or supervised at which table, from when to when; the same
    rules as its screen. Read with count.view_rotation (a supervisor his assigned tables,
    inspectors and managers every table); a supervisor records and closes entries at his
    assigned tables (count.add_rotation). `?day=` (today's gaming day by default), `?table=`."""

    permission_classes = [HasPermission]
    permission = "count.view_rotation"
    serializer_class = RotationSerializer
    queryset = Rotation.objects.all()
    pagination_class = None

    def get_queryset(self):
        return Rotation.objects.filter(table__in=visible_tables(self.request.user)).select_related(
            "table", "person", "recorded_by", "ended_by").order_by("table__number", "starts_at", "pk")

    @extend_schema(parameters=[RotationFilterSerializer])
    def list(self, request, *args, **kwargs):
        asked = validated(RotationFilterSerializer, request.query_params)
        entries = self.get_queryset().filter(gaming_day=asked.get("day") or shifts.gaming_day(timezone.now()))
        if "table" in asked:
            entries = entries.filter(table=asked["table"])
        return Response(RotationSerializer(entries, many=True).data)

    @extend_schema(request=RotationInputSerializer, responses={201: RotationSerializer})
    def create(self, request, *args, **kwargs):
        require(request.user, KEEP_ROTATION)
        data = validated(RotationInputSerializer, request.data)
        table = _one(visible_tables(request.user), data["table"], "table",
                     gettext_noop("Table: there is no table {table} among yours."))
        require(request.user, KEEP_ROTATION, table)
        person = _one(_staff_of(table), data["person"], "person",
                      gettext_noop("Person: there is no staff member {person}."))
        entry = services.rotation_start(table=table, person=person, duty=data["duty"], starts_at=data["starts_at"],
                                        gaming_day=data.get("gaming_day"), user=request.user)
        return Response(RotationSerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=RotationCloseSerializer, responses={200: RotationSerializer})
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        """Close an entry with its end, once."""
        require(request.user, KEEP_ROTATION)
        entry = self.get_object()
        require(request.user, KEEP_ROTATION, entry.table)
        data = validated(RotationCloseSerializer, request.data)
        entry = services.rotation_close(entry=entry, ends_at=data["ends_at"], user=request.user)
        return Response(RotationSerializer(entry).data)

    @extend_schema(request=RotationReliefSerializer, responses={201: RotationSerializer})
    @action(detail=True, methods=["post"])
    def relieve(self, request, pk=None):
        """A relief: the entry ends and the new person's entry starts at `at`, in one step; the
        new entry."""
        require(request.user, KEEP_ROTATION)
        entry = self.get_object()
        require(request.user, KEEP_ROTATION, entry.table)
        data = validated(RotationReliefSerializer, request.data)
        person = _one(_staff_of(entry.table), data["person"], "person",
                      gettext_noop("Person: there is no staff member {person}."))
        made = services.rotation_relieve(entry=entry, person=person, relieved_at=data["at"], user=request.user)
        return Response(RotationSerializer(made).data, status=status.HTTP_201_CREATED)

    def _draft(self, day, shift) -> list:
        tables = visible_tables(self.request.user).select_related("casino")
        mine = {table.pk for table in tables}
        return [line for casino in sorted({table.casino for table in tables}, key=lambda c: c.name)
                for line in services.rotation_draft(casino=casino, gaming_day=day, shift=shift)
                if line.entry.table_id in mine]

    @extend_schema(parameters=[DraftFilterSerializer], responses={200: DraftSerializer, 400: ErrorsSerializer})
    @action(detail=False, methods=["get"])
    def draft(self, request):
        """A shift's draft rotation (`?day=&shift=`, the shift now running by default): the
        entries holding at the visible tables as the previous shift ended."""
        asked = validated(DraftFilterSerializer, request.query_params)
        day, shift = shifts.shift_of(timezone.now())
        if "day" in asked or "shift" in asked:
            day, shift = asked.get("day") or day, asked.get("shift") or shift
        lines = self._draft(day, shift)
        starts = services.shift_start(day, shift)
        return Response(DraftSerializer({"gaming_day": day, "shift": shift, "starts_at": starts,
                                         "lines": lines}).data)

    @extend_schema(request=ConfirmSerializer, responses={201: RotationSerializer(many=True)})
    @action(detail=False, methods=["post"])
    def confirm(self, request):
        """Confirm a shift's draft: the lines kept (each with its person, the same or another)
        start at the shift's start, the entries they follow end then; all or nothing."""
        require(request.user, KEEP_ROTATION)
        data = validated(ConfirmSerializer, request.data)
        draft = {line.entry.pk: line.entry for line in self._draft(data["day"], data["shift"])}
        lines = []
        for line in data["lines"]:
            entry = draft.get(line["entry"])
            if entry is None:
                raise refuse(code="draft_line", field="lines", conflict=True,
                             template=gettext_noop("Lines: entry {entry} is not in the draft of shift {shift} of "
                                                   "{day}; read the draft again."), entry=line["entry"],
                             shift=data["shift"], day=data["day"].isoformat())
            require(request.user, KEEP_ROTATION, entry.table)
            person = (_one(_staff_of(entry.table), line["person"], "person",
                           gettext_noop("Person: there is no staff member {person}."))
                      if "person" in line else entry.person)
            lines.append({"entry": entry, "person": person})
        casinos = {line["entry"].table.casino for line in lines} or {None}
        with transaction.atomic():
            made = [entry for casino in sorted(casinos, key=lambda c: c.name if c else "")
                    for entry in services.rotation_confirm(
                        casino=casino, gaming_day=data["day"], shift=data["shift"], user=request.user,
                        lines=[line for line in lines if line["entry"].table.casino == casino])]
        return Response(RotationSerializer(made, many=True).data, status=status.HTTP_201_CREATED)
