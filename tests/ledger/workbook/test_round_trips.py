"""Export → import into a fresh database → export: the same workbook, for every kind of night and
a season.

"The same" is every sheet's cell values, in order. What must differ is left out, and only that:
the file's own timestamps (``docProps/core.xml``'s created and modified, never a cell) and the
Settlements sheet's Number and Voids number columns, which are the database's row ids (a fresh
database numbers its rows afresh): those two are compared as the order in which each id first
appears, so a void still names the row it voids.
"""

from __future__ import annotations

import io
from datetime import date
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from games import services as game_services
from games.entry import BetEntry, TableRules
from games.kinds import Game
from games.models import Event
from games.payouts import RuleSet, SideBet
from games.shoe import Shoe as DealingShoe
from ledger.count import services as count_services
from ledger.demo_banked import load_demo_chemin
from ledger.demo_count import load_count_only_night
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.integrity import ledger_problems
from ledger.models import Guest, PayWay, Settlement
from ledger.money import services as money_services
from ledger.money import transfers
from ledger.money.transfers import proposed_transfers
from ledger.payways import services as payway_services
from ledger.workbook.exports import RECORD_COLUMNS, RULES_COLUMNS, workbook_bytes
from ledger.workbook.imports.coup_sheet import BankedGame, check_coup_sheet
from ledger.workbook.imports.night_workbook import (
    MSG_EVENT_TWICE,
    MSG_NOT_A_VALUE,
    MSG_ONLY_CASH_NIGHTS,
    MSG_OTHER_GAME_S_ROWS,
    check_night_workbook,
    night_workbook_import,
    read_night_workbook,
)
from ledger.workbook.imports.night_writer import coup_sheet_import, scoresheet_import
from ledger.workbook.imports.punto_banco_sheet import check_scoresheet
from ledger.workbook.reading import ScoresheetInvalid, SheetProblem
from shoebook.base.roles import HOSTS
from tests.conftest import entry, examples, make_user, seed_pay_ways

D = Decimal

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

# The Settlements sheet's columns that hold row ids.
SETTLEMENT_IDS = (6, 7)


def cells(content: bytes) -> dict[str, list[list[object]]]:
    """Every sheet's cell values, the ids that must differ replaced by their order."""
    workbook = load_workbook(io.BytesIO(content), data_only=True)
    found = {}
    for sheet in workbook.worksheets:
        rows = [list(row) for row in sheet.iter_rows(values_only=True)]
        if sheet.title == "Settlements":
            order: dict[object, int] = {}
            for row in rows[1:]:
                for index in SETTLEMENT_IDS:
                    if row[index] is not None:
                        row[index] = order.setdefault(row[index], len(order) + 1)
        if sheet.title == "Ratings" and rows:
            # A workbook keeps each hand, not when each guest sat down: an imported night's
            # time at the table is nothing (the host's guide says so), every other figure holds.
            hours = rows[0].index("Hours")
            for row in rows[1:]:
                row[hours] = None
        found[sheet.title] = rows
    return found


def fresh_database() -> None:
    """Every table emptied, inside the test's transaction. PostgreSQL truncates a table only
    once the foreign-key checks its rows await have run: they are run first."""
    postgres = connection.vendor == "postgresql"
    if postgres:
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)
    if postgres:
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def import_workbook(content: bytes) -> list[Event]:
    host = make_user("importer", HOSTS)
    nights = read_night_workbook("night.xlsx", content)
    assert nights is not None, "not read as a night's workbook"
    return night_workbook_import(nights=check_night_workbook(nights), by=host).events


def assert_round_trip(events: list[Event]) -> dict[str, list[list[object]]]:
    first = workbook_bytes(events)
    fresh_database()
    again = import_workbook(first)
    second = workbook_bytes(again)
    before, after = cells(first), cells(second)
    assert list(after) == list(before)
    for title in before:
        assert after[title] == before[title], title
    assert ledger_problems() == []
    return after


