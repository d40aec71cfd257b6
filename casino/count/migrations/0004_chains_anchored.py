"""The count's chains anchored and its holes closed:

- counts and expected changes get a secret salt that enters their hash (rows already recorded
  keep theirs, with no salt); signatures an idempotency key; decisions on a count (abandoned,
  recount approved, recount accepted) join the box's chain;
- each casino's rotation log becomes a hash chain of its entries and their ends: the entries
  already recorded are chained here, in the order they were recorded, each end at its time;
- on PostgreSQL the database now refuses to move a box's, a case's or a rotation log's head
  except onto the row just added, and a case's state except to that event's state; it refuses to
  close a rotation entry other than as its end in the chain says; decisions and rotation ends are
  append-only like the other rows.

The hashing below is a frozen copy of casino/count/chain.py as it stands for rotation rows, so
that this migration does not depend on code that may change later.
"""
import datetime as dt
import hashlib
import importlib
import json

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

GENESIS = "0" * 64


def _hash(prev: str, data: dict) -> str:
    for name, value in data.items():
        if isinstance(value, dt.datetime):
            data[name] = value.astimezone(dt.UTC).isoformat()
        elif isinstance(value, dt.date):
            data[name] = value.isoformat()
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(prev.encode() + text.encode()).hexdigest()


def chain_rotation_logs(apps, schema_editor):
    Rotation = apps.get_model("count", "Rotation")
    RotationEnd = apps.get_model("count", "RotationEnd")
    RotationLog = apps.get_model("count", "RotationLog")
    steps_of = {}  # casino: (moment, 0 start / 1 end, entry id, entry)
    for entry in Rotation.objects.select_related("table").order_by("recorded_at", "pk"):
        steps = steps_of.setdefault(entry.table.casino_id, [])
        steps.append((entry.recorded_at, 0, entry.pk, entry))
        if entry.ends_at is not None:
            steps.append((entry.ends_at, 1, entry.pk, entry))
    for casino_id, steps in steps_of.items():
        log = RotationLog.objects.create(casino_id=casino_id)
        prev = GENESIS
        for seq, (moment, is_end, _pk, entry) in enumerate(sorted(steps, key=lambda step: step[:3]), 1):
            if is_end:
                data = {"log_id": log.pk, "seq": seq, "recorded_at": moment, "recorded_by_id": entry.ended_by_id,
                        "entry_id": entry.pk, "ends_at": entry.ends_at, "type": "RotationEnd"}
                row_hash = _hash(prev, data)
                RotationEnd.objects.create(entry=entry, ends_at=entry.ends_at, log=log, seq=seq, prev_hash=prev,
                                           hash=row_hash, recorded_at=moment, recorded_by_id=entry.ended_by_id)
            else:
                data = {"log_id": log.pk, "seq": seq, "recorded_at": moment, "recorded_by_id": entry.recorded_by_id,
                        "table_id": entry.table_id, "person_id": entry.person_id, "duty": entry.duty,
                        "gaming_day": entry.gaming_day, "starts_at": entry.starts_at, "type": "Rotation"}
                row_hash = _hash(prev, data)
                entry.log, entry.seq, entry.prev_hash, entry.hash = log, seq, prev, row_hash
                entry.save(update_fields=["log", "seq", "prev_hash", "hash"])
            prev = row_hash
        log.ledger_seq, log.ledger_head = len(steps), prev
        log.save(update_fields=["ledger_seq", "ledger_head"])


DROP_ROTATION_GUARD = "DROP TRIGGER IF EXISTS count_rotation_no_change ON count_rotation"

