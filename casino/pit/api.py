"""The pit's REST API under /api/v1/ (djangorestframework): tables, games, jogos, movements,
amendments, refusals, flags and the close of a gaming day. The API's root, token, schema and docs
are the project's (casino/api_urls.py).

Who may do what is decided here, once per action: a permission of the user's role (roles.py)
and, for pit staff, the assignment to the table. Every error comes back in one shape,
``{"errors": [{"code", "article", "message"[, "field"]}]}``, made by one exception handler
(casino/api_errors.py): 400 for a jogo or request that breaks a rule, 409 when it clashes with
the ledger's state (a game already in progress, an idempotency key used for another record).
"""
from __future__ import annotations

import django_filters
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_errors import validated
from casino.api_filters import IdFilterSet
from casino.limits import REASON_MAX_LENGTH

from . import schema, selectors, services  # noqa: F401  (schema registers the record's OpenAPI extension)
from .access import casinos_of, require, visible_tables
from .models import (
    Amendment,
    Casino,
    DayEvent,
    Flag,
    Game,
    Jogo,
    Movement,
    MovementRefusal,
    Refusal,
    Table,
    superseded,
)
from .privacy import WITNESS
from .serializers import (
    AmendmentSerializer,
    DecisionSerializer,
    FlagInputSerializer,
    FlagSerializer,
    GameSerializer,
    JogoHeadersSerializer,
    JogoSerializer,
    MovementInputSerializer,
    MovementRefusalSerializer,
    MovementSerializer,
    OwnCasinosField,
    RecordSerializer,
    RefusalSerializer,
    StartGameSerializer,
    TableSerializer,
    jogo_data,
)
from .witness import witness_from


class ViewPermission(BasePermission):
    """Reading a collection needs the model's view permission (pit.view_jogo, ...)."""

    def has_permission(self, request, view):
        model = view.queryset.model
        return request.user.is_authenticated and request.user.has_perm(f"pit.view_{model._meta.model_name}")


class ReadViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    permission_classes = [ViewPermission]

    def tables(self):
        return visible_tables(self.request.user)


class TableViewSet(ReadViewSet):
    """Tables, each with its game in progress: banker, seat winds, round wind and capital of the
    next jogo (Art. 3). Pit staff see the tables they are assigned to."""

    queryset = Table.objects.select_related("casino")
    serializer_class = TableSerializer
    filterset_fields = ["variant", "stake", "is_open"]

    def get_queryset(self):
        tables = visible_tables(self.request.user).select_related("casino")
        # A list shows each table's next jogo: its game in progress is read with the tables.
        return selectors.tables_with_open_games(tables) if self.action == "list" else tables

    def filter_queryset(self, queryset):
        """The filters (?variant=, ?stake=, ?is_open=) choose among the tables one reads, not the
        table an action writes to: recording a jogo skips them, and with them the filter set that
        django-filter builds for every request (about 0.8 ms of CPU a POST)."""
        return super().filter_queryset(queryset) if self.action in ("list", "retrieve") else queryset

    @extend_schema(request=StartGameSerializer, responses={201: GameSerializer})
    @action(detail=True, methods=["post"])
    def games(self, request, pk=None):
        """Open a game: seat the players with their capital and choose the first banker. A dealer
        names the supervisor who witnesses the seating buy-ins (`witness_username`,
        `witness_password`); they are recorded in his name."""
        table = self.get_object()
        require(request.user, "pit.record_at_table", table)
        data = dict(validated(StartGameSerializer, request.data))
        witness = witness_from(request, data.pop("witness_username", None), data.pop("witness_password", None))
        game = services.start_game(table=table, user=request.user, witness=witness, **data)
        return Response(GameSerializer(game, context=self.get_serializer_context()).data,
                        status=status.HTTP_201_CREATED)

    @extend_schema(request=RecordSerializer, parameters=[
        OpenApiParameter("Jogo-Number", int, OpenApiParameter.HEADER, required=True,
                         description="the number of the jogo this records: the table's `next.number`. Another "
                                     "number (the jogo was recorded meanwhile) is a 409 that gives the current one"),
        OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER,
                         description="any unique string of at most 100 characters; a retried POST with the same "
                                     "key returns the first result")],
        responses={201: OpenApiResponse(JogoSerializer, description="recorded: the jogo as the ledger has it"),
                   200: OpenApiResponse(JogoSerializer, description="a retry with the same Idempotency-Key: the "
                                                                    "jogo first recorded with it")})
    @action(detail=True, methods=["post"])
    def jogos(self, request, pk=None):
        """Record the table's next jogo. The body is the portable record (the `Record` schema); the
        Jogo-Number header says which jogo it is, so that a record sent twice is recorded once."""
        table = self.get_object()
        require(request.user, "pit.record_at_table", table)
        headers = validated(JogoHeadersSerializer, {name: request.headers[name] for name in
                                                    ("Jogo-Number", "Idempotency-Key") if name in request.headers})
        jogo, created = services.record_jogo(table=table, user=request.user, record=request.data,
                                             number=headers["Jogo-Number"],
                                            idempotency_key=headers.get("Idempotency-Key") or None)
        return Response(jogo_data(jogo), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)

    @extend_schema(request=None, responses={200: TableSerializer})
    @action(detail=True, methods=["post"])
    def open(self, request, pk=None):
        return self._set_open(request, True)

    @extend_schema(request=None, responses={200: TableSerializer})
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        return self._set_open(request, False)

    def _set_open(self, request, is_open: bool):
        table = self.get_object()
        require(request.user, "pit.open_close_table", table)
        change = services.open_table if is_open else services.close_table
        table = change(table=table, user=request.user)
        return Response(TableSerializer(table, context=self.get_serializer_context()).data)


