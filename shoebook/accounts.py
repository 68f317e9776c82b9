"""Password reset, the site's way: not found unless a mail server is configured, a few asks an
hour per address, and a mail that fails is one line in the log, not a traceback (the page says
the same whether or not a mail went, as Django's does)."""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.forms import PasswordResetForm
from django.core.cache import cache
from django.core.mail import EmailMultiAlternatives
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy

logger = logging.getLogger(__name__)

MSG_TOO_MANY_RESETS = gettext_lazy(
    "Too many password resets were asked from here in the last hour: try again later."
)
HOUR = 60 * 60


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


def reset_view(view: View) -> View:
    """``view`` as a reset page: not found without a mail server; a POST counted per client
    address and refused past the hour's allowance."""

    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not settings.PASSWORD_RESET:
            raise Http404
        if request.method == "POST":
            key = f"password-reset:{request.META.get('REMOTE_ADDR', '')}"
            cache.add(key, 0, HOUR)
            if cache.incr(key) > settings.PASSWORD_RESETS_PER_HOUR:
                return HttpResponse(MSG_TOO_MANY_RESETS, status=429, content_type="text/plain")
        return view(request, *args, **kwargs)

    return login_not_required(guarded)


password_reset = reset_view(auth_views.PasswordResetView.as_view(form_class=QuietPasswordResetForm))
password_reset_done = reset_view(auth_views.PasswordResetDoneView.as_view())
password_reset_confirm = reset_view(auth_views.PasswordResetConfirmView.as_view())
password_reset_complete = reset_view(auth_views.PasswordResetCompleteView.as_view())