FUNCTIONS = """
CREATE OR REPLACE FUNCTION count_rotation_closed_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.ends_at IS NULL AND NEW.ends_at IS NOT NULL
       AND (NEW.id, NEW.table_id, NEW.person_id, NEW.duty, NEW.gaming_day, NEW.starts_at, NEW.recorded_by_id,
            NEW.recorded_at, NEW.log_id, NEW.seq, NEW.prev_hash, NEW.hash)
           IS NOT DISTINCT FROM (OLD.id, OLD.table_id, OLD.person_id, OLD.duty, OLD.gaming_day, OLD.starts_at,
                                 OLD.recorded_by_id, OLD.recorded_at, OLD.log_id, OLD.seq, OLD.prev_hash, OLD.hash)
       AND EXISTS (SELECT 1 FROM count_rotationend e WHERE e.entry_id = NEW.id AND e.ends_at = NEW.ends_at
                   AND e.recorded_by_id = NEW.ended_by_id)
    THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'table % is append-only: a rotation entry is closed once, as its end in the rotation chain says '
        '(% refused)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE OR REPLACE FUNCTION count_box_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND (NEW.id, NEW.casino_id, NEW.table_id, NEW.gaming_day, NEW.shift, NEW.starts_at,
                             NEW.ends_at)
           IS NOT DISTINCT FROM (OLD.id, OLD.casino_id, OLD.table_id, OLD.gaming_day, OLD.shift, OLD.starts_at,
                                 OLD.ends_at)
       AND NEW.ledger_seq = OLD.ledger_seq + 1
       AND (EXISTS (SELECT 1 FROM count_count r WHERE r.box_id = NEW.id AND r.seq = NEW.ledger_seq
                    AND r.hash = NEW.ledger_head)
            OR EXISTS (SELECT 1 FROM count_signature r WHERE r.box_id = NEW.id AND r.seq = NEW.ledger_seq
                       AND r.hash = NEW.ledger_head)
            OR EXISTS (SELECT 1 FROM count_expectedchange r WHERE r.box_id = NEW.id AND r.seq = NEW.ledger_seq
                       AND r.hash = NEW.ledger_head)
            OR EXISTS (SELECT 1 FROM count_decision r WHERE r.box_id = NEW.id AND r.seq = NEW.ledger_seq
                       AND r.hash = NEW.ledger_head))
    THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'table % is append-only: a box''s chain head moves only onto the row just added (% refused)',
        TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE OR REPLACE FUNCTION count_case_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND (NEW.id, NEW.box_id, NEW.count_id, NEW.opened_at)
           IS NOT DISTINCT FROM (OLD.id, OLD.box_id, OLD.count_id, OLD.opened_at)
       AND NEW.ledger_seq = OLD.ledger_seq + 1
       AND EXISTS (SELECT 1 FROM count_caseevent e WHERE e.case_id = NEW.id AND e.seq = NEW.ledger_seq
                   AND e.hash = NEW.ledger_head AND e.state = NEW.state)
    THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'table % is append-only: a case''s state and chain head move only with the event just added '
        '(% refused)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE OR REPLACE FUNCTION count_rotation_log_moves() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND (NEW.id, NEW.casino_id) IS NOT DISTINCT FROM (OLD.id, OLD.casino_id)
       AND NEW.ledger_seq = OLD.ledger_seq + 1
       AND (EXISTS (SELECT 1 FROM count_rotation r WHERE r.log_id = NEW.id AND r.seq = NEW.ledger_seq
                    AND r.hash = NEW.ledger_head)
            OR EXISTS (SELECT 1 FROM count_rotationend r WHERE r.log_id = NEW.id AND r.seq = NEW.ledger_seq
                       AND r.hash = NEW.ledger_head))
    THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'table % is append-only: a rotation log''s head moves only onto the row just added (% refused)',
        TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
"""

# table: the function that decides its UPDATEs (None: no UPDATE at all). The guards of 0002 on
# count_box and count_case call the functions replaced above.
NEW_TABLES = {"count_rotation": "count_rotation_closed_once", "count_decision": None, "count_rotationend": None,
              "count_rotationlog": "count_rotation_log_moves"}


def drop_rotation_guard(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP_ROTATION_GUARD)


def install(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FUNCTIONS, params=None)
    for table, on_update in NEW_TABLES.items():
        function = on_update or "audit_record_append_only"
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_change ON {table}")
        schema_editor.execute(f"CREATE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table} "
                              f"FOR EACH ROW EXECUTE FUNCTION {function}()")
        if table != "count_rotation":  # 0002 guards count_rotation against TRUNCATE already
            schema_editor.execute(f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                                  "FOR EACH STATEMENT EXECUTE FUNCTION audit_record_append_only()")


def uninstall(apps, schema_editor):
    """Back to 0002's guards: its functions again (the triggers call them by name)."""
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(importlib.import_module("casino.count.migrations.0002_append_only").FUNCTIONS, params=None)
    for table in ("count_decision", "count_rotationend", "count_rotationlog"):
        for trigger in ("no_change", "no_truncate"):
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_{trigger} ON {table}")
    schema_editor.execute("DROP FUNCTION IF EXISTS count_rotation_log_moves()")


