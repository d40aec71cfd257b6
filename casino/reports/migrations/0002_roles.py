from django.db import migrations

from casino.pit.roles import sync_groups


class Migration(migrations.Migration):
    """Grant the report and gaming-day permissions to managers (and the report to inspectors)."""

    dependencies = [("reports", "0001_initial"), ("pit", "0003_roles")]
    operations = [migrations.RunPython(sync_groups, migrations.RunPython.noop)]
