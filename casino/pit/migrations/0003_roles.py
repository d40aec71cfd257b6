from django.db import migrations

from casino.pit.roles import sync_groups


class Migration(migrations.Migration):
    dependencies = [("pit", "0002_append_only"), ("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(sync_groups, migrations.RunPython.noop)]