@pytest.fixture
def by(db):
    return make_user("night-host", HOSTS)


def test_the_reference_night_comes_back_with_its_venue_its_rules_and_its_count(demo_night):
    after = assert_round_trip([demo_night])
    assert {"Rules", "Count", "Chips and settlements"} <= set(after)
    event = Event.objects.get()
    assert event.venue == "The bar, after closing"
    assert event.rule_set == demo_night.rule_set  # pairs only, not every side bet
    assert event.count_setup.opening_float == demo_night.count_setup.opening_float


PLAIN_NIGHT = (
    "shoe,hand,player_cards,banker_cards,result,player_pair,banker_pair,seat,guest,bet,stake\n"
    "1,1,9 7,J J 10,,,,1,Aki,player,10\n"
    "1,1,9 7,J J 10,,,,2,Ben,banker,20\n"
    "1,2,4 4,6 K,,,,1,Aki,tie,5\n"
)


def test_a_night_without_side_bets_keeps_them_off(by):
    """The import used to read a night's rules from nowhere and offer every side bet."""
    table = TableRules(RuleSet(side_bets=frozenset(), tie_pays=9), 6, D(5), D(500))
    hands = check_scoresheet("plain.csv", PLAIN_NIGHT.encode(), table)
    event = scoresheet_import(hands=hands, name="Plain", on=date(2026, 11, 1), table=table, by=by)
    event = event.event
    event.venue, event.currency_symbol = "The cellar", "€"
    event.save()
    assert_round_trip([event])
    again = Event.objects.get()
    assert (again.rule_set, again.decks, again.table_min, again.table_max) == (
        table.rules,
        6,
        D(5),
        D(500),
    )
    assert (again.venue, again.currency_symbol) == ("The cellar", "€")


def test_a_chemin_de_fer_night(by):
    assert_round_trip([load_demo_chemin(by=by)])
    assert Event.objects.get().game == "chemin_de_fer"


BANQUE_HEADER = (
    "shoe,coup,banker,banker_seat,bank,seat,guest,stake_kind,stake,ponte_cards,banker_cards,"
    "result,tableau_2_cards,result_2,move"
)
BANQUE_ROWS = [
    "1,1,Aki,4,1000,3,Ben,tableau_1,200,,,P,,B,",
    "1,1,Aki,4,1000,2,Chie,tableau_1,100,,,P,,B,",
    "1,1,Aki,4,1000,5,Daisuke,tableau_2,300,,,P,,B,",
    "1,2,Aki,4,1000,3,Ben,tableau_1,100,9 K,8 K,P,3 3,B,",
    "1,2,Aki,4,1000,6,Emi,tableau_2,200,9 K,8 K,P,3 3,B,",
    "1,3,Aki,4,1100,3,Ben,tableau_1,500,,,B,,T,retire",
    "1,3,Aki,4,1100,5,Daisuke,tableau_2,500,,,B,,T,retire",
]


def banque_night(by) -> Event:
    table = TableRules(RuleSet(), 6, D(10), D(5000))
    game = BankedGame(Game.BACCARA_BANQUE, taxe="capital")
    content = (BANQUE_HEADER + "\n" + "\n".join(BANQUE_ROWS) + "\n").encode()
    coups = check_coup_sheet("banque.csv", content, table, game)
    event = coup_sheet_import(
        coups=coups, name="Banque night", on=date(2026, 11, 21), table=table, game=game, by=by
    ).event
    event.venue = "Upstairs"
    event.save()
    return event


def test_a_baccara_banque_night(by):
    assert_round_trip([banque_night(by)])
    event = Event.objects.get()
    assert (event.game, event.taxe, event.venue) == ("baccara_banque", "capital", "Upstairs")


def test_a_count_only_night(by):
    assert_round_trip([load_count_only_night(by=by)])
    assert Event.objects.get().count_setup.count_only


