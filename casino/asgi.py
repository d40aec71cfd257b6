"""ASGI entry point, e.g. ``daphne casino.asgi:application`` (docs/deployment.md): HTTP is Django's
own, as under WSGI; a WebSocket goes to the application of the module named by the setting
WEBSOCKET_URLCONF (the floor's socket, casino/floor/routing.py), read by name once Django is set
up, as Django reads ROOT_URLCONF: this entry point names no app's code."""
import os

from channels.routing import ProtocolTypeRouter
from django.conf import settings
from django.core.asgi import get_asgi_application
from django.urls import get_resolver
from django.utils.module_loading import import_string

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

http = get_asgi_application()  # sets Django up: the apps are ready before the socket's routing is read

application = ProtocolTypeRouter({
    "http": http,
    "websocket": import_string(settings.WEBSOCKET_URLCONF + ".application"),
})

# As in wsgi.py: the URLconf is read now, as the server starts, not on its first request.
get_resolver().url_patterns  # noqa: B018
