"""The gaming day's state and its log of closing and reopening move from the reports app to the
pit, which owns the gaming day (the imports run one way, regulation ← pit ← audit and
reports). Only Django's idea of where the models live changes: the tables keep their names
(`reports_gamingday`, `reports_dayevent`), their rows and, on PostgreSQL, their append-only
triggers (reports migration 0003).

The content types of both models move to the pit with their permissions, so a group or a person
holding `view_daily_report` or `close_gaming_day` keeps it (now `pit.view_daily_report`,
`pit.close_gaming_day`).
"""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def move_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    for model in ("gamingday", "dayevent"):
        old = ContentType.objects.filter(app_label="reports", model=model).first()
        if old is None:  # a new database: the permissions are made under the pit already
            continue
        new = ContentType.objects.filter(app_label="pit", model=model).first()
        if new is not None:  # made by an earlier step of this migrate; the old one holds the grants
            Permission.objects.filter(content_type=new).delete()
            new.delete()
        old.app_label = "pit"
        old.save(update_fields=["app_label"])
    from django.contrib.contenttypes.models import ContentType as LiveContentType
    LiveContentType.objects.clear_cache()


def move_content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="pit", model__in=["gamingday", "dayevent"]).update(app_label="reports")
    from django.contrib.contenttypes.models import ContentType as LiveContentType
    LiveContentType.objects.clear_cache()


class Migration(migrations.Migration):

    dependencies = [
        ("pit", "0012_rule_sets"),
        ("reports", "0003_append_only"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="GamingDay",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                                   verbose_name="ID")),
                        ("day", models.DateField()),
                        ("closed", models.BooleanField(default=False)),
                        ("casino", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT,
                                                     related_name="gaming_days", to="pit.casino")),
                    ],
                    options={
                        "ordering": ["casino", "-day"],
                        "db_table": "reports_gamingday",
                        "permissions": [("view_daily_report", "Can see and download the daily report"),
                                        ("close_gaming_day", "Can close and reopen a gaming day")],
                        "constraints": [models.UniqueConstraint(fields=("casino", "day"),
                                                                name="one_state_per_casino_day")],
                    },
                ),
                migrations.CreateModel(
                    name="DayEvent",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                                   verbose_name="ID")),
                        ("action", models.CharField(choices=[("closed", "closed"), ("reopened", "reopened")],
                                                    max_length=8)),
                        ("at", models.DateTimeField()),
                        ("reason", models.TextField(blank=True,
                                                    help_text="required to reopen; an optional note on closing")),
                        ("by", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+",
                                                 to=settings.AUTH_USER_MODEL)),
                        ("gaming_day", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT,
                                                         related_name="events", to="pit.gamingday")),
                    ],
                    options={"ordering": ["gaming_day", "at", "pk"], "db_table": "reports_dayevent"},
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
