"""Settings for the Mah-Jong table audit site.

Everything that differs between a developer's machine and production comes from the
environment. Unset, the site runs as in production: a forgotten variable never opens a debug page
to the casino floor.

- ``DJANGO_DEBUG``: off unless set to 1/true/yes/on (``make run`` sets it). Off means production,
  which then requires ``DJANGO_SECRET_KEY`` (not the built-in development key) and
  ``DJANGO_ALLOWED_HOSTS`` (comma-separated).
- ``DJANGO_SECRET_KEY``: the key that signs sessions and tokens; with DEBUG on, a built-in
  development key when unset.
- ``DJANGO_ALLOWED_HOSTS``, ``DJANGO_CSRF_TRUSTED_ORIGINS``: comma-separated.
- ``DATABASE_URL``: any URL dj-database-url reads, e.g.
  ``postgres://postgres@127.0.0.1:5432/casino``; SQLite ``db.sqlite3`` when unset.
- ``DATABASE_REPLICA_URL``: a streaming replica of that PostgreSQL database, in the same form;
  the audit's, the reports' and the exports' pages read it when set (``REPLICA_PIN_SECONDS``,
  ``REPLICA_LAG_WARN_SECONDS``: described where they are read below).
- In production only: ``DJANGO_SSL_REDIRECT`` (on unless set off), ``DJANGO_HSTS_SECONDS``
  (default one year), ``DJANGO_HSTS_INCLUDE_SUBDOMAINS`` and ``DJANGO_HSTS_PRELOAD`` (both off
  unless set: they bind every subdomain, and preloading is hard to undo).
- ``DJANGO_TRUSTED_PROXIES``, ``DJANGO_SESSION_SECONDS``, ``DJANGO_SESSION_IDLE_SECONDS``,
  ``DJANGO_LOG_LEVEL``, ``GAMING_DAY_STARTS``, ``SHIFTS``, ``COUNT_VARIANCE_ABSOLUTE``,
  ``COUNT_VARIANCE_PERCENT``, ``AUDIT_PAGE_MAX_JOGOS``, ``REDIS_URL``, ``LEDGER_HEADS_DIR``,
  ``LEDGER_PARTITION_MONTHS_AHEAD``, ``LARGE_TRANSACTION_THRESHOLD`` and the alerts' ``ALERT_*``
  thresholds: described where each is read below.
"""

