from django.db import migrations

from casino.pit.roles import sync_groups


class Migration(migrations.Migration):
    """Make the counter role and grant the count's permissions (casino/pit/roles.py)."""

    dependencies = [("count", "0002_append_only"), ("pit", "0003_roles")]
    operations = [migrations.RunPython(sync_groups, migrations.RunPython.noop)]
