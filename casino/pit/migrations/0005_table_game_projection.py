"""Each table's projection of its game in progress (jogos so far, banker, round wind, capital),
filled for the games already in progress by replaying their ledger rows."""
import django.db.models.deletion
from django.db import migrations, models

# A frozen copy, as of this migration, of the table's progress (regulation/rotation.py then):
# the engine may change, the figures this migration fills must not.
ROUND_WINDS = ("E", "S", "W", "N")


def _after(chairs: tuple[int, ...], first_banker: int, banker: int, round_wind: str,
           banker_moves: bool) -> tuple[int, str]:
    """The banker and round wind after a jogo (Art. 3; I-1, I-2, I-17): the bank passes to the
    next seated chair only when another player wins, and the round wind advances when the bank
    comes back to the first banker (after the North round it stays: the game is complete)."""
    if not banker_moves:
        return banker, round_wind
    following = min(chairs, key=lambda chair: (chair - banker - 1) % 4)
    if following != first_banker:
        return following, round_wind
    index = ROUND_WINDS.index(round_wind) + 1
    return following, ROUND_WINDS[index] if index < len(ROUND_WINDS) else round_wind


def fill(apps, schema_editor):
    Table, Game, Jogo, Movement = (apps.get_model("pit", name) for name in ("Table", "Game", "Jogo", "Movement"))
    for game in Game.objects.filter(ended_at__isnull=True).order_by("started_at"):
        last = Jogo.objects.filter(game=game).order_by("-position", "-revision").first()
        chairs = sorted(game.players.values_list("chair", flat=True))
        if last is None:
            if game.first_banker not in chairs:
                raise ValueError(f"the first banker's chair {game.first_banker} is empty")
            (banker, round_wind), jogos, amounts = (game.first_banker, ROUND_WINDS[0]), 0, [None] * 4
            for chair in chairs:
                amounts[chair] = 0
        else:
            seated = tuple(chair for chair, amount in enumerate(last.capital_before) if amount is not None)
            banker, round_wind = _after(seated, game.first_banker, last.banker_chair, last.round_wind,
                                        banker_moves=last.outcome["next"]["banker_moves"])
            jogos, amounts = last.position, list(last.capital_after)
        for movement in Movement.objects.filter(game=game, after_jogos=jogos).order_by("seq"):
            amounts[movement.chair] += movement.amount if movement.kind == "buy_in" else -movement.amount
        Table.objects.filter(pk=game.table_id).update(game=game, game_jogos=jogos, game_banker=banker,
                                                      game_round_wind=round_wind, game_capital=amounts)


class Migration(migrations.Migration):

    dependencies = [
        ('pit', '0004_shared_cache_table'),
    ]

    operations = [
        migrations.AddField(
            model_name='table',
            name='game',
            field=models.ForeignKey(blank=True, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='pit.game'),
        ),
        migrations.AddField(
            model_name='table',
            name='game_banker',
            field=models.PositiveSmallIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name='table',
            name='game_capital',
            field=models.JSONField(blank=True, default=list, editable=False, help_text='capital per chair [0..3] now; null = empty'),
        ),
        migrations.AddField(
            model_name='table',
            name='game_jogos',
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name='table',
            name='game_round_wind',
            field=models.CharField(blank=True, editable=False, max_length=1),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
