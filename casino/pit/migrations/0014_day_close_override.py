"""A gaming day closed although something still held it (a commission box not yet
counted) keeps, on its close event, the manager's reason and what it covered. The table
`reports_dayevent` stays append-only (reports migration 0003): adding the columns changes no row
through the triggers, which refuse UPDATE and DELETE of rows, not a change of the table."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("pit", "0013_gaming_days")]

    operations = [
        migrations.AddField(
            model_name="dayevent",
            name="override_reason",
            field=models.TextField(blank=True, help_text="why a manager closed the day although something still "
                                                         "held it"),
        ),
        migrations.AddField(
            model_name="dayevent",
            name="overridden",
            field=models.JSONField(blank=True, default=list, help_text="what held the day when it was closed anyway, "
                                                                       "as the refusal said it"),
        ),
    ]
