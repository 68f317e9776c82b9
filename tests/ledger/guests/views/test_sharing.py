from __future__ import annotations

from decimal import Decimal
from io import BytesIO
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from pypdf import PdfReader

from games.models import Event
from ledger.demo import REFERENCE_SHOES
from ledger.guests import services as guest_services
from ledger.guests.receipts import guest_receipt
from ledger.guests.sharing import (
    MSG_GUEST_NUMBER,
    MSG_SHARE_OWED,
    balance_share,
    event_shared_results,
    plain_text,
)
from ledger.models import Guest
from ledger.money.amounts import ZERO, format_money, to_money
from ledger.money.results import event_settlement, event_shoe_rows, guest_history

D = Decimal
pytestmark = pytest.mark.django_db


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(BytesIO(content)).pages)


def receipt_url(guest: Guest, event: Event, *, pdf: bool = False) -> str:
    name = "ledger:guest_receipt_pdf" if pdf else "ledger:guest_receipt"
    return reverse(name, args=[guest.pk, event.pk])


def link_receipt_url(
    guest: Guest, event: Event, *, token: str | None = None, pdf: bool = False
) -> str:
    name = "ledger:link_receipt_pdf" if pdf else "ledger:link_receipt"
    return reverse(name, args=[guest.pk, token or guest.access_token, event.pk])


# --- the reference night ---------------------------------------------------------------------


def test_receipts_add_up_to_the_reference_night(demo_night):
    receipts = [
        guest_receipt(guest, demo_night) for guest in Guest.objects.filter(events=demo_night)
    ]
    assert len(receipts) == 15
    for index, (gross, commission) in enumerate(REFERENCE_SHOES, start=1):
        rows = [row for receipt in receipts for row in receipt.shoes if row.number == index]
        assert sum((row.figures.gross for row in rows), ZERO) == D(gross)
        assert sum((row.figures.commission for row in rows), ZERO) == commission
    assert sum((r.total.figures.gross for r in receipts), ZERO) == D("1040.00")
    assert sum((r.total.figures.commission for r in receipts), ZERO) == D("386.00")
    assert sum((r.total.figures.net for r in receipts), ZERO) == D("654.00")
    assert demo_night.money_per_chip == D(100)
    lines = {line.guest_id: line for line in event_settlement(demo_night)}
    for receipt in receipts:  # the same figures the event's settlement list shows
        line = lines[receipt.guest.pk]
        assert receipt.total.figures.net == line.result
        assert (receipt.carried_in, receipt.settled, receipt.balance) == (
            line.before,
            line.settled,
            line.after,
        )
        assert receipt.balance_money == line.after_money
        assert receipt.total.net_money == to_money(
            line.result, demo_night.money_per_chip, demo_night.currency
        )


def test_the_shared_results_are_the_event_pages_figures(demo_night):
    shared = event_shared_results(demo_night)
    rows, _totals = event_shoe_rows(demo_night)
    assert [r.figures for r in shared.shoes] == [r.figures for r in rows]
    assert shared.totals.figures.house_net == D("-654.00")
    assert shared.totals.house_net_money == D("-65400")
    assert sum((g.net for g in shared.guests), ZERO) == D("654.00")
    assert [g.label for g in shared.guests] == [
        str(MSG_GUEST_NUMBER).format(number=n) for n in range(1, 16)
    ]
    assert [g.net for g in shared.guests] == sorted((g.net for g in shared.guests), reverse=True)


def test_the_results_page_shows_names_only_when_the_host_says_so(client, host, demo_night):
    client.force_login(host)
    page = client.get(reverse("ledger:event_share", args=[demo_night.pk])).content.decode()
    assert "田中" not in page and "Guest 15" in page
    assert "−$654" in page and "−¥65,400" in page
    client.post(reverse("ledger:event_share_names", args=[demo_night.pk]), {"share_names": "on"})
    demo_night.refresh_from_db()
    assert demo_night.share_names
    page = client.get(reverse("ledger:event_share", args=[demo_night.pk])).content.decode()
    assert "田中" in page and "Guest 1<" not in page
    client.post(reverse("ledger:event_share_names", args=[demo_night.pk]), {"share_names": "off"})
    demo_night.refresh_from_db()
    assert not demo_night.share_names


