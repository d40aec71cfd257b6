"""Each table's projection of its game in progress (jogos so far, banker, round wind, capital),
filled for the games already in progress by replaying their ledger rows."""
import django.db.models.deletion
from django.db import migrations, models

from regulation.rotation import Progress


def fill(apps, schema_editor):
    Table, Game, Jogo, Movement = (apps.get_model("pit", name) for name in ("Table", "Game", "Jogo", "Movement"))
    for game in Game.objects.filter(ended_at__isnull=True).order_by("started_at"):
        last = Jogo.objects.filter(game=game).order_by("-position", "-revision").first()
        chairs = sorted(game.players.values_list("chair", flat=True))
        if last is None:
            state, jogos, amounts = Progress.start(chairs=chairs, banker=game.first_banker), 0, [None] * 4
            for chair in chairs:
                amounts[chair] = 0
        else:
            seated = tuple(chair for chair, amount in enumerate(last.capital_before) if amount is not None)
            state = Progress(seated, game.first_banker, last.banker_chair, last.round_wind).after(
                banker_moves=last.outcome["next"]["banker_moves"])
            jogos, amounts = last.position, list(last.capital_after)
        for movement in Movement.objects.filter(game=game, after_jogos=jogos).order_by("seq"):
            amounts[movement.chair] += movement.amount if movement.kind == "buy_in" else -movement.amount
        Table.objects.filter(pk=game.table_id).update(game=game, game_jogos=jogos, game_banker=state.banker,
                                                      game_round_wind=state.round_wind, game_capital=amounts)


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