def test_a_counted_night_with_adjustments_voids_and_settlements(by, demo_night):
    aki = Guest.objects.filter(events=demo_night).order_by("name").first()
    booked = count_services.adjustment_record(
        event=demo_night, guest=aki, amount=D(100), reason="a chip found under the rail", by=by
    )
    count_services.adjustment_void(adjustment=booked, reason="it was the tray's", by=by)
    count_services.adjustment_record(
        event=demo_night, guest=aki, amount=D(-25), reason="paid a dealer's tip", by=by
    )
    paid = money_services.settlement_record(
        guest=aki, event=demo_night, amount=D(50), method="cash", by=by
    )
    money_services.settlement_void(settlement=paid, reason="counted twice", by=by)
    money_services.settlement_record(
        guest=aki, event=demo_night, amount=D(40), method="tab", by=by, note="bar tab"
    )
    after = assert_round_trip([demo_night])
    records = after["Chips and settlements"]
    assert [row[1] for row in records[1:]].count("adjustment") == 3


def test_a_season_comes_back_as_its_nights(by, demo_night):
    """Every kind of night in one workbook, guests shared between them: its Event column sends
    each row to its night."""
    aki = Guest.objects.filter(events=demo_night).order_by("name").first()
    count_services.adjustment_record(
        event=demo_night, guest=aki, amount=D(-25), reason="paid a dealer's tip", by=by
    )
    money_services.settlement_record(
        guest=aki, event=demo_night, amount=D(40), method="tab", by=by, note="bar tab"
    )
    chemin = load_demo_chemin(by=by)
    payer = proposed_transfers(chemin)[0].payer
    transfers.transfer_record(event=chemin, payer=guest_of(payer), payee=None, amount=D(20), by=by)
    count_only = load_count_only_night(by=by)
    banque = banque_night(by)
    events = sorted([demo_night, chemin, count_only, banque], key=lambda e: (e.date, e.pk))
    after = assert_round_trip(events)
    assert list(Event.objects.order_by("date", "pk").values_list("name", flat=True)) == [
        event.name for event in events
    ]
    assert len(after["Rules"]) == 1 + 4


def test_a_season_with_a_tournament_is_refused_naming_the_tournament(by, demo_night):
    from tournaments.demo import load_demo_tournament

    cup = load_demo_tournament(by=by).event
    content = workbook_bytes(sorted([demo_night, cup], key=lambda e: (e.date, e.pk)))
    fresh_database()
    with pytest.raises(ScoresheetInvalid) as refused:
        check_night_workbook(read_night_workbook("season.xlsx", content))
    assert [p.reason for p in refused.value.problems] == [
        str(MSG_ONLY_CASH_NIGHTS).format(event=cup.name)
    ]


def test_a_japanese_workbook_comes_back_too(by):
    with translation.override("ja"):
        assert_round_trip([load_count_only_night(by=by)])


def test_the_upload_page_takes_a_night_s_workbook(client, by):
    event = load_count_only_night(by=by)
    content = workbook_bytes([event])
    fresh_database()
    host = make_user("uploader", HOSTS)
    client.force_login(host)
    upload = io.BytesIO(content)
    upload.name = "night.xlsx"
    answer = client.post(reverse("ledger:scoresheet_upload"), {"file": upload})
    imported = Event.objects.get()
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert answer.url == reverse("ledger:event_detail", args=[imported.pk])
    assert imported.name == "Count-only night"


def test_a_chemin_de_fer_night_with_transfers_paid_and_voided(by):
    event = load_demo_chemin(by=by)
    first, second = proposed_transfers(event)[:2]
    to_house = transfers.transfer_record(
        event=event, payer=guest_of(first.payer), payee=None, amount=first.amount, by=by
    )
    transfers.transfer_void(transfer=to_house, reason="paid the wrong way", by=by)
    transfers.transfer_record(
        event=event,
        payer=guest_of(second.payer),
        payee=guest_of(second.payee),
        amount=D(10),
        by=by,
        note="part of it",
        in_chips=True,
    )
    after = assert_round_trip([event])
    records = [row for row in after["Chips and settlements"][1:] if row[1] == "transfer"]
    assert [(row[2], row[5], row[10]) for row in records] == [
        (1, None, None),
        (2, None, 1),
        (3, "in_chips", None),
    ]


