"""The pit's screens under /pit/ (the API is api_urls.py)."""
from django.urls import include, path

from . import correction_views, floor_views, patron_urls, views

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
    # The floor: cash, tables and games (floor_views.py).
    path("tables/<int:pk>/money", floor_views.money, name="money"),
    path("tables/<int:pk>/open", floor_views.open_close, {"is_open": True}, name="open_table"),
    path("tables/<int:pk>/close", floor_views.open_close, {"is_open": False}, name="close_table"),
    path("tables/<int:pk>/rule-set", floor_views.change_rule_set, name="rule_set"),
    path("tables/<int:pk>/history", floor_views.history, name="history"),
    path("tables/<int:pk>/day", floor_views.day_summary, name="day_summary"),
    path("games/<int:pk>/summary", floor_views.game_summary, name="game_summary"),
    path("refusals/", floor_views.refusals, name="refusals"),
    path("refusals/<int:pk>/confirm", floor_views.confirm_refusal, name="confirm_refusal"),
    # Players as people (patron_views.py).
    path("players/", include(patron_urls.urlpatterns)),
]
