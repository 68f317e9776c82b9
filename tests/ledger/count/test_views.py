"""The host's count pages through the test client: chips by denomination, refusals beside their
form with nothing recorded, the difference found on the guest's page, an adjustment, voids, the
settings, and a constant number of queries whatever the size of the night."""

from __future__ import annotations

import re
import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from ledger.count import services
from ledger.count.views import MSG_ADJUST_OR_RECOUNT, MSG_TRAY
from ledger.models import Adjustment, ChipMove, CountSetup
from tests.conftest import bet
from tests.pages import text

D = Decimal
pytestmark = pytest.mark.django_db
COUNT_PAGE_QUERIES = 14
GUEST_PAGE_QUERIES = 15


def chips_post(client, event, guest, kind, **fields):
    data = {"kind": kind, "guest": guest.pk if guest else "", "idempotency_key": uuid.uuid4()}
    return client.post(reverse("ledger:chips_add", args=[event.pk]), data | fields)


def test_a_buy_in_and_a_count_by_denomination_from_the_guest_s_page(client, host, event, guests):
    client.force_login(host)
    aki = guests[0]
    page = text(client.get(reverse("ledger:count_guest", args=[event.pk, aki.pk])))
    assert 'name="n_100"' in page and 'name="n_0_5"' in page  # a box per chip of the set
    done = chips_post(client, event, aki, "buy_in", source="marker", n_100="5")
    assert done.status_code == 302
    done = chips_post(client, event, aki, "count", n_100="4", n_25="3", n_0_5="1")
    assert done.status_code == 302
    counted = ChipMove.objects.get(kind="count")
    assert (counted.chips, counted.by_denomination) == (D("475.5"), {"100": 4, "25": 3, "0.5": 1})
    page = text(client.get(reverse("ledger:count_page", args=[event.pk])))
    assert "−$24.50" in page  # 475.50 counted of 500 taken, no hand played


def test_a_refused_count_comes_back_beside_its_form_and_records_nothing(
    client, host, event, guests
):
    client.force_login(host)
    refused = chips_post(client, event, guests[0], "count", n_100="2", total="300")
    assert refused.status_code == 400
    page = text(refused)
    assert "The chips add up to 200 but the total says 300" in page
    assert 'value="2"' in page  # what was typed stays
    refused = chips_post(client, event, guests[0], "buy_in", total="100")
    assert "how Aki paid" in text(refused)
    assert not ChipMove.objects.exists()


def test_a_difference_is_found_among_the_guest_s_bets_or_booked(
    client, host, event, guests, seated, shoe, record
):
    client.force_login(host)
    aki = guests[0]
    services.chips_record(
        event=event, guest=aki, kind="buy_in", chips=D(500), source="cash", by=host
    )
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    chips_post(client, event, aki, "count", total="640")
    page = text(client.get(reverse("ledger:count_guest", args=[event.pk, aki.pk])))
    assert "+$40" in page
    assert reverse("ledger:hand_detail", args=[hand.pk]) in page  # the hand to correct
    assert 'name="amount" value="40"' in page  # the adjustment starts from the difference
    booked = client.post(
        reverse("ledger:adjustment_add", args=[event.pk]),
        {
            "guest": aki.pk,
            "amount": "40",
            "reason": "a bet nobody logged",
            "idempotency_key": uuid.uuid4(),
        },
    )
    assert booked.status_code == 302
    assert Adjustment.objects.get().amount == D(40)
    refused = client.post(
        reverse("ledger:adjustment_add", args=[event.pk]),
        {"guest": aki.pk, "amount": "−4x", "reason": "", "idempotency_key": uuid.uuid4()},
    )
    assert refused.status_code == 400
    assert "Type an amount such as 40 or −40" in text(refused)
    assert Adjustment.objects.count() == 1


def test_a_row_is_voided_with_its_reason_from_the_page(client, host, event, guests):
    client.force_login(host)
    move = services.chips_record(
        event=event, guest=guests[0], kind="buy_in", chips=D(500), source="cash", by=host
    )
    url = reverse("ledger:chips_void", args=[move.pk])
    client.post(url, {"reason": ""})
    assert ChipMove.objects.count() == 1
    client.post(url, {"reason": "typed twice"})
    assert ChipMove.objects.filter(voids=move, chips=D(-500)).exists()


def test_the_settings_save_and_a_bad_chip_set_is_refused(client, host, event):
    client.force_login(host)
    url = reverse("ledger:count_setup", args=[event.pk])
    refused = client.post(url, {"denominations": "5 5 abc", "opening_float": "1000"})
    assert refused.status_code == 400
    assert "each once" in text(refused)
    assert not CountSetup.objects.exists()
    client.post(url, {"denominations": "1 5 25 100", "opening_float": "1,000"})
    setup = CountSetup.objects.get()
    assert (setup.denominations, setup.opening_float) == (["1", "5", "25", "100"], D(1000))


