"""The floor's socket, /ws/floor/ (casino/floor/consumers.py, routing.py), through the whole ASGI
application (casino/asgi.py) with Channels' WebsocketCommunicator: who may connect (by session or
by API token), and one message per event, with its table's card, to each view that may see it."""
from __future__ import annotations

import os
from functools import partial

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from rest_framework.authtoken.models import Token

from casino.floor import live
from casino.pit.models import Table
from tests.builders.pit import NOON, record_next, seat, user

# Transactional: Channels' database_sync_to_async closes the connection around each call as a
# request does, which under PostgreSQL's pool (settings.py) hands it back, outside any test
# transaction.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("flush_ledger_afterwards")]

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture(autouse=True)
def in_memory_layer(request, settings):
    """The tests below run on the in-memory layer, as `make run` does; the Redis one has its own test."""
    if "redis_layer" not in request.fixturenames:
        settings.CHANNEL_LAYERS = IN_MEMORY


def application():
    from casino.asgi import application

    return application


def session_of(person) -> list[tuple[bytes, bytes]]:
    client = Client()
    client.force_login(person)
    return [(b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
            (b"host", b"testserver"), (b"origin", b"http://testserver")]


def token_of(person) -> list[tuple[bytes, bytes]]:
    return [(b"authorization", f"Token {Token.objects.create(user=person).key}".encode())]


def watch(headers, *changes, expect: int = 1) -> list[dict]:
    """Connect with `headers`, make each change (a function run as the test's code, with the
    database), and return the `expect` messages the socket then receives, in order. The floor
    sends the events in the order they happened, so a message that should not have come would
    come before the last one expected."""
    async def scenario():
        communicator = WebsocketCommunicator(application(), "/ws/floor/", headers=list(headers))
        connected, _ = await communicator.connect()
        assert connected
        for change in changes:
            await database_sync_to_async(change)()
        received = [await communicator.receive_json_from(timeout=30) for _ in range(expect)]
        await communicator.disconnect()
        return received
    return async_to_sync(scenario)()


def closed_with(headers) -> int | None:
    """The close code the socket is closed with straight after it opens (None: it stays open)."""
    async def scenario():
        communicator = WebsocketCommunicator(application(), "/ws/floor/", headers=list(headers))
        connected, _ = await communicator.connect()
        if not connected:
            return "refused"
        if await communicator.receive_nothing(timeout=0.3):
            await communicator.disconnect()
            return None
        answer = await communicator.receive_output()
        return answer.get("code")
    return async_to_sync(scenario)()


# --- Who may connect -------------------------------------------------------------------------------

def test_a_supervisor_signed_in_by_the_session_stays_connected(people):
    assert closed_with(session_of(people[0]["supervisor"])) is None


def test_an_inspector_with_an_api_token_in_the_header_stays_connected(people):
    assert closed_with(token_of(people[0]["inspector"])) is None


def test_a_manager_with_an_api_token_in_the_query_stays_connected(people):
    key = Token.objects.create(user=people[0]["manager"]).key

    async def scenario():
        communicator = WebsocketCommunicator(application(), f"/ws/floor/?token={key}")
        connected, _ = await communicator.connect()
        silent = await communicator.receive_nothing(timeout=0.3)
        await communicator.disconnect()
        return connected and silent
    assert async_to_sync(scenario)()


def test_nobody_signed_in_is_closed_with_4401(people):
    assert closed_with([]) == 4401


def test_an_unknown_token_is_nobody_and_is_closed_with_4401(people):
    assert closed_with([(b"authorization", b"Token 0123456789abcdef0123456789abcdef01234567")]) == 4401


@pytest.mark.parametrize("role", ["dealer", "other_dealer"])
def test_a_dealer_does_not_see_the_floor_and_is_closed_with_4403(people, role):
    assert closed_with(session_of(people[0][role])) == 4403


def test_a_counter_with_a_token_is_closed_with_4403(people):
    assert closed_with(token_of(user("counter", "counter"))) == 4403


def test_a_page_of_another_site_may_not_open_the_socket_with_the_persons_session(people):
    headers = [h for h in session_of(people[0]["manager"]) if h[0] != b"origin"]
    assert closed_with([*headers, (b"origin", b"http://elsewhere.example")]) == "refused"


# --- What it says ----------------------------------------------------------------------------------

def test_a_jogo_recorded_reaches_an_open_floor_view_with_its_tables_card(people, django_capture_on_commit_callbacks):
    staff, t1, _ = people
    game = seat(t1, staff["dealer"], at=NOON)

    def record():
        with django_capture_on_commit_callbacks(execute=True):
            record_next(game, staff["dealer"], at=NOON)

    received = watch(token_of(staff["manager"]), record)

    assert [message["event"] for message in received] == ["jogo_recorded"]
    message = received[0]
    assert message["table"] == t1.pk and [card["id"] for card in message["cards"]] == [t1.pk]
    t1.refresh_from_db()
    card = message["cards"][0]
    assert card["next_jogo"] == 2 and [seat["capital"] for seat in card["game"]["seats"]] == t1.game_capital
    assert set(message) == {"event", "table", "at", "cards"}


def test_a_supervisor_hears_of_his_tables_and_not_of_the_others(people):
    staff, t1, t2 = people

    received = watch(session_of(staff["supervisor"]), partial(live.publish, "table_closed", t2.pk),
                     partial(live.publish, "table_opened", t1.pk))

    assert [(message["event"], message["table"]) for message in received] == [("table_opened", t1.pk)]


def test_an_event_of_the_whole_floor_carries_the_cards_each_person_may_see(people):
    staff, t1, t2 = people

    supervisor = watch(session_of(staff["supervisor"]), partial(live.publish, "alerts_changed", None))
    manager = watch(token_of(staff["manager"]), partial(live.publish, "alerts_changed", None))

    assert [[card["number"] for card in message["cards"]] for message in supervisor] == [["T1"]]
    assert [[card["number"] for card in message["cards"]] for message in manager] == [["T1", "T2"]]


def test_what_a_client_says_on_the_socket_changes_nothing(people):
    staff, t1, _ = people
    headers = token_of(staff["manager"])

    async def scenario():
        communicator = WebsocketCommunicator(application(), "/ws/floor/", headers=headers)
        await communicator.connect()
        await communicator.send_json_to({"event": "table_closed", "table": t1.pk})
        silent = await communicator.receive_nothing(timeout=0.3)
        await communicator.disconnect()
        return silent
    assert async_to_sync(scenario)()
    assert Table.objects.get(pk=t1.pk).is_open


# --- The Redis channel layer, as in production ---------------------------------------------------

@pytest.fixture
def redis_layer(settings):
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("REDIS_URL is not set: the Redis channel layer is checked on the PostgreSQL leg of CI")
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": [url], "prefix": "test-floor"}}}


def test_with_redis_an_event_published_reaches_an_open_floor_view_through_the_redis_channel_layer(people,
                                                                                                  redis_layer):
    staff, t1, _ = people
    from channels.layers import get_channel_layer

    assert type(get_channel_layer()).__name__ == "RedisChannelLayer"

    received = watch(token_of(staff["manager"]), partial(live.publish, "table_opened", t1.pk))

    assert [(message["event"], message["table"]) for message in received] == [("table_opened", t1.pk)]