def guest_of(party) -> Guest | None:
    return Guest.objects.get(pk=party.guest_id) if party.guest_id else None


def test_two_nights_of_one_name_are_refused_by_name(by):
    one = load_count_only_night(by=by)
    two = load_count_only_night(by=by)
    content = workbook_bytes([one, two])
    with pytest.raises(ScoresheetInvalid) as refused:
        check_night_workbook(read_night_workbook("season.xlsx", content))
    assert [p.reason for p in refused.value.problems] == [
        str(MSG_EVENT_TWICE).format(event="Count-only night", first=1)
    ]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Imported 1 hand and 1 bet. New guests: Aki."),
        ("ja", "1ハンド、1ベットを取り込みました。 新しいゲスト：Aki。"),
    ],
)
def test_one_hand_is_one_hand_in_every_language(client, by, language, said):
    client.force_login(by)
    upload = io.BytesIO("\n".join(PLAIN_NIGHT.splitlines()[:2]).encode())
    upload.name = "one.csv"
    fields = {"file": upload, "event_name": "One", "date": "2026-11-01", "money_per_chip": "100",
              "table_min": "10", "table_max": "1000", "decks": "8", "no_commission": "none",
              "tie_pays": "8", "pair_pays": "11"}  # fmt: skip
    answer = client.post(
        reverse("ledger:scoresheet_upload"), fields, follow=True, HTTP_ACCEPT_LANGUAGE=language
    )
    assert said in [str(message) for message in answer.context["messages"]]


def test_the_command_imports_a_season_s_workbook_without_being_told_its_nights(by, tmp_path):
    path = tmp_path / "season.xlsx"
    path.write_bytes(workbook_bytes([load_count_only_night(by=by), banque_night(by)]))
    fresh_database()
    out = StringIO()
    call_command("import_scoresheet", str(path), stdout=out)
    assert "2 nights: 3 hands, 10 bets." in out.getvalue()
    assert sorted(Event.objects.values_list("name", flat=True)) == [
        "Banque night", "Count-only night",
    ]  # fmt: skip


def test_a_workbook_with_a_wrong_rule_is_refused_on_the_page_naming_the_cell(client, by):
    content = workbook_bytes([load_count_only_night(by=by)])
    workbook = load_workbook(io.BytesIO(content))
    rules = workbook["Rules"]
    decks = list(RULES_COLUMNS).index("decks") + 1
    rules.cell(2, decks).value = "many"
    broken = io.BytesIO()
    workbook.save(broken)
    broken.seek(0)
    broken.name = "night.xlsx"
    client.force_login(by)
    answer = client.post(reverse("ledger:scoresheet_upload"), {"file": broken})
    assert answer.status_code == 400
    reason = str(MSG_NOT_A_VALUE).format(text="many", column="decks")
    problem = SheetProblem(1, 2, "decks", reason, "Rules")
    assert str(problem) == f"Rules, row 1 (line 2), decks: {reason}"
    assert str(problem) in answer.content.decode()
    assert Event.objects.count() == 1  # nothing imported


def test_a_scoresheet_still_needs_its_night_s_name_and_date(client, by):
    client.force_login(by)
    upload = io.BytesIO(PLAIN_NIGHT.encode())
    upload.name = "plain.csv"
    fields = {"money_per_chip": "100", "table_min": "10", "table_max": "1000", "decks": "8",
              "no_commission": "none", "tie_pays": "8", "pair_pays": "11"}  # fmt: skip
    answer = client.post(reverse("ledger:scoresheet_upload"), fields | {"file": upload})
    assert answer.status_code == 200 and not Event.objects.exists()
    errors = answer.context["form"].errors
    assert set(errors) == {"event_name", "date"}


