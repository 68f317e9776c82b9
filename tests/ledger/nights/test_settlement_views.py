"""Settling up from the event page, voiding, credit limits on the guest and table pages."""

from __future__ import annotations

import html
import re
import uuid
from decimal import Decimal as D

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger.forms import MSG_CHIPS_AMOUNT
from ledger.guests import services as guest_services
from ledger.guests.views.guests import MSG_CREDIT_LIMIT_REMOVED, MSG_CREDIT_LIMIT_SET
from ledger.models import AuditEntry, Guest, Settlement
from ledger.money import services as money_services
from ledger.money.forms import MSG_SETTLE_GUEST_GONE
from ledger.money.services import (
    MSG_ALREADY_VOIDED,
    MSG_KEY_USED_FOR,
    MSG_SETTLEMENT_NOTE,
    MSG_VOID_OF_VOID,
)
from ledger.nights.views import (
    MSG_GUEST_PAYS,
    MSG_GUEST_SQUARE,
    MSG_HOUSE_PAYS,
    MSG_RECORDED_GUEST_PAID,
    MSG_RECORDED_HOUSE_PAID,
)
from tests.conftest import bet

pytestmark = pytest.mark.django_db


AMOUNT_MESSAGE = MSG_CHIPS_AMOUNT.format(maximum="99,999,999,999.99")


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


def settle(client, event, guest, amount, method="cash", direction=None, **extra):
    data = {"guest": guest.pk, "amount": amount, "method": method, "note": "",
            "idempotency_key": str(uuid.uuid4())}  # fmt: skip
    data["direction"] = direction or ("house_paid" if guest.name == "Aki" else "guest_paid")
    return client.post(reverse("ledger:settlement_record", args=[event.pk]), data | extra)


def event_url(event, settle_guest=None):
    url = reverse("ledger:event_detail", args=[event.pk])
    return f"{url}?settle={settle_guest.pk}" if settle_guest else url


def test_settle_fills_the_form_from_the_balance(client, host, played, seated):
    client.force_login(host)
    page = text(client.get(event_url(played)))
    assert page.count('Settle<span class="visually-hidden">') == 2  # Aki and Ben; not the square
    aki = text(client.get(event_url(played, seated[1])))
    assert MSG_HOUSE_PAYS.format(guest="Aki", amount="$100", money="¥10,000") in aki
    assert 'value="house_paid" id="id_direction_1" checked' in aki.replace("required ", "")
    assert 'name="amount" value="100"' in aki
    assert '<label for="id_amount">Amount ($)</label>' in aki  # labelled, visibly
    assert "Record it anyway" not in aki  # asked only when there is something to ask
    ben = text(client.get(event_url(played, seated[2])))
    assert MSG_GUEST_PAYS.format(guest="Ben", amount="$50", money="¥5,000") in ben
    assert 'value="guest_paid" id="id_direction_0" checked' in ben.replace("required ", "")


def test_a_dealer_sees_no_settle_form(client, dealer, played, seated):
    client.force_login(dealer)
    page = text(client.get(event_url(played, seated[1])))
    assert 'id="settle"' not in page and "Void…" not in page


@pytest.mark.parametrize(
    ("seat", "amount", "method", "wanted"),
    [
        (1, "100", "cash", MSG_RECORDED_HOUSE_PAID.format(
            guest="Aki", amount="$100", money="¥10,000", method="Cash")),
        (2, "20", "tab", MSG_RECORDED_GUEST_PAID.format(
            guest="Ben", amount="$20", money="¥2,000",
            method="Offset against the tab at the venue")),
    ],
)  # fmt: skip
def test_recording_names_guest_direction_amount_and_method(
    client, host, played, seated, seat, amount, method, wanted
):
    client.force_login(host)
    response = settle(client, played, seated[seat], amount, method)
    assert response.status_code == 302
    assert wanted in text(client.get(response.url))


def test_past_the_balance_asks_first_without_javascript(client, host, played, seated):
    client.force_login(host)
    asked = settle(client, played, seated[1], "150")
    assert asked.status_code == 200
    page = text(asked)
    assert "is more than that and leaves −$50" in page
    assert 'name="confirm"' in page and "Record it anyway" in page
    assert 'name="amount" value="150"' in page  # what was typed stays
    assert not Settlement.objects.exists()
    confirmed = settle(client, played, seated[1], "150", confirm="on")
    assert confirmed.status_code == 302
    assert Settlement.objects.get().amount == D("-150.00")


