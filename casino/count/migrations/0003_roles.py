from django.db import migrations

# A frozen copy, as of this migration, of what it grants (casino/pit/roles.py then): the live
# roles may change, this migration must not. Every migrate ends by setting each role to exactly
# its live permissions (casino/pit/apps.py, post_migrate).
GRANTS = {
    "counter": ["count.view_box", "count.count_box"],
    "supervisor": ["count.view_rotation", "count.add_rotation"],
    "inspector": ["count.view_rotation", "count.view_box", "count.view_case", "count.work_case"],
    "manager": ["count.view_rotation", "count.view_box", "count.view_case", "count.work_case",
                "count.resolve_case"],
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
    """Make the counter role and grant the count's permissions (casino/pit/roles.py)."""

    dependencies = [("count", "0002_append_only"), ("pit", "0003_roles")]
    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