def test_a_wrong_record_is_a_problem_on_its_row_and_nothing_is_written(by):
    content = workbook_bytes([load_count_only_night(by=by)])
    workbook = load_workbook(io.BytesIO(content))
    records = workbook["Chips and settlements"]
    records.cell(2, list(RECORD_COLUMNS).index("kind") + 1).value = "stolen"
    records.cell(3, list(RECORD_COLUMNS).index("by_denomination") + 1).value = "lots"
    broken = io.BytesIO()
    workbook.save(broken)
    fresh_database()
    nights = read_night_workbook("night.xlsx", broken.getvalue())
    with pytest.raises(ScoresheetInvalid) as refused:
        checked = check_night_workbook(nights)  # the chips' words are the check's
    assert [(p.line, p.column) for p in refused.value.problems] == [(3, "by_denomination")]
    records.cell(3, list(RECORD_COLUMNS).index("by_denomination") + 1).value = "100:𝟗"
    broken = io.BytesIO()
    workbook.save(broken)
    with pytest.raises(ScoresheetInvalid) as refused:  # int() would read it as 9
        check_night_workbook(read_night_workbook("night.xlsx", broken.getvalue()))
    assert [(p.line, p.column) for p in refused.value.problems] == [(3, "by_denomination")]
    records.cell(3, list(RECORD_COLUMNS).index("by_denomination") + 1).value = None
    broken = io.BytesIO()
    workbook.save(broken)
    checked = check_night_workbook(read_night_workbook("night.xlsx", broken.getvalue()))
    with pytest.raises(ScoresheetInvalid) as refused:
        night_workbook_import(nights=checked, by=make_user("importer", HOSTS))
    assert [(p.line, p.column) for p in refused.value.problems] == [(2, "kind")]
    assert not Event.objects.exists()


def test_a_night_whose_rules_name_another_game_is_refused_by_name(by):
    content = workbook_bytes([banque_night(by)])
    nights = read_night_workbook("night.xlsx", content)
    nights[0].terms["game"] = "punto_banco"
    with pytest.raises(ScoresheetInvalid) as refused:
        check_night_workbook(nights)
    assert [p.reason for p in refused.value.problems] == [
        str(MSG_OTHER_GAME_S_ROWS).format(event="Banque night")
    ]


# --- generated nights -----------------------------------------------------------------------

NAMES = ["Aki", '=HYPERLINK("x")', "鈴木", "Ben O'Neil", "+1+2", "Zoë", "Chie"]
generated_nights = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 10_000),
        "side_bets": st.sets(st.sampled_from(list(SideBet))),
        "tie_pays": st.sampled_from([8, 9]),
        "pair_pays": st.sampled_from([11, 12]),
        "commission": st.sampled_from(["0.05", "0.04", "0.0275"]),
        "decks": st.sampled_from([4, 6, 8]),  # enough cards for 12 hands
        "venue": st.sampled_from(["", "The bar", "=1+1", "銀座の店"]),
        "currency": st.sampled_from(["$", "€", "¥"]),
        "guests": st.permutations(NAMES).map(lambda names: names[:4]),
        "shoes": st.lists(
            st.lists(
                st.dictionaries(st.integers(1, 4), st.integers(0, 50), max_size=4),
                min_size=1,
                max_size=6,
            ),
            min_size=1,
            max_size=2,
        ),
        "settlements": st.lists(
            st.tuples(st.integers(0, 3), st.integers(-300, 300).filter(bool), st.booleans()),
            max_size=3,
        ),
        "adjustments": st.lists(
            st.tuples(st.integers(0, 3), st.integers(-50, 50).filter(bool)), max_size=2
        ),
        "buy_ins": st.lists(st.tuples(st.integers(0, 3), st.integers(1, 20)), max_size=3),
    }
)


