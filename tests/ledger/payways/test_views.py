"""The ways to pay through the pages: the host's list with and without htmx, a guest's handles,
settling by a way, and the settlement request on the guest's page, in the share text and on the
receipt (page and PDF), its QR code the link's."""

from __future__ import annotations

import html
import re
import uuid
from decimal import Decimal
from io import BytesIO

import pytest
import segno
from django.urls import reverse
from pypdf import PdfReader

from ledger.guests import services as guest_services
from ledger.guests.receipts import guest_receipt
from ledger.models import GuestPayHandle, PayWay, Settlement
from ledger.payways import services
from ledger.payways.forms import HandlesForm
from ledger.payways.links import MSG_HANDLE_LINK, MSG_TEMPLATE
from ledger.workbook.pdf import qr_drawing
from tests.ledger.payways.conftest import HOUSE_BANK

pytestmark = pytest.mark.django_db

BEN_PAYS = "https://paypal.me/shoebook-house/5000JPY"  # Ben owes ¥5,000
BEN_ASKED = "How to pay ¥5,000 to the house:"  # money as every page writes it, not "5000 JPY"
HTMX = {"HTTP_HX_REQUEST": "true"}


def svg_matrix(svg: str) -> list[list[bool]]:
    """The modules segno's inline SVG draws (its path: rows of horizontal runs, a 4-module
    quiet zone), as a matrix: what a reader scanning the code sees."""
    path = re.search(r' d="([^"]+)"', svg)
    assert path is not None
    dark: set[tuple[int, int]] = set()
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path.group(1)):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            for step in range(int(float(a))):
                dark.add((int(x) + step, int(y - 0.5)))
            x += float(a)
    size = max(column for column, _row in dark) - 3
    return [[(column, row) in dark for column in range(4, size + 4)] for row in range(4, size + 4)]


def matrix_of(link: str) -> list[list[bool]]:
    return [[bool(cell) for cell in row] for row in segno.make(link, error="m").matrix]


def test_the_guest_page_asks_a_guest_who_owes_by_link_qr_and_details(client, played, ways):
    ben = played[2]
    guest_services.guest_link_issue(guest=ben)
    page = client.get(reverse("ledger:guest_page", args=[ben.pk, ben.access_token]))
    text = page.content.decode()
    assert f'href="{html.escape(BEN_PAYS)}"' in text
    assert BEN_ASKED in text
    assert HOUSE_BANK in text  # the bank transfer's details
    section = text[text.index('id="pay-request"') :]
    svg = section[section.index("<svg") : section.index("</svg>") + 6]
    assert svg_matrix(svg) == matrix_of(BEN_PAYS)  # the QR code is the link


def test_the_pdf_s_qr_code_is_the_link():
    drawing = qr_drawing(BEN_PAYS, size=1000)
    wanted = matrix_of(BEN_PAYS)
    step = 1000 / (len(wanted) + 8)
    drawn = {(round(rect.x / step) - 4, round((1000 - rect.y) / step) - 5)
             for rect in drawing.contents}  # fmt: skip
    got = [[(x, y) in drawn for x in range(len(wanted))] for y in range(len(wanted))]
    assert got == wanted


def test_a_guest_the_house_owes_sees_their_own_handles_only(client, played, ways, host):
    aki, ben = played[1], played[2]
    services.pay_handle_save(guest=aki, way=ways["Venmo"], handle="aki-k", by=host)
    services.pay_handle_save(guest=ben, way=ways["Venmo"], handle="ben-secret", by=host)
    guest_services.guest_link_issue(guest=aki)
    text = client.get(reverse("ledger:guest_page", args=[aki.pk, aki.access_token])).content
    assert b"https://venmo.com/aki-k?txn=pay&amp;amount=10000" in text
    assert b"ben-secret" not in text and b"shoebook-house" not in text


def test_the_share_text_tells_a_guest_who_owes_how_to_pay(client, host, played, ways):
    ben = played[2]
    client.force_login(host)
    text = html.unescape(client.get(reverse("ledger:guest_detail", args=[ben.pk])).content.decode())
    message = text[text.index('id="share-text"') : text.index("</textarea>")]
    assert BEN_ASKED in message
    assert f"PayPal: {BEN_PAYS}" in message
    assert f"Bank transfer: {HOUSE_BANK}" in message
    assert "Cash: in person" in message


