"""Flags have a life: an inspector raises one, others comment on it, a different person
(inspector or manager) resolves it once with a note, and the open flags are counted."""
import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.test import Client

from casino.audit.selectors import flag_list, open_flag_count
from casino.pit import errors, services
from casino.pit.models import Flag, FlagComment
from tests.builders.pit import NOON

pytestmark = pytest.mark.django_db


def raised(day_with_inspector2, note="winner's hand looks short on the video") -> Flag:
    people, rows = day_with_inspector2
    return services.flag(jogo=rows[0], user=people["inspector"], note=note, at=NOON)


def client_for(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


# --- The service -----------------------------------------------------------------------------------

def test_others_comment_on_a_flag_each_comment_a_new_row(day_with_inspector2):
    people, rows = day_with_inspector2
    flag = raised(day_with_inspector2)

    services.comment_on_flag(flag=flag, user=people["inspector2"], note="Seen it too: 13 tiles", at=NOON)
    services.comment_on_flag(flag=flag, user=people["manager"], note="Ask the dealer",
                             at=NOON + dt.timedelta(minutes=5))

    assert [(c.written_by.username, c.note) for c in flag.comments.all()] == [
        ("inspector2", "Seen it too: 13 tiles"), ("manager", "Ask the dealer")]
    assert Flag.objects.get().is_open


def test_a_manager_resolves_anothers_flag_once_with_a_note_and_the_open_count_goes_down(day_with_inspector2):
    people, rows = day_with_inspector2
    flag = raised(day_with_inspector2)
    other = services.flag(jogo=rows[1], user=people["inspector"], note="draw recorded too early")
    assert open_flag_count() == 2

    resolved = services.resolve_flag(flag=flag, user=people["manager"], note="Camera checked: 14 tiles, all in order",
                                    at=NOON + dt.timedelta(hours=1))

    stored = Flag.objects.get(pk=flag.pk)
    assert (stored.resolved_by, stored.resolved_at, stored.resolution) == (
        people["manager"], NOON + dt.timedelta(hours=1), "Camera checked: 14 tiles, all in order")
    assert not resolved.is_open and open_flag_count() == 1
    assert [f.pk for f in flag_list()] == [other.pk]
    assert [f.pk for f in flag_list(resolved=True)] == [flag.pk]


def test_nobody_resolves_a_flag_he_raised_himself(day_with_inspector2):
    people, rows = day_with_inspector2
    flag = raised(day_with_inspector2)

    with pytest.raises(errors.Refused) as refused:
        services.resolve_flag(flag=flag, user=people["inspector"], note="fine after all")

    assert refused.value.problems[0].code == "own_flag"
    assert "another inspector or a manager" in str(refused.value)
    assert Flag.objects.get().is_open


def test_a_flag_is_resolved_only_once(day_with_inspector2):
    people, rows = day_with_inspector2
    flag = raised(day_with_inspector2)
    services.resolve_flag(flag=flag, user=people["inspector2"], note="checked", at=NOON)

    with pytest.raises(errors.Refused) as refused:
        services.resolve_flag(flag=flag, user=people["manager"], note="checked again")

    assert refused.value.problems[0].code == "flag_resolved" and refused.value.conflict
    assert "already resolved by inspector2" in str(refused.value)
    assert Flag.objects.get().resolution == "checked"


@pytest.mark.parametrize("note", ["", "   "])
def test_a_comment_and_a_resolution_say_something(day_with_inspector2, note):
    people, rows = day_with_inspector2
    flag = raised(day_with_inspector2)

    for write in (services.comment_on_flag, services.resolve_flag):
        with pytest.raises(errors.Refused) as refused:
            write(flag=flag, user=people["manager"], note=note)
        assert refused.value.problems[0].field == "note"
    assert not FlagComment.objects.exists() and Flag.objects.get().is_open


def test_the_model_refuses_to_change_what_was_raised_or_a_resolution(day_with_inspector2):
    people, rows = day_with_inspector2
    flag = raised(day_with_inspector2)
    flag.note = "something else"
    with pytest.raises(ValidationError):
        flag.save()
    flag = services.resolve_flag(flag=Flag.objects.get(), user=people["manager"], note="checked")
    flag.resolution = "rewritten"
    with pytest.raises(ValidationError):
        flag.save()
    with pytest.raises(ValidationError):
        flag.delete()
    comment = services.comment_on_flag(flag=flag, user=people["manager"], note="done")
    comment.note = "changed"
    with pytest.raises(ValidationError):
        comment.save()
    with pytest.raises(ValidationError):
        comment.delete()
    assert Flag.objects.get().resolution == "checked" and FlagComment.objects.get().note == "done"


def test_the_database_refuses_a_resolution_by_the_raiser_or_without_a_note(day_with_inspector2):
    people, rows = day_with_inspector2
    flag = raised(day_with_inspector2)
    for change in ({"resolved_by": people["inspector"], "resolved_at": NOON, "resolution": "mine"},
                   {"resolved_by": people["manager"], "resolved_at": NOON, "resolution": ""},
                   {"resolved_by": people["manager"], "resolution": "no time"}):
        # A check constraint refuses it (and on PostgreSQL, first, the flag's trigger: migration 0009).
        with pytest.raises(DatabaseError), transaction.atomic():
            Flag.objects.filter(pk=flag.pk).update(**change)
    assert Flag.objects.get().is_open


# --- The pages -------------------------------------------------------------------------------------

def test_raise_comment_and_resolve_from_the_pages(day_with_inspector2):
    people, rows = day_with_inspector2
    inspector = client_for(people["inspector"])
    inspector.post(f"/audit/jogos/{rows[0].pk}/", {"note": "winner's hand looks short"})
    flag = Flag.objects.get()
    page = inspector.get(f"/audit/jogos/{rows[0].pk}/").content.decode()
    assert f'href="/audit/flags/{flag.pk}/"' in page and "open" in page

    response = client_for(people["inspector2"]).post(f"/audit/flags/{flag.pk}/comment", {"note": "13 tiles"})
    assert response.status_code == 302 and response["Location"] == f"/audit/flags/{flag.pk}/"
    own = inspector.get(f"/audit/flags/{flag.pk}/").content.decode()
    assert "13 tiles" in own and "inspector2" in own
    assert "resolve-form" not in own and "You raised this flag" in own  # not offered to the raiser

    manager = client_for(people["manager"])
    assert "resolve-form" in manager.get(f"/audit/flags/{flag.pk}/").content.decode()
    response = manager.post(f"/audit/flags/{flag.pk}/resolve", {"note": "Camera: 14 tiles", "confirmed": "yes"},
                            follow=True)

    page = response.content.decode()
    assert "Flag resolved." in page and "Resolved by manager on" in page and "Camera: 14 tiles" in page
    assert "resolve-form" not in page
    assert Flag.objects.get().resolved_by == people["manager"]


def test_the_raiser_posting_a_resolution_is_refused_with_the_reason(day_with_inspector2):
    people, rows = day_with_inspector2
    flag = raised(day_with_inspector2)

    response = client_for(people["inspector"]).post(f"/audit/flags/{flag.pk}/resolve", {"note": "fine"})

    assert response.status_code == 409
    assert "Nobody resolves a flag he raised himself" in response.content.decode()
    assert Flag.objects.get().is_open


def test_an_empty_resolution_is_refused_next_to_its_field(day_with_inspector2):
    people, rows = day_with_inspector2
    flag = raised(day_with_inspector2)

    response = client_for(people["manager"]).post(f"/audit/flags/{flag.pk}/resolve", {"note": ""})

    page = response.content.decode()
    assert response.status_code == 400 and "This field is required." in page
    assert 'for="resolve_note">What was found (the resolution)' in page
    assert Flag.objects.get().is_open


def test_the_open_flags_are_listed_and_counted_on_the_audit_index_and_the_exception_queue(day_with_inspector2):
    people, rows = day_with_inspector2
    first = raised(day_with_inspector2)
    services.flag(jogo=rows[3], user=people["inspector"], note="pay-all article unclear")
    services.resolve_flag(flag=first, user=people["manager"], note="checked")
    inspector = client_for(people["inspector"])

    listing = inspector.get("/audit/flags/").content.decode()
    resolved = inspector.get("/audit/flags/?state=resolved").content.decode()
    index = inspector.get("/audit/?day=2026-11-21").content.decode()
    queue = inspector.get("/audit/exceptions/?day=2026-11-21").content.decode()

    assert "pay-all article unclear" in listing and "winner&#x27;s hand looks short" not in listing
    assert "1 open flag," in listing
    assert "winner&#x27;s hand looks short" in resolved and "checked" in resolved
    assert "1 open flag<" in index
    assert "1 open flag on every day" in queue
    assert "(open)" in queue and "resolved by manager: checked" in queue


@pytest.mark.parametrize("role", ["dealer", "supervisor"])
def test_pit_staff_may_not_see_comment_on_or_resolve_flags(day_with_inspector2, role):
    people, rows = day_with_inspector2
    flag = raised(day_with_inspector2)
    staff = client_for(people[role])

    assert staff.get("/audit/flags/").status_code == 403
    assert staff.get(f"/audit/flags/{flag.pk}/").status_code == 403
    assert staff.post(f"/audit/flags/{flag.pk}/comment", {"note": "x"}).status_code == 403
    assert staff.post(f"/audit/flags/{flag.pk}/resolve", {"note": "x"}).status_code == 403
    assert not FlagComment.objects.exists() and Flag.objects.get().is_open


def test_comment_and_resolve_are_posts(day_with_inspector2):
    people, rows = day_with_inspector2
    flag = raised(day_with_inspector2)
    manager = client_for(people["manager"])

    assert manager.get(f"/audit/flags/{flag.pk}/comment").status_code == 405
    assert manager.get(f"/audit/flags/{flag.pk}/resolve").status_code == 405
    assert Client().get(f"/audit/flags/{flag.pk}/").status_code == 302  # to the login
