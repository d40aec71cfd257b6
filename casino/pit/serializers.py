import functools

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer

from casino.api_fields import WholeUnitsField
from casino.limits import NAME_MAX_LENGTH, REASON_MAX_LENGTH

from . import selectors
from .access import casinos_of
from .models import Amendment, Flag, Game, Jogo, Movement, MovementRefusal, Refusal, Table
from .privacy import mask_name, sees_names

CHAIR_HELP = "chair 0–3 in turn order (people read chairs 1–4: chair 0 is chair 1)"
CAPITALS_HELP = ("capital at stake per chair, a list of four indexed by chair 0–3 (people read chairs 1–4); "
                 "null for an empty chair")


class RecordField(serializers.JSONField):
    """The portable record of a jogo; its schema is the engine's own (schema.py)."""


class RecordSerializer(serializers.Serializer):
    """The portable record as a request body, for the schema only: the engine reads it."""


NAME_HELP = ("the player's name: in full for inspectors, managers and the supervisors of the table, masked for "
             "everyone else (\"C*** T** M**\")")


def names_seen(context: dict, table: Table | int) -> bool:
    """Whether the request's user sees the players' names at `table` (privacy.py), asked once
    per table for a whole answer."""
    request = context.get("request")
    if request is None:
        return False
    table_id = table.pk if isinstance(table, Table) else table
    seen = context.setdefault("names_seen", {})
    if table_id not in seen:
        seen[table_id] = sees_names(request.user, table_id)
    return seen[table_id]


def shown(context: dict, table: Table | int, name: str) -> str:
    """A player's name as the request's user may see it at `table`: plain or masked."""
    return name if names_seen(context, table) else mask_name(name)


def seated(game: Game) -> list:
    """The game's players with their patrons: as prefetched with the game, else in one query."""
    prefetched = getattr(game, "_prefetched_objects_cache", {}).get("players")
    return list(prefetched if prefetched is not None else game.players.select_related("patron"))


class SeatSerializer(serializers.Serializer):
    chair = serializers.IntegerField(help_text=CHAIR_HELP)
    player = serializers.CharField(help_text=NAME_HELP)
    patron = serializers.IntegerField(help_text="the player's id (/api/v1/players/)")
    capital = serializers.IntegerField()


class NextJogoSerializer(serializers.Serializer):
    """Who plays the table's next jogo as what (Art. 3), and with what capital."""

    game = serializers.IntegerField()
    number = serializers.IntegerField(help_text="the number of the table's next jogo: send it as the Jogo-Number "
                                                "header when recording it")
    banker_chair = serializers.IntegerField(help_text="the banker's " + CHAIR_HELP)
    round_wind = serializers.CharField()
    seats = serializers.DictField(child=SeatSerializer(), help_text="seat wind → chair, player, capital")
    complete = serializers.BooleanField(help_text="the game's North round is over (I-2)")


def next_jogo(game: Game, table: Table | None = None, context: dict | None = None) -> dict:
    """The next jogo of `game`; `table`, when given, is its table as just read (its projection
    then answers without a query of its own). Names are shown as the `context`'s request's user
    may see them."""
    table = table or game.table
    now = selectors.standing(game, table=table)
    state, amounts = now.progress, now.capital
    players = {player.chair: player for player in seated(game)}
    return {"game": game.pk, "number": table.jogos_recorded + 1, "banker_chair": state.banker,
            "round_wind": state.round_wind,
            "complete": state.complete,
            "seats": {seat: {"chair": chair, "player": shown(context or {}, table, players[chair].name),
                             "patron": players[chair].patron_id, "capital": amounts[chair]}
                      for seat, chair in state.seats.items()}}


class TableSerializer(serializers.ModelSerializer):
    casino = serializers.StringRelatedField()
    commission = serializers.SerializerMethodField(help_text="Art. 8: the house's commission per won jogo")
    next = serializers.SerializerMethodField(help_text="the game in progress and its next jogo; null when none")

    class Meta:
        model = Table
        fields = ["id", "casino", "number", "area", "variant", "stake", "commission", "rule_set_code",
                  "rule_set_version", "is_open", "jogos_recorded", "next"]
        read_only_fields = ["rule_set_code", "rule_set_version"]

    def get_commission(self, table: Table) -> int:
        """Under the rule set the table's next jogos are scored by."""
        return table.rules.commission_for(table.variant, table.stake)

    def get_next(self, table: Table) -> NextJogoSerializer(allow_null=True):
        game = selectors.open_game(table)
        return next_jogo(game, table, self.context) if game else None


class PlayerSerializer(serializers.Serializer):
    """A seat of a game: its chair, its player's id and name (masked where the reader may not see it)."""

    chair = serializers.IntegerField(help_text=CHAIR_HELP)
    patron = serializers.IntegerField(help_text="the player's id (/api/v1/players/)")
    name = serializers.CharField(help_text=NAME_HELP)


class GameSerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    capital = serializers.SerializerMethodField(help_text=CAPITALS_HELP + "; now")

    class Meta:
        model = Game
        fields = ["id", "table", "first_banker", "players", "capital", "started_at", "started_by", "ended_at",
                  "ended_by"]
        extra_kwargs = {"first_banker": {"help_text": "the first banker's " + CHAIR_HELP}}

    @extend_schema_field(PlayerSerializer(many=True))
    def get_players(self, game: Game) -> list[dict]:
        return [{"chair": player.chair, "patron": player.patron_id,
                 "name": shown(self.context, game.table_id, player.name)} for player in seated(game)]

    def get_capital(self, game: Game) -> list[int | None]:
        known = self.context.get("capitals") or {}  # a list's, read for all its games at once
        return known[game.pk] if game.pk in known else selectors.standing(game).capital


def chair_field(**kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=3, help_text=CHAIR_HELP, **kwargs)


class StartGameSerializer(serializers.Serializer):
    """Seat a game. Each player is one already known (`patron`, his id at /api/v1/players/) or a new
    one (`name`). A dealer seats with a supervisor of the table as witness of the seating buy-ins:
    the supervisor's own username and password, checked as a login is (failures count towards
    the lockout); a supervisor seating is the witness himself and sends neither."""

    class PlayerInput(serializers.Serializer):
        chair = chair_field(label=_("Chair"))
        patron = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False, label=_("Player"),
                                          help_text="the id of a player already known (/api/v1/players/); or send "
                                                    "`name` for a new player")
        name = serializers.CharField(max_length=NAME_MAX_LENGTH, required=False, label=_("Player's name"),
                                     help_text="a new player's name; or send `patron`")
        capital = WholeUnitsField(label=_("Capital at stake"),
                                  help_text="whole currency units: at least the table's minimum capital, at most the "
                                            "seat maximum (casino rule C-1)")

        def validate(self, data):
            if ("patron" in data) == ("name" in data):
                raise serializers.ValidationError(_("Pick a player already known or write a new player's name, "
                                                    "one of the two."), code="player")
            return data

    players = PlayerInput(many=True, label=_("Players"))
    first_banker = chair_field(label=_("First banker"))
    witness_username = serializers.CharField(
        required=False, write_only=True, label=_("Witness's username"),
        max_length=get_user_model()._meta.get_field("username").max_length,
        help_text="the username of the supervisor of the table who witnesses the seating buy-ins; needed when the "
                  "person seating is not a supervisor")
    witness_password = serializers.CharField(
        required=False, write_only=True, label=_("Witness's password"), style={"input_type": "password"},
        trim_whitespace=False, max_length=1000, help_text="that supervisor's password; never stored nor echoed")


class MovementInputSerializer(serializers.Serializer):
    chair = chair_field(label=_("Chair"))
    kind = serializers.ChoiceField(choices=Movement.KINDS, label=_("Kind"))
    amount = WholeUnitsField(label=_("Amount"))


class FlagInputSerializer(serializers.Serializer):
    note = serializers.CharField(max_length=REASON_MAX_LENGTH, label=_("Note"), help_text="what the inspector saw")


class JogoHeadersSerializer(serializers.Serializer):
    """The headers of a jogo's POST: which jogo it records (Jogo-Number, required) and its
    Idempotency-Key (optional, as the jogo's column holds it: 100 characters)."""

    def get_fields(self):
        return {"Jogo-Number": serializers.IntegerField(min_value=1, max_value=2**31 - 1,
                                                       label=_("Jogo-Number header")),
                "Idempotency-Key": serializers.CharField(max_length=100, required=False, allow_blank=True,
                                                         label=_("Idempotency-Key header"))}


class TokenInputSerializer(AuthTokenSerializer):
    """The token request, bounded before it reaches the login throttle's records (django-axes
    keeps the username in 255 characters)."""

    username = serializers.CharField(label=_("Username"), write_only=True,
                                     max_length=get_user_model()._meta.get_field("username").max_length)
    password = serializers.CharField(label=_("Password"), style={"input_type": "password"}, trim_whitespace=False,
                                     write_only=True, max_length=1000)


class MovementSerializer(serializers.ModelSerializer):
    class Meta:
        model = Movement
        fields = ["id", "table", "game", "seq", "chair", "patron", "kind", "amount", "after_jogos", "recorded_at",
                  "recorded_by", "gaming_day", "prev_hash", "hash"]
        extra_kwargs = {"chair": {"help_text": CHAIR_HELP},
                        "patron": {"help_text": "the player's id (/api/v1/players/); null on a movement recorded "
                                                "before players were people"}}


