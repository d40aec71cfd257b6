"""A counter signs a count by confirming his password. Through a request, the password is
checked by Django's `authenticate`, so that django-axes counts a wrong one toward the same
lockout as a failed login (five, then a cool-off: settings AXES_*), and a locked-out counter
cannot sign either. Without a request (the demo, the services' own tests) the password is
checked directly."""
from __future__ import annotations

from django.contrib.auth import authenticate
from django.utils.translation import gettext_noop

from casino.pit.errors import refuse


def confirm_password(counter, password: str, request=None) -> None:
    """Refuse unless `password` is the counter's own."""
    if request is None:
        confirmed = bool(password) and counter.check_password(password)
    else:
        confirmed = authenticate(request, username=counter.get_username(), password=password or "") == counter
        if getattr(request, "axes_locked_out", False):
            raise refuse("locked_out", None,
                         gettext_noop("Password: too many wrong passwords; signing and logging in are locked for a "
                                      "while. Ask a manager if you need to sign now."), "password")
    if not confirmed:
        raise refuse("password", None, gettext_noop("Password: it does not match; a counter signs a count by "
                                                    "confirming his own password."), "password")
