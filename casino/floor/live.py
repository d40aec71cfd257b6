"""What the floor tells every open floor view: one message per event, carrying the cards it
changed, so that a view never fetches anything to show it (docs/floor.md gives the shape).

`publish(event, table_id)` is the one entry point: call it after the transaction that made the
change commits (`transaction.on_commit(partial(live.publish, "alert_raised", table_id))`). The
message goes through the channel layer (Redis in production, in memory in `make run` and the
SQLite tests: settings.CHANNEL_LAYERS) to the group every floor socket joins (consumers.py);
each socket passes on what its person may see.

Where this process serves floor sockets (`serving`, told by the consumer), the request that
made the change does not wait for the cards: the event is handed to a task on the server's event
loop, which reads the cards of every event waiting at once (a card costs the same queries for
one table as for forty) and sends one message per event. Elsewhere (a worker, a management
command, a process serving no socket), `publish` reads the card and sends it itself.
"""
from __future__ import annotations

import asyncio
import contextvars
import logging

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from casino.pit.models import Table

from . import cards

GROUP = "floor"  # every open floor view listens here
MESSAGE = "floor.event"  # the channel layer's message type, handled by FloorConsumer.floor_event

log = logging.getLogger(__name__)

_loop: asyncio.AbstractEventLoop | None = None  # the event loop serving this process's floor sockets
_waiting: dict[asyncio.AbstractEventLoop, asyncio.Queue] = {}


def messages(events: list[tuple[str, int | None]]) -> list[dict]:
    """One message per event, each with its table's card as the database stands now, or every
    table's for an event of the whole floor (None); the cards read once for all the events."""
    ids = {table_id for _event, table_id in events}
    tables = Table.objects.all() if None in ids else Table.objects.filter(pk__in=ids)
    found = cards.cards(cards.floor_tables(tables))
    by_id = {card["id"]: card for card in found}
    at = timezone.now().isoformat()
    return [{"type": MESSAGE, "event": event, "table": table_id, "at": at,
             "cards": found if table_id is None else [by_id[table_id]] if table_id in by_id else []}
            for event, table_id in events]


def message(event: str, table_id: int | None) -> dict:
    """The message for one event (`messages`)."""
    return messages([(event, table_id)])[0]


def publish(event: str, table_id: int | None) -> None:
    """Tell the open floor views that `event` happened at table `table_id` (None: the whole floor).
    Called after a commit, it never fails the request that made the change: a channel layer out
    of reach is logged, and the views, which notice a dropped socket, refresh by themselves."""
    loop = _loop
    try:
        if loop is not None and loop.is_running() and not _on(loop):
            # A context of its own: the request's (asgiref's executor for it) ends with the request.
            loop.call_soon_threadsafe(_hand_over, (event, table_id), context=contextvars.Context())
            return
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(GROUP, message(event, table_id))
    except Exception:  # noqa: BLE001 (the change is committed; the floor catches up by itself)
        log.exception("the floor views were not told of %s at table %s", event, table_id)


def serving() -> None:
    """Called on the event loop that serves a floor socket (consumers.py): events are handed to it."""
    global _loop
    _loop = asyncio.get_running_loop()


def _on(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def _hand_over(event: tuple[str, int | None]) -> None:
    """On the serving loop: queue the event for the loop's sender, started on the first event."""
    loop = asyncio.get_running_loop()
    if loop not in _waiting:
        _waiting[loop] = asyncio.Queue()
        loop.create_task(_send(_waiting[loop]))
    _waiting[loop].put_nowait(event)


async def _send(queue: asyncio.Queue) -> None:
    """Send the waiting events, as many at a time as have gathered while the last were sent."""
    while True:
        events = [await queue.get()]
        while not queue.empty():
            events.append(queue.get_nowait())
        try:
            layer = get_channel_layer()
            for made in await database_sync_to_async(messages)(events):
                await layer.group_send(GROUP, made)
        except Exception:  # noqa: BLE001 (the next events are sent all the same)
            log.exception("the floor views were not told of %s", events)
