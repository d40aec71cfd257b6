"""The alerts' screens under /floor/alerts/ (namespace "floor")."""
from django.urls import path

from . import alert_views

urlpatterns = [
    path("", alert_views.alert_list, name="alerts"),
    path("<int:pk>/acknowledge", alert_views.acknowledge, name="acknowledge_alert"),
]
