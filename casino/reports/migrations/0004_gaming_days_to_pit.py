"""The gaming day's models now live in the pit (pit migration 0013); their tables stay as they
are, so this forgets them here without touching the database."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [("reports", "0003_append_only"), ("pit", "0013_gaming_days")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="DayEvent"), migrations.DeleteModel(name="GamingDay")],
            database_operations=[],
        ),
    ]
