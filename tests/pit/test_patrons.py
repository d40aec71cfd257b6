"""Players as people (issue 25 §2, casino/pit/patrons.py): recording, changing and identifying a
player, each write logged by field name; the retention period, after which his personal data is
removed without breaking the ledger's hash chain."""
import datetime as dt

import pytest
from django.core.management import call_command
from django.utils import timezone

from casino.pit import patrons, services, verify
from casino.pit.errors import Refused
from casino.pit.models import Casino, Movement, Patron, PatronChange, Player
from casino.pit.signals import keep_personal_data
from tests.builders.pit import NOON

IDENTITY = {"document_type": "hong_kong_id", "document_number": "a123456(3)", "document_country": "HK",
            "date_of_birth": dt.date(1980, 5, 17), "nationality": "CN"}


def casino():
    return Casino.objects.get(name="Casino Lisboa")


def codes(refused):
    return [(problem.field, problem.code) for problem in refused.value.problems]


def test_a_name_alone_makes_a_player_and_logs_his_creation(people):
    staff, _t1, _t2 = people
    patron = patrons.create_patron(casino=casino(), user=staff["supervisor"], name="  Chan   Tai Man ")
    assert patron.name == "Chan Tai Man" and not patron.identified
    assert patron.missing_identification == list(Patron.IDENTIFICATION)
    [change] = patron.changes.all()
    assert (change.action, change.fields, change.by) == (PatronChange.CREATED, ["name"], staff["supervisor"])


def test_a_player_created_with_his_identity_is_identified_and_the_log_names_fields_not_values(people):
    staff, _t1, _t2 = people
    patron = patrons.create_patron(casino=casino(), user=staff["inspector"], name="Chan Tai Man", **IDENTITY)
    assert patron.identified and patron.document_number == "A123456(3)"
    [change] = patron.changes.all()
    assert change.fields == ["name", *Patron.IDENTIFICATION]
    assert "A123456(3)" not in str(change.fields)


def test_an_empty_name_is_refused(people):
    staff, _t1, _t2 = people
    with pytest.raises(Refused) as refused:
        patrons.create_patron(casino=casino(), user=staff["supervisor"], name="   ")
    assert codes(refused) == [("name", "name_missing")]
    assert not Patron.objects.exists()


def test_a_malformed_document_writes_nothing_and_names_each_bad_field(people):
    staff, _t1, _t2 = people
    with pytest.raises(Refused) as refused:
        patrons.create_patron(casino=casino(), user=staff["supervisor"], name="Chan", document_type="macau_id",
                              document_number="9234567(8)", document_country="HK",
                              date_of_birth=dt.date(2010, 1, 1))
    assert codes(refused) == [("document_number", "document_number_malformed"),
                              ("document_country", "document_country_wrong"), ("date_of_birth", "under_gaming_age")]
    assert not Patron.objects.exists() and not PatronChange.objects.exists()


def test_one_document_is_one_person_at_the_casino(people):
    staff, _t1, _t2 = people
    first = patrons.create_patron(casino=casino(), user=staff["inspector"], name="Chan Tai Man", **IDENTITY)
    other = patrons.create_patron(casino=casino(), user=staff["inspector"], name="Wong")
    with pytest.raises(Refused) as refused:
        patrons.identify(patron=other, user=staff["inspector"], **{**IDENTITY, "document_number": "A 123456 3"})
    assert codes(refused) == [("document_number", "document_held")]
    assert f"player {first.pk}" in refused.value.problems[0].message
    other.refresh_from_db()
    assert other.document_number == "" and other.changes.count() == 1


def test_the_database_constraint_is_answered_as_the_same_refusal(people, monkeypatch):
    """Two people recording one document at once: the check before the write passes for both, and
    the constraint `one_patron_per_document` refuses the second, in people's words."""
    staff, _t1, _t2 = people
    first = patrons.create_patron(casino=casino(), user=staff["inspector"], name="Chan Tai Man", **IDENTITY)
    check, calls = patrons._refuse_held_document, []

    def too_late(patron):
        calls.append(patron)
        if len(calls) > 1:  # the answer to the IntegrityError, not the check before the write
            check(patron)

    monkeypatch.setattr(patrons, "_refuse_held_document", too_late)
    with pytest.raises(Refused) as refused:
        patrons.create_patron(casino=casino(), user=staff["inspector"], name="Wong", **IDENTITY)
    assert codes(refused) == [("document_number", "document_held")] and refused.value.conflict
    assert f"player {first.pk}" in refused.value.problems[0].message
    assert Patron.objects.count() == 1


