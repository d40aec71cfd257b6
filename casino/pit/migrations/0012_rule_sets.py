"""Each table runs under a named, versioned rule set, and each jogo keeps the one that scored it.
Every jogo recorded before this migration was scored under Portaria n.º 135/91/M, version 1, and
is filled so; so is every table.

The tiers of Art. 8 move from a check constraint, which pinned one rule set's tiers, to the
service and the table's validation, which read the table's own rule set.

On PostgreSQL the new columns are added with their value as the column's default (DDL, no
UPDATE of a ledger row, which the append-only triggers of 0002 would refuse); the jogo's default
is then dropped, so that every new row names its rule set. Supervisors are granted
pit.change_rule_set.
"""
from django.db import migrations, models

# A frozen copy, as of this migration, of what it grants (casino/pit/roles.py then): the live
# roles may change, this migration must not. Every migrate ends by setting each role to exactly
# its live permissions (casino/pit/apps.py, post_migrate).
GRANTS = {
    "supervisor": ["pit.change_rule_set"],
}


def grant(apps, schema_editor):
    """Make the permissions of the granting apps' models as they stand at this migration (only
    theirs: another app's models may be half-way through a move), then grant GRANTS."""
    from django.contrib.auth.management import create_permissions

    using = schema_editor.connection.alias
    for label in sorted({code.split(".")[0] for codes in GRANTS.values() for code in codes}):
        config = apps.get_app_config(label)
        # create_permissions skips an app without a models module, which historical apps lack.
        kept = getattr(config, "models_module", None)
        config.models_module = True
        create_permissions(config, verbosity=0, using=using, apps=apps)
        config.models_module = kept
    Group, Permission = apps.get_model("auth", "Group"), apps.get_model("auth", "Permission")
    for role, codes in GRANTS.items():
        group, _ = Group.objects.using(using).get_or_create(name=role)
        for code in codes:
            app_label, codename = code.split(".")
            group.permissions.add(Permission.objects.using(using).get(content_type__app_label=app_label,
                                                                      codename=codename))


CODE, VERSION = "portaria-135-91-M", 1


def code_field(**options):
    return models.CharField(max_length=60, help_text="the rule set's code, e.g. portaria-135-91-M", **options)


def version_field(**options):
    return models.PositiveSmallIntegerField(help_text="the rule set's version", **options)


class Migration(migrations.Migration):

    dependencies = [
        ("pit", "0011_refusal_confirmation"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="table",
            options={"ordering": ["casino", "number"],
                     "permissions": [("view_all_tables", "Can see every table, not only assigned ones"),
                                     ("open_close_table", "Can open and close assigned tables"),
                                     ("change_rule_set", "Can change the rule set of assigned tables between games")]},
        ),
        migrations.RemoveConstraint(model_name="table", name="art_8_stake_is_a_tier_of_the_variant"),
        migrations.AddField(model_name="table", name="rule_set_code", field=code_field(default=CODE)),
        migrations.AddField(model_name="table", name="rule_set_version", field=version_field(default=VERSION)),
        migrations.AddField(model_name="jogo", name="rule_set_code", field=code_field(default=CODE),
                            preserve_default=False),
        migrations.AddField(model_name="jogo", name="rule_set_version", field=version_field(default=VERSION),
                            preserve_default=False),
        # Supervisors choose the rule set of their tables (pit.change_rule_set).
        migrations.RunPython(grant, migrations.RunPython.noop),
    ]
