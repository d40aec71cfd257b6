"""The pit's API routes, mounted at /api/v1/ (casino/api_urls.py)."""
from django.urls import include, path
from rest_framework.routers import DefaultRouter

from . import api, patron_api_urls

# DefaultRouter for the format suffixes (/api/v1/tables.json) it has always answered; the API's
# root is the project's (casino/api_urls.py).
router = DefaultRouter()
router.include_root_view = False
router.register("tables", api.TableViewSet)
router.register("games", api.GameViewSet)
router.register("jogos", api.JogoViewSet)
router.register("movements", api.MovementViewSet)
router.register("amendments", api.AmendmentViewSet)
router.register("refusals", api.RefusalViewSet)
router.register("movement-refusals", api.MovementRefusalViewSet)
router.register("flags", api.FlagViewSet)

urlpatterns = [
    path("", include(router.urls)),
    path("gaming-days/close/", api.DayCloseApi.as_view(), name="api-day-close"),
    path("players/", include(patron_api_urls.urlpatterns)),
]
