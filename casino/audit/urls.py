from django.urls import path

from . import views

app_name = "audit"

urlpatterns = [
    path("", views.index, name="index"),
    path("commission/", views.commission, name="commission"),
    path("exceptions/", views.exception_queue, name="exceptions"),
    path("jogos/<int:pk>/", views.jogo, name="jogo"),
    path("export/", views.export, name="export"),
]
