"""On PostgreSQL the database itself keeps the ledger append-only: UPDATE, DELETE and TRUNCATE on
the jogo and movement tables raise an error, whoever asks; so do changes to a game's seating. The triggers have no bypass switch;
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
    # Who sat where and who was first banker decide seat winds and rounds (Art. 3): fixed once
    # the game is seated. Only a game's end (ended_at, ended_by) may be written later.
    schema_editor.execute("CREATE TRIGGER pit_player_no_change BEFORE UPDATE OR DELETE ON pit_player "
                          "FOR EACH ROW EXECUTE FUNCTION pit_ledger_append_only()")
    schema_editor.execute("CREATE TRIGGER pit_game_seated BEFORE UPDATE OF table_id, first_banker, started_at, "
                          "started_by_id OR DELETE ON pit_game FOR EACH ROW EXECUTE FUNCTION pit_ledger_append_only()")


def remove(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in LEDGER_TABLES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_change ON {table}")
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")
    schema_editor.execute("DROP TRIGGER IF EXISTS pit_player_no_change ON pit_player")
    schema_editor.execute("DROP TRIGGER IF EXISTS pit_game_seated ON pit_game")
    schema_editor.execute("DROP FUNCTION IF EXISTS pit_ledger_append_only()")


class Migration(migrations.Migration):
    dependencies = [("pit", "0001_ledger")]
    operations = [migrations.RunPython(install, remove, elidable=False)]
