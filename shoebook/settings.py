"""Shoebook settings: one file, read from the environment with safe development defaults.

Production (DEBUG off) refuses to start without SECRET_KEY and ALLOWED_HOSTS.
"""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path

import dj_database_url
import django_stubs_ext
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from shoebook.base.env import env_bool, env_int, env_list, env_networks, env_str

# Django's generic classes subscriptable at run time, as django-stubs types them
# (``admin.ModelAdmin[Guest]``, ``forms.ModelForm[Event]``): adds ``__class_getitem__`` only.
django_stubs_ext.monkeypatch()


class _TablesWithoutPostgres:
    """django-tables2 imports ``django.contrib.postgres`` only to learn whether ``HStoreField``
    exists (for its ``JSONColumn``, which no table here uses), and with it psycopg: some 80 ms of
    every process's start, a fifth of ``manage.py baccarat_odds``. This import hook refuses that
    one import, from that one module while it loads, so it takes its "no PostgreSQL" branch; then
    it steps aside. The PostgreSQL backend still imports psycopg itself when ``DATABASE_URL`` names
    a PostgreSQL database, and ``django.contrib.postgres`` stays importable.
    """

    HIDDEN = "django.contrib.postgres.fields"
    ASKING = "django_tables2.columns.jsoncolumn"

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
        if fullname != self.HIDDEN:
            return None
        sys.meta_path.remove(self)
        asking = sys.modules.get(self.ASKING)
        if asking is not None and not hasattr(asking, "POSTGRES_AVAILABLE"):
            raise ModuleNotFoundError(f"{self.HIDDEN} not wanted by {self.ASKING}", name=fullname)
        return None


if "django_tables2" not in sys.modules:
    sys.meta_path.insert(0, _TablesWithoutPostgres())

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=True)

_DEV_SECRET_KEY = "django-insecure-development-only-never-in-production"
SECRET_KEY = env_str("SECRET_KEY") or (_DEV_SECRET_KEY if DEBUG else None)
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off.")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "django_tables2",
    "csp",
    "axes",
    "django_filters",
    "games",
    "ledger",
    "tournaments",
]

MIDDLEWARE = [
    "shoebook.middleware.forwarded_proto_middleware",
    "shoebook.middleware.drawn_at_middleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "shoebook.middleware.form_charset_middleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "shoebook.middleware.LoginRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "shoebook.middleware.DatabaseBusyMiddleware",
    "shoebook.middleware.private_link_middleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes requires: it turns a locked-out login into a refusal.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "shoebook.base.roles.RolesBackend",
    # Only for sessions begun before RolesBackend: a session names the backend that logged it in.
    "django.contrib.auth.backends.ModelBackend",
]
# The proxies trusted to name the client in X-Forwarded-For (the same variable gunicorn reads):
# none unless the operator names them. ``shoebook.accounts.client_address`` is the one reader.
TRUSTED_PROXIES = env_networks("FORWARDED_ALLOW_IPS")
# Password guessing: five wrong passwords for one username from one address lock that pair out for
# fifteen minutes (a stranger elsewhere cannot lock a login out for its owner); twenty from one
# address, whatever the usernames, lock that address out (guessing across logins).
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 20)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "shoebook.accounts.LoginLockoutHandler"
AXES_CLIENT_IP_CALLABLE = "shoebook.accounts.client_address"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

# Scripts only from this site (htmx and table.js are static files; no inline script anywhere).
# Inline styles stay allowed: the server-drawn SVG charts carry a <style> element.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, "'unsafe-inline'"],
        "img-src": [SELF, "data:"],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    }
}

ROOT_URLCONF = "shoebook.urls"
WSGI_APPLICATION = "shoebook.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "shoebook.context_processors.roles",
                "shoebook.context_processors.live_since",
            ],
        },
    },
]

# SQLite is set up for several devices writing at once: WAL lets readers and one writer work
# together, the busy timeout makes a writer wait instead of failing, and IMMEDIATE transactions
# take the write lock up front (Django's default, DEFERRED, upgrades a read lock mid-transaction,
# which SQLite refuses at once with "database is locked" whatever the timeout).
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": env_int("SQLITE_TIMEOUT_SECONDS", 20),
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
}

# Production runs under ASGI (shoebook/asgi.py, uvicorn workers), where each request has a context
# of its own: a connection kept open past its request (CONN_MAX_AGE) would never be used again, and
# every request would leave one behind. So no persistent connections; on PostgreSQL production
# borrows them from psycopg's pool instead (a login saved per request; DATABASE_POOL_SIZE at most
# per worker process), on SQLite a connection is a file opened. Development's server starts a
# thread per request and keeps none either. The health check replaces a dropped connection.
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("CONN_MAX_AGE", 0),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {**SQLITE_OPTIONS, **DATABASES["default"].get("OPTIONS", {})}
elif not DEBUG and not DATABASES["default"]["CONN_MAX_AGE"]:
    DATABASES["default"]["OPTIONS"] = {
        "pool": {"min_size": 1, "max_size": env_int("DATABASE_POOL_SIZE", 10)},
        **DATABASES["default"].get("OPTIONS", {}),
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Asia/Tokyo")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where collectstatic writes (and WhiteNoise serves from in production); the tests collect into a
# temporary folder of their own.
STATIC_ROOT = Path(env_str("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Decided here, not from runtime DEBUG (which the test runner switches off): in development
# WhiteNoise serves straight from the app and project static folders.
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "ledger:event_list"
LOGOUT_REDIRECT_URL = "home"

# Mail: only where a server is configured. Without one, password reset is off (its pages are not
# found): a reset that can never send its mail would only fill the log.
EMAIL_HOST = env_str("EMAIL_HOST", "") or ""
PASSWORD_RESET = bool(EMAIL_HOST)
if PASSWORD_RESET:
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "") or ""
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "") or ""
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
    EMAIL_TIMEOUT = 10
    DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", f"shoebook@{EMAIL_HOST}")
# Reset asks per hour: for one address asked for, from one client address; and from one client
# address in all.
PASSWORD_RESETS_PER_HOUR = env_int("PASSWORD_RESETS_PER_HOUR", 5)
PASSWORD_RESETS_PER_ADDRESS_PER_HOUR = env_int("PASSWORD_RESETS_PER_ADDRESS_PER_HOUR", 20)

# restore: the most a backup may hold uncompressed (ledger.management.backup_file).
RESTORE_MAX_MEGABYTES = env_int("RESTORE_MAX_MEGABYTES", 256)

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"one_line": {"()": "shoebook.base.logs.ClientErrorsOnOneLine"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["one_line"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