def test_identify_needs_every_field_and_names_the_missing_ones(people):
    staff, _t1, _t2 = people
    patron = patrons.create_patron(casino=casino(), user=staff["supervisor"], name="Chan")
    with pytest.raises(Refused) as refused:
        patrons.identify(patron=patron, user=staff["supervisor"], **{**IDENTITY, "date_of_birth": None,
                                                                     "nationality": ""})
    assert codes(refused) == [("date_of_birth", "identification_needed"), ("nationality", "identification_needed")]
    assert refused.value.problems[0].message.startswith("DICJ Instruction n.º 1/2016")


def test_identify_logs_the_fields_it_wrote(people):
    staff, _t1, _t2 = people
    patron = patrons.create_patron(casino=casino(), user=staff["supervisor"], name="Chan",
                                   nationality="CN")
    patrons.identify(patron=patron, user=staff["supervisor2"], **IDENTITY)
    patron.refresh_from_db()
    assert patron.identified and patron.changed_by == staff["supervisor2"]
    change = patron.changes.last()
    assert (change.action, change.fields) == (PatronChange.CHANGED, ["document_type", "document_number",
                                                                     "document_country", "date_of_birth"])


def test_a_change_that_changes_nothing_logs_nothing(people):
    staff, _t1, _t2 = people
    patron = patrons.create_patron(casino=casino(), user=staff["supervisor"], name="Chan")
    patrons.change_patron(patron=patron, user=staff["supervisor"], name=" Chan ")
    assert patron.changes.count() == 1


def test_changing_one_document_field_checks_the_document_whole(people):
    staff, _t1, _t2 = people
    patron = patrons.create_patron(casino=casino(), user=staff["inspector"], name="Chan", **IDENTITY)
    with pytest.raises(Refused) as refused:
        patrons.change_patron(patron=patron, user=staff["inspector"], document_country="MO")
    assert codes(refused) == [("document_country", "document_country_wrong")]


# --- Retention -----------------------------------------------------------------------------------

def _long_ago(people, *, days_ago: int, name: str = "Chan Tai Man"):
    """A player identified and seated at T1 `days_ago` days before now, with a buy-in then."""
    staff, t1, _t2 = people
    then = NOON - dt.timedelta(days=days_ago)
    patron = patrons.create_patron(casino=casino(), user=staff["inspector"], name=name, at=then, **IDENTITY)
    game = services.start_game(table=t1, user=staff["supervisor"], first_banker=0, at=then, players=[
        {"chair": 0, "patron": patron.pk, "capital": 5000}, *({"chair": c, "name": f"Player {c}", "capital": 5000}
                                                              for c in (1, 2, 3))])
    services.move_money(game=game, user=staff["supervisor"], chair=0, kind=Movement.BUY_IN, amount=700, at=then)
    services.end_game(game=game, user=staff["supervisor"], at=then + dt.timedelta(minutes=5))
    return patron, game


