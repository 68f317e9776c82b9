"""Changing an event: anything before its first hand; after it, nothing that prices a hand.
Closing and reopening shoes and events."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from games import services
from games.models import Event
from games.payouts import NoCommission, RuleSet, SideBet
from tests.conftest import bet

pytestmark = pytest.mark.django_db

EZ = RuleSet(commission_rate=Decimal(0), no_commission=NoCommission.EZ, tie_pays=9)

# A change to each field that prices a hand, and the field's name in the refusal.
FROZEN = [
    ("rules", EZ, "Rules"),
    ("decks", 6, "Decks"),
    ("table_min", Decimal(25), "Table minimum"),
    ("table_max", Decimal(500), "Table maximum"),
    ("money_per_chip", Decimal(1000), "Money per chip"),
    ("currency", "EUR", "Currency"),
    ("currency_symbol", "¥", "Currency symbol"),
    ("format", Event.Format.BIG, "Format"),
]


def stored(event: Event) -> dict[str, object]:
    return Event.objects.filter(pk=event.pk).values().get()


def frozen_message(label: str) -> str:
    return str(services.MSG_FROZEN_AFTER_FIRST_HAND).format(field=label)


@pytest.fixture
def played(event, seated, shoe, record):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 10)])
    return event


def test_before_the_first_hand_the_rules_decks_and_limits_change(event, shoe, host):
    updated = services.event_update(
        event=event,
        by=host,
        rules=EZ,
        decks=6,
        table_min=Decimal(25),
        table_max=Decimal(500),
        money_per_chip=Decimal(1000),
        currency_symbol="¥",
        format=Event.Format.BIG,
        hands_per_shoe=60,
    )
    event.refresh_from_db()
    assert event.rule_set == EZ == updated.rule_set
    assert (event.decks, event.table_min, event.table_max) == (6, Decimal(25), Decimal(500))
    assert (event.money_per_chip, event.currency_symbol) == (Decimal(1000), "¥")
    assert (event.format, event.hands_per_shoe) == ("big", 60)


@pytest.mark.parametrize(("field", "value", "label"), FROZEN, ids=[f[0] for f in FROZEN])
def test_after_the_first_hand_what_prices_a_hand_is_refused(played, host, field, value, label):
    before = stored(played)
    with pytest.raises(ValidationError) as refused:
        services.event_update(event=played, by=host, **{field: value})
    assert refused.value.message_dict == {field: [frozen_message(label)]}
    assert refused.value.error_dict[field][0].code == "frozen_after_first_hand"
    assert stored(played) == before


def test_a_refusal_names_every_frozen_field_and_changes_nothing_else(played, host):
    before = stored(played)
    with pytest.raises(ValidationError) as refused:
        services.event_update(
            event=played, by=host, name="Renamed", decks=6, table_max=Decimal(500)
        )
    assert refused.value.message_dict == {
        "decks": [frozen_message("Decks")],
        "table_max": [frozen_message("Table maximum")],
    }
    assert stored(played) == before  # not even the name: the update is one piece


def test_after_the_first_hand_the_name_date_venue_and_shoe_length_change(played, host):
    services.event_update(
        event=played,
        by=host,
        name="Saturday night",
        date=date(2026, 11, 21),
        venue="The back room",
        hands_per_shoe=55,
    )
    played.refresh_from_db()
    assert (played.name, played.date, played.venue) == (
        "Saturday night",
        date(2026, 11, 21),
        "The back room",
    )
    assert played.hands_per_shoe == 55


def test_the_value_a_field_already_has_is_not_a_change(played, host):
    before = stored(played)
    services.event_update(
        event=played,
        by=host,
        rules=RuleSet(commission_rate=Decimal("0.050")),  # the standard rules, written otherwise
        decks=8,
        table_min=Decimal("10.00"),
        table_max=Decimal(1000),
        money_per_chip=Decimal(100),
        currency_symbol="$",
        format=Event.Format.MINI,
        name="Friday night",
    )
    assert stored(played) == before


def test_the_whole_form_sent_back_with_a_new_name_changes_only_the_name(played, host):
    before = stored(played)
    services.event_update(
        event=played,
        by=host,
        name="Renamed",
        date=played.date,
        venue=played.venue,
        format=played.format,
        rules=played.rule_set,
        decks=played.decks,
        currency_symbol=played.currency_symbol,
        money_per_chip=played.money_per_chip,
        table_min=played.table_min,
        table_max=played.table_max,
        hands_per_shoe=played.hands_per_shoe,
    )
    assert stored(played) == before | {"name": "Renamed"}


def test_a_closed_event_refuses_every_change(event, shoe, host):
    services.mark_shoe_closed(shoe=shoe, by=host)
    services.mark_event_closed(event=event, by=host)
    before = stored(event)
    for change in ({"name": "Renamed"}, {"venue": "Elsewhere"}, {"decks": 6}):
        with pytest.raises(ValidationError) as refused:
            services.event_update(event=event, by=host, **change)
        assert refused.value.messages == [str(services.MSG_EVENT_CLOSED)]
    assert stored(event) == before


def test_an_update_is_still_checked_like_a_new_event(event, host):
    with pytest.raises(ValidationError) as refused:
        services.event_update(event=event, by=host, decks=9, name="")
    # The name as a field; decks by the table's constraint (1 to 8), as on a new event.
    assert set(refused.value.message_dict) == {"name", NON_FIELD_ERRORS}
    event.refresh_from_db()
    assert (event.name, event.decks) == ("Friday night", 8)


def test_unknown_fields_and_rules_given_as_a_dict_are_programming_errors(event, host):
    with pytest.raises(TypeError, match="closed_at"):
        services.event_update(event=event, by=host, closed_at=None)
    with pytest.raises(TypeError, match="RuleSet"):
        services.event_update(event=event, by=host, rules=EZ.to_dict())
    assert stored(event)["rules"] == RuleSet().to_dict()


def test_a_hand_in_any_shoe_freezes_the_event(played, shoe, host):
    services.mark_shoe_closed(shoe=shoe, by=host)
    services.shoe_start(event=played, by=host)  # the new shoe has no hand yet; the first had one
    dragon = RuleSet(side_bets=frozenset({SideBet.PAIRS, SideBet.DRAGON_7}))
    with pytest.raises(ValidationError) as refused:
        services.event_update(event=played, by=host, rules=dragon)
    assert refused.value.message_dict == {"rules": [frozen_message("Rules")]}
    played.refresh_from_db()
    assert played.rule_set == RuleSet()


def test_an_event_whose_shoe_has_no_hand_yet_still_changes(event, shoe, host):
    services.event_update(event=event, by=host, table_min=Decimal(20))
    event.refresh_from_db()
    assert event.table_min == Decimal(20)


def test_the_service_refuses_limits_past_what_the_columns_hold(make_event):
    with pytest.raises(ValidationError) as raised:
        make_event(table_max=Decimal("1e14"))
    assert "table_max" in raised.value.message_dict
    assert not Event.objects.exists()


@pytest.mark.parametrize("text", ["Night\x00", "Bar\u202e", "Zero\u200bwidth"])
def test_an_event_name_with_an_invisible_character_is_refused(make_event, text):
    with pytest.raises(ValidationError) as raised:
        make_event(name=text)
    assert "name" in raised.value.message_dict
    assert not Event.objects.exists()


# --- closing and reopening -----------------------------------------------------------------


def refusal(raised: pytest.ExceptionInfo[ValidationError]) -> list[str]:
    return raised.value.messages


def test_a_closed_shoe_reopens_and_takes_hands_again(event, seated, shoe, record, host):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 10)])
    services.mark_shoe_closed(shoe=shoe, by=host)
    reopened = services.mark_shoe_open(shoe=shoe, by=host)
    shoe.refresh_from_db()
    assert shoe.is_open and reopened.is_open and shoe.closed_by is None
    assert record(shoe, "8 K", "9 K").number == 2  # the shoe goes on where it stopped


def test_reopening_an_open_shoe_or_event_is_refused(event, shoe, host):
    with pytest.raises(ValidationError) as raised:
        services.mark_shoe_open(shoe=shoe, by=host)
    assert refusal(raised) == [services.MSG_SHOE_NOT_CLOSED.format(number=1)]
    with pytest.raises(ValidationError) as raised:
        services.mark_event_open(event=event, by=host)
    assert refusal(raised) == [str(services.MSG_EVENT_NOT_CLOSED)]


def test_a_shoe_of_a_closed_event_reopens_only_after_the_event(event, shoe, host):
    services.mark_shoe_closed(shoe=shoe, by=host)
    services.mark_event_closed(event=event, by=host)
    with pytest.raises(ValidationError) as raised:
        services.mark_shoe_open(shoe=shoe, by=host)
    assert refusal(raised) == [services.MSG_REOPEN_EVENT_FIRST.format(number=1)]
    shoe.refresh_from_db()
    assert not shoe.is_open
    services.mark_event_open(event=event, by=host)
    event.refresh_from_db()
    assert event.is_open and event.closed_by is None
    shoe.refresh_from_db()
    assert not shoe.is_open  # reopening the event leaves its shoes as they were
    services.mark_shoe_open(shoe=shoe, by=host)
    shoe.refresh_from_db()
    assert shoe.is_open


def test_a_shoe_reopens_only_while_no_other_shoe_is_open(event, shoe, host):
    services.mark_shoe_closed(shoe=shoe, by=host)
    services.shoe_start(event=event, by=host)
    with pytest.raises(ValidationError) as raised:
        services.mark_shoe_open(shoe=shoe, by=host)
    assert refusal(raised) == [services.MSG_CLOSE_OTHER_SHOE_FIRST.format(number=2)]
    shoe.refresh_from_db()
    assert not shoe.is_open
