"""The supervisor who witnesses a seating's buy-ins, when a dealer seats the game: he confirms it
at the dealer's screen or in the dealer's API request with his own username and password
(docs/money.md). They are checked by Django's own `authenticate`, as a login is: django-axes
counts each failure towards the lockout of that username from that address. The witness is not
logged in, and neither his password nor his username is repeated in any message or log here.
"""
from __future__ import annotations

from django.contrib.auth import authenticate
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest

from .errors import refuse
from .services.recording import WITNESS_CREDENTIALS, WITNESS_LOCKED_OUT


def witness_from(request: HttpRequest, username: str | None, password: str | None) -> AbstractBaseUser | None:
    """The person whose `username` and `password` these are, or None when neither is given (the
    service then asks a witness of a person who is not a supervisor). Refused (field "witness")
    when they do not match an active account, and while that username is locked out. Whether he
    is a supervisor of the table is the service's check (`services.start_game`)."""
    if not username and not password:
        return None
    person = authenticate(request, username=username, password=password) if username and password else None
    if getattr(request, "axes_locked_out", False):
        raise refuse(code="locked_out", field="witness", template=WITNESS_LOCKED_OUT)
    if person is None:
        raise refuse(code="witness", field="witness", template=WITNESS_CREDENTIALS)
    return person