@pytest.mark.parametrize("size", [1, 8])
def test_the_count_pages_run_a_fixed_number_of_queries(
    client, host, event, guests, seated, shoe, record, size, django_assert_max_num_queries
):
    client.force_login(host)
    for guest in guests[:size]:
        services.chips_record(
            event=event, guest=guest, kind="buy_in", chips=D(500), source="cash", by=host
        )
        services.chips_record(event=event, guest=guest, kind="count", chips=D(500), by=host)
    for _ in range(size):
        record(shoe, "9 7", "J J 10", [bet(1, "player", 10), bet(2, "banker", 10)])
    with django_assert_max_num_queries(COUNT_PAGE_QUERIES):
        assert client.get(reverse("ledger:count_page", args=[event.pk])).status_code == 200
    url = reverse("ledger:count_guest", args=[event.pk, guests[0].pk])
    with django_assert_max_num_queries(GUEST_PAGE_QUERIES):
        assert client.get(url).status_code == 200


def test_the_close_names_guests_not_counted_and_differences(
    client, host, event, guests, seated, shoe, record
):
    client.force_login(host)
    aki, ben = guests[0], guests[1]
    for guest in (aki, ben):
        services.chips_record(
            event=event, guest=guest, kind="buy_in", chips=D(500), source="cash", by=host
        )
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    services.chips_record(event=event, guest=aki, kind="count", chips=D(580), by=host)
    page = text(client.get(reverse("ledger:event_close", args=[event.pk])))
    assert "Not counted yet: Ben." in page
    assert "Aki: a difference of −$20, neither found nor booked." in page
    assert "The house's tray is not counted yet." in page


def test_a_night_not_counted_is_not_asked_about_the_count(client, host, event, seated, shoe):
    client.force_login(host)
    page = text(client.get(reverse("ledger:event_close", args=[event.pk])))
    assert "Not counted yet" not in page and "tray" not in page


def test_a_count_only_night_shows_its_count_and_logs_no_hand(
    client, host, event, guests, seated, shoe, record
):
    client.force_login(host)
    services.count_setup_save(event=event, by=host, count_only=True)
    page = text(client.get(reverse("ledger:event_detail", args=[event.pk])))
    assert "Kept by its count alone: the count" in page
    assert "Start shoe" not in page
    with pytest.raises(ValidationError) as caught:
        record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    assert "kept by its count alone" in " ".join(caught.value.messages)


def test_a_guest_s_receipt_and_page_show_their_chips_and_adjustments(
    client, host, event, guests, seated, shoe, record
):
    client.force_login(host)
    aki = guests[0]
    services.chips_record(
        event=event, guest=aki, kind="buy_in", chips=D(500), source="cash", by=host
    )
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    services.chips_record(event=event, guest=aki, kind="count", chips=D(640), by=host)
    services.adjustment_record(
        event=event, guest=aki, amount=D(40), reason="a bet nobody logged", by=host
    )
    receipt = text(client.get(reverse("ledger:guest_receipt", args=[aki.pk, event.pk])))
    assert "Chips taken $500 · handed back $640" in receipt
    assert "Adjustment from the count" in receipt and "a bet nobody logged" in receipt
    assert "Balance carried" in receipt and "+$140" in receipt  # 100 from the hands, 40 booked
    page = text(client.get(reverse("ledger:guest_detail", args=[aki.pk])))
    assert "Chips taken $500 · handed back $640" in page


def test_a_page_counting_chips_the_night_no_longer_has_is_refused(client, host, event, guests):
    client.force_login(host)
    services.count_setup_save(event=event, by=host, denominations=["5", "25", "100"])
    refused = chips_post(client, event, guests[0], "count", n_100="1", n_500="2")
    assert refused.status_code == 400
    assert "it has a box for 500, which the night no longer counts" in text(refused)
    assert not ChipMove.objects.exists()


def test_a_night_with_adjustments_cannot_become_count_only(event, guests, host):
    services.adjustment_record(event=event, guest=guests[0], amount=D(5), reason="x", by=host)
    with pytest.raises(ValidationError) as caught:
        services.count_setup_save(event=event, by=host, count_only=True)
    assert "adjustments booked" in " ".join(caught.value.messages)