def test_anonymising_removes_personal_data_and_keeps_the_ledger_verifying(people, settings):
    settings.PATRON_RETENTION_DAYS = 30
    staff, t1, _t2 = people
    patron, game = _long_ago(people, days_ago=40)
    hashes = list(Movement.objects.filter(table=t1).values_list("hash", flat=True))
    assert verify.breaks() == []

    assert patrons.anonymise_expired(now=NOON) == 4  # him and the three seated by name

    patron.refresh_from_db()
    assert (patron.name, patron.document_type, patron.document_number, patron.document_country,
            patron.date_of_birth, patron.nationality) == ("", "", "", "", None, "")
    assert patron.anonymised_at == NOON
    change = patron.changes.last()
    assert (change.action, change.by, change.fields) == (PatronChange.ANONYMISED, None,
                                                         ["name", *Patron.IDENTIFICATION])
    # His seat reads the patron's name: now a placeholder, no personal data.
    assert [player.name for player in Player.objects.filter(game=game, patron=patron)] == [
        f"anonymised player {patron.pk}"]
    # The ledger names him by id: no hashed row changed, and the chain verifies.
    assert list(Movement.objects.filter(table=t1).values_list("hash", flat=True)) == hashes
    assert Movement.objects.get(table=t1, kind=Movement.BUY_IN, amount=700).patron_id == patron.pk
    assert verify.breaks() == []
    call_command("verify_ledger")
    # Done once: a second run finds nobody.
    assert patrons.anonymise_expired(now=NOON) == 0


def test_a_player_seen_within_the_retention_period_is_kept(people, settings):
    settings.PATRON_RETENTION_DAYS = 30
    _long_ago(people, days_ago=20)
    assert patrons.anonymise_expired(now=NOON) == 0


def test_a_recent_movement_keeps_a_player_recorded_long_ago(people, settings):
    settings.PATRON_RETENTION_DAYS = 30
    staff, t1, _t2 = people
    patron = patrons.create_patron(casino=casino(), user=staff["inspector"], name="Chan",
                                   at=NOON - dt.timedelta(days=400))
    game = services.start_game(table=t1, user=staff["supervisor"], first_banker=0, at=NOON, players=[
        {"chair": 0, "patron": patron.pk, "capital": 5000}, *({"chair": c, "name": f"Player {c}", "capital": 5000}
                                                              for c in (1, 2, 3))])
    assert game.players.filter(patron=patron).exists()
    assert patrons.anonymise_expired(now=NOON + dt.timedelta(days=1)) == 0


def test_a_receiver_of_keep_personal_data_keeps_a_player(people, settings):
    settings.PATRON_RETENTION_DAYS = 30
    patron, _game = _long_ago(people, days_ago=40)
    asked = []

    def under_investigation(sender, patrons, **kwargs):
        asked.append(list(patrons))
        return {patron.pk}

    keep_personal_data.connect(under_investigation, dispatch_uid="test-keep")
    try:
        assert patrons.anonymise_expired(now=NOON) == 3
    finally:
        keep_personal_data.disconnect(dispatch_uid="test-keep")
    assert patron.pk in asked[0]
    patron.refresh_from_db()
    assert patron.name == "Chan Tai Man" and patron.anonymised_at is None


def test_an_anonymised_player_is_not_changed_any_more(people, settings):
    settings.PATRON_RETENTION_DAYS = 30
    staff, _t1, _t2 = people
    patron, _game = _long_ago(people, days_ago=40)
    patrons.anonymise_expired(now=NOON)
    with pytest.raises(Refused) as refused:
        patrons.change_patron(patron=patron, user=staff["inspector"], name="Chan Tai Man")
    assert codes(refused) == [(None, "patron_anonymised")]


def test_the_command_counts_with_dry_run_and_then_anonymises(people, settings, capsys):
    settings.PATRON_RETENTION_DAYS = 30
    patron, _game = _long_ago(people, days_ago=40 + (timezone.now() - NOON).days)
    call_command("anonymise_patrons", "--dry-run")
    assert "4 player(s) would be anonymised." in capsys.readouterr().out
    patron.refresh_from_db()
    assert patron.anonymised_at is None
    call_command("anonymise_patrons")
    assert "4 player(s) anonymised." in capsys.readouterr().out
    patron.refresh_from_db()
    assert patron.anonymised_at is not None


def test_anonymising_is_one_transaction(people, settings, monkeypatch):
    settings.PATRON_RETENTION_DAYS = 30
    patron, _game = _long_ago(people, days_ago=40)

    def fails(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(PatronChange.objects, "create", fails)
    with pytest.raises(RuntimeError):
        patrons.anonymise_expired(now=NOON)
    patron.refresh_from_db()
    assert patron.name == "Chan Tai Man" and not PatronChange.objects.filter(action=PatronChange.ANONYMISED).exists()
