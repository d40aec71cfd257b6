"""Players' names in templates, as the reader may see them (casino/pit/privacy.py).

Usage, in any template rendered with a request (the reader is `request.user`):

    {% load privacy %}
    {% shown_name player.name table %}      a seated player's name at `table` (a Table or its id):
                                            plain for inspectors, managers and the table's
                                            supervisors, masked ("C*** T** M**") for anybody else
    {% shown_name movement.patron.name %}   without a table: plain for inspectors and managers only
    {% patron_name patron %}                a player's record (a `Patron`): his name as the reader
                                            may see it, or "anonymised player 12" once his personal
                                            data is gone
    {% shown_name player.name table as name %}   any of them into a variable

A document number is never shown through a tag: a view reads it with `privacy.read_document`,
which logs the read.
"""
from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from casino.pit import privacy
from casino.pit.models import Patron, Table

register = template.Library()


def _reader(context):
    request = context.get("request")
    return request.user if request is not None else context.get("user")


@register.simple_tag(takes_context=True)
def shown_name(context, name: str, table: Table | int | None = None) -> str:
    reader = _reader(context)
    if reader is None:
        return privacy.mask_name(name)
    return privacy.shown_name(reader, name, table)


def patron_label(user, patron: Patron, *, readable: bool = False) -> str:
    """A player's record named for `user`: his name, masked unless `privacy.sees_patron` (or
    `readable`: he comes from `privacy.readable_patrons(user)`, whom the user sees by name), or
    "anonymised player N"."""
    if patron.anonymised_at is not None:
        return _("anonymised player %(id)s") % {"id": patron.pk}
    if readable or (user is not None and privacy.sees_patron(user, patron)):
        return patron.name
    return privacy.mask_name(patron.name)


@register.simple_tag(takes_context=True)
def patron_name(context, patron: Patron) -> str:
    return patron_label(_reader(context), patron)
