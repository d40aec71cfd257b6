"""A counter signs a count by confirming his password. Through a request, the password is
checked by Django's `authenticate`, so that django-axes counts a wrong one toward the same
lockout as a failed login (five, then a cool-off: settings AXES_*), and a locked-out counter
cannot sign either. Without a request (the demo, the services' own tests) the password is
checked directly."""
from __future__ import annotations

from django.contrib.auth import authenticate
from django.contrib.auth.base_user import AbstractBaseUser as User
from django.utils.translation import gettext_noop

from casino.pit.errors import refuse


def confirm_password(user: User, password: str, request=None) -> None:
    """Refuse unless `password` is the counter's own."""
    if request is None:
        confirmed = bool(password) and user.check_password(password)
    else:
        confirmed = authenticate(request, username=user.get_username(), password=password or "") == user
        if getattr(request, "axes_locked_out", False):
            raise refuse(code="locked_out", field="password",
                         template=gettext_noop("Password: too many wrong passwords; signing and logging in are "
                                               "locked for a while. Ask a manager if you need to sign now."))
    if not confirmed:
        raise refuse(code="password", template=gettext_noop("Password: it does not match; a counter signs a count by "
                                                            "confirming his own password."), field="password")