@pytest.mark.parametrize(
    ("amount", "wanted"),
    [
        ("1e30", AMOUNT_MESSAGE),
        ("NaN", AMOUNT_MESSAGE),
        ("1_000", AMOUNT_MESSAGE),
        ("٥", AMOUNT_MESSAGE),  # an Arabic-Indic five: not a digit a host types here
        ("0", "Ensure this value is greater than or equal to 0.01."),
        ("12.345", AMOUNT_MESSAGE),
        ("100000000000", "Ensure this value is less than or equal to 99999999999.99."),
    ],
)
def test_bad_amounts_are_said_beside_the_box(client, host, played, seated, amount, wanted):
    client.force_login(host)
    response = settle(client, played, seated[2], amount)
    assert response.status_code == 400
    assert wanted in text(response)
    assert 'id="settle"' in text(response)
    assert (
        not Settlement.objects.exists()
        and not AuditEntry.objects.filter(action="settlement").exists()
    )


@pytest.mark.parametrize("note", ["bell \u0007", "line\u2028break"])
def test_a_control_character_in_a_note_is_refused(client, host, played, seated, note):
    client.force_login(host)
    response = settle(client, played, seated[2], "10", note=note)
    assert response.status_code == 400
    assert "A note cannot hold the invisible or control character U+" in text(response)
    assert not Settlement.objects.exists()


def test_other_without_a_note_is_refused_beside_the_note(client, host, played, seated):
    client.force_login(host)
    response = settle(client, played, seated[2], "10", method="other")
    assert str(MSG_SETTLEMENT_NOTE) in text(response)
    assert not Settlement.objects.exists()


@pytest.mark.parametrize("who", ["dealer", "guest_login", "outsider"])
def test_only_a_host_writes(client, played, seated, host, dealer, outsider, who):
    paid = money_services.settlement_record(
        guest=seated[2], event=played, amount=D(10), method="cash", by=host
    )
    user = {"dealer": dealer, "outsider": outsider}.get(who)
    if user is None:
        user = User.objects.create_user("aki-login", password="pw")
        Guest.objects.filter(pk=seated[1].pk).update(user=user)
    client.force_login(user)
    assert settle(client, played, seated[2], "10").status_code == 403
    void_url = reverse("ledger:settlement_void", args=[paid.pk])
    assert client.post(void_url, {"reason": "no"}).status_code == 403
    limit_url = reverse("ledger:guest_credit_limit", args=[seated[1].pk])
    assert client.post(limit_url, {"credit_limit": "5"}).status_code == 403
    assert Settlement.objects.count() == 1
    assert Guest.objects.get(pk=seated[1].pk).credit_limit is None


def test_a_void_shows_both_rows_everywhere(client, host, played, seated):
    aki = seated[1]
    paid = money_services.settlement_record(
        guest=aki, event=played, amount=D("-100"), method="cash", by=host
    )
    client.force_login(host)
    response = client.post(
        reverse("ledger:settlement_void", args=[paid.pk]), {"reason": "paid Ben, not Aki"}
    )
    assert response.status_code == 302
    page = text(client.get(response.url))
    assert "Voided: Aki · −$100 · Cash. Reason: paid Ben, not Aki" in page
    assert page.count('class="tag void-tag"') == 1 and page.count('class="tag voided-tag"') == 1
    assert "Reason: paid Ben, not Aki" in page
    assert "Void…" not in page  # neither row can be voided now
    guest_page = text(client.get(reverse("ledger:guest_detail", args=[aki.pk])))
    # The void reads as the void of the payment it reverses, not as a payment of its own.
    assert "received $100" in guest_page and f"Void of No. {paid.pk}: +$100" in guest_page
    assert "voided" in guest_page and "Reason: paid Ben, not Aki" in guest_page
    audit = text(client.get(reverse("ledger:audit_log")))
    assert "Settlement recorded" in audit and "Settlement voided" in audit