class GameViewSet(ReadViewSet):
    queryset = Game.objects.all()
    serializer_class = GameSerializer
    filterset_fields = ["table"]

    def get_queryset(self):
        return Game.objects.filter(table__in=self.tables()).prefetch_related("players__patron")

    def list(self, request, *args, **kwargs):
        """The games, each with its capital now, read for the whole page at once."""
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        games = list(page if page is not None else self.filter_queryset(self.get_queryset()))
        context = {**self.get_serializer_context(), "capitals": selectors.capitals(games)}
        data = self.get_serializer(games, many=True, context=context).data
        return self.get_paginated_response(data) if page is not None else Response(data)

    @extend_schema(request=None, responses={200: GameSerializer})
    @action(detail=True, methods=["post"])
    def end(self, request, pk=None):
        """End the game (the players leave before the North round is over)."""
        game = self.get_object()
        require(request.user, "pit.record_at_table", game.table)
        return Response(GameSerializer(services.end_game(game=game, user=request.user),
                                       context=self.get_serializer_context()).data)

    @extend_schema(request=MovementInputSerializer, responses={201: MovementSerializer})
    @action(detail=True, methods=["post"])
    def movements(self, request, pk=None):
        """A buy-in or cash-out between jogos, recorded by the supervisor who witnesses it. Refused
        (400) above the seat maximum, and when it brings an unidentified player's buy-ins or
        cash-outs of the gaming day to the large-transaction threshold: that refusal is kept
        (/api/v1/movement-refusals/)."""
        game = self.get_object()
        require(request.user, "pit.move_money", game.table)
        movement = services.move_money(game=game, user=request.user, **validated(MovementInputSerializer, request.data))
        return Response(MovementSerializer(movement).data, status=status.HTTP_201_CREATED)


class JogoFilter(IdFilterSet):
    flagged = django_filters.BooleanFilter(method="filter_flagged", label="flagged by an inspector")
    current = django_filters.BooleanFilter(method="filter_current", label="only each jogo's current revision")

    class Meta:
        model = Jogo
        fields = ["table", "game", "gaming_day", "result", "number", "fan", "fan_mismatch", "capped", "pay_all",
                  "kind"]

    def filter_flagged(self, queryset, name, value):
        flags = Flag.objects.filter(table=OuterRef("table"), number=OuterRef("number"))
        return queryset.filter(Exists(flags)) if value else queryset.exclude(Exists(flags))

    def filter_current(self, queryset, name, value):
        return queryset.filter(~superseded()) if value else queryset.filter(superseded())


class JogoViewSet(ReadViewSet):
    """The jogo ledger, every revision. Filter with ?current=true for the jogos as they stand."""

    queryset = Jogo.objects.all()
    serializer_class = JogoSerializer
    filterset_class = JogoFilter

    def get_queryset(self):
        return Jogo.objects.filter(table__in=self.tables()).order_by("table", "number", "revision")

    @extend_schema(request=FlagInputSerializer, responses={201: FlagSerializer})
    @action(detail=True, methods=["post"])
    def flag(self, request, pk=None):
        """An inspector flags the jogo for the exception queue."""
        jogo = self.get_object()
        require(request.user, "pit.flag_jogo")
        flag = services.flag(jogo=jogo, user=request.user, **validated(FlagInputSerializer, request.data))
        return Response(FlagSerializer(flag).data, status=status.HTTP_201_CREATED)


class MovementViewSet(ReadViewSet):
    queryset = Movement.objects.all()
    serializer_class = MovementSerializer
    filterset_fields = ["table", "game", "gaming_day", "kind"]

    def get_queryset(self):
        return Movement.objects.filter(table__in=self.tables()).order_by("table", "seq")


