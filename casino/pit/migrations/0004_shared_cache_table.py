"""The database table of the cache every worker process shares (settings.CACHES): the API's
rate limits count there."""
from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("pit", "0003_roles")]
    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