class JogoSerializer(serializers.ModelSerializer):
    record = RecordField(help_text="the portable record of the jogo, as recorded")
    outcome = serializers.JSONField(help_text="the engine's output for the record: grade, items with their "
                                              "articles, payments, commission, net per seat wind")

    class Meta:
        model = Jogo
        fields = ["id", "table", "game", "number", "position", "revision", "kind", "reason", "seq",
                  "recorded_at", "recorded_by", "approved_by", "gaming_day", "banker_chair", "round_wind",
                  "result", "winner_chair", "fan", "declared_fan", "fan_mismatch", "commission", "capped",
                  "pay_all", "capital_before", "capital_after", "record", "outcome", "rule_set_code",
                  "rule_set_version", "prev_hash", "hash"]
        extra_kwargs = {"banker_chair": {"help_text": "the banker's " + CHAIR_HELP},
                        "winner_chair": {"help_text": "the winner's " + CHAIR_HELP + "; null unless a win"},
                        "capital_before": {"help_text": CAPITALS_HELP + "; when the jogo starts"},
                        "capital_after": {"help_text": CAPITALS_HELP + "; after the jogo's settlement"}}


@functools.cache
def _jogo_output() -> JogoSerializer:
    return JogoSerializer()


def jogo_data(jogo: Jogo) -> dict:
    """`JogoSerializer(jogo).data`, from one serializer whose fields are built once per process:
    a ModelSerializer builds its fields anew for each instance, which costs a recorded jogo's
    answer about 2 ms; the output itself, about 0.1 ms. Its fields only read (none needs the
    request), so the one serializer serves every request."""
    return _jogo_output().to_representation(jogo)


class OwnCasinosField(serializers.PrimaryKeyRelatedField):
    """An object of the person's casinos, by its id (`casino` leads from the object to its casino):
    another casino's answers as one that does not exist, so that the refusal does not tell that it
    exists (docs/casinos.md). The person is the request's, in the serializer's context."""

    def __init__(self, *, casino: str, **kwargs):
        self.casino = casino
        super().__init__(**kwargs)

    def get_queryset(self):
        request = self.context.get("request")
        if request is None:
            return super().get_queryset().none()
        return super().get_queryset().filter(**{f"{self.casino}__in": casinos_of(request.user)})


class AmendmentSerializer(serializers.ModelSerializer):
    record = RecordField(label=_("Corrected record"), help_text="the corrected portable record")
    jogo = OwnCasinosField(casino="table__casino", queryset=Jogo.objects.all(), label=_("Jogo"))

    class Meta:
        model = Amendment
        fields = ["id", "jogo", "record", "reason", "proposed_by", "proposed_at", "state", "decided_by",
                  "decided_at", "decision_reason", "revision"]
        read_only_fields = ["proposed_by", "proposed_at", "state", "decided_by", "decided_at", "decision_reason",
                            "revision"]
        extra_kwargs = {"reason": {"label": _("Reason"), "max_length": REASON_MAX_LENGTH}}


class DecisionSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=REASON_MAX_LENGTH,
                                   help_text="why: required to reject, optional to approve")


class RefusalSerializer(serializers.ModelSerializer):
    class Meta:
        model = Refusal
        fields = ["id", "table", "attempted_at", "attempted_by", "record", "errors"]


class MovementRefusalSerializer(serializers.ModelSerializer):
    """A buy-in or cash-out the service refused and kept: the large-transaction threshold reached
    by a player not identified (DICJ Instruction n.º 1/2016)."""

    errors = serializers.JSONField(help_text="every error, as the service gave it: code, article, message, field")

    class Meta:
        model = MovementRefusal
        fields = ["id", "table", "game", "chair", "patron", "kind", "amount", "attempted_at", "attempted_by",
                  "gaming_day", "errors"]
        extra_kwargs = {"chair": {"help_text": CHAIR_HELP + "; null when none"},
                        "game": {"help_text": "null for a seating refused (no game was seated)"},
                        "patron": {"help_text": "the player's id; null for a new player refused at seating"}}


class FlagSerializer(serializers.ModelSerializer):
    class Meta:
        model = Flag
        fields = ["id", "table", "number", "note", "raised_by", "raised_at"]
        read_only_fields = ["table", "number", "raised_by", "raised_at"]


class ProblemSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="what went wrong, for programs: e.g. not_a_winning_hand, capital, "
                                           "max_value, not_found, permission_denied, throttled, parse_error")
    article = serializers.CharField(allow_null=True, help_text="the article of Portaria 135/91/M the error "
                                                               "applies, e.g. 10(a)(3); null when none")
    message = serializers.CharField(help_text="what went wrong, for people (in the request's language where "
                                              "translated)")
    field = serializers.CharField(required=False, help_text="the field, header or query parameter at fault, "
                                                            "when there is one (e.g. capital.E, players.0.capital)")


class ErrorsSerializer(serializers.Serializer):
    """Every error of the API: one list, each error with its code, article and message."""

    errors = ProblemSerializer(many=True)