def test_a_receipt_page_shows_the_night_in_chips_and_money(client, host, demo_night):
    guest = Guest.objects.get(name="田中")
    receipt = guest_receipt(guest, demo_night)
    client.force_login(host)
    response = client.get(receipt_url(guest, demo_night))
    page = response.content.decode()
    assert response.status_code == 200
    assert "<bdi>田中</bdi>" in page
    assert len(receipt.shoes) >= 1
    assert page.count("<tr><td>") >= len(receipt.shoes)
    net = receipt.total.figures.net
    assert to_money(net, D(100), "JPY") == receipt.total.net_money
    assert 'href="receipt.pdf"' in page
    assert "$1 = ¥100" in page


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_pdf_receipt_is_a_pdf_with_the_guests_name_and_figures(
    client, host, demo_night, language
):
    guest = Guest.objects.get(name="田中")
    receipt = guest_receipt(guest, demo_night)
    client.force_login(host)
    client.post(reverse("set_language"), {"language": language})
    response = client.get(receipt_url(guest, demo_night, pdf=True))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    content = b"".join(response.streaming_content)
    assert content.startswith(b"%PDF-")
    text = pdf_text(content)
    assert "田中" in text
    assert demo_night.name in text
    assert format_money(receipt.total.net_money, "JPY") in text.replace(" ", "")
    if language == "ja":
        assert "コミッション" in text or "手数料" in text or "シュー" in text


# --- the share text ----------------------------------------------------------------------------


def test_the_share_panel_has_the_balance_line_the_link_and_a_line_link(client, host, played):
    aki, ben = played[1], played[2]
    guest_services.guest_link_issue(guest=aki)
    client.force_login(host)
    page = client.get(reverse("ledger:guest_detail", args=[aki.pk])).content.decode()
    url = "http://testserver" + reverse("ledger:guest_page", args=[aki.pk, aki.access_token])
    line = str(MSG_SHARE_OWED).format(name="Aki", chips="+$100", money="¥10,000")
    assert f"{line}\n{url}</textarea>" in page
    assert "https://line.me/R/share?text=" + quote(f"{line}\n{url}", safe="") in page
    assert "data-share-sheet hidden" in page and "data-share-copy hidden" in page
    share = balance_share(guest_history(ben))
    assert share.line.startswith("Ben, your balance is −")
    assert share.full == share.line  # no link yet


def test_a_guest_sees_links_to_their_receipts(client, played, shoe):
    aki = played[1]
    guest_services.guest_link_issue(guest=aki)
    page = client.get(
        reverse("ledger:guest_page", args=[aki.pk, aki.access_token])
    ).content.decode()
    assert f'href="{link_receipt_url(aki, shoe.event)}"' in page


# --- who may see what ------------------------------------------------------------------------


def test_a_guest_sees_their_own_receipt_by_link_and_nobody_elses(client, played, shoe):
    aki, ben = played[1], played[2]
    event = shoe.event
    guest_services.guest_link_issue(guest=aki)
    guest_services.guest_link_issue(guest=ben)
    for pdf in (False, True):
        response = client.get(link_receipt_url(aki, event, pdf=pdf))
        assert response.status_code == 200
        assert response["Referrer-Policy"] == "no-referrer"
        assert "no-store" in response["Cache-Control"]
        # Ben's token with Aki's id, or Aki's receipt of an event Aki was not at: not found
        assert (
            client.get(link_receipt_url(aki, event, token=ben.access_token, pdf=pdf)).status_code
            == 404
        )
        assert client.get(link_receipt_url(aki, event, token="x" * 43, pdf=pdf)).status_code == 404
    page = client.get(link_receipt_url(aki, event)).content.decode()
    assert "Aki" in page and "Ben" not in page
    other = Event.objects.create(name="Elsewhere", date=event.date)
    assert client.get(link_receipt_url(aki, other)).status_code == 404
    guest_services.guest_link_revoke(guest=aki)
    assert client.get(link_receipt_url(aki, event, token="x" * 43)).status_code == 404


def test_a_guest_with_a_login_sees_only_their_own_receipts(client, played, shoe):
    aki = played[1]
    event = shoe.event
    user = User.objects.create_user("aki", password="pw-for-tests")
    Guest.objects.filter(pk=aki.pk).update(user=user)
    client.force_login(user)
    assert client.get(reverse("ledger:my_receipt", args=[event.pk])).status_code == 200
    assert client.get(reverse("ledger:my_receipt_pdf", args=[event.pk])).status_code == 200
    for forbidden in (
        receipt_url(played[2], event),
        receipt_url(aki, event),
        receipt_url(aki, event, pdf=True),
        reverse("ledger:event_share", args=[event.pk]),
    ):
        assert client.get(forbidden).status_code == 403
    assert client.post(reverse("ledger:event_share_names", args=[event.pk])).status_code == 403