def test_the_receipt_page_and_pdf_carry_the_request(client, host, played, shoe, ways):
    ben = played[2]
    client.force_login(host)
    page = client.get(reverse("ledger:guest_receipt", args=[ben.pk, shoe.event_id]))
    assert BEN_PAYS in page.content.decode()
    response = client.get(reverse("ledger:guest_receipt_pdf", args=[ben.pk, shoe.event_id]))
    pdf = PdfReader(BytesIO(b"".join(response.streaming_content)))
    words = "\n".join(page.extract_text() for page in pdf.pages)
    assert BEN_PAYS in words and HOUSE_BANK.split()[0] in words
    assert BEN_ASKED in words
    links = [annotation.get_object()["/A"]["/URI"]
             for page in pdf.pages
             for annotation in page.get("/Annots", [])]  # fmt: skip
    assert BEN_PAYS in links


def test_a_settlement_by_paypay_needs_no_note_and_shows_its_way(client, host, played, shoe, ways):
    ben = played[2]
    client.force_login(host)
    data = {"guest": ben.pk, "direction": "guest_paid", "amount": "50",
            "method": f"way:{ways['PayPay'].pk}", "idempotency_key": str(uuid.uuid4())}  # fmt: skip
    response = client.post(reverse("ledger:settlement_record", args=[shoe.event_id]), data)
    assert response.status_code == 302
    paid = Settlement.objects.get()
    assert (paid.way, paid.method, paid.note) == (ways["PayPay"], "way", "")
    page = client.get(reverse("ledger:event_detail", args=[shoe.event_id])).content.decode()
    assert "· PayPay" in page
    receipt = guest_receipt(ben, shoe.event)
    assert any("PayPay" in line.words for line in receipt.lines)


def test_a_retired_way_s_button_is_refused_in_words(client, host, played, shoe, ways):
    client.force_login(host)
    services.way_retire(way=ways["Zelle"], retired=True, by=host)
    data = {"guest": played[2].pk, "direction": "guest_paid", "amount": "50",
            "method": f"way:{ways['Zelle'].pk}", "idempotency_key": str(uuid.uuid4())}  # fmt: skip
    response = client.post(reverse("ledger:settlement_record", args=[shoe.event_id]), data)
    assert response.status_code == 400
    assert not Settlement.objects.exists()


def test_the_old_cash_button_records_with_the_cash_way(client, host, played, shoe, ways):
    client.force_login(host)
    data = {"guest": played[2].pk, "direction": "guest_paid", "amount": "50", "method": "cash",
            "idempotency_key": str(uuid.uuid4())}  # fmt: skip
    client.post(reverse("ledger:settlement_record", args=[shoe.event_id]), data)
    assert Settlement.objects.get().way == ways["Cash"]


def _way_data(prefix: str, **fields: str) -> dict[str, str]:
    base = {"name": "Bizum", "kind": "details", "link_template": "", "house_handle": "",
            "details": "+34 600", "method": "way"}  # fmt: skip
    return {f"{prefix}-{key}": value for key, value in (base | fields).items()}


def test_the_host_adds_a_way_with_htmx_and_sees_the_list_in_place(client, host, ways):
    client.force_login(host)
    response = client.post(reverse("ledger:pay_way_add"), _way_data("new"), **HTMX)
    assert response.status_code == 200
    text = response.content.decode()
    assert text.lstrip().startswith('<section id="pay-ways"') and "Bizum" in text
    assert PayWay.objects.filter(name="Bizum").exists()


def test_a_refused_way_comes_back_with_the_reason(client, host, ways):
    client.force_login(host)
    bad = _way_data("new", name="Evil", kind="link", link_template="javascript:{handle}")
    response = client.post(reverse("ledger:pay_way_add"), bad)
    assert response.status_code == 400
    assert html.escape(str(MSG_TEMPLATE)) in response.content.decode()
    in_place = client.post(reverse("ledger:pay_way_add"), bad, **HTMX)
    assert in_place.status_code == 200
    assert html.escape(str(MSG_TEMPLATE)) in in_place.content.decode()
    assert not PayWay.objects.filter(name="Evil").exists()