class Migration(migrations.Migration):

    dependencies = [
        ('count', '0003_roles'),
        ('pit', '0013_gaming_days'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(drop_rotation_guard, migrations.RunPython.noop, elidable=False),
        migrations.CreateModel(
            name='Decision',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seq', models.PositiveIntegerField(help_text="position in the box's chain, from 1, no gaps")),
                ('prev_hash', models.CharField(max_length=64)),
                ('hash', models.CharField(max_length=64)),
                ('recorded_at', models.DateTimeField()),
                ('kind', models.CharField(choices=[('abandoned', 'abandoned by its first signer'), ('approved', 'recount approved'), ('accepted', 'recount accepted as the figure of record')], max_length=10)),
                ('reason', models.TextField()),
            ],
            options={
                'ordering': ['count', 'seq'],
            },
        ),
        migrations.CreateModel(
            name='RotationEnd',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('ends_at', models.DateTimeField()),
                ('seq', models.PositiveIntegerField()),
                ('prev_hash', models.CharField(max_length=64)),
                ('hash', models.CharField(max_length=64)),
                ('recorded_at', models.DateTimeField()),
            ],
        ),
        migrations.CreateModel(
            name='RotationLog',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('ledger_seq', models.PositiveIntegerField(default=0, editable=False)),
                ('ledger_head', models.CharField(default='', editable=False, max_length=64)),
            ],
        ),
        migrations.AlterModelOptions(
            name='box',
            options={'ordering': ['gaming_day', 'shift', 'table'], 'permissions': [('count_box', 'Can count commission boxes and sign counts'), ('decide_recount', 'Can approve a recount of an agreed count and accept a recount')], 'verbose_name_plural': 'boxes'},
        ),
        migrations.AddField(
            model_name='count',
            name='salt',
            field=models.CharField(default='', editable=False, help_text='never shown: see the module', max_length=32),
        ),
        migrations.AddField(
            model_name='expectedchange',
            name='salt',
            field=models.CharField(default='', editable=False, help_text='never shown: see the module', max_length=32),
        ),
        migrations.AddField(
            model_name='rotation',
            name='hash',
            field=models.CharField(default='', max_length=64),
        ),
        migrations.AddField(
            model_name='rotation',
            name='prev_hash',
            field=models.CharField(default='', max_length=64),
        ),
        migrations.AddField(
            model_name='rotation',
            name='seq',
            field=models.PositiveIntegerField(help_text="position in the casino's rotation chain, from 1, no gaps", null=True),
        ),
        migrations.AddField(
            model_name='signature',
            name='idempotency_key',
            field=models.CharField(blank=True, default='', max_length=100),
        ),
        migrations.AddConstraint(
            model_name='signature',
            constraint=models.UniqueConstraint(condition=models.Q(('idempotency_key', ''), _negated=True), fields=('box', 'idempotency_key'), name='one_signature_per_idempotency_key'),
        ),
        migrations.AddField(
            model_name='decision',
            name='box',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, to='count.box'),
        ),
        migrations.AddField(
            model_name='decision',
            name='count',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='decisions', to='count.count'),
        ),
        migrations.AddField(
            model_name='decision',
            name='recorded_by',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='rotationend',
            name='entry',
            field=models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='end', to='count.rotation'),
        ),
        migrations.AddField(
            model_name='rotationend',
            name='recorded_by',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='rotationlog',
            name='casino',
            field=models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='rotation_log', to='pit.casino'),
        ),
        migrations.AddField(
            model_name='rotationend',
            name='log',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='count.rotationlog'),
        ),
        migrations.AddField(
            model_name='rotation',
            name='log',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='count.rotationlog'),
        ),
        migrations.RunPython(chain_rotation_logs, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(
            model_name='rotation',
            name='log',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='count.rotationlog'),
        ),
        migrations.AlterField(
            model_name='rotation',
            name='seq',
            field=models.PositiveIntegerField(help_text="position in the casino's rotation chain, from 1, no gaps"),
        ),
        migrations.AlterField(
            model_name='rotation',
            name='prev_hash',
            field=models.CharField(max_length=64),
        ),
        migrations.AlterField(
            model_name='rotation',
            name='hash',
            field=models.CharField(max_length=64),
        ),
        migrations.AddConstraint(
            model_name='rotation',
            constraint=models.UniqueConstraint(fields=('log', 'seq'), name='rotation_seq_per_log'),
        ),
        migrations.AddConstraint(
            model_name='decision',
            constraint=models.UniqueConstraint(fields=('box', 'seq'), name='decision_seq_per_box'),
        ),
        migrations.AddConstraint(
            model_name='decision',
            constraint=models.UniqueConstraint(fields=('count', 'kind'), name='one_decision_of_a_kind_per_count'),
        ),
        migrations.AddConstraint(
            model_name='rotationend',
            constraint=models.UniqueConstraint(fields=('log', 'seq'), name='rotation_end_seq_per_log'),
        ),
    ]
    operations += [migrations.RunPython(install, uninstall, elidable=False)]
