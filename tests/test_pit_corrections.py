"""Corrections on screen (maker/checker) through Django's test client: who may propose, see and
decide a correction, the dealer's form filled with the recorded jogo, the recorded and corrected
outcomes side by side with the later jogos carried, and every refusal in the page's language."""
from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.urls import reverse

from casino.pit import service
from casino.pit.corrections import awaiting_count
from casino.pit.models import Amendment, Jogo, Movement
from casino.reports.services import close_day
from tests.pit import DRAW, NOON, SUPERVISOR, next_record, seat, staff, user

pytestmark = pytest.mark.django_db

CHICKEN = {"result": "win", "winner": "S", "discarder": "W", "concealed": "345m678p234s99m11p", "winning_tile": "1p",
           "declared_fan": "0"}


def form(**fields) -> dict:
    """The correction form as posted: by default the first jogo as recorded (South's chicken
    hand on West's discard)."""
    return {**CHICKEN, **fields}


@pytest.fixture
def played():
    """Three jogos at T1: South wins, a draw, then the new banker self-draws a dragon pong."""
    people, t1, t2 = staff()
    people["supervisor_t2"] = user("supervisor_t2", SUPERVISOR)
    t2.staff.add(people["supervisor_t2"])
    game = seat(t1, people["dealer"])
    rows = [service.record_jogo(t1, people["dealer"], next_record(game, **fields), at=NOON)[0]
            for fields in ({}, DRAW, {"winner": "E", "discarder": None, "declared_fan": 1,
                                      "hand": {"concealed": "345m678p234s99m77z", "winning_tile": "7z"}})]
    return people, t1, game, rows


def as_user(client, person, language: str = "en"):
    client.force_login(person)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def propose(client, jogo: Jogo, **fields):
    return client.post(reverse("pit:propose_correction", args=[jogo.pk]), {"action": "propose", **fields})


def test_smoke(client, played):
    people, t1, game, (first, draw, third) = played
    c = as_user(client, people["supervisor"])
    page = c.get(reverse("pit:propose_correction", args=[first.pk]))
    assert page.status_code == 200, page.content.decode()
    fragment = c.post(reverse("pit:correction_preview", args=[first.pk]), form(winner="W", discarder="N"))
    print(fragment.content.decode())
    r = propose(c, first, **form(winner="W", discarder="N"), reason="camera")
    assert r.status_code == 302, r.content.decode()
    a = Amendment.objects.get()
    c2 = as_user(client, people["supervisor2"])
    print(c2.get(reverse("pit:corrections")).content.decode())
    r = c2.post(reverse("pit:correction", args=[a.pk]), {"action": "approve", "reason": ""})
    assert r.status_code == 302
    print(c2.get(reverse("pit:correction", args=[a.pk])).content.decode())
