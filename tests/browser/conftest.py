"""The fixtures of the browser tests: one Chromium per module, and the `Screen` on it for a test.
Every test under tests/browser/ carries the `browser` marker (`-m "not browser"` leaves them out)."""
from __future__ import annotations

from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from tests.browser.screen import CHROMEDRIVER, CHROMIUM, Screen

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items):
    for item in items:
        if HERE in Path(item.fspath).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="module")
def browser():
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.fail("Debian's chromium and chromium-driver are needed: run `bash scripts/bootstrap` as root")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000",
                     "--lang=en-GB"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


@pytest.fixture
def screen(browser, live_server) -> Screen:
    return Screen(browser, live_server)


# --- An ASGI live server, for the pages that hold a WebSocket open (the floor) -------------------------

class AsgiServer:
    """The site as production serves it through ASGI (casino/asgi.py: HTTP by Django, the floor's
    WebSocket by Channels), run by uvicorn in a thread of the test's process, on the test database,
    with the static files served from the finders as pytest-django's `live_server` serves them.
    (pytest-django's `live_server` is WSGI; Daphne's Twisted reactor starts once per process.)

    An in-memory SQLite test database lives in the test's own connection: the server's thread for
    synchronous code (asgiref's one thread for the database) is handed that connection, as Django's
    LiveServerThread hands it to its request threads. On PostgreSQL each thread has its own.

    - `call(function)` runs `function` in that thread, as a view's code runs: a service's commit
      then tells the floor through the same (in-memory) channel layer the sockets listen on.
    - `drop_sockets()` closes every open WebSocket (code 1012, "service restart") and refuses new
      ones, HTTP still served, until `let_sockets_in()`."""

    def __init__(self):
        import asyncio
        import threading

        import uvicorn
        from channels.routing import ProtocolTypeRouter
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        import casino.asgi

        self.asyncio, self.open, self.drops = asyncio, True, set()
        application = ProtocolTypeRouter({"http": ASGIStaticFilesHandler(casino.asgi.http),
                                          "websocket": self._gated(casino.asgi.application)})
        self.server = uvicorn.Server(uvicorn.Config(application, host="127.0.0.1", port=0, lifespan="off",
                                                    ws="wsproto", log_level="warning"))
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("the ASGI test server did not start")
            self.thread.join(0.05)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://localhost:{port}"
        self.call(self._share_the_test_database)

    def _run(self):
        self.loop = self.asyncio.new_event_loop()
        self.asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.serve())

    @staticmethod
    def _share_the_test_database():
        from django.db import connections

        for alias in connections:
            connection = connections[alias]
            if connection.vendor == "sqlite" and connection.is_in_memory_db():
                connections[alias] = AsgiServer.shared[alias]

    def call(self, function, *args, **kwargs):
        from asgiref.sync import sync_to_async

        done = self.asyncio.run_coroutine_threadsafe(sync_to_async(function)(*args, **kwargs), self.loop)
        return done.result(timeout=60)

    def _gated(self, application):
        asyncio = self.asyncio

        async def gate(scope, receive, send):
            if not self.open:
                await receive()  # the client's connect
                await send({"type": "websocket.close", "code": 1012})
                return
            dropped = asyncio.Event()
            self.drops.add(dropped)

            async def gated_receive():
                getter, waiter = asyncio.ensure_future(receive()), asyncio.ensure_future(dropped.wait())
                done, _ = await asyncio.wait({getter, waiter}, return_when=asyncio.FIRST_COMPLETED)
                if getter in done:
                    waiter.cancel()
                    return getter.result()
                getter.cancel()
                await send({"type": "websocket.close", "code": 1012})
                return {"type": "websocket.disconnect", "code": 1012}

            try:
                await application(scope, gated_receive, send)
            finally:
                self.drops.discard(dropped)
        return gate

    def drop_sockets(self):
        def shut():
            self.open = False
            for dropped in self.drops:
                dropped.set()
        self.loop.call_soon_threadsafe(shut)

    def let_sockets_in(self):
        self.open = True

    def stop(self):
        from django.db import connections

        self.call(connections.close_all)  # PostgreSQL: the test database is dropped at the end
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def asgi_server(transactional_db, settings):
    from django.db import connections

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "localhost"]  # as pytest-django's live_server does
    AsgiServer.shared = {alias: connections[alias] for alias in connections}
    for connection in AsgiServer.shared.values():
        if connection.vendor == "sqlite" and connection.is_in_memory_db():
            connection.inc_thread_sharing()
    server = AsgiServer()
    yield server
    server.stop()
    for connection in AsgiServer.shared.values():
        if connection.vendor == "sqlite" and connection.is_in_memory_db():
            connection.dec_thread_sharing()
