from django.urls import include, path
from rest_framework.routers import DefaultRouter

from . import api

router = DefaultRouter()
router.register("tables", api.TableViewSet)
router.register("games", api.GameViewSet)
router.register("jogos", api.JogoViewSet)
router.register("movements", api.MovementViewSet)
router.register("amendments", api.AmendmentViewSet)
router.register("refusals", api.RefusalViewSet)
router.register("flags", api.FlagViewSet)

urlpatterns = [
    path("", include(router.urls)),
    path("gaming-days/close/", api.DayCloseApi.as_view(), name="api-day-close"),
    path("auth/token/", api.TokenView.as_view(), name="api-token"),
    path("schema/", api.SchemaView.as_view(), name="api-schema"),
    path("docs/", api.DocsView.as_view(url_name="api-schema"), name="api-docs"),
    path("redoc/", api.RedocView.as_view(url_name="api-schema"), name="api-redoc"),
]
