from rest_framework import serializers

from regulation import CURRENT

from . import service
from .models import Amendment, Flag, Game, Jogo, Movement, Player, Refusal, Table


class SeatSerializer(serializers.Serializer):
    chair = serializers.IntegerField()
    player = serializers.CharField()
    capital = serializers.IntegerField()


class NextJogoSerializer(serializers.Serializer):
    """Who plays the table's next jogo as what (Art. 3), and with what capital."""

    game = serializers.IntegerField()
    banker_chair = serializers.IntegerField()
    round_wind = serializers.CharField()
    seats = serializers.DictField(child=SeatSerializer(), help_text="seat wind → chair, player, capital")
    complete = serializers.BooleanField(help_text="the game's North round is over (I-2)")


def next_jogo(game: Game) -> dict:
    state = service.progress(game)
    amounts = service.capital(game)
    names = {p.chair: p.name for p in game.players.all()}
    return {"game": game.pk, "banker_chair": state.banker, "round_wind": state.round_wind,
            "complete": state.complete,
            "seats": {seat: {"chair": chair, "player": names[chair], "capital": amounts[chair]}
                      for seat, chair in state.seats.items()}}


class TableSerializer(serializers.ModelSerializer):
    casino = serializers.StringRelatedField()
    commission = serializers.SerializerMethodField(help_text="Art. 8: the house's commission per won jogo")
    next = serializers.SerializerMethodField(help_text="the game in progress and its next jogo; null when none")

    class Meta:
        model = Table
        fields = ["id", "casino", "number", "variant", "stake", "commission", "is_open", "jogos_recorded", "next"]

    def get_commission(self, table: Table) -> int:
        return CURRENT.commission_for(table.variant, table.stake)

    def get_next(self, table: Table) -> NextJogoSerializer(allow_null=True):
        game = service.open_game(table)
        return next_jogo(game) if game else None


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["chair", "name"]


class GameSerializer(serializers.ModelSerializer):
    players = PlayerSerializer(many=True, read_only=True)
    capital = serializers.SerializerMethodField(help_text="capital per chair 0–3 now; null for an empty chair")

    class Meta:
        model = Game
        fields = ["id", "table", "first_banker", "players", "capital", "started_at", "started_by", "ended_at",
                  "ended_by"]

    def get_capital(self, game: Game) -> list[int | None]:
        return service.capital(game)


class StartGameSerializer(serializers.Serializer):
    class PlayerInput(serializers.Serializer):
        chair = serializers.IntegerField(min_value=0, max_value=3)
        name = serializers.CharField(max_length=100)
        capital = serializers.IntegerField(min_value=1, help_text="whole currency units")

    players = PlayerInput(many=True)
    first_banker = serializers.IntegerField(min_value=0, max_value=3)


class MovementInputSerializer(serializers.Serializer):
    chair = serializers.IntegerField(min_value=0, max_value=3)
    kind = serializers.ChoiceField(choices=Movement.KINDS)
    amount = serializers.IntegerField(min_value=1)


class MovementSerializer(serializers.ModelSerializer):
    class Meta:
        model = Movement
        fields = ["id", "table", "game", "seq", "chair", "kind", "amount", "after_jogos", "recorded_at",
                  "recorded_by", "gaming_day", "prev_hash", "hash"]


class JogoSerializer(serializers.ModelSerializer):
    class Meta:
        model = Jogo
        fields = ["id", "table", "game", "number", "position", "revision", "kind", "reason", "seq",
                  "recorded_at", "recorded_by", "approved_by", "gaming_day", "banker_chair", "round_wind",
                  "result", "winner_chair", "fan", "declared_fan", "fan_mismatch", "commission", "capped",
                  "pay_all", "capital_before", "capital_after", "record", "outcome", "prev_hash", "hash"]


class AmendmentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Amendment
        fields = ["id", "jogo", "record", "reason", "proposed_by", "proposed_at", "state", "decided_by",
                  "decided_at", "decision_reason", "revision"]
        read_only_fields = ["proposed_by", "proposed_at", "state", "decided_by", "decided_at", "decision_reason",
                            "revision"]


class DecisionSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="",
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
    code = serializers.CharField()
    article = serializers.CharField(allow_null=True)
    message = serializers.CharField()
    field = serializers.CharField(required=False)


class ErrorsSerializer(serializers.Serializer):
    errors = ProblemSerializer(many=True)
