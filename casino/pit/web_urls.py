"""The dealer's screens under /pit/ (the API is under /api/v1/, see urls.py)."""
from django.urls import path

from . import correction_views, views

app_name = "pit"
urlpatterns = [
    path("", views.tables, name="tables"),
    path("tables/<int:pk>/", views.table, name="table"),
    path("tables/<int:pk>/seat", views.seat, name="seat"),
    path("tables/<int:pk>/end", views.end, name="end"),
    path("tables/<int:pk>/jogo", views.jogo, name="jogo"),
    path("tables/<int:pk>/preview", views.preview, name="preview"),
    path("jogos/<int:pk>/", views.receipt, name="receipt"),
    path("jogos/<int:pk>/correction", correction_views.propose, name="propose_correction"),
    path("jogos/<int:pk>/correction/preview", correction_views.preview, name="correction_preview"),
    path("corrections/", correction_views.pending, name="corrections"),
    path("corrections/<int:pk>/", correction_views.correction, name="correction"),
]
