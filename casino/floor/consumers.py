"""The floor's socket, `/ws/floor/` (routing.py): one JSON message per event at a table, as live.py
publishes it, carrying only the cards the person may see (docs/floor.md gives the shape).

Whom it serves is `cards.may_watch`'s answer: supervisors (their assigned tables), inspectors and
managers (every table), at the casinos each is given only (docs/casinos.md: a card carries its
casino), each player's name as the person may read it (`cards.for_person`).
Anyone else is let in only to be told why, and closed: 4401 for nobody signed in, 4403 for a
person whose role does not see the floor (the close codes of a browser's WebSocket carry no
text; the page says them in the person's language)."""
from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from casino.pit.access import casino_ids

from . import cards, live

NOBODY, NOT_ALLOWED = 4401, 4403


class FloorConsumer(AsyncJsonWebsocketConsumer):
    casinos: frozenset[int] = frozenset()  # the casinos whose cards the person sees
    tables: set[int] | None = None  # the tables of those whose cards he sees; None: every table of them
    names: dict | None = None  # whose players' names the person reads (`cards.reader`)

    async def connect(self) -> None:
        user = self.scope.get("user")
        await self.accept()
        if user is None or not user.is_authenticated:
            await self.close(code=NOBODY)
            return
        allowed, self.casinos, self.tables, self.names = await self._access(user)
        if not allowed:
            await self.close(code=NOT_ALLOWED)
            return
        await self.channel_layer.group_add(live.GROUP, self.channel_name)
        live.serving()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(live.GROUP, self.channel_name)

    async def receive_json(self, content, **kwargs) -> None:
        """The floor only speaks; what a client says is ignored."""

    async def floor_event(self, message: dict) -> None:
        shown = [card for card in message["cards"] if card["casino"] in self.casinos
                 and (self.tables is None or card["id"] in self.tables)]
        if message["table"] is not None and not shown:
            return  # a table this person does not see
        await self.send_json({"event": message["event"], "table": message["table"], "at": message["at"],
                              "cards": cards.for_person(shown, **self.names)})

    @database_sync_to_async
    def _access(self, user) -> tuple[bool, frozenset[int], set[int] | None, dict | None]:
        if not cards.may_watch(user):
            return False, frozenset(), None, None
        names, casinos = cards.reader(user), casino_ids(user)
        if user.has_perm("pit.view_all_tables"):
            return True, casinos, None, names
        return True, casinos, set(cards.shown_to(user).values_list("pk", flat=True)), names
