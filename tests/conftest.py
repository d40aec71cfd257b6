import os

import pytest
from django.db import connection
from django.db.models.signals import post_migrate
from hypothesis import settings

# "ci" is reproducible and thorough; "dev" keeps Hypothesis's defaults but, like "ci",
# no deadline, since a slow first call (imports, database) is not a failure.
settings.register_profile("ci", derandomize=True, deadline=None, max_examples=200)
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _test_settings(settings):
    """Tests create many users: the production hasher's deliberate slowness only costs time. (The
    cache, which holds the API's request counts, is a database table: a test's counts go with
    its transaction.)"""
    from django.utils import translation

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # A request in the test's thread leaves its language active (LocaleMiddleware): each test
    # starts, and leaves, in the default language.
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _money_rules(request, settings):
    """Most tests predate the casino's money rules (docs/rules.md §11: C-1 the minimum capital, C-2
    the large-transaction threshold) and seat whatever capital their case needs: a winner below
    Art. 9's cap, a trillion patacas, a player known by his name alone. They run at a casino that
    set no minimum (0) at any tier, its seat maximum to the engine's limit and its
    threshold beyond any amount. The tests of those rules are marked `money_rules` and run under
    the settings the project ships (casino/settings.py)."""
    if request.node.get_closest_marker("money_rules"):
        return
    from regulation.record import MAX_AMOUNT
    from regulation.rules import RULE_SETS

    settings.TABLE_MINIMUM_CAPITAL = {variant: {stake: 0 for rules in RULE_SETS for stake in rules.tiers(variant)}
                                      for variant in ("conventional", "simplified")}
    settings.SEAT_MAXIMUM_CAPITAL = MAX_AMOUNT
    settings.LARGE_TRANSACTION_THRESHOLD = MAX_AMOUNT + 1


@pytest.fixture(autouse=True)
def _every_casino(request):
    """Most tests predate the casino group (docs/casinos.md): their people work at the one casino
    they build. Here everyone is given every casino, as the migration that brought the group gave
    everyone who was there before. The tests of the group's walls are marked `casinos` and give
    each person his casinos themselves."""
    if request.node.get_closest_marker("casinos"):
        yield
        return
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_save

    from casino.pit.models import Casino

    def user_everywhere(sender, instance, created, raw=False, **kwargs):
        if created and not raw:
            instance.casinos.add(*Casino.objects.all())

    def casino_for_everyone(sender, instance, created, raw=False, **kwargs):
        if created and not raw:
            instance.staff.add(*get_user_model().objects.all())

    User = get_user_model()
    post_save.connect(user_everywhere, sender=User, dispatch_uid="test-user-everywhere")
    post_save.connect(casino_for_everyone, sender=Casino, dispatch_uid="test-casino-for-everyone")
    yield
    post_save.disconnect(sender=User, dispatch_uid="test-user-everywhere")
    post_save.disconnect(sender=Casino, dispatch_uid="test-casino-for-everyone")


@pytest.fixture
def flush_ledger_afterwards(transactional_db):
    """A transactional test ends with Django emptying every table (TRUNCATE), which the ledger's
    triggers refuse. Only for that clean-up, the owner's session switches the triggers off, and
    on again as soon as the flush is done (it ends by sending post_migrate). An earlier
    transactional test's flush removed the roles the migration made, so they are made again."""
    from casino.pit.roles import sync_groups

    sync_groups()
    yield
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = replica")
        post_migrate.connect(_ledger_triggers_back_on, dispatch_uid=_BACK_ON)


@pytest.fixture
def groups_restored_afterwards(django_db_blocker):
    """The flush that ends a transactional test also empties the roles' groups, which a data
    migration made; later transactional tests expect them. Set up before the database, so torn
    down after its flush."""
    yield
    from casino.pit.roles import sync_groups

    with django_db_blocker.unblock():
        sync_groups()


_BACK_ON = "ledger-triggers-back-on"


def _ledger_triggers_back_on(**kwargs):
    post_migrate.disconnect(dispatch_uid=_BACK_ON)
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = origin")


@pytest.fixture
def people(db):
    """The cast of every part's tests (tests/builders/pit.py's `staff`): the people by role, and
    tables T1 and T2. A transactional test asks for `flush_ledger_afterwards` by its module's
    mark, which comes first, so the roles are there again when the people are given theirs."""
    from tests.builders.pit import staff

    return staff()


@pytest.fixture
def day_with_inspector2(db):
    """T1's gaming day 2026-11-21 (tests/builders/audit.py's `varied_day`: a chicken win, a draw, a
    false win, a pay-all, a misdeclared grade), and a second inspector: one raises a flag, another
    comments on it."""
    from casino.pit.roles import INSPECTOR
    from tests.builders.audit import varied_day
    from tests.builders.pit import user

    people, t1, game, rows = varied_day()
    people["inspector2"] = user("inspector2", INSPECTOR)
    return people, rows
