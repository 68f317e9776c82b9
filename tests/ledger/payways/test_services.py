"""The ways to pay as the host keeps them, a guest's handles, and a settlement naming its way."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db.models import ProtectedError

from ledger.guests import services as guest_services
from ledger.models import AuditEntry, GuestPayHandle, PayWay, Settlement
from ledger.money import services as money_services
from ledger.payways import services
from ledger.payways.links import MSG_HANDLE_LINK, MSG_TEMPLATE

pytestmark = pytest.mark.django_db


def test_the_list_starts_with_the_ways_hosts_use(ways):
    names = list(PayWay.objects.values_list("name", flat=True))
    assert names[:3] == ["Cash", "Offset against the tab at the venue",
                         "Credit toward the next bill"]  # fmt: skip
    for name in ("Bank transfer", "PayPay", "LINE Pay", "PayPal", "Venmo", "Revolut", "Wise",
                 "Zelle", "Cash App", "KakaoPay", "Toss", "SEPA bank transfer"):  # fmt: skip
        assert name in names
    assert ways["Cash"].method == "cash" and ways["PayPay"].method == "way"


def test_a_way_is_added_at_the_end_and_audited(host, ways):
    way = services.way_add(name="Bizum", kind="details", details="+34 600 000 000", by=host)
    assert list(PayWay.objects.all())[-1] == way
    entry = AuditEntry.objects.get(action=AuditEntry.Action.PAY_WAY)
    assert entry.after["name"] == "Bizum" and entry.before is None


def test_a_name_taken_in_any_case_is_refused(host, ways):
    with pytest.raises(ValidationError) as refused:
        services.way_add(name="paypal", kind="in_person", by=host)
    assert refused.value.message_dict["name"] == [
        str(services.MSG_WAY_NAME_TAKEN).format(name="paypal")
    ]


def test_a_link_way_needs_a_template_that_stays_on_its_host(host, ways):
    with pytest.raises(ValidationError) as refused:
        services.way_add(name="Evil", kind="link", link_template="javascript:{handle}", by=host)
    assert refused.value.message_dict["link_template"] == [str(MSG_TEMPLATE)]
    with pytest.raises(ValidationError) as refused:
        services.way_edit(way=ways["PayPal"], name="PayPal", kind="link",
                          link_template=ways["PayPal"].link_template,
                          house_handle="evil/../x", by=host)  # fmt: skip
    assert refused.value.message_dict["house_handle"] == [str(MSG_HANDLE_LINK).format(maximum=64)]


def test_a_rename_renames_the_settlements_that_name_the_way(host, played, shoe, ways):
    paid = money_services.settlement_record(
        guest=played[2],
        event=shoe.event,
        amount=Decimal(50),
        method="",
        way=ways["PayPay"],
        by=host,
    )
    assert (paid.method, paid.how) == ("way", "PayPay")
    services.way_edit(way=ways["PayPay"], name="PayPay (QR)", kind="details", by=host)
    assert Settlement.objects.get(pk=paid.pk).how == "PayPay (QR)"


def test_a_retired_way_stays_on_its_rows_and_is_refused_for_new_ones(host, played, shoe, ways):
    paid = money_services.settlement_record(
        guest=played[2],
        event=shoe.event,
        amount=Decimal(20),
        method="",
        way=ways["Venmo"],
        by=host,
    )
    services.way_retire(way=ways["Venmo"], retired=True, by=host)
    with pytest.raises(ValidationError) as refused:
        money_services.settlement_record(
            guest=played[2],
            event=shoe.event,
            amount=Decimal(20),
            method="",
            way=ways["Venmo"],
            by=host,
        )
    assert refused.value.message_dict["way"] == [
        str(money_services.MSG_WAY_RETIRED).format(name="Venmo")
    ]
    with pytest.raises(ProtectedError):  # a way in use is never deleted
        PayWay.objects.get(pk=ways["Venmo"].pk).delete()
    assert Settlement.objects.get(pk=paid.pk).how == "Venmo"
    services.way_retire(way=ways["Venmo"], retired=False, by=host)
    assert not PayWay.objects.get(pk=ways["Venmo"].pk).is_retired


def test_moving_a_way_swaps_it_with_its_neighbour(host, ways):
    names = lambda: list(PayWay.objects.values_list("name", flat=True))  # noqa: E731
    before = names()
    services.way_move(way=ways["PayPal"], up=True, by=host)
    after = names()
    at = before.index("PayPal")
    assert after[at - 1] == "PayPal" and after[at] == before[at - 1]
    services.way_move(way=ways["Cash"], up=True, by=host)  # the first: nothing above it
    assert names()[0] == "Cash"


def test_a_guest_s_handle_is_saved_changed_and_removed(host, played, ways):
    aki = played[1]
    saved = services.pay_handle_save(guest=aki, way=ways["PayPal"], handle="@AkiK", by=host)
    assert saved is not None and saved.handle == "AkiK"
    services.pay_handle_save(guest=aki, way=ways["PayPal"], handle="AkiKobayashi", by=host)
    assert GuestPayHandle.objects.get(guest=aki).handle == "AkiKobayashi"
    assert services.pay_handle_save(guest=aki, way=ways["PayPal"], handle=" ", by=host) is None
    assert not GuestPayHandle.objects.filter(guest=aki).exists()
    assert AuditEntry.objects.filter(action=AuditEntry.Action.PAY_HANDLE).count() == 3


def test_a_hostile_handle_is_refused_and_nothing_is_saved(host, played, ways):
    with pytest.raises(ValidationError) as refused:
        services.pay_handle_save(
            guest=played[1], way=ways["PayPal"], handle="javascript:alert(1)", by=host
        )
    assert "handle" in refused.value.message_dict
    assert not GuestPayHandle.objects.exists()


def test_the_same_key_with_another_way_is_refused(host, played, shoe, ways):
    key = uuid.uuid4()
    fields = {"guest": played[2], "event": shoe.event, "amount": Decimal(50), "method": "",
              "by": host, "idempotency_key": key}  # fmt: skip
    first = money_services.settlement_record(**fields, way=ways["PayPal"])
    assert money_services.settlement_record(**fields, way=ways["PayPal"]) == first
    with pytest.raises(ValidationError):
        money_services.settlement_record(**fields, way=ways["PayPay"])
    assert Settlement.objects.count() == 1


def test_older_methods_still_read_as_before(host, played, shoe):
    tab = money_services.settlement_record(
        guest=played[2], event=shoe.event, amount=Decimal(5), method="tab", by=host
    )
    assert tab.way is None and tab.how == "Offset against the tab at the venue"
    other = money_services.settlement_record(
        guest=played[2], event=shoe.event, amount=Decimal(5), method="other", note="IOU", by=host
    )
    assert other.how == "Other"
    void = money_services.settlement_void(settlement=tab, reason="typo", by=host)
    assert void.method == "tab" and void.way is None


def test_a_void_keeps_the_way(host, played, shoe, ways):
    paid = money_services.settlement_record(
        guest=played[2],
        event=shoe.event,
        amount=Decimal(50),
        method="",
        way=ways["PayPal"],
        by=host,
    )
    void = money_services.settlement_void(settlement=paid, reason="sent twice", by=host)
    assert void.way == ways["PayPal"] and void.how == "PayPal"


def test_a_merge_keeps_the_handles_the_kept_guest_has_none_on(host, ways):
    kept, gone = (guest_services.guest_create(name=name) for name in ("Kei", "Kei K"))
    services.pay_handle_save(guest=kept, way=ways["Venmo"], handle="kei", by=host)
    services.pay_handle_save(guest=gone, way=ways["Venmo"], handle="kei-old", by=host)
    services.pay_handle_save(guest=gone, way=ways["PayPay"], handle="kei_pp", by=host)
    guest_services.guest_merge(guest=kept, other=gone, by=host)
    assert dict(kept.pay_handles.values_list("way__name", "handle")) == {
        "Venmo": "kei", "PayPay": "kei_pp"}  # fmt: skip
