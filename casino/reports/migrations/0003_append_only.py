"""On PostgreSQL the database keeps the log of closing and reopening gaming days append-only: a
day event is never changed or deleted, and a gaming day's row changes only in whether it is
closed (its casino and date are fixed). (SQLite has no such guard; there the models refuse.)
The function `audit_record_append_only` is the pit's (pit migration 0009)."""
from django.db import migrations

FIXED = """
CREATE OR REPLACE FUNCTION reports_gamingday_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND (NEW.id, NEW.casino_id, NEW.day) IS NOT DISTINCT FROM (OLD.id, OLD.casino_id, OLD.day)
    THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'table % is append-only: a gaming day is only closed and reopened (% refused)',
        TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FIXED, params=None)
    schema_editor.execute("CREATE TRIGGER reports_dayevent_no_change BEFORE UPDATE OR DELETE ON reports_dayevent "
                          "FOR EACH ROW EXECUTE FUNCTION audit_record_append_only()")
    schema_editor.execute("CREATE TRIGGER reports_gamingday_fixed BEFORE UPDATE OR DELETE ON reports_gamingday "
                          "FOR EACH ROW EXECUTE FUNCTION reports_gamingday_fixed()")
    for table in ("reports_dayevent", "reports_gamingday"):
        schema_editor.execute(f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                              "FOR EACH STATEMENT EXECUTE FUNCTION audit_record_append_only()")


def remove(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, trigger in (("reports_dayevent", "no_change"), ("reports_gamingday", "fixed"),
                           ("reports_dayevent", "no_truncate"), ("reports_gamingday", "no_truncate")):
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_{trigger} ON {table}")
    schema_editor.execute("DROP FUNCTION IF EXISTS reports_gamingday_fixed()")


class Migration(migrations.Migration):
    dependencies = [("reports", "0002_roles"), ("pit", "0009_audit_records_append_only")]
    operations = [migrations.RunPython(install, remove, elidable=False)]
