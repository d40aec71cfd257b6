"""A person's roles apply at the casinos he is given (Casino.staff). Everyone who was there before
is given every casino that was there before: an installation of one casino works as it did."""
from django.conf import settings
from django.db import migrations, models


def everyone_everywhere(apps, schema_editor):
    Casino = apps.get_model("pit", "Casino")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    people = list(User.objects.values_list("pk", flat=True))
    for casino in Casino.objects.all():
        casino.staff.add(*people)


class Migration(migrations.Migration):

    dependencies = [
        ("pit", "0016_players_as_people"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="casino",
            name="staff",
            field=models.ManyToManyField(blank=True, help_text="the people whose roles apply at this casino",
                                         related_name="casinos", to=settings.AUTH_USER_MODEL),
        ),
        migrations.RunPython(everyone_everywhere, migrations.RunPython.noop),
    ]
