from django.db import migrations

# A frozen copy, as of this migration, of the four roles (casino/pit/roles.py then): the live
# roles may change, this migration must not. Every migrate ends by setting each role to exactly
# its live permissions (casino/pit/apps.py, post_migrate).
GRANTS = {
    "dealer": ["pit.record_at_table", "pit.view_table", "pit.view_game", "pit.view_jogo",
               "pit.view_movement"],
    "supervisor": ["pit.record_at_table", "pit.view_table", "pit.view_game", "pit.view_jogo",
                   "pit.view_movement", "pit.open_close_table", "pit.view_amendment", "pit.view_refusal",
                   "pit.propose_amendment", "pit.approve_amendment"],
    "inspector": ["pit.view_all_tables", "pit.view_table", "pit.view_game", "pit.view_jogo",
                  "pit.view_movement", "pit.view_amendment", "pit.view_refusal", "pit.view_flag",
                  "pit.flag_jogo"],
    "manager": ["pit.view_all_tables", "pit.view_table", "pit.view_game", "pit.view_jogo",
                "pit.view_movement", "pit.view_amendment", "pit.view_refusal", "pit.view_flag",
                "pit.approve_amendment"],
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


class Migration(migrations.Migration):
    dependencies = [("pit", "0002_append_only"), ("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
