"""The floor's screens under /floor/: the live floor (live_urls.py), its alerts (alert_urls.py)
and the search (search_urls.py)."""
from django.urls import include, path

app_name = "floor"
urlpatterns = [
    path("", include("casino.floor.live_urls")),
    path("alerts/", include("casino.floor.alert_urls")),
    path("search/", include("casino.floor.search_urls")),
]
