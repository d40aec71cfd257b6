"""Each closed day's daily report, stored as its day closed (`StoredReport`). On PostgreSQL the
database keeps them append-only, as it keeps the log of closes: a stored report is never changed
or deleted, whoever asks. (SQLite has no such guard; there the model refuses.) The function
`audit_record_append_only` is the pit's (pit migration 0009)."""
import django.db.models.deletion
from django.db import migrations, models

TABLE = "reports_storedreport"


def install(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"CREATE TRIGGER {TABLE}_no_change BEFORE UPDATE OR DELETE ON {TABLE} "
                          "FOR EACH ROW EXECUTE FUNCTION audit_record_append_only()")
    schema_editor.execute(f"CREATE TRIGGER {TABLE}_no_truncate BEFORE TRUNCATE ON {TABLE} "
                          "FOR EACH STATEMENT EXECUTE FUNCTION audit_record_append_only()")


def remove(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for trigger in ("no_change", "no_truncate"):
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {TABLE}_{trigger} ON {TABLE}")


class Migration(migrations.Migration):

    dependencies = [
        ('pit', '0014_day_close_override'),
        ('reports', '0004_gaming_days_to_pit'),
    ]

    operations = [
        migrations.CreateModel(
            name='StoredReport',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('language', models.CharField(choices=[('pt', 'pt'), ('zh-hant', 'zh-hant'), ('en', 'en')], max_length=8)),
                ('pdf', models.BinaryField()),
                ('sha256', models.CharField(max_length=64)),
                ('created_at', models.DateTimeField()),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='reports', to='pit.dayevent')),
            ],
            options={
                'ordering': ['event', 'language'],
                'constraints': [models.UniqueConstraint(fields=('event', 'language'), name='one_report_per_close_and_language')],
            },
        ),
        migrations.RunPython(install, remove, elidable=False),
    ]