def test_a_stale_void_and_a_void_of_a_void_are_refused(client, host, played, seated):
    paid = money_services.settlement_record(
        guest=seated[2], event=played, amount=D(50), method="tab", by=host
    )
    void = money_services.settlement_void(settlement=paid, reason="typed twice", by=host)
    client.force_login(host)
    before = (Settlement.objects.count(), AuditEntry.objects.count())
    stale = client.post(reverse("ledger:settlement_void", args=[paid.pk]), {"reason": "again"})
    assert stale.status_code == 200
    assert str(MSG_ALREADY_VOIDED).split("{")[0] in text(stale)
    of_void = client.post(reverse("ledger:settlement_void", args=[void.pk]), {"reason": "x"})
    assert str(MSG_VOID_OF_VOID) in text(of_void)
    empty = client.post(reverse("ledger:settlement_void", args=[void.pk]), {"reason": ""})
    assert "Say why the settlement is being voided." in text(empty)
    assert (Settlement.objects.count(), AuditEntry.objects.count()) == before
    missing = client.post(reverse("ledger:settlement_void", args=[10**9]), {"reason": "x"})
    assert missing.status_code == 404


def test_a_guest_sees_only_their_own_settlements(client, host, played, seated):
    aki, ben = seated[1], seated[2]
    paid = money_services.settlement_record(
        guest=aki, event=played, amount=D("-100"), method="cash", note="envelope", by=host
    )
    money_services.settlement_void(settlement=paid, reason="wrong night", by=host)
    money_services.settlement_record(
        guest=ben, event=played, amount=D("50"), method="tab", note="bens-note", by=host
    )
    token = guest_services.guest_link_issue(guest=aki)
    page = text(client.get(reverse("ledger:guest_page", args=[aki.pk, token])))
    assert "envelope" in page and "wrong night" in page
    assert "bens-note" not in page and "Ben" not in page


def test_the_host_sets_and_clears_a_credit_limit(client, host, played, seated):
    ben = seated[2]
    client.force_login(host)
    url = reverse("ledger:guest_credit_limit", args=[ben.pk])
    response = client.post(url, {"credit_limit": "30"})
    assert response.status_code == 302
    page = text(client.get(response.url))
    assert MSG_CREDIT_LIMIT_SET.format(guest="Ben", limit="30") in page
    assert 'name="credit_limit" value="30"' in page
    event_page = text(client.get(event_url(played)))
    assert "over limit" in event_page
    for bad, wanted in (
        ("-5", AMOUNT_MESSAGE),
        ("1e30", AMOUNT_MESSAGE),
        ("NaN", AMOUNT_MESSAGE),
    ):
        refused = client.post(url, {"credit_limit": bad})
        assert refused.status_code == 400 and wanted in text(refused)
    assert Guest.objects.get(pk=ben.pk).credit_limit == D("30.00")
    cleared = client.post(url, {"credit_limit": ""})
    assert MSG_CREDIT_LIMIT_REMOVED.format(guest="Ben") in text(client.get(cleared.url))
    assert Guest.objects.get(pk=ben.pk).credit_limit is None
    changes = AuditEntry.objects.filter(action=AuditEntry.Action.CREDIT_LIMIT_SET).order_by("at")
    assert [(e.before, e.after) for e in changes] == [
        ({"credit_limit": ""}, {"credit_limit": "30.00"}),
        ({"credit_limit": "30.00"}, {"credit_limit": ""}),
    ]  # set, then cleared; the refused tries left no trace
    assert "credit limit: 30" in text(client.get(reverse("ledger:audit_log")))


def test_the_table_warns_when_a_seated_guest_passes_the_limit(client, host, played, shoe, seated):
    client.force_login(host)
    url = reverse("ledger:shoe_table", args=[shoe.pk])
    assert "data-over-limit" not in text(client.get(url))
    guest_services.guest_credit_limit_set(guest=seated[2], credit_limit=D("20"), by=host)
    page = text(client.get(url))
    assert "Seat 2 · Ben owes the house $50, past the credit limit of $20." in page
    # A warning, not a block: the next hand is saved as ever.
    assert 'class="save"' in page


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_event_page_runs_constant_queries_whatever_the_settlements(
    client, host, played, seated, guests, django_assert_max_num_queries
):
    client.force_login(host)
    guest_services.guest_credit_limit_set(guest=seated[2], credit_limit=D("1"), by=host)
    paid = money_services.settlement_record(
        guest=seated[1], event=played, amount=D(-1), method="cash", by=host
    )
    money_services.settlement_void(settlement=paid, reason="x", by=host)
    small = queries(client, event_url(played, seated[1]))
    for n in range(20):
        guest = guest_services.event_guest_add(event=played, name=f"Extra {n}", by=host)
        guest_services.guest_credit_limit_set(guest=guest, credit_limit=D(1), by=host)
        for amount in (D(5), D(-3)):
            row = money_services.settlement_record(
                guest=guest, event=played, amount=amount, method="other", note="n", by=host
            )
        money_services.settlement_void(settlement=row, reason="x", by=host)
    with django_assert_max_num_queries(small):
        assert queries(client, event_url(played, seated[1])) == small


