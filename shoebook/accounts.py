"""Logins and password resets, the site's way.

- The client's address (:func:`client_address`), the one way the site reads it: the login
  lockout (django-axes) and the reset allowance both count by it.
- The lockout (:class:`LoginLockoutHandler`): by login and address, and by address alone past a
  higher limit.
- Password reset: not found unless a mail server is configured, a few asks an hour per address
  asked for and client address, and a mail that fails is one line in the log, not a traceback
  (the page says the same whether or not a mail went, as Django's does).
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import smtplib
from collections.abc import Callable
from functools import wraps
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.forms import PasswordResetForm
from django.core.cache import cache
from django.core.mail import EmailMultiAlternatives
from django.db.models import Sum
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy

logger = logging.getLogger(__name__)

MSG_TOO_MANY_RESETS = gettext_lazy(
    "Too many password resets were asked from here in the last hour: try again later."
)
HOUR = 60 * 60

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
_warned_untrusted: set[str] = set()  # the one untrusted proxy warned of, per process


def client_address(request: HttpRequest) -> str | None:
    """The client's address: the connection's peer (``REMOTE_ADDR``), or, when that peer is a
    proxy the operator trusts (``TRUSTED_PROXIES``, from ``FORWARDED_ALLOW_IPS``), the address
    that proxy put in X-Forwarded-For. The header is read from the right, one hop for each
    trusted proxy: what a client wrote there itself is on its left and never reached."""
    address = _address(request.META.get("REMOTE_ADDR", ""))
    if address is None:
        return None
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if not forwarded:
        return str(address)
    trusted = _trusted_networks()
    hops = [hop.strip() for hop in forwarded.split(",")]
    if not _trusted(address, trusted):
        _warn_once(address, hops)
        return str(address)
    for hop in reversed(hops):
        if not _trusted(address, trusted):
            break
        nearer = _address(hop)
        if nearer is None:  # a trusted proxy passed on what is not an address: stop at it
            break
        address = nearer
    return str(address)


def from_trusted_proxy(request: HttpRequest) -> bool:
    """Whether the connection's peer is a proxy the operator trusts (``TRUSTED_PROXIES``)."""
    address = _address(request.META.get("REMOTE_ADDR", ""))
    return address is not None and _trusted(address, _trusted_networks())


def _trusted_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(network) for network in settings.TRUSTED_PROXIES]


def _address(text: str) -> Address | None:
    """An address as a proxy writes it (``203.0.113.7``, ``203.0.113.7:5100``, ``[::1]:80``)."""
    text = text.strip()
    if text.startswith("[") and "]" in text:
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:
        text = text.split(":")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _trusted(
    address: Address, trusted: list[ipaddress.IPv4Network | ipaddress.IPv6Network]
) -> bool:
    return any(address in network for network in trusted)


def _warn_once(peer: Address, hops: list[str]) -> None:
    """A proxy not named in FORWARDED_ALLOW_IPS makes every client look like the proxy: said once
    per process. (A server that already took the client from the header, as gunicorn does with
    the same list, leaves the header in place: then the peer is one of its hops, and nothing is
    wrong.)"""
    if str(peer) in hops or _warned_untrusted:  # once: a client may send the header itself
        return
    _warned_untrusted.add(str(peer))
    logger.warning(
        "X-Forwarded-For from %s is ignored: that address is not a trusted proxy. Behind a proxy,"
        " name it in FORWARDED_ALLOW_IPS, or every client is counted as the proxy.",
        peer,
    )


class LoginLockoutHandler(AxesDatabaseHandler):  # type: ignore[misc]  # axes is untyped
    """django-axes' lockout by login and address (``AXES_LOCKOUT_PARAMETERS``), and also by
    address alone once ``LOGIN_ADDRESS_FAILURE_LIMIT`` wrong passwords came from it within the
    cool-off, whatever the logins: guessing across logins is slowed too."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        failures: int = super().get_failures(request, credentials)
        limit: int = get_failure_limit(request, credentials)
        if (
            failures < limit
            and self.address_failures(request) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT
        ):
            return limit
        return failures

    def address_failures(self, request: HttpRequest) -> int:
        if request.axes_ip_address is None:  # type: ignore[attr-defined]
            return 0
        attempts = AccessAttempt.objects.filter(ip_address=request.axes_ip_address)  # type: ignore[attr-defined]
        if settings.AXES_COOLOFF_TIME is not None:
            attempts = attempts.filter(attempt_time__gte=get_cool_off_threshold(request))
        total: int | None = attempts.aggregate(total=Sum("failures_since_start"))["total"]
        return total or 0


class QuietPasswordResetForm(PasswordResetForm):
    """Django's form, whose failed mail is logged with its whole traceback: here one line."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        subject = "".join(render_to_string(subject_template_name, context).splitlines())
        message = EmailMultiAlternatives(
            subject, render_to_string(email_template_name, context), from_email, [to_email]
        )
        if html_email_template_name is not None:
            message.attach_alternative(
                render_to_string(html_email_template_name, context), "text/html"
            )
        try:
            message.send()
        except (smtplib.SMTPException, OSError) as error:
            logger.warning("Password reset mail not sent to user %s: %s", context["user"].pk, error)


View = Callable[..., HttpResponseBase]


def _spent(key: str, allowance: int) -> bool:
    """Count one ask under ``key`` for the hour; whether it is past ``allowance``."""
    cache.add(key, 0, HOUR)
    return bool(cache.incr(key) > allowance)


def reset_view(view: View) -> View:
    """``view`` as a reset page: not found without a mail server; a POST counted per client
    address and address asked for (the mail's, or the link's user on the confirm page), and per
    client address in all, and refused past either hour's allowance: a stranger's asks never
    spend the allowance of someone asking for their own address from elsewhere."""

    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not settings.PASSWORD_RESET:
            raise Http404
        if request.method == "POST":
            client = client_address(request) or ""
            asked = str(request.POST.get("email") or kwargs.get("uidb64") or "").strip().casefold()
            asked_key = hashlib.sha256(asked.encode(errors="replace")).hexdigest()[:32]
            if _spent(
                f"password-reset:{client}:{asked_key}", settings.PASSWORD_RESETS_PER_HOUR
            ) or (
                _spent(f"password-reset:{client}", settings.PASSWORD_RESETS_PER_ADDRESS_PER_HOUR)
            ):
                return HttpResponse(MSG_TOO_MANY_RESETS, status=429, content_type="text/plain")
        return view(request, *args, **kwargs)

    return login_not_required(guarded)


password_reset = reset_view(auth_views.PasswordResetView.as_view(form_class=QuietPasswordResetForm))
password_reset_done = reset_view(auth_views.PasswordResetDoneView.as_view())
password_reset_confirm = reset_view(auth_views.PasswordResetConfirmView.as_view())
password_reset_complete = reset_view(auth_views.PasswordResetCompleteView.as_view())
