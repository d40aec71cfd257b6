"""/floor/search/: the one search box's page."""
from django.urls import path

from . import search_views

urlpatterns = [path("", search_views.search, name="search")]