def test_the_table_page_runs_constant_queries_with_credit_limits(
    client, host, shoe, seated, record, django_assert_max_num_queries
):
    client.force_login(host)
    url = reverse("ledger:shoe_table", args=[shoe.pk])
    guest_services.guest_credit_limit_set(guest=seated[1], credit_limit=D(1), by=host)
    record(shoe, "8 K", "9 K", [bet(1, "player", 10)])
    small = queries(client, url)
    for seat, guest in seated.items():
        guest_services.guest_credit_limit_set(guest=guest, credit_limit=D(1), by=host)
        record(shoe, "8 K", "9 K", [bet(seat, "player", 10)])
    with django_assert_max_num_queries(small):
        assert queries(client, url) == small


def test_a_double_tap_records_a_settlement_once(client, host, played, seated):
    client.force_login(host)
    key = str(uuid.uuid4())
    for _tap in range(2):  # a partial payment: nothing to ask, so only the key stops the second
        response = settle(client, played, seated[1], "7", idempotency_key=key)
        assert response.status_code == 302
    assert list(Settlement.objects.values_list("amount", flat=True)) == [D("-7.00")]
    assert AuditEntry.objects.filter(action="settlement").count() == 1


@pytest.mark.parametrize("other", ["another amount", "another guest"])
def test_a_key_used_again_for_other_content_is_refused_not_answered_as_recorded(
    client, host, played, seated, other
):
    client.force_login(host)
    key = str(uuid.uuid4())
    assert settle(client, played, seated[1], "7", idempotency_key=key).status_code == 302
    if other == "another amount":
        page = text(settle(client, played, seated[1], "8", idempotency_key=key))
    else:
        page = text(settle(client, played, seated[2], "7", idempotency_key=key))
    said = str(MSG_KEY_USED_FOR).split("{what}")
    assert said[0] in page and said[1] in page
    assert f"for Aki at {played.name}" in page  # what the key was used for
    assert list(Settlement.objects.values_list("amount", flat=True)) == [D("-7.00")]


def test_settling_at_an_earlier_night_asks_about_the_balance_as_it_stands_now(
    client, host, played, seated, make_event
):
    later = make_event(name="Next week", date=played.date.replace(day=27))
    aki = seated[1]
    guest_services.event_guest_add(event=later, name="Aki", by=host)
    money_services.settlement_record(guest=aki, event=later, amount=D(-100), method="cash", by=host)
    client.force_login(host)
    panel = text(client.get(event_url(played, aki)))  # the first night's list: then, owed 100
    assert MSG_GUEST_SQUARE.format(guest="Aki") in panel  # now: paid at the later night
    asked = settle(client, played, aki, "100")  # paying him again is asked first
    assert asked.status_code == 200 and "Record it anyway" in text(asked)
    assert Settlement.objects.count() == 1


def test_a_stale_settle_form_for_a_merged_guest_says_so(client, host, played, guests):
    client.force_login(host)
    hana = guests[7]  # on the list, not seated
    guest_services.guest_merge(
        guest=guest_services.guest_create(name="Hanako"), other=hana, by=host
    )
    response = settle(client, played, hana, "50")  # the form opened before the merge
    assert response.status_code == 400
    assert str(MSG_SETTLE_GUEST_GONE) in text(response)
    assert not Settlement.objects.exists()


@pytest.mark.parametrize("typed", ["1,000", "１，０００", " 1000.00 "])
def test_amounts_are_read_as_hosts_type_them(client, host, played, seated, typed):
    client.force_login(host)
    response = settle(client, played, seated[2], typed, confirm="on")
    assert response.status_code == 302
    assert Settlement.objects.get().amount == D("1000.00")
