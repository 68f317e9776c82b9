"""A night in euros on a 360 px phone at a 300 ms round trip, against the production server:
the host makes the night (EUR, €0.50 a chip) on the night form, seats six guests and taps four
hands on the table, records the pizza the house paid for the six (the expenses panel), enters
two dealers' shifts and three tips (the tips page), gives the house's and a guest's PayPal
handles, sees the pay link and its QR on the guest's own page and settles that guest by PayPal
and another against the tab, counts the chips in and out and the tray (the tips box beside it),
and the night reconciles. Then the event page, each guest's receipt (page and PDF) and the
workbook agree on every figure, in euros with two decimals, each worked out here from the
stakes tapped, and the workbook's own figures add up to zero."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook
from pypdf import PdfReader

from games.models import Event, Hand
from ledger.guests import services as guest_services
from ledger.models import PayWay, Settlement
from shoebook.base.roles import DEALERS
from tests.browser.conftest import UNTIL_THE_OUTBOX_IS_EMPTY, log_in
from tests.conftest import make_user, seed_pay_ways

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FITS = "document.documentElement.scrollWidth <= innerWidth"
RATE = Decimal("0.50")  # euros per chip
GUESTS = ("田中", "Aki", "Ben", "小林", "Chloé", "Dmitri")  # seat n: the n-th
# Four hands, each: the stakes tapped [(seat, bet, chips tapped)], then the cards tapped in deal
# order (P1 B1 P2 B2, then the third cards), then what each bet nets in chips, worked out here:
# Player pays even money, Banker 0.95 (5% commission), a tie 8 to 1, and Player or Banker
# bets push on a tie.
HANDS = [
    # Player 6 (9 7 + 10) beats Banker 0 (J J + 10).
    ([(1, "player", (100,)), (2, "banker", (50,)), (3, "player", (20,))], "9 J 7 J 10"),
    # Banker's natural 9 (9 K) beats Player 6 (2 4).
    ([(4, "banker", (100,)), (5, "player", (50,)), (6, "banker", (20,))], "2 9 4 K"),
    # A natural tie: 8 (K 8) and 8 (K 8).
    ([(1, "tie", (10,)), (2, "player", (20,)), (3, "banker", (10,))], "K K 8 8"),
    # Banker's natural 9 (9 K) beats Player 8 (8 K).
    ([(5, "banker", (20, 20)), (6, "player", (20, 10)), (4, "player", (10,))], "8 9 K K"),
]
WINNER = ("player", "banker", "tie", "banker")


def nets_of_the_hands() -> dict[int, Decimal]:
    """Each seat's net over the hands, from the stakes and the winners alone."""
    nets = dict.fromkeys(range(1, 7), Decimal(0))
    for (stakes, _cards), winner in zip(HANDS, WINNER, strict=True):
        for seat, bet, chips in stakes:
            stake = Decimal(sum(chips))
            if bet == winner:
                nets[seat] += {"player": stake, "banker": stake * Decimal("0.95")}.get(
                    bet, stake * 8
                )
            elif not (winner == "tie" and bet in ("player", "banker")):
                nets[seat] -= stake
    return nets


PIZZA = Decimal(60)  # chips: €30, paid by the house, shared by the six
TIPS = [  # (seat, chips, source, hand number)
    (1, Decimal(20), "hand_win", 1),
    (4, Decimal(10), "chips", None),
    (3, Decimal(6), "money", None),
]
TIP_WORDS = {
    "hand_win": "From a hand's win",
    "chips": "In chips at the table",
    "money": "In money at the end",
}
BUY_IN = Decimal(200)
FLOAT = Decimal(2000)
HOUSE_HANDLE = "shoebook-house"


def euros(chips: Decimal) -> str:
    """An amount of chips in euros, as en-GB writes it: −€30.00, €1,234.50."""
    money = chips * RATE
    return f"{'−' if money < 0 else ''}€{abs(money):,.2f}"


def signed(chips: Decimal) -> str:
    """Chips as the pages write them with their sign: +$150, −$21, $0."""
    return f"{'+' if chips > 0 else '−' if chips < 0 else ''}${abs(chips):,f}".removesuffix(".00")


def rows_by_heading(sheet) -> list[dict]:
    """A sheet's rows below its heading row, each cell by its column's heading."""
    heading = [cell.value for cell in sheet[1]]
    return [dict(zip(heading, row, strict=False)) for row in sheet.iter_rows(min_row=2)]