def test_a_dealer_cannot_see_receipts_or_make_shared_results(client, dealer, played, shoe):
    client.force_login(dealer)
    event = shoe.event
    assert client.get(receipt_url(played[1], event)).status_code == 403
    assert client.get(receipt_url(played[1], event, pdf=True)).status_code == 403
    assert client.get(reverse("ledger:event_share", args=[event.pk])).status_code == 403
    assert (
        client.post(
            reverse("ledger:event_share_names", args=[event.pk]), {"share_names": "on"}
        ).status_code
        == 403
    )
    event.refresh_from_db()
    assert not event.share_names
    assert client.get(reverse("ledger:my_receipt", args=[event.pk])).status_code == 404


def test_nobody_logged_out_reaches_the_hosts_pages(played, shoe):
    client = Client()
    for url in (
        receipt_url(played[1], shoe.event),
        reverse("ledger:event_share", args=[shoe.event.pk]),
    ):
        assert client.get(url).status_code == 302


# --- hostile names ---------------------------------------------------------------------------

HOSTILE = (
    '<script>alert("x")</script>',
    '=HYPERLINK("http://evil.example","click")',
    "Eve\u202egnp.exe",
    "<b>&amp;</b>",
)


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_are_only_ever_text(client, host, played, shoe, name):
    aki = played[1]
    Guest.objects.filter(pk=aki.pk).update(name=name)  # as an old row could hold it
    aki.refresh_from_db()
    guest_services.guest_link_issue(guest=aki)
    Event.objects.filter(pk=shoe.event.pk).update(share_names=True)
    client.force_login(host)
    pages = [
        client.get(reverse("ledger:guest_detail", args=[aki.pk])).content.decode(),
        client.get(receipt_url(aki, shoe.event)).content.decode(),
        client.get(reverse("ledger:event_share", args=[shoe.event.pk])).content.decode(),
    ]
    for page in pages:
        assert "<script>alert" not in page and "<b>&amp;</b>" not in page
    detail, receipt_page, _shared = pages
    share = balance_share(guest_history(aki), "http://testserver/x/")
    assert "\u202e" not in share.full and "\u202e" not in share.line_url
    assert "\u202e" not in share.title and f'data-share-title="{escape(share.title)}"' in detail
    assert all(
        c not in share.line_url.removeprefix("https://line.me/R/share?text=") for c in "<>\"' \n&="
    )
    assert plain_text(name) in share.line
    assert "<bdi>" in receipt_page
    response = client.get(receipt_url(aki, shoe.event, pdf=True))
    content = b"".join(response.streaming_content)
    assert (
        "\u202e" not in response["Content-Disposition"]
        and "\n" not in response["Content-Disposition"]
    )
    assert plain_text(name) in pdf_text(content).replace("\n", "")


# --- query budgets --------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["receipt", "receipt_pdf", "detail", "share", "link_receipt"])
def test_the_new_pages_run_constant_queries(
    client, host, demo_night, played, shoe, which, django_assert_max_num_queries
):
    client.force_login(host)

    def url(guest: Guest, event: Event) -> str:
        guest_services.guest_link_issue(guest=guest)
        guest.refresh_from_db()
        return {
            "receipt": receipt_url(guest, event),
            "receipt_pdf": receipt_url(guest, event, pdf=True),
            "detail": reverse("ledger:guest_detail", args=[guest.pk]),
            "share": reverse("ledger:event_share", args=[event.pk]),
            "link_receipt": link_receipt_url(guest, event),
        }[which]

    small, large = url(played[1], shoe.event), url(Guest.objects.get(name="田中"), demo_night)
    # The guest's page reads the recent nights' chips in one query of its own, the ways to pay
    # and the guest's handles in two (the request, and the host's handles form), and their
    # expenses there in one (two when there are any: their shares), and their tips in one; the
    # rating in four (the nights, the stakes per bet, the hands, the seatings: ledger.ratings).
    budget = 23
    for address in (small, large):
        with django_assert_max_num_queries(budget):
            assert client.get(address).status_code == 200
