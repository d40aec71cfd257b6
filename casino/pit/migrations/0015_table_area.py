"""A table's area on the floor ("Pit A"): the live floor view (casino/floor) groups and filters
its cards by it. Blank for the tables that were there before."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("pit", "0014_day_close_override"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="area",
            field=models.CharField(blank=True, help_text="the pit or area of the floor the table stands in",
                                   max_length=40),
        ),
    ]
