"""Co-hosts and dealers invited by link, roles changed, access revoked: the services and the
invitation's page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games.payouts import RuleSet
from ledger.guests import services as guest_services
from ledger.models import AuditEntry, StaffInvitation
from ledger.people import selectors, services
from shoebook.base.roles import DEALERS, HOSTS, is_host, is_table_staff
from tests.conftest import bet, make_user

pytestmark = pytest.mark.django_db

GOOD = {"username": "mika", "password1": "Quiet-harbour-2026", "password2": "Quiet-harbour-2026"}
Action = AuditEntry.Action


def groups(user: User) -> set[str]:
    return set(User.objects.get(pk=user.pk).groups.values_list("name", flat=True))


def refusal(error: pytest.ExceptionInfo[ValidationError]) -> str:
    return " ".join(error.value.messages)


# --- invitations ------------------------------------------------------------------------------


@pytest.mark.parametrize(("role", "group"), [("dealer", DEALERS), ("host", HOSTS)])
def test_an_invitation_makes_a_login_with_its_role(host, role, group):
    token = services.staff_invitation_issue(role=role, note="Mika", by=host)
    invitation = StaffInvitation.objects.get()
    assert invitation.token_hash != token and len(invitation.token_hash) == 64
    assert token not in str(AuditEntry.objects.values_list("after", flat=True).get())
    user = services.staff_invitation_accept(token=token, username="mika", password="x-Pass-2026")
    assert groups(user) == {group}
    assert user.check_password("x-Pass-2026")
    invitation.refresh_from_db()
    assert invitation.used_at is not None and invitation.user == user
    actions = list(AuditEntry.objects.order_by("id").values_list("action", "by"))
    assert actions == [(Action.STAFF_INVITED, host.pk), (Action.STAFF_JOINED, user.pk)]


def test_an_invitation_works_once(host):
    token = services.staff_invitation_issue(role="dealer", by=host)
    services.staff_invitation_accept(token=token, username="mika", password="x-Pass-2026")
    with pytest.raises(ValidationError) as error:
        services.staff_invitation_accept(token=token, username="mika2", password="x-Pass-2026")
    assert refusal(error) == str(services.MSG_INVITE_USED)
    assert not User.objects.filter(username="mika2").exists()


def test_an_unknown_role_is_refused(host):
    with pytest.raises(ValidationError) as error:
        services.staff_invitation_issue(role="owner", by=host)
    assert error.value.message_dict == {"role": [str(services.MSG_ROLE_UNKNOWN)]}
    assert not StaffInvitation.objects.exists() and not AuditEntry.objects.exists()


def test_only_a_host_still_a_host_issues_one(host, dealer):
    with pytest.raises(ValidationError) as error:
        services.staff_invitation_issue(role="dealer", by=dealer)
    assert refusal(error) == str(services.MSG_NOT_A_HOST)
    assert not StaffInvitation.objects.exists()


def test_a_withdrawn_invitation_cannot_be_withdrawn_again(host):
    services.staff_invitation_issue(role="dealer", by=host)
    invitation = StaffInvitation.objects.get()
    services.staff_invitation_withdraw(invitation=invitation, by=host)
    with pytest.raises(ValidationError) as error:
        services.staff_invitation_withdraw(invitation=invitation, by=host)
    assert refusal(error) == str(services.MSG_INVITATION_GONE)
    assert AuditEntry.objects.filter(action=Action.STAFF_INVITE_REVOKED).count() == 1


@pytest.fixture
def second_host(db):
    return make_user("cohost", HOSTS)


@pytest.mark.parametrize("spoil", ["expired", "withdrawn", "used", "unknown", "host revoked"])
def test_a_dead_invitation_link_says_why_with_its_status(client, host, second_host, spoil):
    token = services.staff_invitation_issue(role="dealer", by=second_host)
    expected = {
        "expired": (410, services.MSG_INVITE_EXPIRED),
        "withdrawn": (410, services.MSG_INVITE_REVOKED),
        "used": (410, services.MSG_INVITE_USED),
        "unknown": (404, services.MSG_INVITE_UNKNOWN),
        "host revoked": (410, services.MSG_INVITE_REVOKED),
    }
    if spoil == "expired":
        StaffInvitation.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    elif spoil == "withdrawn":
        services.staff_invitation_withdraw(invitation=StaffInvitation.objects.get(), by=host)
    elif spoil == "used":
        services.staff_invitation_accept(token=token, username="first", password="x-Pass-2026")
    elif spoil == "host revoked":
        services.access_revoke(user=second_host, by=host)
    else:
        token = token[:-2] + "xx"
    status, message = expected[spoil]
    url = reverse("ledger:staff_invitation_accept", args=[token])
    for response in (client.get(url), client.post(url, GOOD)):
        assert response.status_code == status
        assert str(message) in response.content.decode()
    assert not User.objects.filter(username="mika").exists()
    with pytest.raises(ValidationError) as error:
        services.staff_invitation_accept(token=token, username="mika", password="x-Pass-2026")
    assert refusal(error) == str(message)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (GOOD | {"password1": "short", "password2": "short"}, "too short"),
        (GOOD | {"password1": "password123", "password2": "password123"}, "too common"),
        (GOOD | {"password2": "Quiet-harbour-2027"}, "didn’t match"),
        (GOOD | {"username": "HOSTESS"}, "already exists"),
        (
            GOOD | {"username": "h0stess"},
            str(guest_services.MSG_LOGIN_LOOKS_LIKE).format(username="h0stess", other="hostess"),
        ),
        (
            GOOD | {"username": "h\u043estess"},
            str(guest_services.MSG_LOGIN_MIXED_SCRIPTS).format(username="h\u043estess"),
        ),
    ],
)
def test_the_invitation_page_checks_the_login_as_a_guest_s_does(client, host, data, message):
    token = services.staff_invitation_issue(role="dealer", by=host)
    response = client.post(reverse("ledger:staff_invitation_accept", args=[token]), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert StaffInvitation.objects.get().used_at is None


@pytest.fixture
def open_shoe(host):
    event = game_services.event_create(
        name="Saturday", date=timezone.localdate(), rules=RuleSet(), by=host
    )
    return game_services.shoe_start(event=event, by=host)


def test_a_dealer_lands_logged_in_at_tonight_s_table(client, host, open_shoe):
    token = services.staff_invitation_issue(role="dealer", by=host)
    url = reverse("ledger:staff_invitation_accept", args=[token])
    page = client.get(url)
    assert page.status_code == 200 and "Welcome, dealer" in page.content.decode()
    response = client.post(url, GOOD)
    assert response.status_code == 302
    assert response.url == reverse("ledger:shoe_table", args=[open_shoe.pk])
    table = client.get(response.url)
    assert table.status_code == 200
    assert is_table_staff(table.wsgi_request.user) and not is_host(table.wsgi_request.user)


def test_a_co_host_lands_on_the_events_list(client, host, open_shoe):
    token = services.staff_invitation_issue(role="host", by=host)
    response = client.post(reverse("ledger:staff_invitation_accept", args=[token]), GOOD)
    assert response.status_code == 302 and response.url == reverse("ledger:event_list")
    assert client.get(reverse("ledger:people")).status_code == 200  # a host now


def test_a_dealer_with_no_table_open_lands_on_the_events_list(client, host):
    token = services.staff_invitation_issue(role="dealer", by=host)
    response = client.post(reverse("ledger:staff_invitation_accept", args=[token]), GOOD)
    assert response.url == reverse("ledger:event_list")


# --- roles and access -------------------------------------------------------------------------


def test_a_role_changes_both_ways_with_its_audit(host, dealer):
    services.role_change(user=dealer, role="host", by=host)
    assert groups(dealer) == {HOSTS}
    services.role_change(user=dealer, role="dealer", by=host)
    assert groups(dealer) == {DEALERS}
    changes = AuditEntry.objects.filter(action=Action.ROLE_CHANGED).order_by("id")
    assert [(entry.before, entry.after) for entry in changes] == [
        ({"role": "dealer"}, {"role": "host"}),
        ({"role": "host"}, {"role": "dealer"}),
    ]


def test_the_same_role_again_writes_nothing(host, dealer):
    services.role_change(user=dealer, role="dealer", by=host)
    assert not AuditEntry.objects.exists()


def test_a_host_cannot_demote_or_revoke_themselves(host, second_host):
    for write in (
        lambda: services.role_change(user=host, role="dealer", by=host),
        lambda: services.access_revoke(user=host, by=host),
    ):
        with pytest.raises(ValidationError) as error:
            write()
        assert refusal(error) == str(services.MSG_NOT_YOURSELF)
    assert groups(host) == {HOSTS} and User.objects.get(pk=host.pk).is_active


def test_the_last_host_is_never_demoted_nor_revoked(host):
    operator = User.objects.create_superuser("operator", password="pw-for-tests")
    for write in (
        lambda: services.role_change(user=host, role="dealer", by=operator),
        lambda: services.access_revoke(user=host, by=operator),
    ):
        with pytest.raises(ValidationError) as error:
            write()
        assert refusal(error) == str(services.MSG_LAST_HOST).format(user=host.username)
    assert groups(host) == {HOSTS} and User.objects.get(pk=host.pk).is_active


def test_a_host_may_be_demoted_while_another_stays(host, second_host):
    services.role_change(user=second_host, role="dealer", by=host)
    assert groups(second_host) == {DEALERS}


def test_the_operator_and_guests_logins_are_not_changed_here(host, event):
    operator = User.objects.create_superuser("operator", password="pw-for-tests")
    aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
    token = guest_services.guest_invitation_issue(guest=aki, by=host)
    login = guest_services.guest_invitation_accept(token=token, username="aki", password="x-P-26")
    cases = [
        (operator, str(services.MSG_OPERATOR).format(user="operator")),
        (login, str(services.MSG_GUEST_LOGIN).format(user="aki", guest="Aki")),
    ]
    for user, message in cases:
        for write in (
            lambda user=user: services.role_change(user=user, role="host", by=host),
            lambda user=user: services.access_revoke(user=user, by=host),
        ):
            with pytest.raises(ValidationError) as error:
                write()
            assert refusal(error) == message
    assert User.objects.get(pk=login.pk).is_active and not groups(login)


def test_a_demoted_host_can_no_longer_change_anyone(host, second_host, dealer):
    services.role_change(user=second_host, role="dealer", by=host)
    with pytest.raises(ValidationError) as error:
        services.access_revoke(user=dealer, by=second_host)
    assert refusal(error) == str(services.MSG_NOT_A_HOST)


def test_a_revoked_login_cannot_log_in_and_its_sessions_end_at_once(host, dealer):
    phone = Client()
    assert phone.login(username="dealer", password="pw-for-tests")
    other = Client()
    other.force_login(host)
    assert phone.get(reverse("ledger:event_list")).status_code == 200
    services.access_revoke(user=dealer, by=host)
    refused = phone.get(reverse("ledger:event_list"))
    assert refused.status_code == 302 and refused.url.startswith(reverse("login"))
    assert not Client().login(username="dealer", password="pw-for-tests")
    assert other.get(reverse("ledger:event_list")).status_code == 200  # only the dealer's end
    sessions = [session.get_decoded().get("_auth_user_id") for session in Session.objects.all()]
    assert str(dealer.pk) not in sessions and str(host.pk) in sessions
    entry = AuditEntry.objects.get(action=Action.ACCESS_REVOKED)
    assert entry.by == host and entry.before == {"role": "dealer", "login": "dealer"}
    assert entry.after == {"sessions": 1}


def test_what_a_revoked_dealer_recorded_stays_in_their_name(host, dealer, seated, shoe, record):
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 10)], by=dealer)
    services.access_revoke(user=dealer, by=host)
    hand.refresh_from_db()
    assert hand.logged_by == dealer and User.objects.get(pk=dealer.pk).is_active is False
    assert AuditEntry.objects.get(action=Action.HAND_LOGGED).by == dealer
    with pytest.raises(ValidationError) as error:
        services.access_revoke(user=dealer, by=host)
    assert refusal(error) == str(services.MSG_ALREADY_REVOKED).format(user="dealer")
    with pytest.raises(ValidationError):
        services.role_change(user=dealer, role="host", by=host)


def test_an_operator_who_hosts_counts_as_a_host(dealer):
    """The demo's host is a superuser in the Hosts group: a dealer made host may be made dealer
    again, the operator staying host."""
    operator = make_user("owner", HOSTS)
    User.objects.filter(pk=operator.pk).update(is_superuser=True, is_staff=True)
    operator.refresh_from_db()
    services.role_change(user=dealer, role="host", by=operator)
    services.role_change(user=dealer, role="dealer", by=operator)
    assert groups(dealer) == {DEALERS}


def test_a_host_made_a_dealer_makes_no_host_with_a_link_made_before(host):
    co_host = make_user("rin", HOSTS)
    token = services.staff_invitation_issue(role="host", by=co_host)
    assert [i.created_by for i in selectors.people().invitations] == [co_host]
    services.role_change(user=co_host, role="dealer", by=host)
    with pytest.raises(ValidationError) as error:
        services.staff_invitation_accept(token=token, username="friend", password="x-Pass-2026")
    assert refusal(error) == str(services.MSG_INVITE_REVOKED)
    assert not User.objects.filter(username="friend").exists()
    assert selectors.people().invitations == []  # no longer listed as out
