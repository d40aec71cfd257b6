"""The live floor: the page, and its cards as JSON for when the page's socket is down."""
from django.urls import path

from . import live_views

urlpatterns = [
    path("", live_views.floor, name="floor"),
    path("cards.json", live_views.cards_json, name="cards"),
]
