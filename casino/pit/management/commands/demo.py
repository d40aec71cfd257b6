from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand

from casino.pit import demo
from casino.pit.models import Casino

FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "demo.json"
DUMPED = ["auth.user", "pit"]


class Command(BaseCommand):
    help = ("Load the demo casino (fixtures/demo.json) into an empty database, add the group's second casino "
            "and its played day, then record today's floor up to now through the services, and list every "
            "account with its casinos. With --build, make the demo day afresh through the recording service "
            "instead; with --dump FILE, write the demo day out as a fixture (Casino Demo Macau's, before the "
            "second casino is added).")

    def add_arguments(self, parser):
        parser.add_argument("--build", action="store_true", help="record the demo day through the service")
        parser.add_argument("--dump", metavar="FILE", help="after building or loading, write the fixture here")

    def handle(self, *args, build=False, dump=None, **options):
        already = Casino.objects.exists()
        if already:
            self.stdout.write("demo: the database already has a casino; nothing loaded")
        elif build:
            demo.build()
            for _label, step in demo.STEPS:
                step()
            self.stdout.write("demo: built through the recording service")
        else:
            call_command("loaddata", str(FIXTURE), verbosity=0)
            self.stdout.write(f"demo: loaded {FIXTURE.name}")
        if dump:
            apps = DUMPED + [label for label, _step in demo.STEPS]
            call_command("dumpdata", *apps, natural_foreign=True, indent=1, output=dump, verbosity=0)
        if not already:
            demo.group()
            self.stdout.write(f"demo: {demo.TAIPA} added to the group, its day played")
            demo.live()
            self.stdout.write("demo: today's floor recorded up to now")
            self.stdout.write(f"demo: accounts, each with the password {demo.PASSWORD!r}:")
            for person in User.objects.order_by("username").prefetch_related("groups", "casinos"):
                roles = ", ".join(group.name for group in person.groups.all()) or "-"
                casinos = ", ".join(sorted(casino.name for casino in person.casinos.all())) or "-"
                self.stdout.write(f"  {person.username:<12} {person.get_full_name():<20} {casinos:<38} {roles}")