def fits(page) -> None:
    assert page.evaluate(FITS), page.url


def tap_hand(page, stakes, cards: str, number: int) -> None:
    for seat, bet, chips in stakes:
        page.tap(f"input[name=stake_{seat}_{bet}]")
        for chip in chips:
            page.tap(f"button.chip[data-chip='{chip}']")
    for rank in cards.split():
        page.tap(f".keypad [data-rank='{rank}']")
    page.tap("button.save")
    page.locator("[data-hand-number]", has_text=str(number + 1)).wait_for()


@pytest.fixture
def people(host):
    seed_pay_ways()
    dealers = [make_user(name, DEALERS) for name in ("dealer-ana", "dealer-bo")]
    return host, dealers


def test_a_night_in_euros_on_a_phone(phone, people, bar_wifi):
    host, dealers = people
    bar_wifi.proxy.latency_ms = 300
    base_url = bar_wifi.url
    log_in(phone, base_url, host.username)
    today = timezone.localdate()

    # The night, on the night form: euros at €0.50 a chip.
    phone.goto(f"{base_url}/events/new/")
    phone.fill("input[name=name]", "Frankfurt night")
    phone.fill("input[name=date]", today.isoformat())
    phone.select_option("select[name=currency]", "EUR")
    phone.fill("input[name=money_per_chip]", "0.50")
    fits(phone)
    phone.locator("#event-form button[type=submit]:not([name])").tap()
    phone.locator("h1", has_text="Frankfurt night").wait_for()
    event = Event.objects.get()
    assert (event.currency, event.money_per_chip) == ("EUR", RATE)
    guests = [guest_services.event_guest_add(event=event, name=name, by=host) for name in GUESTS]
    by_seat = dict(enumerate(guests, start=1))

    # The shoe, the six seated by taps, four hands tapped.
    phone.goto(f"{base_url}/events/{event.pk}/")
    phone.get_by_role("button", name="Start shoe 1").tap()
    phone.wait_for_url("**/shoes/*/")
    phone.tap(".seat-choice:has(input[value='1'])")
    for name in GUESTS:
        phone.tap(f".guest-choice:text-is('{name}')")
    phone.evaluate(UNTIL_THE_OUTBOX_IS_EMPTY)
    for seat, guest in by_seat.items():
        phone.locator(f"#seat-guest-{seat}").get_by_text(guest.name).wait_for()
    phone.tap("summary:has-text('Seats')")  # the sheet closed
    for number, (stakes, cards) in enumerate(HANDS, start=1):
        tap_hand(phone, stakes, cards, number)
    phone.evaluate(UNTIL_THE_OUTBOX_IS_EMPTY)
    fits(phone)
    assert Hand.objects.filter(shoe__event=event).count() == 4
    nets = nets_of_the_hands()

    # The pizza, paid by the house in money, shared by the six (the event page's panel).
    phone.goto(f"{base_url}/events/{event.pk}/")
    panel = phone.locator("#expenses")
    panel.locator("form.expense-form").wait_for()  # loaded in place by htmx
    panel.get_by_label("What").fill("Pizza")
    panel.get_by_label("How much (chips)").fill(f"{PIZZA}")
    panel.get_by_label("Everyone at the night").check()
    fits(phone)
    panel.get_by_role("button", name="Record the expense").tap()
    phone.get_by_text("Recorded: an expense of $60 (Pizza).").wait_for()
    share = PIZZA / len(GUESTS)

    # Two dealers' shifts, an hour and two hours, entered by the host; three tips.
    phone.goto(f"{base_url}/events/{event.pk}/tips/")
    now = timezone.localtime().replace(second=0, microsecond=0)
    for dealer, started, ended in (
        (dealers[0], now - timedelta(hours=3), now - timedelta(hours=2)),
        (dealers[1], now - timedelta(hours=2), now),
    ):
        form = phone.locator(".shift-form")
        form.get_by_label("Dealer").select_option(label=dealer.username)
        form.get_by_label("Shoe").select_option(index=1)
        form.get_by_label("Started").fill(started.strftime("%Y-%m-%dT%H:%M"))
        form.get_by_label("Ended").fill(ended.strftime("%Y-%m-%dT%H:%M"))
        form.get_by_role("button", name="Record the shift").tap()
        phone.locator("#shifts li", has_text=dealer.username).wait_for()
    for recorded, (seat, chips, source, hand) in enumerate(TIPS, start=1):
        form = phone.locator(".tip-form")
        form.locator("select[name=guest]").select_option(label=by_seat[seat].name)
        form.locator("input[name=amount]").fill(f"{chips}")
        form.locator(f"input[name=source][value={source}]").check()
        if hand:
            form.locator("select[name=hand]").select_option(label=f"Shoe 1 · hand {hand}")
        form.get_by_role("button", name="Record the tip").tap()
        phone.locator(".tip-rows > li").nth(recorded - 1).wait_for()
        fits(phone)
    pool = sum(chips for _seat, chips, _source, _hand in TIPS)
    dealer_shares = {dealers[0]: pool / 3, dealers[1]: pool * 2 / 3}  # one hour to two
    phone.locator(".tip-pool").get_by_text(f"${pool}").wait_for()
    for dealer, chips in dealer_shares.items():
        assert phone.locator(f"#share-{dealer.pk}").inner_text().split("\t")[-1] == f"${chips}"
    phone.context.clear_cookies()
    for dealer, chips in dealer_shares.items():
        log_in(phone, base_url, dealer.username)
        phone.goto(f"{base_url}/dealer/tips/")
        phone.locator(f"#night-{event.pk}").get_by_text(f"${chips}").wait_for()
        fits(phone)
        phone.context.clear_cookies()
    log_in(phone, base_url, host.username)

    # Balances: the hands, less the pizza's share and the tips (each from the stakes above).
    tipped = {seat: chips for seat, chips, _source, _hand in TIPS}
    balances = {seat: nets[seat] - share - tipped.get(seat, 0) for seat in by_seat}
    paypal_seat, tab_seat = 2, 5  # Aki owes €30.00, Chloé €11.00
    assert balances[paypal_seat] < 0 and balances[tab_seat] < 0

    # PayPal: the house's handle on the ways' page, Aki's own on his page.
    paypal = PayWay.objects.get(name="PayPal")
    phone.goto(f"{base_url}/ways/")
    row = phone.locator(f"#way-{paypal.pk}")
    row.locator("summary").tap()
    row.get_by_label("The house's handle").fill(HOUSE_HANDLE)
    row.get_by_role("button", name="Save").tap()
    phone.locator("#pay-ways .notice", has_text="Saved “PayPal”").wait_for()
    aki = by_seat[paypal_seat]
    phone.goto(f"{base_url}/guests/{aki.pk}/")
    handles = phone.locator("#pay-handles")
    handles.get_by_label("PayPal").fill("aki-pays")
    handles.get_by_role("button", name="Save the handles").tap()
    phone.locator("#pay-handles .notice").wait_for()
    phone.get_by_role("button", name="Make a private link").tap()
    private = phone.locator("p.link a").get_attribute("href")
    fits(phone)

    # Aki's own page asks for €30.00 by PayPal: the link and its QR.
    guest_page = phone.context.browser.new_context(
        viewport={"width": 360, "height": 740}, locale="en-GB", has_touch=True
    ).new_page()
    guest_page.goto(private if private.startswith("http") else base_url + private)
    owed = -balances[paypal_seat] * RATE
    link = guest_page.get_by_role("link", name="Pay by link")
    assert link.get_attribute("href") == f"https://paypal.me/{HOUSE_HANDLE}/{owed:.2f}EUR"
    assert guest_page.locator("#pay-request .qr svg").count() >= 1
    request = guest_page.locator("#pay-request").inner_text()
    assert f"How to pay {euros(-balances[paypal_seat])} to the house:" in request
    fits(guest_page)
    guest_page.context.close()

    # Aki pays by PayPal, Chloé against the tab.
    phone.goto(f"{base_url}/events/{event.pk}/?settle={aki.pk}#settle")
    panel = phone.locator("#settle")
    assert (
        f"Aki pays the house {signed(-balances[paypal_seat])[1:]} / {euros(-balances[paypal_seat])}"
        in (panel.inner_text())
    )
    fits(phone)
    panel.get_by_role("button", name="PayPal").tap()
    phone.wait_for_url("**/#settlement")
    chloe = by_seat[tab_seat]
    phone.goto(f"{base_url}/events/{event.pk}/?settle={chloe.pk}#settle")
    panel = phone.locator("#settle")
    panel.get_by_label("Tab").fill("4")
    panel.get_by_role("button", name="Offset against the tab at the venue").tap()
    phone.wait_for_url("**/#settlement")
    assert dict(Settlement.objects.values_list("guest_id", "amount")) == {
        aki.pk: -balances[paypal_seat],
        chloe.pk: -balances[tab_seat],
    }

    # The count: the tray's float, six buy-ins, six stacks, the tray; the tips box beside it.
    phone.goto(base_url + reverse("ledger:count_page", args=[event.pk]))
    phone.locator("#count-setup summary").tap()
    phone.locator("[name=opening_float]").fill(f"{FLOAT}")
    phone.locator("#count-setup").get_by_role("button", name="Save").tap()
    phone.get_by_text("The count's settings are saved.").wait_for()
    in_chips = {seat: chips for seat, chips, source, _h in TIPS if source != "money"}
    for seat, guest in by_seat.items():
        phone.goto(base_url + reverse("ledger:count_guest", args=[event.pk, guest.pk]))
        take = phone.locator("#take form")
        take.locator("label:has([name=source][value=cash])").tap()
        take.locator("[name=total]").fill(f"{BUY_IN}")
        take.get_by_role("button").tap()
        phone.get_by_text(f"{guest.name}: a buy-in of ${BUY_IN}").wait_for()
        held = BUY_IN + nets[seat] - in_chips.get(seat, 0)
        count = phone.locator("#count form")
        count.locator("[name=total]").fill(f"{held}")
        count.get_by_role("button").tap()
        phone.get_by_text(f"{guest.name}: ${held:,f}".removesuffix(".00") + " counted").wait_for()
        fits(phone)
    phone.goto(base_url + reverse("ledger:count_page", args=[event.pk]))
    house_from_hands = -sum(nets.values())
    phone.locator("#tray summary").tap()
    phone.locator("#tray form [name=total]").fill(f"{FLOAT + house_from_hands}")
    phone.locator("#tray form").get_by_role("button").tap()
    phone.get_by_text("The night reconciles").wait_for()
    box = phone.locator(".tips-box-row").inner_text()
    assert f"${sum(in_chips.values())}" in box, box
    fits(phone)

    # What every page and the workbook say, each figure worked out above from the stakes.
    settled = {aki.pk: -balances[paypal_seat], chloe.pk: -balances[tab_seat]}
    house_hands = -sum(nets.values())  # the commission in it
    house_expenses = PIZZA  # the house paid it and shares none of it
    assert sum(balances.values()) + house_hands + house_expenses + pool == 0

    # The event page: each guest tonight (pizza and tips in) and their balance in euros; the
    # house's result from the hands and with the pizza.
    phone.goto(f"{base_url}/events/{event.pk}/")
    for seat, guest in by_seat.items():
        row = phone.locator("table.settlement-list tbody tr", has_text=guest.name).first
        text = row.inner_text()
        after = balances[seat] + settled.get(guest.pk, 0)
        assert signed(balances[seat]) in text, text  # tonight
        assert euros(after) in text, text  # the balance
    page = phone.locator("main").inner_text()
    assert f"the house {signed(house_hands)} = {euros(house_hands)}" in page
    assert (
        f"Expenses, the house's side (what it paid less its shares): {signed(house_expenses)};"
        f" what the guests owe the house with them: {signed(house_hands + house_expenses)}"
    ) in page
    recorded = phone.locator("#settlements-recorded + ul").inner_text()
    assert f"Aki paid the house {signed(settled[aki.pk])[1:]} · PayPal" in recorded
    assert (
        f"Chloé paid the house {signed(settled[chloe.pk])[1:]} · Settled against the tab 4"
        in recorded
    )
    fits(phone)

    # Each guest's receipt, page and PDF: the hands, the tips, the pizza, the settlement, the
    # balance carried, in chips and in euros.
    for seat, guest in by_seat.items():
        lines = [("Result of the hands", nets[seat]), ("Pizza: your share", -share)]
        for tipper, chips, source, _hand in TIPS:
            if tipper == seat:
                lines.append((f"Tip to the dealers ({TIP_WORDS[source]})", -chips))
        if guest.pk in settled:
            way = "PayPal" if guest.pk == aki.pk else "Settled against the tab 4"
            lines.append((f"Paid the house ({way})", settled[guest.pk]))
        lines.append(("Balance carried", balances[seat] + settled.get(guest.pk, 0)))
        assert sum(chips for _words, chips in lines[:-1]) == lines[-1][1]
        receipt = f"{base_url}/guests/{guest.pk}/receipts/{event.pk}/"
        phone.goto(receipt)
        statement = phone.locator("main").inner_text()
        paper = phone.context.request.get(receipt + "receipt.pdf")
        assert paper.ok, paper.status
        pdf = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(paper.body())).pages)
        assert "¥" not in statement + pdf, guest.name
        for words, chips in lines:
            on_page = re.search(rf"{re.escape(words)}[^\t\n]*\t([^\t\n]+)\t([^\t\n]+)", statement)
            assert on_page, (guest.name, words, statement)
            assert on_page.groups() == (signed(chips), euros(chips)), (guest.name, words)
            on_paper = re.search(rf"{re.escape(words)}[^\n]*\n([^\n]+)\n([^\n]+)", pdf)
            assert on_paper, (guest.name, words, pdf)
            assert on_paper.groups() == (signed(chips), euros(chips)), (guest.name, words)
        fits(phone)

    # The workbook: every figure, and the night's zero-sum from its own cells.
    book = phone.context.request.get(f"{base_url}/events/{event.pk}/settlement.xlsx")
    assert book.ok, book.status
    workbook = load_workbook(io.BytesIO(book.body()))
    guests_sheet = rows_by_heading(workbook["Guests"])
    assert [row["Guest"].value for row in guests_sheet] == sorted(GUESTS, key=str.casefold)
    for seat, guest in by_seat.items():
        row = next(row for row in guests_sheet if row["Guest"].value == guest.name)
        tonight = sum(Decimal(str(row[name].value or 0)) for name in ("Net", "Expenses", "Tips"))
        assert tonight == balances[seat], guest.name
        assert Decimal(str(row["Expenses"].value)) == -share
        after = balances[seat] + settled.get(guest.pk, 0)
        assert Decimal(str(row["Settlements"].value)) == settled.get(guest.pk, 0)
        assert Decimal(str(row["Balance after"].value)) == after
        assert Decimal(str(row["Balance after (€)"].value)) == after * RATE
        assert Decimal(str(row["Net (€)"].value)) == Decimal(str(row["Net"].value)) * RATE
        for cell in (row["Net (€)"], row["Balance after (€)"]):
            assert cell.number_format.startswith('"€"#,##0.00'), cell.number_format
    hands_sheet = rows_by_heading(workbook["Hands"])
    results = {row["hand"].value: row["result"].value for row in hands_sheet}
    assert results == {n: WINNER[n - 1][0].upper() for n in range(1, len(HANDS) + 1)}
    for seat, guest in by_seat.items():
        played = [row for row in hands_sheet if row["guest"].value == guest.name]
        assert sum(Decimal(str(row["net"].value)) for row in played) == nets[seat]
    summary = rows_by_heading(workbook["Summary"])
    total = next(row for row in summary if row["Shoe"].value == "Total")
    assert Decimal(str(total["House net (€)"].value)) == house_hands * RATE
    assert total["House net (€)"].number_format.startswith('"€"#,##0.00')
    house_net = Decimal(str(summary[0]["House net"].value))
    assert house_net == house_hands
    expenses_sheet = rows_by_heading(workbook["Expenses"])
    assert {Decimal(str(row["Share (€)"].value)) for row in expenses_sheet} == {share * RATE}
    paid = {row["Expense"].value: Decimal(str(row["Amount"].value)) for row in expenses_sheet
            if row["Paid by"].value == "The house"}  # fmt: skip
    house_shares = sum(Decimal(str(row["Share"].value)) for row in expenses_sheet
                       if row["Sharer"].value == "The house")  # fmt: skip
    house_side = sum(paid.values()) - house_shares
    assert house_side == house_expenses
    moves = rows_by_heading(workbook["Chips and settlements"])
    tips = [Decimal(str(row["amount"].value)) for row in moves if row["record"].value == "tip"]
    assert sum(tips) == pool
    count = rows_by_heading(workbook["Count"])
    assert sum(Decimal(str(row["Chips taken"].value or 0)) for row in count) == sum(
        Decimal(str(row["Counted"].value or 0)) for row in count
    )
    guests_total = sum(
        Decimal(str(row[name].value or 0))
        for row in guests_sheet
        for name in ("Net", "Expenses", "Tips")
    )
    # The Guests sheet's game net is the Summary's: the tips and expenses have columns of their own.
    assert sum(Decimal(str(row["Net"].value)) for row in guests_sheet) == -house_net
    assert guests_total + house_net + house_side + sum(tips) == 0  # the zero-sum
