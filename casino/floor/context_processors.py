"""The top bar's counter of open alerts (templates/floor/_alert_counter.html), for everyone who
may act on alerts."""
from __future__ import annotations

from django.utils.functional import SimpleLazyObject


def open_alerts(request) -> dict:
    """`open_alerts`: {"show": True, "open": n, "escalated": m} of the alerts the person sees, read with one
    query when a page's top bar shows it (lazily: a page without the bar, or a person without
    `floor.view_alert`, costs none)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    def counts() -> dict:
        if not user.has_perm("floor.view_alert"):
            return {"show": False}
        from .alert_selectors import open_counts

        return {"show": True, **open_counts(user)}

    return {"open_alerts": SimpleLazyObject(counts)}
