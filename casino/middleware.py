"""Request-wide middleware: a request id and one log line per request, the security headers
Django does not set by itself (the Content-Security-Policy), the end of idle sessions, and which
pages read the streaming replica.

Logs go to standard error as one JSON object per line (`JsonFormatter`, configured in
settings.LOGGING): the request line is logger ``casino.request``; an unhandled exception is
logged by Django (``django.request``) or by the API's exception handler (``casino.api``) with
its traceback, under the same request id.
"""
from __future__ import annotations

import contextvars
import datetime as dt
import json
import logging
import re
import sys
import time
import traceback
import uuid

from django.conf import settings
from django.contrib import auth, messages
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.db_router import reading_replica

REQUEST_ID_HEADER = "X-Request-ID"
# A caller's id is kept when it is a plain token (a proxy's or a client's); anything else is
# replaced, so that a log line never carries what a stranger chose to inject.
VALID_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,100}$")

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
logger = logging.getLogger("casino.request")


class RequestLogMiddleware:
    """Takes the request's X-Request-ID (or makes one), echoes it in the response, and logs one
    line per request: time, level, request id, user, method, path, status and duration."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        given = request.headers.get(REQUEST_ID_HEADER, "")
        request.request_id = given if VALID_REQUEST_ID.match(given) else uuid.uuid4().hex
        token = request_id.set(request.request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response[REQUEST_ID_HEADER] = request.request_id
            user = getattr(request, "user", None)
            level = logging.ERROR if response.status_code >= 500 else (
                logging.WARNING if response.status_code >= 400 else logging.INFO)
            logger.log(level, "%s %s %s", request.method, request.path, response.status_code, extra={
                "user": user.get_username() if user is not None and user.is_authenticated else None,
                "method": request.method, "path": request.path, "status": response.status_code,
                "duration_ms": round((time.perf_counter() - started) * 1000, 1)})
            return response
        finally:
            request_id.reset(token)


class RequestIdFilter(logging.Filter):
    """Puts the current request's id on every log record made while it is served."""

    def filter(self, record):
        record.request_id = request_id.get()
        return True


class StderrHandler(logging.StreamHandler):
    """Writes to whatever sys.stderr is when a record comes (a test runner may swap it)."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        pass


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC), level, logger, request id, message, the request's
    fields when the record has them, and the traceback of an exception."""

    FIELDS = ("user", "method", "path", "status", "duration_ms")

    def format(self, record):
        line = {"time": dt.datetime.fromtimestamp(record.created, dt.timezone.utc).isoformat(timespec="milliseconds"),
                "level": record.levelname, "logger": record.name,
                "request_id": getattr(record, "request_id", request_id.get()), "message": record.getMessage()}
        for field in self.FIELDS:
            if hasattr(record, field):
                line[field] = getattr(record, field)
        if record.exc_info:
            line["traceback"] = "".join(traceback.format_exception(*record.exc_info))
        return json.dumps(line, ensure_ascii=False, default=str)


class ContentSecurityPolicyMiddleware:
    """Sets settings.CONTENT_SECURITY_POLICY on every response that has none: scripts only from
    this site's files (no inline script or on* handler anywhere), no framing."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.policy = "; ".join(f"{name} {' '.join(sources)}"
                                for name, sources in settings.CONTENT_SECURITY_POLICY.items())

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self.policy)
        return response


# When the session's last request came (seconds since the epoch, time.time()).
LAST_SEEN = "casino.last_seen"


class SessionIdleMiddleware:
    """Ends a signed-in session whose last request came settings.SESSION_IDLE_SECONDS ago or more,
    and leaves a message for the login page the request then leads to; keeps a session to
    settings.SESSION_COOKIE_AGE from its login, however busy (docs/deployment.md).

    Only sessions: a token client of the API has no session, and none is made for it. Every
    signed-in page hands the limit to static/idle.js (`request.session_idle_seconds`), which
    sends an idle browser to the login page once it has passed."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        session, now = request.session, time.time()
        request.session_idle_seconds = settings.SESSION_IDLE_SECONDS
        if auth.SESSION_KEY in session and now - session.get(LAST_SEEN, now) >= settings.SESSION_IDLE_SECONDS:
            auth.logout(request)
            messages.info(request, _("You were logged out after a period of inactivity. Log in again to continue."))
        key = session.session_key
        response = self.get_response(request)
        if auth.SESSION_KEY in session:
            if LAST_SEEN not in session or session.session_key != key:
                # Signed in during this request (a login changes the key): the session's end is
                # fixed now, not pushed back by each request that saves it.
                session.set_expiry(timezone.now() + dt.timedelta(seconds=settings.SESSION_COOKIE_AGE))
            session[LAST_SEEN] = now
        return response


# The pages that read the replica when there is one (casino/db_router.py), by URL namespace: every
# page of the audit, its exports included; of the reports only the managers' index, since the
# daily report (its PDF, the close and the reopen of the day) is made from the primary, the ledger
# itself. The pit's, the count room's, the floor's, the money's and the API's pages read the
# primary: their readers are the people who write there, and act on what they read.
REPLICA_PAGES: dict[str, frozenset[str] | None] = {
    "audit": None,  # every page
    "reports": frozenset({"index"}),
}
SAFE_METHODS = frozenset({"GET", "HEAD"})
# When the session's person last wrote (seconds since the epoch, time.time()).
WROTE_AT = "casino.wrote_at"


def _replica_page(path: str, urlconf=None) -> bool:
    try:
        match = resolve(path, urlconf)
    except Resolver404:
        return False
    if match.namespace not in REPLICA_PAGES:
        return False
    names = REPLICA_PAGES[match.namespace]
    return names is None or match.url_name in names


def _on_replica(chunks):
    """A streamed response's chunks, each made inside `reading_replica()`: an export's rows are
    read as it is sent, after the view has returned. One block a chunk, so that each begins and
    ends in the same thread and context, wherever the server iterates."""
    chunks = iter(chunks)
    while True:
        with reading_replica():
            try:
                chunk = next(chunks)
            except StopIteration:
                return
        yield chunk


class ReplicaReadsMiddleware:
    """Runs a request inside `reading_replica()` (casino/db_router.py) when it reads (GET or HEAD)
    one of REPLICA_PAGES and its person has not written in the last settings.REPLICA_PIN_SECONDS;
    sets `request.reads_replica` accordingly. After any other request that succeeded (below 400),
    notes in the session when its person wrote: the pages he reads next show his own write, even
    on a replica a little behind.

    Decided before the view runs, from the path (not in process_view), so that the view, its
    template and a streamed body all run inside the block. Harmless where there is no replica:
    the router that acts on the block is then not installed."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.reads_replica = (
            request.method in SAFE_METHODS
            and _replica_page(request.path_info, getattr(request, "urlconf", None))
            and time.time() - request.session.get(WROTE_AT, 0) >= settings.REPLICA_PIN_SECONDS)
        if request.reads_replica:
            with reading_replica():
                response = self.get_response(request)
            if response.streaming and not response.is_async:
                response.streaming_content = _on_replica(response.streaming_content)
            return response
        response = self.get_response(request)
        if request.method not in SAFE_METHODS and response.status_code < 400 and auth.SESSION_KEY in request.session:
            request.session[WROTE_AT] = time.time()
        return response