class AmendmentViewSet(mixins.CreateModelMixin, ReadViewSet):
    """Corrections of jogos: a supervisor proposes (with a reason), a second person approves or
    rejects; approval adds the new revision to the ledger."""

    queryset = Amendment.objects.all()
    serializer_class = AmendmentSerializer
    filterset_fields = ["state", "jogo"]

    def get_queryset(self):
        return Amendment.objects.filter(jogo__table__in=self.tables())

    @extend_schema(responses={201: AmendmentSerializer})
    def create(self, request, *args, **kwargs):
        data = validated(AmendmentSerializer, request.data, context=self.get_serializer_context())
        require(request.user, "pit.propose_amendment", data["jogo"].table)
        amendment = services.propose_amendment(jogo=data["jogo"], user=request.user, record=data["record"],
                                              reason=data["reason"])
        return Response(AmendmentSerializer(amendment).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=DecisionSerializer, responses={200: AmendmentSerializer})
    @action(detail=True, methods=["post"])
    def approve(self, request, pk=None):
        return self._decide(request, approve=True)

    @extend_schema(request=DecisionSerializer, responses={200: AmendmentSerializer})
    @action(detail=True, methods=["post"])
    def reject(self, request, pk=None):
        """Reject a pending amendment; the body states the reason."""
        return self._decide(request, approve=False)

    def _decide(self, request, *, approve: bool):
        amendment = self.get_object()
        require(request.user, "pit.approve_amendment", amendment.jogo.table)
        reason = validated(DecisionSerializer, request.data)["reason"]
        amendment = services.decide_amendment(amendment=amendment, user=request.user, approve=approve, reason=reason)
        return Response(AmendmentSerializer(amendment).data)


class RefusalViewSet(ReadViewSet):
    """Jogos the service refused, with every error: what the dealers tried."""

    queryset = Refusal.objects.all()
    serializer_class = RefusalSerializer
    filterset_fields = ["table"]

    def get_queryset(self):
        return Refusal.objects.filter(table__in=self.tables())


class MovementRefusalPermission(BasePermission):
    """Refused movements are seen by those who read every refusal (inspectors, managers:
    pit.view_movementrefusal) and by the supervisors who witness the cash at their tables."""

    def has_permission(self, request, view):
        user = request.user
        return user.is_authenticated and (user.has_perm("pit.view_movementrefusal") or user.has_perm(WITNESS))


class MovementRefusalViewSet(ReadViewSet):
    """Buy-ins and cash-outs the service refused and kept: the large-transaction threshold reached
    by a player not identified (DICJ Instruction n.º 1/2016). Inspectors and managers see every
    table's; a supervisor, his tables'."""

    queryset = MovementRefusal.objects.all()
    serializer_class = MovementRefusalSerializer
    permission_classes = [MovementRefusalPermission]
    filterset_fields = ["table", "gaming_day", "kind", "patron"]

    def get_queryset(self):
        user = self.request.user
        tables = (self.tables() if user.has_perm("pit.view_movementrefusal")
                  else Table.objects.filter(staff=user, casino__in=casinos_of(user)))
        return MovementRefusal.objects.filter(table__in=tables)


class FlagViewSet(ReadViewSet):
    queryset = Flag.objects.all()
    serializer_class = FlagSerializer
    filterset_fields = ["table", "number"]

    def get_queryset(self):
        return Flag.objects.filter(table__in=self.tables())


class DayCloseApi(APIView):
    """Close a casino's gaming day after review (services.close_day), as a manager does on the
    daily report's page. Refused (409) while something holds the day, each problem named (a
    commission box not yet counted), unless `override_reason` says why it closes all the same:
    the close event keeps the reason and what it covered."""

    class DayCloseInputSerializer(serializers.Serializer):
        # A casino the manager is not given answers as one that does not exist (docs/casinos.md).
        casino = OwnCasinosField(casino="pk", queryset=Casino.objects.all(), label=_("Casino"))
        day = serializers.DateField(label=_("Gaming day"))
        note = serializers.CharField(required=False, allow_blank=True, default="", max_length=REASON_MAX_LENGTH,
                                     label=_("Note"))
        override_reason = serializers.CharField(
            required=False, allow_blank=True, default="", max_length=REASON_MAX_LENGTH,
            label=_("Reason for closing anyway"),
            help_text="why the day closes although something still holds it (a box not yet counted); managers only")

    class DayCloseSerializer(serializers.Serializer):
        casino = serializers.IntegerField(source="gaming_day.casino_id")
        day = serializers.DateField(source="gaming_day.day")
        closed = serializers.BooleanField(source="gaming_day.closed")
        by = serializers.CharField(source="by.username")
        at = serializers.DateTimeField()
        note = serializers.CharField(source="reason")
        override_reason = serializers.CharField()
        overridden = serializers.ListField(child=serializers.DictField(), help_text="what held the day, as the "
                                                                                   "refusal said it")

    @extend_schema(request=DayCloseInputSerializer, responses={200: DayCloseSerializer})
    def post(self, request):
        require(request.user, services.CLOSE_GAMING_DAY)
        data = validated(self.DayCloseInputSerializer, request.data, context={"request": request})
        state = services.close_day(casino=data["casino"], day=data["day"], user=request.user, note=data["note"],
                                   override_reason=data["override_reason"])
        event = DayEvent.objects.select_related("gaming_day", "by").filter(gaming_day=state).latest("pk")
        return Response(self.DayCloseSerializer(event).data)
