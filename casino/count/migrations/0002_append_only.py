"""On PostgreSQL the database keeps the count's records append-only, as it keeps the ledger:
counts, signatures, changes of expected figures and case events are never changed or deleted;
a rotation entry changes once, when it is closed with its end; a box and a case change only in
their chain's head (and a case in its state). Any other UPDATE, any DELETE and any TRUNCATE raise
an error, whoever asks. (SQLite has no such guard; there the models refuse.) The function
`audit_record_append_only` is the pit's (pit migration 0009)."""
from django.db import migrations

FUNCTIONS = """
CREATE OR REPLACE FUNCTION count_rotation_closed_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.ends_at IS NULL AND NEW.ends_at IS NOT NULL
       AND (NEW.id, NEW.table_id, NEW.person_id, NEW.duty, NEW.gaming_day, NEW.starts_at, NEW.recorded_by_id,
            NEW.recorded_at)
           IS NOT DISTINCT FROM (OLD.id, OLD.table_id, OLD.person_id, OLD.duty, OLD.gaming_day, OLD.starts_at,
                                 OLD.recorded_by_id, OLD.recorded_at)
    THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'table % is append-only: a rotation entry is closed once (% refused)',
        TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE OR REPLACE FUNCTION count_box_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND (NEW.id, NEW.casino_id, NEW.table_id, NEW.gaming_day, NEW.shift, NEW.starts_at,
                             NEW.ends_at)
           IS NOT DISTINCT FROM (OLD.id, OLD.casino_id, OLD.table_id, OLD.gaming_day, OLD.shift, OLD.starts_at,
                                 OLD.ends_at)
    THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'table % is append-only: only a box''s chain head moves (% refused)',
        TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE OR REPLACE FUNCTION count_case_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND (NEW.id, NEW.box_id, NEW.count_id, NEW.opened_at)
           IS NOT DISTINCT FROM (OLD.id, OLD.box_id, OLD.count_id, OLD.opened_at)
    THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'table % is append-only: only a case''s state and chain head move (% refused)',
        TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
"""

# table: the function that decides its UPDATEs (None: no UPDATE at all)
TABLES = {"count_count": None, "count_signature": None, "count_expectedchange": None, "count_caseevent": None,
          "count_rotation": "count_rotation_closed_once", "count_box": "count_box_fixed",
          "count_case": "count_case_fixed"}


def install(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FUNCTIONS, params=None)
    for table, on_update in TABLES.items():
        function = on_update or "audit_record_append_only"
        schema_editor.execute(f"CREATE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table} "
                              f"FOR EACH ROW EXECUTE FUNCTION {function}()")
        schema_editor.execute(f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                              "FOR EACH STATEMENT EXECUTE FUNCTION audit_record_append_only()")


def remove(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        for trigger in ("no_change", "no_truncate"):
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_{trigger} ON {table}")
    for function in ("count_rotation_closed_once", "count_box_fixed", "count_case_fixed"):
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {function}()")


class Migration(migrations.Migration):
    dependencies = [("count", "0001_count"), ("pit", "0009_audit_records_append_only")]
    operations = [migrations.RunPython(install, remove, elidable=False)]
