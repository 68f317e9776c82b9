"""The People page (hosts): who may log in and as what, co-hosts and dealers invited by a link,
roles changed and access revoked; and the invitation's own page, where the invitee makes a
login."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.models import Shoe
from ledger.forms import add_service_errors
from ledger.models import StaffInvitation
from ledger.money.charts import qr_svg
from ledger.people import services
from ledger.people.forms import RoleForm, StaffInvitationAcceptForm, StaffInviteForm
from ledger.people.selectors import people
from shoebook.base.links import private_link
from shoebook.base.roles import AuthenticatedHttpRequest, host_required

MSG_INVITE_SHARE = gettext_lazy(
    "You are invited to run the nights with me on Shoebook as a {role}. This link makes your"
    " login, once, within a week:"
)
MSG_ROLE_CHANGED = gettext_lazy("{user} is now a {role}.")
MSG_ACCESS_REVOKED = gettext_lazy(
    "{user} can no longer log in; what they recorded stays in their name."
)
MSG_INVITATION_WITHDRAWN = gettext_lazy("The invitation no longer works.")
MSG_WELCOME_DEALER = gettext_lazy("Welcome, {user}: you can log hands at this table.")
MSG_WELCOME = gettext_lazy("Welcome, {user}.")


def _render_people(
    request: AuthenticatedHttpRequest,
    *,
    invite_form: StaffInviteForm | None = None,
    invite_link: str = "",
    invite_role: str = "",
    status: int = 200,
) -> HttpResponse:
    context: dict[str, object] = {
        "people": people(),
        "invite_form": invite_form or StaffInviteForm(),
        "roles": StaffInvitation.Role.choices,
    }
    if invite_link:
        role = StaffInvitation.Role(invite_role).label
        text = str(MSG_INVITE_SHARE).format(role=str(role).lower())
        context |= {
            "invite_link": invite_link,
            "invite_qr": qr_svg(invite_link),
            "invite_role": str(role).lower(),
            "share_text": f"{text}\n{invite_link}",
            "share_title": _("Shoebook invitation"),
        }
    return render(request, "ledger/people/people.html", context, status=status)


@host_required
@require_GET
def people_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _render_people(request)


@host_required
@require_POST
def staff_invite(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A one-time invitation: its link is shown now, once, and never again."""
    form = StaffInviteForm(request.POST)
    if not form.is_valid():
        return _render_people(request, invite_form=form, status=400)
    role = form.cleaned_data["role"]
    try:
        token = services.staff_invitation_issue(
            role=role, note=form.cleaned_data["note"], by=request.user
        )
    except ValidationError as error:
        add_service_errors(form, error)
        return _render_people(request, invite_form=form, status=400)
    link = request.build_absolute_uri(reverse("ledger:staff_invitation_accept", args=[token]))
    response = _render_people(request, invite_link=link, invite_role=role)
    response["Cache-Control"] = "private, no-store"
    return response


def _people_write(request: AuthenticatedHttpRequest, write: Callable[[], str]) -> HttpResponse:
    """Run a write from the People page and say what it did (back to the page), or why not (the
    page again, answered 400)."""
    try:
        text = write()
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return _render_people(request, status=400)
    messages.success(request, text)
    return redirect("ledger:people")


@host_required
@require_POST
def staff_invitation_withdraw(
    request: AuthenticatedHttpRequest, invitation_id: int
) -> HttpResponse:
    invitation = get_object_or_404(StaffInvitation, pk=invitation_id)

    def withdraw() -> str:
        services.staff_invitation_withdraw(invitation=invitation, by=request.user)
        return str(MSG_INVITATION_WITHDRAWN)

    return _people_write(request, withdraw)


@host_required
@require_POST
def person_role(request: AuthenticatedHttpRequest, user_id: int) -> HttpResponse:
    user = get_object_or_404(User, pk=user_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(error) for error in form.errors.get("role", [])))
        return _render_people(request, status=400)
    role = form.cleaned_data["role"]

    def change() -> str:
        services.role_change(user=user, role=role, by=request.user)
        label = str(StaffInvitation.Role(role).label).lower()
        return str(MSG_ROLE_CHANGED).format(user=user.username, role=label)

    return _people_write(request, change)


@host_required
@require_POST
def person_revoke(request: AuthenticatedHttpRequest, user_id: int) -> HttpResponse:
    user = get_object_or_404(User, pk=user_id)

    def revoke() -> str:
        services.access_revoke(user=user, by=request.user)
        return str(MSG_ACCESS_REVOKED).format(user=user.username)

    return _people_write(request, revoke)


def _open_table() -> Shoe | None:
    """Tonight's table: the newest open shoe of an open night (a tournament's tables aside)."""
    return (
        Shoe.objects.filter(closed_at__isnull=True, event__closed_at__isnull=True)
        .exclude(event__kind="table")
        .order_by("-opened_at", "-pk")
        .first()
    )


@login_not_required
@require_http_methods(["GET", "POST"])
def staff_invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """A co-host or a dealer opens their invitation: choose a username and password, and they
    are logged in, a dealer at tonight's table, a co-host on the events list. A link that is
    unknown (404), used, withdrawn or expired (410) says so."""
    invitation = services.staff_invitation_by_token(token)
    problem = services.staff_invitation_problem(invitation)
    form = StaffInvitationAcceptForm(request.POST or None)
    if problem is None and request.method == "POST" and form.is_valid():
        try:
            user = services.staff_invitation_accept(
                token=token,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
            )
        except ValidationError as error:
            if "username" in error.message_dict:  # another name will do: the form says why
                add_service_errors(form, error)
            else:
                problem = " ".join(error.messages)
        else:
            login(request, user, backend="shoebook.base.roles.RolesBackend")
            assert invitation is not None  # accepted: an invitation
            table = _open_table()
            if invitation.role == StaffInvitation.Role.DEALER and table is not None:
                messages.success(request, str(MSG_WELCOME_DEALER).format(user=user.username))
                return redirect("ledger:shoe_table", table.pk)
            messages.success(request, str(MSG_WELCOME).format(user=user.username))
            return redirect("ledger:event_list")
    if problem is not None:
        status = 404 if invitation is None else 410
        response = render(
            request, "ledger/guests/invitation_invalid.html", {"problem": problem}, status=status
        )
    else:
        assert invitation is not None  # no problem: an invitation
        context = {"form": form, "invitation": invitation}
        response = render(
            request,
            "ledger/people/invitation_accept.html",
            context,
            status=400 if form.errors else 200,
        )
    return private_link(response, referrer="same-origin")  # its form posts back here