def test_the_host_edits_retires_and_moves_a_way_from_the_page(client, host, ways):
    client.force_login(host)
    paypal = ways["PayPal"]
    data = _way_data(f"w{paypal.pk}", name="PayPal.Me", kind="link", details="",
                     link_template=paypal.link_template, house_handle="house2")  # fmt: skip
    assert client.post(reverse("ledger:pay_way_edit", args=[paypal.pk]), data).status_code == 302
    paypal.refresh_from_db()
    assert (paypal.name, paypal.house_handle) == ("PayPal.Me", "house2")
    client.post(reverse("ledger:pay_way_retire", args=[paypal.pk]), {"retired": "1"})
    assert PayWay.objects.get(pk=paypal.pk).is_retired
    before = PayWay.objects.get(pk=paypal.pk).position
    client.post(reverse("ledger:pay_way_move", args=[paypal.pk]), {"direction": "down"})
    assert PayWay.objects.get(pk=paypal.pk).position > before


def test_the_host_saves_a_guest_s_handles_and_a_hostile_one_is_refused(client, host, played, ways):
    aki = played[1]
    client.force_login(host)
    url = reverse("ledger:guest_handles_save", args=[aki.pk])
    venmo, paypay = ways["Venmo"].pk, ways["PayPay"].pk
    response = client.post(url, {f"way_{venmo}": "@aki-k", f"way_{paypay}": "aki_paypay"}, **HTMX)
    assert response.status_code == 200 and "aki-k" in response.content.decode()
    assert dict(GuestPayHandle.objects.values_list("way__name", "handle")) == {
        "Venmo": "aki-k", "PayPay": "aki_paypay"}  # fmt: skip
    refused = client.post(url, {f"way_{venmo}": "javascript:alert(1)", f"way_{paypay}": ""})
    assert refused.status_code == 400
    assert html.escape(str(MSG_HANDLE_LINK).format(maximum=64)) in refused.content.decode()
    assert GuestPayHandle.objects.get(way_id=venmo).handle == "aki-k"


def test_the_handles_form_has_no_box_for_a_way_in_person(ways):
    form = HandlesForm(ways=list(PayWay.objects.all()), handles=[])
    assert f"way_{ways['Cash'].pk}" not in form.fields
    assert f"way_{ways['PayPal'].pk}" in form.fields


@pytest.mark.parametrize("role", ["dealer", "outsider"])
def test_only_the_host_reaches_the_ways(client, role, request, played, ways):
    client.force_login(request.getfixturevalue(role))
    assert client.get(reverse("ledger:pay_ways")).status_code == 403
    url = reverse("ledger:guest_handles_save", args=[played[1].pk])
    assert client.post(url, {f"way_{ways['Venmo'].pk}": "x"}).status_code == 403
    assert not GuestPayHandle.objects.exists()


def test_the_pages_read_the_ways_in_constant_queries(
    client, host, played, shoe, ways, django_assert_max_num_queries
):
    client.force_login(host)
    ben = played[2]
    guest_services.guest_link_issue(guest=ben)
    pages = [reverse("ledger:pay_ways"), reverse("ledger:guest_detail", args=[ben.pk]),
             reverse("ledger:guest_page", args=[ben.pk, ben.access_token]),
             reverse("ledger:guest_receipt", args=[ben.pk, shoe.event_id])]  # fmt: skip
    Settlement.objects.create(guest=ben, event=shoe.event, amount=Decimal(1), method="way",
                              way=ways["Toss"], recorded_by=host)  # fmt: skip
    counts = []
    for _round in range(2):
        found = []
        for page in pages:
            with django_assert_max_num_queries(40) as queries:
                assert client.get(page).status_code == 200
            found.append(len(queries))
        counts.append(found)
        for number in range(12):  # many more ways and handles
            name = f"Way {_round} {number}"
            way = services.way_add(name=name, kind="details", details="x", by=host)
            services.pay_handle_save(guest=ben, way=way, handle=f"h{_round} {number}", by=host)
        Settlement.objects.create(guest=ben, event=shoe.event, amount=Decimal(1), method="way",
                                  way=way, recorded_by=host)  # fmt: skip
    assert counts[0] == counts[1]
