"""The top bar's item for corrections: the pending page, and for those who may decide how many
corrections wait for them (one query)."""
from __future__ import annotations

from django import template

from casino.pit.corrections import awaiting_count

register = template.Library()


@register.inclusion_tag("pit/corrections/_nav.html", takes_context=True)
def corrections_nav(context) -> dict:
    user = context.get("user")
    if user is None or not user.has_perm("pit.view_amendment"):
        return {"show": False}
    return {"show": True, "count": awaiting_count(user)}
