"""The count in the demo: the reference night counted at the close (every guest's chips by
denomination, and the tray), reconciling to zero; and a night a fortnight later kept by its
count alone, as a poker-style home game is."""

from __future__ import annotations

from datetime import date
from decimal import ROUND_CEILING, Decimal

from games import services as game_services
from games.models import Event
from games.payouts import STANDARD_RULES
from ledger.count import services
from ledger.guests import services as guest_services
from ledger.models import ChipMove, Guest, GuestEventResult
from shoebook.base.roles import Actor

BUY_IN = Decimal(1000)  # each guest's marker at the reference night
TOP_UP_STEP = Decimal(500)
OPENING_FLOAT = Decimal(5000)
COUNT_ONLY_GUESTS = (
    ("田中", Decimal(1000), Decimal(1430), ChipMove.Source.MARKER),
    ("Hiro", Decimal(1500), Decimal(620), ChipMove.Source.CASH),
    ("佐藤", Decimal(500), Decimal(0), ChipMove.Source.MARKER),
    ("Kenji", Decimal(1000), Decimal("1285.5"), ChipMove.Source.BALANCE),
    ("鈴木", Decimal(800), Decimal(910), ChipMove.Source.CASH),
)
COUNT_ONLY_COMMISSION = Decimal("64.50")


def by_denomination(amount: Decimal, denominations: list[str]) -> dict[str, int]:
    """Chips of the night's set adding up to ``amount``, the largest first."""
    numbers: dict[str, int] = {}
    left = amount
    for value in sorted(denominations, key=Decimal, reverse=True):
        count = int(left // Decimal(value))
        if count:
            numbers[value] = count
            left -= Decimal(value) * count
    assert left == 0, f"{amount} is not made of {denominations}"
    return numbers


def count_the_night(event: Event, *, by: Actor) -> None:
    """Each guest took a marker of 1,000 (and a top-up of 500s if they lost more), and hands
    back what the logged hands leave them; the tray holds its float and the house's result."""
    setup = services.count_setup_save(event=event, by=by, opening_float=OPENING_FLOAT)
    nets = dict(GuestEventResult.objects.filter(event=event).values_list("guest_id", "net"))
    house = -sum(nets.values(), Decimal(0))
    for guest in Guest.objects.filter(pk__in=nets).order_by("name"):
        net = nets[guest.pk]
        services.chips_record(
            event=event, guest=guest, kind="buy_in", chips=BUY_IN, source="marker", by=by
        )
        if BUY_IN + net < 0:
            short = (-(BUY_IN + net) / TOP_UP_STEP).to_integral_value(ROUND_CEILING)
            top_up = short * TOP_UP_STEP
            services.chips_record(
                event=event, guest=guest, kind="top_up", chips=top_up, source="marker", by=by
            )
            held = BUY_IN + top_up + net
        else:
            held = BUY_IN + net
        if held:
            chips = by_denomination(held, setup.denominations)
            services.chips_record(
                event=event, guest=guest, kind="count", by_denomination=chips, by=by
            )
    tray = by_denomination(OPENING_FLOAT + house, setup.denominations)
    services.chips_record(event=event, guest=None, kind="tray", by_denomination=tray, by=by)


def load_count_only_night(*, by: Actor) -> Event:
    """Five of the reference night's guests, a fortnight later, playing without anyone logging
    the hands: what each bought and cashed out, and the commission the house kept."""
    event = game_services.event_create(
        name="Count-only night",
        date=date(2008, 7, 26),
        venue="The bar, after closing",
        rules=STANDARD_RULES,
        by=by,
    )
    services.count_setup_save(
        event=event, by=by, count_only=True, commission_total=COUNT_ONLY_COMMISSION
    )
    for name, bought, cashed_out, source in COUNT_ONLY_GUESTS:
        guest = guest_services.event_guest_add(event=event, name=name, by=by)
        services.chips_record(
            event=event, guest=guest, kind="buy_in", chips=bought, source=source, by=by
        )
        if cashed_out:
            services.chips_record(event=event, guest=guest, kind="count", chips=cashed_out, by=by)
    return event
