"""On PostgreSQL the database keeps the alerts as the models do: an alert event is never changed
or deleted; an alert changes only when it is acknowledged, escalated or cleared, once each, as
its event in the alert chain says; a casino's alert log's head moves only onto the row just
added. Any other UPDATE, any DELETE and any TRUNCATE raise an error, whoever asks. (SQLite has
no such guard; there the models refuse.) The function `audit_record_append_only` is the pit's
(pit migration 0009). The SQL is frozen here: a later change is a new migration."""
from django.db import migrations

FUNCTIONS = """
CREATE OR REPLACE FUNCTION floor_alert_set_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE'
       AND (NEW.id, NEW.rule, NEW.severity, NEW.casino_id, NEW.table_id, NEW.gaming_day, NEW.raised_at, NEW.key,
            NEW.params, NEW.jogo_id, NEW.movement_id, NEW.refusal_id, NEW.amendment_id, NEW.flag_id, NEW.box_id,
            NEW.case_id, NEW.rotation_id, NEW.log_id, NEW.seq, NEW.prev_hash, NEW.hash)
           IS NOT DISTINCT FROM (OLD.id, OLD.rule, OLD.severity, OLD.casino_id, OLD.table_id, OLD.gaming_day,
                                 OLD.raised_at, OLD.key, OLD.params, OLD.jogo_id, OLD.movement_id, OLD.refusal_id,
                                 OLD.amendment_id, OLD.flag_id, OLD.box_id, OLD.case_id, OLD.rotation_id,
                                 OLD.log_id, OLD.seq, OLD.prev_hash, OLD.hash)
       AND ((NEW.acknowledged_at, NEW.acknowledged_by_id, NEW.acknowledgement)
                IS NOT DISTINCT FROM (OLD.acknowledged_at, OLD.acknowledged_by_id, OLD.acknowledgement)
            OR (OLD.acknowledged_at IS NULL
                AND EXISTS (SELECT 1 FROM floor_alertevent e WHERE e.alert_id = NEW.id AND e.kind = 'acknowledged'
                            AND e.recorded_at = NEW.acknowledged_at AND e.recorded_by_id = NEW.acknowledged_by_id
                            AND e.note = NEW.acknowledgement)))
       AND (NEW.escalated_at IS NOT DISTINCT FROM OLD.escalated_at
            OR (OLD.escalated_at IS NULL
                AND EXISTS (SELECT 1 FROM floor_alertevent e WHERE e.alert_id = NEW.id AND e.kind = 'escalated'
                            AND e.recorded_at = NEW.escalated_at)))
       AND (NEW.cleared_at IS NOT DISTINCT FROM OLD.cleared_at
            OR (OLD.cleared_at IS NULL
                AND EXISTS (SELECT 1 FROM floor_alertevent e WHERE e.alert_id = NEW.id AND e.kind = 'cleared'
                            AND e.recorded_at = NEW.cleared_at)))
    THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'table % is append-only: an alert is acknowledged, escalated and cleared once each, as its '
        'events in the alert chain say (% refused)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE OR REPLACE FUNCTION floor_alert_log_moves() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND (NEW.id, NEW.casino_id) IS NOT DISTINCT FROM (OLD.id, OLD.casino_id)
       AND NEW.ledger_seq > OLD.ledger_seq
       AND (EXISTS (SELECT 1 FROM floor_alert r WHERE r.log_id = NEW.id AND r.seq = NEW.ledger_seq
                    AND r.hash = NEW.ledger_head)
            OR EXISTS (SELECT 1 FROM floor_alertevent r WHERE r.log_id = NEW.id AND r.seq = NEW.ledger_seq
                       AND r.hash = NEW.ledger_head))
    THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'table % is append-only: an alert log''s head moves only onto the rows just added (% refused)',
        TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
"""

# table: the function that decides its UPDATEs (None: no UPDATE at all)
TABLES = {"floor_alertevent": None, "floor_alert": "floor_alert_set_once", "floor_alertlog": "floor_alert_log_moves"}


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
    for function in ("floor_alert_set_once", "floor_alert_log_moves"):
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {function}()")


class Migration(migrations.Migration):

    dependencies = [
        ("floor", "0001_alerts"),
        ("pit", "0009_audit_records_append_only"),
    ]

    operations = [migrations.RunPython(install, remove, elidable=False)]
