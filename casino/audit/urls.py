from django.urls import path

from . import views

app_name = "audit"

urlpatterns = [
    path("", views.index, name="index"),
    path("commission/", views.commission, name="commission"),
    path("group/", views.group, name="group"),
    path("exceptions/", views.exception_queue, name="exceptions"),
    path("jogos/<int:pk>/", views.jogo, name="jogo"),
    path("readings/", views.readings, name="readings"),
    path("export/", views.export, name="export"),
    path("tables/<int:pk>/trend/", views.trend, name="trend"),
    path("accounted/", views.accounted, name="accounted"),
    path("mtl/", views.mtl, name="mtl"),
    path("mtl/export/", views.mtl_export, name="mtl_export"),
    path("flags/", views.flags, name="flags"),
    path("flags/<int:pk>/", views.flag, name="flag"),
    path("flags/<int:pk>/comment", views.comment, name="comment"),
    path("flags/<int:pk>/resolve", views.resolve, name="resolve"),
]
