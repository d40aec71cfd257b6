"""On PostgreSQL the database itself keeps the ledger append-only: UPDATE, DELETE and TRUNCATE on
the jogo and movement tables raise an error, whoever asks. The triggers have no bypass switch;
only the tables' owner or a superuser could disable them, and the application needs neither
right to run. (SQLite has no such guard; there the models refuse to save or delete a row.)
"""
from django.db import migrations

LEDGER_TABLES = ("pit_jogo", "pit_movement")

FUNCTION = """
CREATE OR REPLACE FUNCTION pit_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger table % is append-only: % refused (a correction is an amendment)',
        TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FUNCTION, params=None)
    for table in LEDGER_TABLES:
        schema_editor.execute(f"CREATE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table} "
                              "FOR EACH ROW EXECUTE FUNCTION pit_ledger_append_only()")
        schema_editor.execute(f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                              "FOR EACH STATEMENT EXECUTE FUNCTION pit_ledger_append_only()")


def remove(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in LEDGER_TABLES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_change ON {table}")
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")
    schema_editor.execute("DROP FUNCTION IF EXISTS pit_ledger_append_only()")


class Migration(migrations.Migration):
    dependencies = [("pit", "0001_ledger")]
    operations = [migrations.RunPython(install, remove, elidable=False)]
