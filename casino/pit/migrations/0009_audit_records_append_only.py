"""On PostgreSQL the database also keeps the records the audit depends on append-only, as it
keeps the ledger (0002): refusals and comments on flags are never changed or deleted; an
amendment changes once, from pending to approved or rejected, with who decided, when and why; a
flag changes once, when a person resolves it. Any other UPDATE, any DELETE and any TRUNCATE
raise an error, whoever asks. (SQLite has no such guard; there the models refuse.)
"""
from django.db import migrations

FUNCTIONS = """
CREATE OR REPLACE FUNCTION audit_record_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'table % is append-only: % refused (the audit depends on it as recorded)',
        TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE OR REPLACE FUNCTION pit_amendment_decided_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.state = 'pending' AND NEW.state IN ('approved', 'rejected')
       AND (NEW.id, NEW.jogo_id, NEW.record, NEW.reason, NEW.proposed_by_id, NEW.proposed_at)
           IS NOT DISTINCT FROM (OLD.id, OLD.jogo_id, OLD.record, OLD.reason, OLD.proposed_by_id, OLD.proposed_at)
    THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'table % is append-only: an amendment is decided once, from pending (% refused)',
        TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE OR REPLACE FUNCTION pit_flag_resolved_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.resolved_at IS NULL AND NEW.resolved_at IS NOT NULL
       AND (NEW.id, NEW.table_id, NEW.number, NEW.note, NEW.raised_by_id, NEW.raised_at)
           IS NOT DISTINCT FROM (OLD.id, OLD.table_id, OLD.number, OLD.note, OLD.raised_by_id, OLD.raised_at)
    THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'table % is append-only: a flag is resolved once (% refused)',
        TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
"""

# table: the function that decides its UPDATEs (None: no UPDATE at all)
TABLES = {"pit_refusal": None, "pit_flagcomment": None, "pit_amendment": "pit_amendment_decided_once",
          "pit_flag": "pit_flag_resolved_once"}


def install(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FUNCTIONS, params=None)
    for table, on_update in TABLES.items():
        if on_update:
            schema_editor.execute(f"CREATE TRIGGER {table}_update_once BEFORE UPDATE ON {table} "
                                  f"FOR EACH ROW EXECUTE FUNCTION {on_update}()")
            schema_editor.execute(f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
                                  "FOR EACH ROW EXECUTE FUNCTION audit_record_append_only()")
        else:
            schema_editor.execute(f"CREATE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table} "
                                  "FOR EACH ROW EXECUTE FUNCTION audit_record_append_only()")
        schema_editor.execute(f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                              "FOR EACH STATEMENT EXECUTE FUNCTION audit_record_append_only()")


def remove(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        for trigger in ("update_once", "no_delete", "no_change", "no_truncate"):
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_{trigger} ON {table}")
    for function in ("pit_amendment_decided_once", "pit_flag_resolved_once"):
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {function}()")


class Migration(migrations.Migration):
    dependencies = [("pit", "0008_flag_life")]
    operations = [migrations.RunPython(install, remove, elidable=False)]