@settings(
    max_examples=examples(8),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(night=generated_nights)
def test_a_generated_punto_banco_night_comes_back_as_it_was(night, by):
    with transaction.atomic():
        rules = RuleSet(
            commission_rate=D(night["commission"]), tie_pays=night["tie_pays"],
            pair_pays=night["pair_pays"], side_bets=frozenset(night["side_bets"]),
        )  # fmt: skip
        event = game_services.event_create(
            name="Generated", date=date(2026, 10, 1), rules=rules, by=by, decks=night["decks"],
            venue=night["venue"], currency_symbol=night["currency"], table_min=D(10),
            table_max=D(1000),
        )  # fmt: skip
        guests = [
            guest_services.event_guest_add(event=event, name=name, by=by)
            for name in night["guests"]
        ]
        dealer = DealingShoe(night["decks"], seed=night["seed"])
        offered = rules.offered_bets
        for shoe_hands in night["shoes"]:
            shoe = game_services.shoe_start(event=event, by=by)
            for seat, guest in enumerate(guests, start=1):
                hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=by)
            for number, bets in enumerate(shoe_hands, start=1):
                dealt = dealer.play_hand()
                hand_services.record_hand(
                    shoe=shoe,
                    number=number,
                    entry=entry(
                        " ".join(map(str, dealt.player)),
                        " ".join(map(str, dealt.banker)),
                        [
                            BetEntry(seat, offered[pick % len(offered)], D(10 + 5 * pick))
                            for seat, pick in bets.items()
                        ],
                    ),
                    by=by,
                )
            game_services.mark_shoe_closed(shoe=shoe, by=by)
        for index, chips in night["buy_ins"]:
            count_services.chips_record(
                event=event, guest=guests[index], kind="buy_in", chips=D(chips * 25),
                source="cash", by=by,
            )  # fmt: skip
        for index, amount in night["adjustments"]:
            count_services.adjustment_record(
                event=event, guest=guests[index], amount=D(amount), reason="found", by=by
            )
        for index, amount, voided in night["settlements"]:
            paid = money_services.settlement_record(
                guest=guests[index], event=event, amount=D(amount), method="cash", by=by
            )
            if voided:
                money_services.settlement_void(settlement=paid, reason="twice", by=by)
        assert_round_trip([event])
        again = Event.objects.get()
        assert (again.rule_set, again.venue, again.currency_symbol) == (
            rules, night["venue"], night["currency"],
        )  # fmt: skip
        transaction.set_rollback(True)


@pytest.mark.parametrize("typed", ["sNaN", "NaN", "Infinity", "-inf", "𝟗", "٣"])
@pytest.mark.parametrize("column", ["table_min", "opening_float", "commission_rate"])
def test_a_rule_that_is_no_number_in_ascii_digits_is_refused_naming_its_cell(by, typed, column):
    content = workbook_bytes([load_count_only_night(by=by)])
    workbook = load_workbook(io.BytesIO(content))
    workbook["Rules"].cell(2, list(RULES_COLUMNS).index(column) + 1).value = typed
    broken = io.BytesIO()
    workbook.save(broken)
    fresh_database()
    with pytest.raises(ScoresheetInvalid) as refused:
        check_night_workbook(read_night_workbook("night.xlsx", broken.getvalue()))
    found = [(p.sheet, p.column.split("/")[0]) for p in refused.value.problems]
    assert found == [("Rules", column)]
    assert not Event.objects.exists()


def test_a_settlement_by_a_way_comes_back_naming_its_way(by, demo_night):
    aki = Guest.objects.filter(events=demo_night).order_by("name").first()
    seed_pay_ways()
    paypal = PayWay.objects.get(name="PayPal")
    payway_services.way_edit(way=paypal, name="PayPal.Me", kind="link", by=by,
                             link_template=paypal.link_template)  # fmt: skip
    money_services.settlement_record(
        guest=aki, event=demo_night, amount=D(60), method="", way=paypal, by=by
    )
    after = assert_round_trip([demo_night])  # a new site: the way is added to its list
    assert ["PayPal.Me" in row for row in after["Settlements"][1:]].count(True) == 1
    assert Settlement.objects.get(amount=D(60)).way.name == "PayPal.Me"
