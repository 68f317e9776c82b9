"""The People page: who may log in and as what, invitations by link, roles and revoking."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from ledger.guests import services as guest_services
from ledger.models import AuditEntry, StaffInvitation
from ledger.people import services
from shoebook.base.roles import DEALERS, HOSTS
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

PEOPLE = reverse("ledger:people")


@pytest.fixture
def as_host(client, host):
    client.force_login(host)
    return client


def test_the_menu_leads_hosts_to_the_people_page(as_host):
    assert f'href="{PEOPLE}"' in as_host.get(reverse("ledger:event_list")).content.decode()


def test_the_page_lists_everyone_by_role_and_guests_logins_apart(as_host, host, dealer, event):
    User.objects.create_superuser("operator", password="pw-for-tests")
    aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
    token = guest_services.guest_invitation_issue(guest=aki, by=host)
    guest_services.guest_invitation_accept(token=token, username="aki-login", password="x-P-2026")
    page = as_host.get(PEOPLE).content.decode()
    staff = page.split('id="staff"')[1].split("</section>")[0]
    assert 'data-person="dealer"' in staff and 'data-person="hostess"' in staff
    assert 'data-person="operator"' in staff and "Operator" in staff
    assert "aki-login" not in staff
    logins = page.split('id="guest-logins"')[1].split("</section>")[0]
    assert reverse("ledger:guest_detail", args=[aki.pk]) in logins and "aki-login" in logins
    # The dealer may be promoted or revoked; the host themself and the operator may not.
    assert reverse("ledger:person_revoke", args=[dealer.pk]) in page
    assert reverse("ledger:person_revoke", args=[host.pk]) not in page
    operator = User.objects.get(username="operator")
    assert reverse("ledger:person_role", args=[operator.pk]) not in page


def test_the_page_reads_the_same_queries_however_many_people(
    as_host, host, django_assert_max_num_queries
):
    as_host.get(PEOPLE)
    with django_assert_max_num_queries(12) as few:
        as_host.get(PEOPLE)
    for number in range(12):
        make_user(f"dealer{number}", DEALERS)
        services.staff_invitation_issue(role="dealer", by=host)
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = as_host.get(PEOPLE)
    assert page.content.decode().count("data-person=") == 13


def test_an_invitation_s_link_is_shown_once_with_its_qr_code_and_share(as_host):
    response = as_host.post(reverse("ledger:staff_invite"), {"role": "dealer", "note": "Mika"})
    assert response.status_code == 200 and response["Cache-Control"] == "private, no-store"
    page = response.content.decode()
    link = page.split('id="staff-invite-link">')[1].split("<")[0]
    assert "/join/" in link and "<svg" in page and "data-share-copy" in page
    assert "data-share-sheet" in page and "as a dealer. This link" in page
    again = as_host.get(PEOPLE).content.decode()
    assert link not in again and "Mika" in again  # out, but the link itself never again


def test_a_bad_role_is_refused_by_name(as_host):
    response = as_host.post(reverse("ledger:staff_invite"), {"role": "owner"})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not StaffInvitation.objects.exists()


def test_an_invitation_is_withdrawn_from_the_page(as_host, host):
    token = services.staff_invitation_issue(role="host", by=host)
    invitation = StaffInvitation.objects.get()
    url = reverse("ledger:staff_invitation_withdraw", args=[invitation.pk])
    assert as_host.post(url).status_code == 302
    assert as_host.get(reverse("ledger:staff_invitation_accept", args=[token])).status_code == 410
    again = as_host.post(url)
    assert again.status_code == 400
    assert str(services.MSG_INVITATION_GONE) in again.content.decode()


def test_a_role_is_changed_and_access_revoked_from_the_page(as_host, dealer):
    response = as_host.post(reverse("ledger:person_role", args=[dealer.pk]), {"role": "host"})
    assert response.status_code == 302
    assert set(dealer.groups.values_list("name", flat=True)) == {HOSTS}
    shown = as_host.get(PEOPLE).content.decode()
    assert "dealer is now a host." in shown
    assert as_host.post(reverse("ledger:person_revoke", args=[dealer.pk])).status_code == 302
    page = as_host.get(PEOPLE).content.decode()
    assert 'data-person="dealer"' in page.split('id="revoked"')[1]
    assert AuditEntry.objects.filter(action=AuditEntry.Action.ACCESS_REVOKED).count() == 1


@pytest.mark.parametrize("url_name", ["ledger:person_role", "ledger:person_revoke"])
def test_a_host_changing_themselves_is_refused_in_words(as_host, host, url_name):
    response = as_host.post(reverse(url_name, args=[host.pk]), {"role": "dealer"})
    assert response.status_code == 400
    assert str(services.MSG_NOT_YOURSELF) in response.content.decode()
    assert set(host.groups.values_list("name", flat=True)) == {HOSTS}


def test_an_unknown_role_or_person_is_a_4xx(as_host, dealer):
    bad = as_host.post(reverse("ledger:person_role", args=[dealer.pk]), {"role": "owner"})
    assert bad.status_code == 400 and "Select a valid choice" in bad.content.decode()
    assert as_host.post(reverse("ledger:person_revoke", args=[99999])).status_code == 404


def test_a_revoked_dealer_s_next_save_and_page_are_refused(client, host, dealer, seated, shoe):
    client.force_login(dealer)
    url = reverse("ledger:hand_record", args=[shoe.pk])
    services.access_revoke(user=dealer, by=host)
    save = client.post(url, {"number": "1"}, headers={"HX-Request": "true"})
    assert save.status_code == 403 and save["HX-Redirect"] == reverse("login")
    page = client.get(reverse("ledger:shoe_table", args=[shoe.pk]))
    assert page.status_code == 302 and page.url.startswith(reverse("login"))
    assert not shoe.hands.exists()
