"""WSGI entry point, e.g. ``gunicorn casino.wsgi``."""
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

application = get_wsgi_application()

# Import the URLconf (every view, the API and what they use) now, as the worker starts, rather
# than on its first request: that took about 0.45 s, and the request waited for it.
get_resolver().url_patterns  # noqa: B018
