"""Template filters of the inspector's pages."""
from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def figure(value):
    """A stored or recomputed figure as a person reads it: yes or no for a flag, else as it is."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return value