import os
from decimal import Decimal
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    """A yes/no setting from the environment: 1/true/yes/on is yes; unset or empty is `default`."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_flag("DJANGO_DEBUG", default=False)

# Published with the code, so it signs nothing in production, even when set on purpose.
DEVELOPMENT_SECRET_KEY = "django-insecure-dev-only-never-use-in-production"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(",") if h.strip()]
if DEBUG:
    # With DEBUG on and no hosts listed, Django accepts only localhost names.
    SECRET_KEY = SECRET_KEY or DEVELOPMENT_SECRET_KEY
else:
    if not SECRET_KEY:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off.")
    if SECRET_KEY == DEVELOPMENT_SECRET_KEY:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY is the built-in development key, which anyone can read in "
                                   "the code: set a secret one, or DJANGO_DEBUG=1 on a developer's machine.")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must be set when DJANGO_DEBUG is off.")

INSTALLED_APPS = [
    "daphne",  # first: `runserver` then serves ASGI, the floor's WebSocket included (casino/asgi.py)
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "casino.pit",
    "casino.terms",
    "casino.reports",
    "casino.audit",
    "casino.count",
    "casino.calculator",
    "casino.floor",
    "casino.aml",
]

MIDDLEWARE = [
    # First: every request gets its id and its log line, whatever happens further in.
    "casino.middleware.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "casino.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # After the session, the user and the messages: ends a session idle too long, and says why.
    "casino.middleware.SessionIdleMiddleware",
    # After the session: the audit's and the reports' pages read the replica, when there is one.
    "casino.middleware.ReplicaReadsMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: locks out a username after repeated failed logins.
    "axes.middleware.AxesMiddleware",
]

# Security headers on every response (tests/web/test_headers.py). SecurityMiddleware sets
# Referrer-Policy and X-Content-Type-Options: nosniff, XFrameOptionsMiddleware X-Frame-Options;
# ContentSecurityPolicyMiddleware the policy below. Scripts come only from this site's static files
# (no inline script or on* handler in any template); styles may be inline, because the API's docs
# (Swagger UI, Redoc) and the audit pages set them so.
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'", "blob:"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}

# Logs: one JSON object per line on standard error (casino/middleware.py): a line per request
# (time, level, request id, user, method, path, status, duration) from casino.request, and every
# unhandled exception with its traceback (django.request, casino.api). 4xx responses are in the
# request line; django.request adds only server errors.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "casino.middleware.RequestIdFilter"}},
    "formatters": {"json": {"()": "casino.middleware.JsonFormatter"}},
    "handlers": {"stderr": {"class": "casino.middleware.StderrHandler", "formatter": "json",
                            "filters": ["request_id"]}},
    "root": {"handlers": ["stderr"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        "django.request": {"handlers": [], "level": "ERROR", "propagate": True},
        # WeasyPrint reports each step of every PDF at INFO: twenty lines per report, no news.
        "weasyprint": {"handlers": [], "level": "WARNING", "propagate": True},
        "fontTools": {"handlers": [], "level": "WARNING", "propagate": True},
    },
}

AUTHENTICATION_BACKENDS = [
    # First, as django-axes asks: refuses a locked-out login before any other backend is asked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login throttling (django-axes): five failures for one username from one address lock that
# pair out for 15 minutes. The API's token endpoint also has a request rate limit below.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "casino.proxies.client_ip"

# How many reverse proxies of the casino's own stand in front of the application (0: none, the
# connection's address is the client's). Only their entries of X-Forwarded-For are believed.
TRUSTED_PROXIES = int(os.environ.get("DJANGO_TRUSTED_PROXIES", "0"))

# One cache for every worker process, in the database: the API's rate limits count requests
# there, so that three gunicorn workers share one count (pit migration 0004 makes the table).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "casino_cache"}}
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

ROOT_URLCONF = "casino.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "casino.floor.context_processors.open_alerts",
                "casino.replica.lag_banner",
            ],
        },
    },
]

WSGI_APPLICATION = "casino.wsgi.application"
# The site is served through ASGI (docs/deployment.md): HTTP by Django, the floor's WebSocket by
# Channels. Its messages go through Redis when REDIS_URL is set (production: several server
# processes), else through memory in the one process (`make run`, the SQLite tests).
ASGI_APPLICATION = "casino.asgi.application"
WEBSOCKET_URLCONF = "casino.floor.routing"
CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                              "CONFIG": {"hosts": [os.environ["REDIS_URL"]]}}
                  if os.environ.get("REDIS_URL") else {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=600,
        conn_health_checks=True,
    )
}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Write transactions take SQLite's write lock when they begin, so two requests recording at
    # one table queue up instead of failing with "database is locked" half-way.
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Served through ASGI, each request runs in a thread of its own, which ends with it: a
    # connection kept for the thread (CONN_MAX_AGE) would be left open behind it, until the
    # server holds PostgreSQL's every connection. So each request opens its own and closes it,
    # as Django advises under ASGI (a pooler such as PgBouncer in front of PostgreSQL makes the
    # opening cheap: docs/deployment.md).
    DATABASES["default"]["CONN_MAX_AGE"] = 0

# Reads on a streaming replica (casino/db_router.py, docs/deployment.md): the audit's, the
# reports' and the exports' pages read it; everything else, every write and the daily report use
# the primary. A person's pages read the primary for REPLICA_PIN_SECONDS after his own last
# write, so that he sees it; a page that read the replica says how far behind it is once that is
# more than REPLICA_LAG_WARN_SECONDS (casino/replica.py).
if os.environ.get("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = dj_database_url.parse(os.environ["DATABASE_REPLICA_URL"], conn_health_checks=True,
                                                 conn_max_age=DATABASES["default"]["CONN_MAX_AGE"])
    # Under the test runner the alias reads the primary's test database by name (the replica
    # copies it), still on the replica's server; no test database is made on the replica itself.
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    DATABASE_ROUTERS = ["casino.db_router.ReplicaRouter"]
REPLICA_PIN_SECONDS = int(os.environ.get("REPLICA_PIN_SECONDS", "30"))
REPLICA_LAG_WARN_SECONDS = int(os.environ.get("REPLICA_LAG_WARN_SECONDS", "5"))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Internationalisation: the regulation is published in Portuguese and Chinese; staff
# and reports also use English.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("pt", _("Portuguese")),
    ("zh-hant", _("Traditional Chinese")),
    ("en", _("English")),
]
# One catalogue for the interface, the vocabulary and the engine's messages (`make messages`);
# the audit and reports apps keep their own.
LOCALE_PATHS = [BASE_DIR / "casino" / "terms" / "locale"]
USE_I18N = True
TIME_ZONE = "Asia/Macau"
USE_TZ = True
# Dates in each language's own order, times on the 24-hour clock, in Macau time (casino/formats).
FORMAT_MODULE_PATH = ["casino.formats"]

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # The manifest storage needs collectstatic first, so only production uses it.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Gaming days follow casino practice: a day runs from this hour (Macau time) to the same hour
# the next calendar day.
GAMING_DAY_STARTS = os.environ.get("GAMING_DAY_STARTS", "06:00")

# The casino's shifts: the start of each (Macau time), the first at the start of the gaming day;
# each ends when the next starts, the last at the end of the gaming day (casino/count/shifts.py).
SHIFTS = [s.strip() for s in os.environ.get("SHIFTS", "06:00,14:00,22:00").split(",") if s.strip()]
if not SHIFTS or SHIFTS[0] != GAMING_DAY_STARTS:
    raise ImproperlyConfigured("SHIFTS must start with the start of the gaming day (GAMING_DAY_STARTS).")


def longest_shift_seconds(starts: list[str]) -> int:
    """The longest of the shifts that begin at `starts` ("HH:MM", in order through the gaming
    day), the last ending when the first begins again; a single shift is the whole day."""
    minutes = [int(hours) * 60 + int(mins) for hours, mins in (start.split(":") for start in starts)]
    return max((following - start) % (24 * 60) or 24 * 60
               for start, following in zip(minutes, minutes[1:] + minutes[:1])) * 60


# Pit terminals are shared. A session ends this many seconds after its login however busy its
# user (default: the longest shift, so no one outlasts his shift) and once its browser has sent
# nothing for SESSION_IDLE_SECONDS (default 15 minutes, the re-authentication limit of PCI DSS
# 8.2.8): casino.middleware.SessionIdleMiddleware, and static/idle.js in the browser. The API's
# token clients have no session.
SESSION_COOKIE_AGE = int(os.environ.get("DJANGO_SESSION_SECONDS", longest_shift_seconds(SHIFTS)))
SESSION_IDLE_SECONDS = int(os.environ.get("DJANGO_SESSION_IDLE_SECONDS", 15 * 60))
if not 0 < SESSION_IDLE_SECONDS <= SESSION_COOKIE_AGE:
    raise ImproperlyConfigured("DJANGO_SESSION_IDLE_SECONDS must be positive and at most DJANGO_SESSION_SECONDS.")

# A box whose counted commission differs from the expected by more than either threshold opens a
# case (docs/count.md): more than this many whole units, or more than this percentage of
# the expected commission.
COUNT_VARIANCE_ABSOLUTE = int(os.environ.get("COUNT_VARIANCE_ABSOLUTE", "100"))
COUNT_VARIANCE_PERCENT = Decimal(os.environ.get("COUNT_VARIANCE_PERCENT", "2"))

# The audit's commission and exception pages re-score every jogo of their range in the request:
# a range holding more ledger rows than this is refused, so that no page takes more than about
# 2 s (docs/audit.md); the exports and audit_recompute stream any range.
AUDIT_PAGE_MAX_JOGOS = int(os.environ.get("AUDIT_PAGE_MAX_JOGOS", "5000"))

# Money at the table: the casino's rules C-1 and C-2 (docs/rules.md §11, docs/money.md).
# - TABLE_MINIMUM_CAPITAL: {variant: {stake X of the tier X/2X: a lower minimum}}. By default a
#   seat's minimum capital is the most it can be made to pay in one jogo at its tier under the
#   table's rule set, worked out by the engine (regulation/capital.py); a casino may set a lower
#   one per tier here, never a higher one (a system check refuses it);
# - SEAT_MAXIMUM_CAPITAL: the most a seat may hold at stake, in patacas (MOP);
# - LARGE_TRANSACTION_THRESHOLD: DICJ Instruction n.º 1/2016: a player's buy-ins, or his
#   cash-outs, over a gaming day across every table, reaching this many patacas need him
#   identified first;
# - PATRON_RETENTION_DAYS: how long a player's personal data is kept after his last movement
#   (Law 2/2006 keeps records five years); past it, `anonymise_patrons` removes it.
TABLE_MINIMUM_CAPITAL: dict[str, dict[int, int]] = {}
SEAT_MAXIMUM_CAPITAL = int(os.environ.get("SEAT_MAXIMUM_CAPITAL", "10000000"))
LARGE_TRANSACTION_THRESHOLD = int(os.environ.get("LARGE_TRANSACTION_THRESHOLD", "500000"))
PATRON_RETENTION_DAYS = int(os.environ.get("PATRON_RETENTION_DAYS", str(5 * 366)))

# The floor's alerts (casino/floor/rules.py, docs/alerts.md): each rule's thresholds (and the
# money settings above).
# - FLOOR_ALERTS: REFUSALS (that many refused records at one table within REFUSALS_MINUTES);
#   GAME_OPEN_HOURS (a game open longer); IDLE_TABLE_MINUTES (an open table with no jogo for
#   that long); BOX_UNCOUNTED_HOURS (a box not counted that long after its shift ended);
#   CORRECTION_PENDING_MINUTES (a correction waiting that long for its second person);
#   ESCALATE_AFTER_MINUTES (an alert nobody acknowledged that long escalates to the managers).
FLOOR_ALERTS = {
    "REFUSALS": int(os.environ.get("ALERT_REFUSALS", "3")),
    "REFUSALS_MINUTES": int(os.environ.get("ALERT_REFUSALS_MINUTES", "10")),
    "GAME_OPEN_HOURS": int(os.environ.get("ALERT_GAME_OPEN_HOURS", "4")),
    "IDLE_TABLE_MINUTES": int(os.environ.get("ALERT_IDLE_TABLE_MINUTES", "30")),
    "BOX_UNCOUNTED_HOURS": int(os.environ.get("ALERT_BOX_UNCOUNTED_HOURS", "4")),
    "CORRECTION_PENDING_MINUTES": int(os.environ.get("ALERT_CORRECTION_PENDING_MINUTES", "30")),
    "ESCALATE_AFTER_MINUTES": int(os.environ.get("ALERT_ESCALATE_AFTER_MINUTES", "15")),
}

# Scheduled work (casino/celery.py, casino/floor/tasks.py, docs/operations.md): Celery, with Redis
# as the broker when REDIS_URL is set (e.g. redis://127.0.0.1:6379/0; the floor's channel layer
# uses it too). Without it every task runs eagerly in the process that calls it, so that
# `make run` and the tests need no broker. Beat's times are Macau time: the floor's tick every
# minute; the ledger verified against the last saved heads half an hour before the gaming day
# ends, then its heads saved five minutes after, so that each file anchors a whole gaming day
# and each night's verification reaches back to the night before.
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # the nightly jobs are long, and acknowledged only when done
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # the worker logs as the site does, a JSON object a line
CELERY_TIMEZONE = TIME_ZONE
_DAY_STARTS = int(GAMING_DAY_STARTS.split(":")[0]) * 60 + int(GAMING_DAY_STARTS.split(":")[1])


def _daily(minutes_after_day_starts: int) -> crontab:
    at = (_DAY_STARTS + minutes_after_day_starts) % (24 * 60)
    return crontab(hour=at // 60, minute=at % 60)


CELERY_BEAT_SCHEDULE = {
    # A tick not started within the minute is dropped: the next one does its work.
    "floor-tick": {"task": "casino.floor.tasks.tick", "schedule": 60.0, "options": {"expires": 55}},
    "verify-ledger": {"task": "casino.floor.tasks.verify_ledger", "schedule": _daily(-30)},
    "save-ledger-heads": {"task": "casino.floor.tasks.save_ledger_heads", "schedule": _daily(5)},
    # On PostgreSQL, the ledger's monthly partitions made LEDGER_PARTITION_MONTHS_AHEAD ahead (docs/ledger.md).
    "ledger-partitions": {"task": "casino.pit.tasks.make_partitions", "schedule": _daily(60)},
}
# The re-audit's and the verification's shards go to the workers of the queue `audit` (docs/capacity.md).
CELERY_TASK_ROUTES = {"casino.audit.tasks.recompute_shard": {"queue": "audit"},
                      "casino.pit.tasks.verify_table": {"queue": "audit"}}
# How many months ahead of the current one the ledger's partitions are made (PostgreSQL only).
LEDGER_PARTITION_MONTHS_AHEAD = int(os.environ.get("LEDGER_PARTITION_MONTHS_AHEAD", "3"))

# Where save_ledger_heads writes each night's heads, one new read-only file each time; the
# nightly verification reads the latest. In production a write-once mount (WORM storage) the
# database's owner cannot write, and required: the worker and beat refuse to start without it
# (casino/celery.py). On a developer's machine var/heads in the checkout.
LEDGER_HEADS_DIR = os.environ.get("LEDGER_HEADS_DIR", "") or (str(BASE_DIR / "var" / "heads") if DEBUG else "")

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "casino.api_schema.AutoSchema",
    # Every error in one shape, {"errors": [...]} (casino/api_errors.py).
    "EXCEPTION_HANDLER": "casino.api_errors.exception_handler",
    # The API reads JSON only, and refuses JSON nested too deeply or holding a NUL (casino/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["casino.parsers.JSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["casino.api_filters.IdFilterBackend"],  # relations by id only: casino/api_filters.py
    "DEFAULT_THROTTLE_RATES": {"login": "10/minute"},
    "NUM_PROXIES": TRUSTED_PROXIES,  # the client's address as casino.proxies.client_ip reads it
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Mah-Jong table audit API",
    "DESCRIPTION": "Recording and auditing Mah-Jong jogos under Portaria n.º 135/91/M (Macau).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
    # The docs pages load Swagger UI and Redoc from this site (drf-spectacular-sidecar), not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {"MovementKindEnum": "casino.pit.models.Movement.KINDS",
                            "JogoKindEnum": "casino.pit.models.Jogo.KINDS",
                            "AmendmentStateEnum": "casino.pit.models.Amendment.STATES",
                            # The count's: a box's count, a case's state and the step a person takes.
                            "BoxCountStateEnum": "casino.count.blind.STATES",
                            "CaseStateEnum": "casino.count.models.Case.STATES",
                            "CaseStepEnum": "casino.count.api.CASE_STEPS",
                            # The record's seat winds (winner, discarder, claimants, ...: regulation/record.py).
                            "SeatEnum": "regulation.seats.SEATS"},
}

if not DEBUG:
    # Production: HTTPS only (behind a proxy that sets X-Forwarded-Proto).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_flag("DJANGO_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    # Both bind more than this site (every subdomain; browsers' built-in lists, slow to leave):
    # the casino's operators turn them on when they know the whole domain serves HTTPS only.
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("DJANGO_HSTS_INCLUDE_SUBDOMAINS", default=False)
    SECURE_HSTS_PRELOAD = env_flag("DJANGO_HSTS_PRELOAD", default=False)
    # `check --deploy` would warn of each flag left off: that is this default, chosen above.
    SILENCED_SYSTEM_CHECKS = [check for check, on in (("security.W005", SECURE_HSTS_INCLUDE_SUBDOMAINS),
                                                      ("security.W021", SECURE_HSTS_PRELOAD)) if not on]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",")
                            if o.strip()]