def test_counting_round_the_table_goes_on_to_the_next_stack(client, host, event, guests):
    client.force_login(host)
    aki, ben, chie = guests[:3]
    for guest in (chie, aki, ben):
        services.chips_record(
            event=event, guest=guest, kind="buy_in", chips=D(100), source="cash", by=host
        )
    guest_url = lambda guest: reverse("ledger:count_guest", args=[event.pk, guest.pk])  # noqa: E731
    assert chips_post(client, event, aki, "count", total="100").url == guest_url(ben)
    assert chips_post(client, event, chie, "count", total="100").url == guest_url(ben)  # round
    done = chips_post(client, event, ben, "count", total="100")
    assert done.url == reverse("ledger:count_page", args=[event.pk])  # everyone counted
    taken = chips_post(client, event, aki, "top_up", total="100", source="cash")
    assert taken.url == guest_url(aki)  # chips taken: the same guest's page


def test_an_adjustment_takes_the_full_width_minus_a_japanese_keyboard_types(
    client, host, event, guests
):
    client.force_login(host)
    booked = client.post(
        reverse("ledger:adjustment_add", args=[event.pk]),
        {"guest": guests[0].pk, "amount": "－１２", "reason": "r", "idempotency_key": uuid.uuid4()},
    )
    assert booked.status_code == 302
    assert Adjustment.objects.get().amount == D(-12)


def count_table(page: str) -> list[list[str]]:
    """The count table's rows, each as its cells' text (the Table row last)."""
    table = re.search(r'<table class="numbers compact count-table">(.*?)</table>', page, re.S)
    assert table is not None
    rows = re.findall(r"<tr\b[^>]*>(.*?)</tr>", table.group(1), re.S)[1:]  # after the heading
    cells = [re.findall(r"<t[dh]\b[^>]*>(.*?)</t[dh]>", row, re.S) for row in rows]
    return [[re.sub(r"<[^>]+>", "", cell).strip() for cell in row] for row in cells]


def amount(cell: str) -> D:
    if cell in ("—", ""):
        return D(0)
    return D(cell.replace("−", "-").replace("$", "").replace(",", "").replace("+", ""))


def test_the_table_row_adds_up_its_columns_with_the_tray(
    client, host, event, guests, seated, shoe, record
):
    """Aki won a bet nobody logged: +$100 at his place, −$100 in the tray, and the Table row
    (the guests and the tray) shows each column's sum: nothing missing from the table."""
    client.force_login(host)
    aki, ben = guests[0], guests[1]
    services.count_setup_save(event=event, by=host, opening_float=D(1000))
    for guest in (aki, ben):
        services.chips_record(
            event=event, guest=guest, kind="buy_in", chips=D(500), source="cash", by=host
        )
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])  # Aki +100 from the tray
    services.chips_record(event=event, guest=aki, kind="count", chips=D(700), by=host)
    services.chips_record(event=event, guest=ben, kind="count", chips=D(500), by=host)
    services.chips_record(event=event, guest=None, kind="tray", chips=D(800), by=host)
    page = client.get(reverse("ledger:count_page", args=[event.pk])).content.decode()
    rows = count_table(page)
    by_name = {row[0]: row for row in rows}
    assert by_name["Aki"][1] == "+$100"
    assert by_name[str(MSG_TRAY)][1:] == ["−$100", "$800", "$900", "$1,000"]
    assert by_name["Table"][1:] == ["$0", "$2,000", "$2,000", "$2,000"]
    for column in range(1, 5):  # each column of the Table row is the sum of the rows above
        assert sum(amount(row[column]) for row in rows[:-1]) == amount(rows[-1][column])
    assert str(MSG_ADJUST_OR_RECOUNT) in page


@pytest.mark.parametrize("seen", ["sNaN", "NaN", "Infinity", "-Infinity", "1e999999999"])
def test_a_count_whose_page_total_is_no_number_is_refused_not_a_500(
    client, host, event, guests, seen
):
    client.force_login(host)
    refused = chips_post(client, event, guests[0], "count", total="100", seen_counted=seen)
    assert refused.status_code == 400
    assert str(services.MSG_COUNTED_MEANWHILE).split("{")[0] in text(refused).replace(
        guests[0].name, "{who}"
    )
    assert not ChipMove.objects.exists()


@pytest.mark.parametrize("typed", ["①", "¹²", "₃", "𝟗", "⑩", "𝟓", "٣", "३"])
def test_a_chip_box_takes_only_the_digits_0_to_9(client, host, event, guests, typed):
    client.force_login(host)
    refused = chips_post(client, event, guests[0], "count", n_100="1", n_25=typed)
    assert refused.status_code == 400
    words = str(services.MSG_DENOMINATION_NUMBER).format(value="25", maximum="10000")
    assert words.split(" from ")[0] in text(refused)  # names the box: "The number of 25 chips"
    assert not ChipMove.objects.exists()


def test_a_chip_box_reads_full_width_digits_a_japanese_phone_types(client, host, event, guests):
    client.force_login(host)
    done = chips_post(client, event, guests[0], "count", n_100="１", n_25="１２")
    assert done.status_code == 302
    assert ChipMove.objects.get().by_denomination == {"100": 1, "25": 12}
