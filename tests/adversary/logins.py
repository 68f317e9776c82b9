"""Strangers at the login and the password reset, through the proxy the operator named
(``FORWARDED_ALLOW_IPS``): a stranger's wrong passwords or reset asks for the host never lock
the host out elsewhere; the same login from the same address is locked after five; a client that
is no proxy cannot name another address in X-Forwarded-For; twenty logins guessed from one
address lock that address.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import count

from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from tests.adversary.ground import Case

PROXY = "10.0.0.2"
PASSWORD = "Own-harbour-2026"
LOCKOUT = {"AXES_ENABLED": True, "AXES_FAILURE_LIMIT": 5, "LOGIN_ADDRESS_FAILURE_LIMIT": 20,
           "TRUSTED_PROXIES": [f"{PROXY}/32"]}  # fmt: skip
MAIL = {"PASSWORD_RESET": True, "PASSWORD_RESETS_PER_HOUR": 5,
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}  # fmt: skip


def _send(path: str, data: dict[str, str], client: str, proxy: str | None) -> int:
    meta = {"REMOTE_ADDR": client} if proxy is None else {
        "REMOTE_ADDR": proxy, "HTTP_X_FORWARDED_FOR": client}  # fmt: skip
    return Client().post(path, data, **meta).status_code


def _log_in(username: str, password: str, client: str, proxy: str | None = PROXY) -> int:
    return _send(reverse("login"), {"username": username, "password": password}, client, proxy)


def login_cases(tag: str) -> Iterator[Case]:
    """Each case has addresses of its own (the lockout's records stay for the whole run)."""
    addresses = (f"203.0.113.{n}" for n in count(10))
    user = User.objects.create_user(f"owner-{tag}", email=f"owner-{tag}@example.com",
                                    password=PASSWORD)  # fmt: skip

    def locked_in(run: Callable[[], str], **extra: object) -> Callable[[], str]:
        def inside() -> str:
            with override_settings(**LOCKOUT, **extra):
                return run()

        return inside

    def strangers_wrong_passwords() -> str:
        stranger, owner = next(addresses), next(addresses)
        for _try in range(5):
            _log_in(user.username, "wrong", stranger)
        if _log_in(user.username, PASSWORD, owner) != 302:
            return "wrong: a stranger's five wrong passwords locked the login out for its owner"
        return "accepted"

    def same_login_same_address() -> str:
        stranger = next(addresses)
        for _try in range(5):
            _log_in(user.username, "wrong", stranger)
        answer = _log_in(user.username, PASSWORD, stranger)
        return "refused" if answer == 429 else f"wrong: not locked after five ({answer})"

    def header_from_no_proxy() -> str:
        stranger, owner = next(addresses), next(addresses)
        for _try in range(5):
            _log_in(user.username, "wrong", owner, proxy=stranger)  # names the owner's address
        if _log_in(user.username, PASSWORD, owner) != 302:
            return "wrong: a client that is no proxy named the owner's address and locked it"
        return "accepted"

    def many_logins_one_address() -> str:
        stranger = next(addresses)
        for n in range(20):
            _log_in(f"guess-{tag}-{n}", "wrong", stranger)
        answer = _log_in(user.username, PASSWORD, stranger)
        return "refused" if answer == 429 else f"wrong: twenty guesses, not locked ({answer})"

    def strangers_reset_asks() -> str:
        stranger, owner = next(addresses), next(addresses)
        ask = {"email": user.email}
        answers = [_send(reverse("password_reset"), ask, stranger, PROXY) for _ in range(6)]
        if answers[-1] != 429:
            return f"wrong: six asks from one address were not limited ({answers})"
        if _send(reverse("password_reset"), ask, owner, PROXY) != 302:
            return "wrong: a stranger's reset asks spent the owner's allowance"
        return "accepted"

    for label, run, extra in [
        ("a stranger's five wrong passwords for a login, through the named proxy",
         strangers_wrong_passwords, {}),
        ("the right password, from the address that gave five wrong", same_login_same_address, {}),
        ("X-Forwarded-For naming the owner's address, from a client that is no proxy",
         header_from_no_proxy, {}),
        ("twenty logins guessed from one address, then a right password",
         many_logins_one_address, {}),
        ("a stranger's reset asks for the owner's address, through the named proxy",
         strangers_reset_asks, MAIL),
    ]:  # fmt: skip
        yield Case("logins", label, locked_in(run, **extra))
