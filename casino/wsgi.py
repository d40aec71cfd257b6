"""WSGI entry point, e.g. ``gunicorn casino.wsgi``."""
import logging
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

application = get_wsgi_application()

# Import the URLconf (every view, the API and what they use) now, as the worker starts, rather
# than on its first request: that took about 0.45 s, and the request waited for it.
get_resolver().url_patterns  # noqa: B018

# Load WeasyPrint and the printed page's fonts, and compile the daily report's templates, now
# rather than on the first report a manager asks for: that took about a second more than the
# next ones (casino/reports/pdf.py, `warm_up`). Should it fail (fonts or Pango missing, say), the
# site still starts: only printing waits for its first use, and says what is wrong then.
from casino.reports.pdf import warm_up  # noqa: E402 (needs the application set up)

try:
    warm_up()
except Exception:  # noqa: BLE001 (any failure: printing is not the site)
    logging.getLogger(__name__).exception("the daily report could not be warmed up")
