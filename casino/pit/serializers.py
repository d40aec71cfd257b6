import functools

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer

from casino.api_fields import WholeUnitsField
from casino.limits import NAME_MAX_LENGTH, REASON_MAX_LENGTH

from . import selectors
from .models import Amendment, Flag, Game, Jogo, Movement, Player, Refusal, Table

CHAIR_HELP = "chair 0–3 in turn order (people read chairs 1–4: chair 0 is chair 1)"
CAPITALS_HELP = ("capital at stake per chair, a list of four indexed by chair 0–3 (people read chairs 1–4); "
                 "null for an empty chair")


class RecordField(serializers.JSONField):
    """The portable record of a jogo; its schema is the engine's own (schema.py)."""


class RecordSerializer(serializers.Serializer):
    """The portable record as a request body, for the schema only: the engine reads it."""


class SeatSerializer(serializers.Serializer):
    chair = serializers.IntegerField(help_text=CHAIR_HELP)
    player = serializers.CharField()
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


def next_jogo(game: Game, table: Table | None = None) -> dict:
    """The next jogo of `game`; `table`, when given, is its table as just read (its projection
    then answers without a query of its own)."""
    table = table or game.table
    now = selectors.standing(game, table=table)
    state, amounts = now.progress, now.capital
    names = {p.chair: p.name for p in game.players.all()}
    return {"game": game.pk, "number": table.jogos_recorded + 1, "banker_chair": state.banker,
            "round_wind": state.round_wind,
            "complete": state.complete,
            "seats": {seat: {"chair": chair, "player": names[chair], "capital": amounts[chair]}
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
        return next_jogo(game, table) if game else None


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["chair", "name"]
        extra_kwargs = {"chair": {"help_text": CHAIR_HELP}}


class GameSerializer(serializers.ModelSerializer):
    players = PlayerSerializer(many=True, read_only=True)
    capital = serializers.SerializerMethodField(help_text=CAPITALS_HELP + "; now")

    class Meta:
        model = Game
        fields = ["id", "table", "first_banker", "players", "capital", "started_at", "started_by", "ended_at",
                  "ended_by"]
        extra_kwargs = {"first_banker": {"help_text": "the first banker's " + CHAIR_HELP}}

    def get_capital(self, game: Game) -> list[int | None]:
        known = self.context.get("capitals") or {}  # a list's, read for all its games at once
        return known[game.pk] if game.pk in known else selectors.standing(game).capital


def chair_field(**kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=3, help_text=CHAIR_HELP, **kwargs)


class StartGameSerializer(serializers.Serializer):
    class PlayerInput(serializers.Serializer):
        chair = chair_field(label=_("Chair"))
        name = serializers.CharField(max_length=NAME_MAX_LENGTH, label=_("Player"))
        capital = WholeUnitsField(label=_("Capital at stake"))

    players = PlayerInput(many=True, label=_("Players"))
    first_banker = chair_field(label=_("First banker"))


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
        fields = ["id", "table", "game", "seq", "chair", "kind", "amount", "after_jogos", "recorded_at",
                  "recorded_by", "gaming_day", "prev_hash", "hash"]
        extra_kwargs = {"chair": {"help_text": CHAIR_HELP}}


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


class AmendmentSerializer(serializers.ModelSerializer):
    record = RecordField(label=_("Corrected record"), help_text="the corrected portable record")

    class Meta:
        model = Amendment
        fields = ["id", "jogo", "record", "reason", "proposed_by", "proposed_at", "state", "decided_by",
                  "decided_at", "decision_reason", "revision"]
        read_only_fields = ["proposed_by", "proposed_at", "state", "decided_by", "decided_at", "decision_reason",
                            "revision"]
        extra_kwargs = {"jogo": {"label": _("Jogo")}, "reason": {"label": _("Reason"), "max_length": REASON_MAX_LENGTH}}


class DecisionSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=REASON_MAX_LENGTH,
                                   help_text="why: required to reject, optional to approve")


class RefusalSerializer(serializers.ModelSerializer):
    class Meta:
        model = Refusal
        fields = ["id", "table", "attempted_at", "attempted_by", "record", "errors"]


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
