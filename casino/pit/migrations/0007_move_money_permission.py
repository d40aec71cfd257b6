"""Buy-ins and cash-outs are recorded by the supervisor who witnesses them (pit.move_money)."""
from django.db import migrations

from casino.pit.roles import sync_groups


class Migration(migrations.Migration):

    dependencies = [
        ('pit', '0006_amendment_decision_reason'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='movement',
            options={'ordering': ['table', 'seq'],
                     'permissions': [('move_money', 'Can record buy-ins and cash-outs at assigned tables')]},
        ),
        migrations.RunPython(sync_groups, migrations.RunPython.noop),
    ]
