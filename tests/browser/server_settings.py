"""The production settings (shoebook.settings, with DEBUG off from the environment) as the browser
suite's production server runs them, with one addition: the suite's users are made with the fast
MD5 hasher (``FAST_HASHERS`` in tests/conftest.py), so the server must be able to check those
passwords. It comes first, so that a login does not rehash them with the slow production one."""

from django.conf import global_settings

from shoebook.settings import *  # noqa: F403

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    *global_settings.PASSWORD_HASHERS,
]
