"""The ways to pay under attack: handles and link templates typed to make a link go elsewhere
(``javascript:``, another host, out of the path or the query), control characters, boxes of
ways retired or never there, a way named like a spreadsheet formula, and one guest's handles
looked for on another's page. A hostile handle or template is refused with its reason and
nothing saved; a good one makes a link on its service's host only; the formula stays text in
the workbook; a guest's page shows no one else's handle."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from io import BytesIO

from django.core.validators import ProhibitNullCharactersValidator
from django.urls import reverse
from openpyxl import load_workbook

from ledger.guests import services as guest_services
from ledger.models import GuestPayHandle, PayWay, Settlement
from ledger.money.services import MSG_WAY_GONE
from ledger.payways import services as payway_services
from ledger.payways.links import MSG_HANDLE_CHARACTER, MSG_HANDLE_LINK, MSG_TEMPLATE
from tests.adversary.ground import Case, Night, page_text, refused_saying, user_client
from tests.conftest import seed_pay_ways

NULL_REFUSED = ProhibitNullCharactersValidator.message  # a form's own refusal of U+0000
HANDLES = ("javascript:alert(1)", "https://evil.example/", "a/../../evil", "a?txn=charge",
           "a#x", "a&amount=1", "a b", "ａｋｉ", "a%2F", "<script>", "a\u202eb", "a\x00",
           "x" * 65, "$", "@@aki")  # fmt: skip
TEMPLATES = ("javascript:{handle}", "http://paypal.me/{handle}", "https://{handle}.example/",
             "https://paypal.me/{handle}/{evil}", "data:text/html,{handle}",
             "https://a@paypal.me/{handle}", "https://paypal.me/\n{handle}")  # fmt: skip


def _way_form(prefix: str, **fields: str) -> dict[str, str]:
    base = {"name": f"W {uuid.uuid4().hex[:6]}", "kind": "link", "link_template": "",
            "house_handle": "", "details": "", "method": "way"}  # fmt: skip
    return {f"{prefix}-{key}": value for key, value in (base | fields).items()}


def payway_cases(night: Night, tag: str) -> Iterator[Case]:
    client, host = night.client, night.host
    seed_pay_ways()
    paypal = PayWay.objects.get(name="PayPal")
    guest, other = night.guests[0], night.guests[1]
    handles_url = reverse("ledger:guest_handles_save", args=[guest.pk])

    def handle(text: str) -> Case:
        def run() -> str:
            before = list(GuestPayHandle.objects.filter(guest=guest).values_list("handle"))
            response = client.post(handles_url, {f"way_{paypal.pk}": text})
            after = list(GuestPayHandle.objects.filter(guest=guest).values_list("handle"))
            return refused_saying(response, MSG_HANDLE_LINK, MSG_HANDLE_CHARACTER, NULL_REFUSED,
                                  changed=before != after)  # fmt: skip

        return Case("payways", f"handle {text[:20]!r}", run)

    yield from (handle(text) for text in HANDLES)

    def template(text: str) -> Case:
        def run() -> str:
            before = PayWay.objects.count()
            response = client.post(reverse("ledger:pay_way_add"),
                                   _way_form("new", link_template=text))  # fmt: skip
            return refused_saying(response, MSG_TEMPLATE, changed=PayWay.objects.count() != before)

        return Case("payways", f"template {text[:24]!r}", run)

    yield from (template(text) for text in TEMPLATES)

    def good_handle() -> str:
        response = client.post(handles_url, {f"way_{paypal.pk}": "@Aki.K-01"})
        saved = GuestPayHandle.objects.filter(guest=guest, way=paypal).first()
        if response.status_code >= 500:
            return "crashed"
        if saved is None or saved.handle != "Aki.K-01":
            return f"wrong: refused a good handle ({response.status_code})"
        return "accepted"

    yield Case("payways", "a good handle", good_handle)

    def box_never_there() -> str:
        response = client.post(handles_url, {"way_99999999": "aki"})
        return refused_saying(response, MSG_WAY_GONE, changed=False)

    yield Case("payways", "a box of a way never there", box_never_there)

    def retired_button() -> str:
        way = payway_services.way_add(name=f"Gone {tag}", kind="in_person", by=host)
        payway_services.way_retire(way=way, retired=True, by=host)
        before = Settlement.objects.count()
        data = {"guest": other.pk, "direction": "guest_paid", "amount": "10", "confirm": "on",
                "method": f"way:{way.pk}", "idempotency_key": str(uuid.uuid4())}  # fmt: skip
        response = client.post(reverse("ledger:settlement_record", args=[night.event.pk]), data)
        return refused_saying(response, MSG_WAY_GONE, changed=Settlement.objects.count() != before)

    yield Case("payways", "a settlement by a retired way", retired_button)

    def formula_name() -> str:
        name = f'=HYPERLINK("http://evil.example","{tag}")'
        way = payway_services.way_add(name=name, kind="in_person", by=host)
        data = {"guest": other.pk, "direction": "guest_paid", "amount": "10", "confirm": "on",
                "method": f"way:{way.pk}", "idempotency_key": str(uuid.uuid4())}  # fmt: skip
        client.post(reverse("ledger:settlement_record", args=[night.event.pk]), data)
        book = client.get(reverse("ledger:event_workbook", args=[night.event.pk]))
        sheets = load_workbook(BytesIO(b"".join(book.streaming_content)))  # type: ignore[attr-defined]
        cells = [cell for sheet in sheets for row in sheet.iter_rows() for cell in row
                 if cell.value == name]  # fmt: skip
        if not cells:
            return "wrong: the way's name is not in the workbook"
        if any(cell.data_type == "f" or not cell.quotePrefix for cell in cells):
            return "wrong: a way's name is a formula in the workbook"
        return "accepted"

    yield Case("payways", "a way named like a formula", formula_name)

    def someone_else_s_handle() -> str:
        secret = f"secret{tag}"
        payway_services.pay_handle_save(guest=other, way=paypal, handle=secret, by=host)
        guest_services.guest_link_issue(guest=guest)  # sets the caller's copy's token too
        page = user_client(None).get(
            reverse("ledger:guest_page", args=[guest.pk, guest.access_token])
        )
        if page.status_code >= 500:
            return "crashed"
        if secret in page_text(page):
            return "wrong: a guest's page shows another guest's handle"
        return "refused"

    yield Case("payways", "another guest's handle on a guest's page", someone_else_s_handle)
