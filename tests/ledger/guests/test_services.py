"""Guests managed: rename, aliases, merge, bringing guests back, login invitations."""

from __future__ import annotations

import html
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games.models import Event
from ledger.guests import services as guest_services
from ledger.guests.forms import BRING_BACK_CHOICES
from ledger.guests.names import MSG_NAME_CHARACTER, MSG_NAME_EMPTY, MSG_NAME_TOO_LONG, name_key
from ledger.hands import services as hand_services
from ledger.integrity import check_ledger
from ledger.models import (
    AuditEntry,
    Bet,
    EventGuest,
    Guest,
    GuestAlias,
    GuestEventResult,
    GuestInvitation,
    MergedGuest,
    Seating,
    Settlement,
)
from ledger.money import services as money_services
from ledger.money.results import guest_balances, house_rows
from ledger.templatetags.money import in_chips_signed
from ledger.workbook.imports.night_writer import scoresheet_import
from ledger.workbook.imports.punto_banco_sheet import check_scoresheet
from ledger.workbook.reading import ScoresheetInvalid
from tests.conftest import bet

pytestmark = pytest.mark.django_db

HEADER = "shoe,hand,player_cards,banker_cards,result,player_pair,banker_pair,seat,guest,bet,stake"


def kept_apart(name: str, base: Guest) -> Guest:
    """A second guest of one name, as the names migration left it (``key#id``)."""
    guest = Guest.objects.create(name=name, name_key=f"{base.name_key}#tmp")
    Guest.objects.filter(pk=guest.pk).update(name_key=f"{base.name_key}#{guest.pk}")
    guest.refresh_from_db()
    return guest


def everything() -> dict[str, object]:
    """Every row a merge could touch, to prove a refusal changed nothing."""
    return {
        "guests": sorted(Guest.objects.values_list("pk", "name", "name_key", "user_id")),
        "bets": sorted(Bet.objects.values_list("pk", "guest_id")),
        "seatings": sorted(Seating.objects.values_list("pk", "guest_id")),
        "settlements": sorted(Settlement.objects.values_list("pk", "guest_id")),
        "lists": sorted(EventGuest.objects.values_list("event_id", "guest_id")),
        "results": sorted(GuestEventResult.objects.values_list("guest_id", "event_id", "net")),
        "aliases": sorted(GuestAlias.objects.values_list("guest_id", "key")),
        "audit": AuditEntry.objects.count(),
    }


def event_zero_sum(event: Event) -> Decimal:
    guests_net = sum((row.net for row in GuestEventResult.objects.filter(event=event)), Decimal(0))
    [house] = house_rows(Event.objects.filter(pk=event.pk))
    return guests_net + house.figures.house_net


# --- the full-width Ken: one matching rule -------------------------------------------------


def test_name_key_already_folds_full_width_and_case(event, host):
    assert name_key("ＫＥＮ") == name_key("Ken") == "ken"
    ken = guest_services.event_guest_add(event=event, name="Ken", by=host)
    assert guest_services.event_guest_add(event=event, name="ＫＥＮ", by=host) == ken


def test_an_alias_finds_the_guest_on_the_event_page(event, host):
    ken = guest_services.event_guest_add(event=event, name="Ken", by=host)
    guest_services.guest_alias_add(guest=ken, name="Kenny", by=host)
    assert guest_services.event_guest_add(event=event, name="ＫＥＮＮＹ", by=host) == ken
    with pytest.raises(ValidationError, match="already a guest called Ken"):
        guest_services.guest_create(name="kenny")
    assert Guest.objects.count() == 1


def test_adding_a_guest_by_an_alias_says_who_it_is(client, event, host):
    ken = guest_services.event_guest_add(event=event, name="Ken", by=host)
    guest_services.guest_alias_add(guest=ken, name="Kenny", by=host)
    client.force_login(host)
    url = reverse("ledger:event_guest_add", args=[event.pk])
    page = client.post(url, {"name": "kenny"}, follow=True).content.decode()
    assert "“kenny” is Ken: Ken is on the list." in page
    plain = client.post(url, {"name": "ken"}, follow=True).content.decode()
    assert "is on the list." not in plain  # the name itself: nothing to explain


def test_the_import_matches_aliases_through_the_same_rule(event, host):
    ken = guest_services.event_guest_add(event=event, name="Ken", by=host)
    guest_services.guest_alias_add(guest=ken, name="Kenny", by=host)
    rows = ["1,1,,,P,,,1,KENNY,player,10", "1,2,,,B,,,1,Ken,player,10"]
    hands = check_scoresheet("x.csv", "\n".join([HEADER, *rows]).encode(), event.table_rules)
    imported = scoresheet_import(
        hands=hands, name="Paper", on=event.date, table=event.table_rules, by=host
    )
    assert imported.created_guests == []
    assert set(Bet.objects.values_list("guest_id", flat=True)) == {ken.pk}


def test_the_import_sees_an_alias_and_a_name_in_two_seats_as_one_guest(event, host):
    ken = guest_services.event_guest_add(event=event, name="Ken", by=host)
    guest_services.guest_alias_add(guest=ken, name="Kenny", by=host)
    rows = ["1,1,,,P,,,1,Ken,player,10", "1,1,,,P,,,2,kenny,banker,10"]
    with pytest.raises(ScoresheetInvalid) as raised:
        check_scoresheet("x.csv", "\n".join([HEADER, *rows]).encode(), event.table_rules)
    assert [problem.column for problem in raised.value.problems] == ["seat"]


def test_the_admin_search_finds_a_guest_by_alias_and_width(client, event, host):
    ken = guest_services.event_guest_add(event=event, name="Ken", by=host)
    guest_services.guest_alias_add(guest=ken, name="Kenny", by=host)
    admin = User.objects.create_superuser("root", password="pw-for-tests")
    client.force_login(admin)
    for term in ("ＫＥＮＮＹ", "kenny"):
        page = client.get(reverse("admin:ledger_guest_changelist"), {"q": term})
        assert f"/ledger/guest/{ken.pk}/change/" in page.content.decode()


# --- rename and aliases ---------------------------------------------------------------------


def test_a_rename_is_audited_and_changes_the_key(event, host):
    ken = guest_services.event_guest_add(event=event, name="ken", by=host)
    guest_services.guest_rename(guest=ken, name="Kenji", by=host)
    ken.refresh_from_db()
    assert (ken.name, ken.name_key) == ("Kenji", "kenji")
    entry = AuditEntry.objects.get(action=AuditEntry.Action.GUEST_RENAMED)
    assert (entry.event, entry.before, entry.after) == (None, {"name": "ken"}, {"name": "Kenji"})


def test_a_rename_may_change_only_case_or_width(event, host):
    ken = guest_services.event_guest_add(event=event, name="ken", by=host)
    guest_services.guest_rename(guest=ken, name="ＫＥＮ", by=host)
    ken.refresh_from_db()
    assert (ken.name, ken.name_key) == ("KEN", "ken")


def test_a_rename_to_an_alias_of_its_own_takes_the_alias_as_the_name(event, host):
    ken = guest_services.event_guest_add(event=event, name="Ken", by=host)
    guest_services.guest_alias_add(guest=ken, name="Kenny", by=host)
    guest_services.guest_rename(guest=ken, name="Kenny", by=host)
    assert not GuestAlias.objects.exists()


def test_two_ken_rows_kept_apart_cannot_share_the_name_until_merged(event, host):
    ken = guest_services.event_guest_add(event=event, name="Ken", by=host)
    wide = kept_apart("KEN", ken)
    with pytest.raises(ValidationError, match="could be any of"):
        guest_services.guest_named("ｋｅｎ")
    with pytest.raises(ValidationError, match="merge them instead"):
        guest_services.guest_rename(guest=wide, name="Ken", by=host)
    with pytest.raises(ValidationError, match="KEN's own name already"):
        guest_services.guest_alias_add(guest=wide, name="ken", by=host)
    with pytest.raises(ValidationError, match="is already the name of"):
        guest_services.guest_alias_add(
            guest=guest_services.guest_create(name="Bob"), name="KEN", by=host
        )
    guest_services.guest_rename(guest=wide, name="Ken T", by=host)
    assert guest_services.guest_named("ＫＥＮ") == ken
    assert guest_services.guest_named("ken t") == wide


def test_merging_two_ken_rows_leaves_one_ken(event, host):
    ken = guest_services.event_guest_add(event=event, name="Ken", by=host)
    wide = kept_apart("KEN", ken)
    guest_services.guest_merge(guest=ken, other=wide, by=host)
    assert guest_services.guest_named("ＫＥＮ") == ken
    assert list(Guest.objects.all()) == [ken]
    assert not GuestAlias.objects.exists()  # its name was Ken's already


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Ken", "is already the name of Ken"),
        ("ＫＥＮ", "is already the name of Ken"),
        ("Chie", "is already an alias of Ben"),
        ("ＣＨＩＥ", "is already an alias of Ben"),
        ("Aki", "Aki is Aki's own name already"),
        ("É" * 1, None),
    ],
)
def test_an_alias_never_collides_with_another_name_or_alias(event, host, name, message):
    aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
    guest_services.event_guest_add(event=event, name="Ken", by=host)
    ben = guest_services.event_guest_add(event=event, name="Ben", by=host)
    guest_services.guest_alias_add(guest=ben, name="Chie", by=host)
    if message is None:
        guest_services.guest_alias_add(guest=aki, name=name, by=host)
        return
    before = everything()
    with pytest.raises(ValidationError, match=message):
        guest_services.guest_alias_add(guest=aki, name=name, by=host)
    assert everything() == before


def test_an_alias_composed_or_decomposed_is_one_alias(event, host):
    aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
    guest_services.guest_alias_add(guest=aki, name="Émile", by=host)
    with pytest.raises(ValidationError, match="already an alias of Aki"):
        guest_services.guest_alias_add(guest=aki, name="E\u0301MILE", by=host)


STRANGE_NAMES = [
    ("Ke\u200bn", str(MSG_NAME_CHARACTER).format(code="U+200B")),
    ("\u202enek", str(MSG_NAME_CHARACTER).format(code="U+202E")),
    ("Ken\u0007", str(MSG_NAME_CHARACTER).format(code="U+0007")),
    ("x" * 300, str(MSG_NAME_TOO_LONG).format(limit=80, length=300)),
    ("  \u3000 ", str(MSG_NAME_EMPTY)),
]


@pytest.mark.parametrize(("name", "message"), STRANGE_NAMES)
@pytest.mark.parametrize("url", ["ledger:guest_rename", "ledger:guest_alias_add"])
def test_strange_names_get_their_own_message_on_the_page(client, event, host, name, message, url):
    aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
    before = everything()
    client.force_login(host)
    response = client.post(reverse(url, args=[aki.pk]), {"name": name})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert everything() == before


def test_a_combining_mark_name_is_kept_composed(event, host):
    aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
    guest_services.guest_rename(guest=aki, name="E\u0301mile", by=host)
    aki.refresh_from_db()
    assert aki.name == "Émile"


def test_aliases_are_listed_and_removed_from_the_guest_page(client, event, host):
    aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
    client.force_login(host)
    response = client.post(reverse("ledger:guest_alias_add", args=[aki.pk]), {"name": "Akko"})
    assert response.status_code == 302
    alias = GuestAlias.objects.get()
    assert "Akko" in client.get(reverse("ledger:guest_detail", args=[aki.pk])).content.decode()
    client.post(reverse("ledger:guest_alias_remove", args=[aki.pk, alias.pk]))
    assert not GuestAlias.objects.exists()
    assert AuditEntry.objects.filter(action=AuditEntry.Action.GUEST_ALIAS_REMOVED).exists()


# --- merge -----------------------------------------------------------------------------------


@pytest.fixture
def two_kens(event, shoe, host, record):
    """Ken played hands 1–2 in seat 1, "Kenny" (the same man, entered again) hands 3–4 in seat 2,
    and paid a settlement; the shoe and a second event follow."""
    ken = guest_services.event_guest_add(event=event, name="Ken", by=host)
    kenny = guest_services.event_guest_add(event=event, name="Kenny", by=host)
    other = guest_services.event_guest_add(event=event, name="Aki", by=host)
    hand_services.seat_guest(shoe=shoe, seat=1, guest=ken, by=host)
    hand_services.seat_guest(shoe=shoe, seat=3, guest=other, by=host)
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(3, "banker", 50)])
    record(shoe, "8 K", "9 K", [bet(1, "banker", 40), bet(3, "player", 20)])
    hand_services.seat_clear(shoe=shoe, seat=1, by=host)
    hand_services.seat_guest(shoe=shoe, seat=2, guest=kenny, by=host)
    record(shoe, "9 7", "J J 10", [bet(2, "player", 30)])
    record(shoe, "8 K", "9 K", [bet(2, "banker", 60), bet(3, "tie", 10)])
    hand_services.seat_clear(shoe=shoe, seat=2, by=host)
    hand_services.seat_clear(shoe=shoe, seat=3, by=host)
    money_services.settlement_record(
        guest=kenny, event=event, amount=Decimal("25"), method="cash", by=host
    )
    return ken, kenny, other


def test_a_merge_keeps_every_chip(two_kens, event, host):
    ken, kenny, other = two_kens
    balances = guest_balances()
    assert event_zero_sum(event) == 0
    bets = Bet.objects.count()
    guest_services.guest_merge(guest=ken, other=kenny, by=host)
    after = guest_balances()
    assert after[ken.pk] == balances[ken.pk] + balances[kenny.pk]
    assert after[other.pk] == balances[other.pk]
    assert kenny.pk not in after
    assert event_zero_sum(event) == 0
    assert Bet.objects.count() == bets
    assert set(Bet.objects.exclude(guest=other).values_list("guest_id", flat=True)) == {ken.pk}
    result = GuestEventResult.objects.get(guest=ken, event=event)
    assert (result.hands, result.stake) == (4, Decimal("230.00"))
    assert check_ledger().ok, check_ledger().problems


def test_a_merge_moves_lists_settlements_login_link_and_leaves_an_alias(
    two_kens, event, make_event, host
):
    ken, kenny, _other = two_kens
    later = make_event(name="Saturday")
    guest_services.event_guest_add(event=later, name="Kenny", by=host)
    guest_services.event_guest_add(event=later, name="Ken", by=host)
    guest_services.guest_alias_add(guest=kenny, name="K-man", by=host)
    token = guest_services.guest_link_issue(guest=kenny)
    login = User.objects.create_user("kenny", password="pw-for-tests")
    Guest.objects.filter(pk=kenny.pk).update(user=login)
    kenny.refresh_from_db()
    guest_services.guest_merge(guest=ken, other=kenny, by=host)
    ken.refresh_from_db()
    assert ken.user == login and ken.access_token == token
    assert set(EventGuest.objects.filter(guest=ken).values_list("event_id", flat=True)) == {
        event.pk,
        later.pk,
    }
    assert EventGuest.objects.count() == 3  # Aki, and Ken on both lists, once each
    assert Settlement.objects.get().guest == ken
    assert set(ken.aliases.values_list("name", flat=True)) == {"K-man", "Kenny"}
    assert guest_services.guest_named("KENNY") == ken
    assert MergedGuest.objects.get().old_id == kenny.pk
    entry = AuditEntry.objects.get(action=AuditEntry.Action.GUESTS_MERGED)
    assert entry.before["merged"] == f"Kenny (#{kenny.pk})"
    assert entry.after["bets"] == 2 and entry.after["login"] == "kenny"


def test_an_old_private_link_leads_to_the_merged_guest(client, two_kens, host):
    ken, kenny, _other = two_kens
    guest_services.guest_link_issue(guest=ken)
    token = guest_services.guest_link_issue(guest=kenny)
    guest_services.guest_merge(guest=ken, other=kenny, by=host)
    page = client.get(reverse("ledger:guest_page", args=[kenny.pk, token]))
    assert page.status_code == 200 and "<h1>Ken</h1>" in page.content.decode()
    guest_services.guest_link_revoke(guest=ken)
    assert client.get(reverse("ledger:guest_page", args=[kenny.pk, token])).status_code == 404


def test_the_old_link_still_works_when_the_kept_guest_had_none(client, two_kens, host):
    ken, kenny, _other = two_kens
    token = guest_services.guest_link_issue(guest=kenny)  # Ken has no link of his own
    guest_services.guest_merge(guest=ken, other=kenny, by=host)
    for guest_id in (kenny.pk, ken.pk):  # the address Kenny was given, and Ken's own
        page = client.get(reverse("ledger:guest_page", args=[guest_id, token]))
        assert page.status_code == 200 and "<h1>Ken</h1>" in page.content.decode()
    guest_services.guest_link_issue(guest=ken)  # replaced: every old address stops
    assert client.get(reverse("ledger:guest_page", args=[kenny.pk, token])).status_code == 404


def test_a_merge_is_refused_while_either_is_seated_in_an_open_shoe(two_kens, shoe, host):
    ken, kenny, _other = two_kens
    hand_services.seat_guest(shoe=shoe, seat=5, guest=kenny, by=host)
    before = everything()
    with pytest.raises(ValidationError, match="Kenny is seated in shoe 1"):
        guest_services.guest_merge(guest=ken, other=kenny, by=host)
    assert everything() == before


def test_a_merge_racing_a_settlement_on_another_device_changes_nothing(two_kens, host, monkeypatch):
    ken, kenny, _other = two_kens
    before = everything()
    create_redirect = MergedGuest.objects.create

    def settled_meanwhile(**fields):  # another device writes between the moves and the delete
        Settlement.objects.create(
            guest=kenny,
            event=Event.objects.first(),
            amount=Decimal(5),
            method="cash",
            recorded_by=host,
        )
        return create_redirect(**fields)

    monkeypatch.setattr(MergedGuest.objects, "create", settled_meanwhile)
    with pytest.raises(ValidationError, match="Kenny was seated or settled on another device"):
        guest_services.guest_merge(guest=ken, other=kenny, by=host)
    assert everything() == before  # the settlement of the race went too: one transaction


def test_merging_again_from_a_stale_page_says_the_guest_is_gone(client, two_kens, host):
    ken, kenny, _other = two_kens
    client.force_login(host)
    url = reverse("ledger:guest_merge", args=[ken.pk])
    assert client.post(url, {"other": kenny.pk}).status_code == 302
    again = client.post(url, {"other": kenny.pk})  # the same tap from a tab left open
    assert again.status_code == 400
    assert "That guest is no longer on the list: merged already" in again.content.decode()


def test_a_merge_is_refused_when_both_have_a_login(two_kens, host):
    ken, kenny, _other = two_kens
    for guest in (ken, kenny):
        user = User.objects.create_user(f"login-{guest.pk}", password="pw-for-tests")
        Guest.objects.filter(pk=guest.pk).update(user=user)
    ken.refresh_from_db()
    kenny.refresh_from_db()
    before = everything()
    with pytest.raises(ValidationError) as raised:
        guest_services.guest_merge(guest=ken, other=kenny, by=host)
    assert raised.value.messages == [
        str(guest_services.MSG_MERGE_BOTH_LOGINS).format(guest="Ken", other="Kenny")
    ]
    assert everything() == before


def test_a_merge_is_refused_for_two_people_who_sat_at_once(two_kens, host):
    ken, _kenny, aki = two_kens
    before = everything()
    with pytest.raises(ValidationError, match=r"both sat in .* for hand 1"):
        guest_services.guest_merge(guest=ken, other=aki, by=host)
    with pytest.raises(ValidationError, match="cannot be merged into itself"):
        guest_services.guest_merge(guest=ken, other=ken, by=host)
    assert everything() == before


def test_the_merge_page_asks_first_then_merges_with_the_balances(client, two_kens, shoe, host):
    ken, kenny, _other = two_kens
    balances = guest_balances()
    client.force_login(host)
    url = reverse("ledger:guest_merge", args=[ken.pk])
    page = client.get(url, {"other": kenny.pk})
    assert page.status_code == 200
    assert Guest.objects.filter(pk=kenny.pk).exists()  # asking changes nothing
    combined = balances[ken.pk] + balances[kenny.pk]
    merged = in_chips_signed(combined, shoe.event.currency_symbol)  # the night's chips
    assert f'<td id="merged-balance">{merged}</td>' in page.content.decode()
    response = client.post(url, {"other": kenny.pk})
    assert response.status_code == 302
    assert not Guest.objects.filter(pk=kenny.pk).exists()


def test_the_merge_page_shows_a_refusal_and_no_button(client, two_kens, shoe, host):
    ken, kenny, _other = two_kens
    hand_services.seat_guest(shoe=shoe, seat=5, guest=ken, by=host)
    client.force_login(host)
    url = reverse("ledger:guest_merge", args=[ken.pk])
    page = client.get(url, {"other": kenny.pk}).content.decode()
    assert "Ken is seated in shoe 1" in page and "Merge them" not in page
    response = client.post(url, {"other": kenny.pk})
    assert response.status_code == 200 and "Ken is seated in shoe 1" in response.content.decode()
    assert Guest.objects.filter(pk=kenny.pk).exists()


@pytest.mark.parametrize("who", ["dealer", "guest_login", "outsider"])
@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("ledger:guest_rename", {"name": "X"}),
        ("ledger:guest_alias_add", {"name": "X"}),
        ("ledger:guest_merge", {"other": "0"}),
        ("ledger:guest_invitation_issue", {}),
        ("ledger:guest_invitation_revoke", {}),
    ],
)
def test_only_hosts_manage_guests(client, event, host, dealer, outsider, who, name, data):
    aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
    ben = guest_services.event_guest_add(event=event, name="Ben", by=host)
    users = {"dealer": dealer, "outsider": outsider,
             "guest_login": User.objects.create_user("ben", password="pw-for-tests")}  # fmt: skip
    Guest.objects.filter(pk=ben.pk).update(user=users["guest_login"])
    before = everything()
    client.force_login(users[who])
    data = {"other": ben.pk} if "other" in data else data
    assert client.post(reverse(name, args=[aki.pk]), data).status_code == 403
    assert everything() == before


# --- bringing guests back ------------------------------------------------------------------


def test_bring_back_shows_everyone_ticked_and_brings_back_only_the_ticked(client, make_event, host):
    last_week = make_event(name="Last week")
    for name in ("Aki", "Ben", "Chie"):
        guest_services.event_guest_add(event=last_week, name=name, by=host)
    tonight = make_event(name="Tonight")
    guest_services.event_guest_add(event=tonight, name="Ben", by=host)
    client.force_login(host)
    url = reverse("ledger:event_guests_bring_back", args=[tonight.pk])
    page = client.get(url, {"from_event": last_week.pk}).content.decode()
    assert page.count('type="checkbox"') == 2 and page.count("checked") == 2  # Ben is there
    aki = Guest.objects.get(name="Aki")
    response = client.post(url, {"from_event": last_week.pk, "guests": [aki.pk]})
    assert response.status_code == 302
    names = set(Guest.objects.filter(events=tonight).values_list("name", flat=True))
    assert names == {"Aki", "Ben"}


def test_bring_back_with_nobody_ticked_adds_nobody(client, make_event, host):
    last_week = make_event(name="Last week")
    guest_services.event_guest_add(event=last_week, name="Aki", by=host)
    tonight = make_event(name="Tonight")
    client.force_login(host)
    url = reverse("ledger:event_guests_bring_back", args=[tonight.pk])
    assert client.post(url, {"from_event": last_week.pk}).status_code == 302
    assert not EventGuest.objects.filter(event=tonight).exists()


def test_bring_back_offers_the_latest_nights_and_still_takes_an_older_one(client, make_event, host):
    nights = [
        make_event(name=f"Night {n}", date=date(2025, 1, 1) + timedelta(days=n))
        for n in range(BRING_BACK_CHOICES + 3)
    ]
    guest_services.event_guest_add(event=nights[0], name="Aki", by=host)
    tonight = make_event(name="Tonight")
    client.force_login(host)
    page = client.get(reverse("ledger:event_detail", args=[tonight.pk])).content.decode()
    assert f'value="{nights[-1].pk}"' in page and f'value="{nights[0].pk}"' not in page
    assert page.count("<option value=") == BRING_BACK_CHOICES + 1  # and "---------"
    url = reverse("ledger:event_guests_bring_back", args=[tonight.pk])
    aki = Guest.objects.get(name="Aki")
    assert client.post(url, {"from_event": nights[0].pk, "guests": [aki.pk]}).status_code == 302
    assert Guest.objects.filter(events=tonight, name="Aki").exists()


def test_bring_back_of_an_unknown_event_shows_the_event_page(client, event, host):
    client.force_login(host)
    url = reverse("ledger:event_guests_bring_back", args=[event.pk])
    assert client.get(url, {"from_event": "999999"}).status_code == 200


# --- login invitations ---------------------------------------------------------------------

GOOD = {"username": "aki", "password1": "Quiet-harbour-2026", "password2": "Quiet-harbour-2026"}


@pytest.fixture
def aki(event, host):
    return guest_services.event_guest_add(event=event, name="Aki", by=host)


def test_an_invitation_makes_a_login_that_sees_only_its_own_page(client, aki, event, host):
    token = guest_services.guest_invitation_issue(guest=aki, by=host)
    invitation = GuestInvitation.objects.get()
    assert invitation.token_hash != token and len(invitation.token_hash) == 64
    url = reverse("ledger:invitation_accept", args=[token])
    assert client.get(url).status_code == 200
    response = client.post(url, GOOD)
    assert response.status_code == 302 and response.url == reverse("ledger:my_page")
    aki.refresh_from_db()
    assert aki.user.username == "aki"
    assert "<h1>Aki</h1>" in client.get(reverse("ledger:my_page")).content.decode()
    assert client.get(reverse("ledger:event_list")).url == reverse("ledger:my_page")
    assert client.get(reverse("ledger:guest_detail", args=[aki.pk])).status_code == 403
    assert client.get(reverse("ledger:event_detail", args=[event.pk])).status_code == 403
    assert AuditEntry.objects.filter(
        action=AuditEntry.Action.INVITATION_ACCEPTED, by=aki.user
    ).exists()


def test_an_invitation_works_once(client, aki, host):
    token = guest_services.guest_invitation_issue(guest=aki, by=host)
    url = reverse("ledger:invitation_accept", args=[token])
    client.post(url, GOOD)
    client.logout()
    again = client.post(url, GOOD | {"username": "aki2"})
    assert again.status_code == 410
    assert str(guest_services.MSG_INVITE_USED) in again.content.decode()
    assert User.objects.filter(username="aki2").count() == 0


@pytest.mark.parametrize("spoil", ["expired", "revoked", "replaced", "unknown"])
def test_a_dead_invitation_link_says_why(client, aki, host, spoil):
    token = guest_services.guest_invitation_issue(guest=aki, by=host)
    message = {
        "expired": guest_services.MSG_INVITE_EXPIRED,
        "revoked": guest_services.MSG_INVITE_REVOKED,
        "replaced": guest_services.MSG_INVITE_REVOKED,
        "unknown": guest_services.MSG_INVITE_UNKNOWN,
    }
    if spoil == "expired":
        GuestInvitation.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    elif spoil == "revoked":
        guest_services.guest_invitation_revoke(guest=aki, by=host)
    elif spoil == "replaced":
        guest_services.guest_invitation_issue(guest=aki, by=host)
    else:
        token = token[:-2] + "xx"
    url = reverse("ledger:invitation_accept", args=[token])
    for response in (client.get(url), client.post(url, GOOD)):
        assert response.status_code in (404, 410)
        assert str(message[spoil]) in response.content.decode()
    assert not User.objects.filter(username="aki").exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (GOOD | {"password1": "short", "password2": "short"}, "too short"),
        (GOOD | {"password1": "password123", "password2": "password123"}, "too common"),
        (GOOD | {"password2": "Quiet-harbour-2027"}, "didn’t match"),
        (GOOD | {"username": "hostess"}, "already exists"),
        (GOOD | {"username": "HOSTESS"}, "already exists"),
        (GOOD | {"username": "a b"}, "Enter a valid username"),
    ],
)
def test_the_invitation_form_uses_djangos_checks(client, aki, host, data, message):
    token = guest_services.guest_invitation_issue(guest=aki, by=host)
    response = client.post(reverse("ledger:invitation_accept", args=[token]), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert GuestInvitation.objects.get().used_at is None


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("h\u043estess", guest_services.MSG_LOGIN_MIXED_SCRIPTS),  # a Cyrillic о among Latin
        ("h0stess", guest_services.MSG_LOGIN_LOOKS_LIKE),  # a zero for the o
        ("\u04bb\u043e\u0455t\u0435\u0455\u0455", guest_services.MSG_LOGIN_MIXED_SCRIPTS),
    ],
)
def test_a_login_name_that_reads_like_another_is_refused(client, aki, host, username, message):
    token = guest_services.guest_invitation_issue(guest=aki, by=host)
    response = client.post(
        reverse("ledger:invitation_accept", args=[token]), GOOD | {"username": username}
    )
    assert response.status_code == 400
    said = message.format(username=username, other="hostess")
    assert html.escape(said) in response.content.decode()
    assert not User.objects.filter(username=username).exists()
    assert GuestInvitation.objects.get().used_at is None


@pytest.mark.parametrize(
    ("existing", "username"),
    [
        ("lily", "IiIy"),
        ("mike", "rnike"),
        ("bil1", "bill"),
        ("b0b", "BOB"),
        ("rnika", "Mika"),
        ("Mika", "rnika"),
    ],
)
def test_a_login_name_of_latin_look_alikes_of_another_is_refused(aki, host, existing, username):
    # Within Latin too: a capital I, a one and an l; "rn" and "m" (Unicode's confusables).
    User.objects.create_user(username=existing, password="Quiet-harbour-2026")
    token = guest_services.guest_invitation_issue(guest=aki, by=host)
    with pytest.raises(ValidationError) as refused:
        guest_services.guest_invitation_accept(token=token, username=username, password="x" * 12)
    said = guest_services.MSG_LOGIN_LOOKS_LIKE.format(username=username, other=existing)
    assert refused.value.message_dict == {"username": [said]}


def test_a_login_name_in_another_alphabet_is_welcome(client, aki, host):
    token = guest_services.guest_invitation_issue(guest=aki, by=host)
    response = client.post(
        reverse("ledger:invitation_accept", args=[token]), GOOD | {"username": "たろう"}
    )
    assert response.status_code == 302
    assert User.objects.filter(username="たろう").exists()


def test_a_login_name_taken_at_the_same_moment_is_refused_cleanly(aki, host, monkeypatch):
    # Two invitations accepted at once with one name: the second insert meets the first's row.
    token = guest_services.guest_invitation_issue(guest=aki, by=host)
    monkeypatch.setattr(guest_services, "check_login_name", lambda username: None)
    User.objects.create_user(username="aki", password="Quiet-harbour-2026")
    with pytest.raises(ValidationError) as refused:
        guest_services.guest_invitation_accept(token=token, username="aki", password="x" * 12)
    assert refused.value.message_dict == {
        "username": [guest_services.MSG_LOGIN_TAKEN.format(username="aki")]
    }
    assert GuestInvitation.objects.get().used_at is None


def test_a_guest_with_a_login_gets_no_invitation(aki, host):
    user = User.objects.create_user("aki", password="pw-for-tests")
    Guest.objects.filter(pk=aki.pk).update(user=user)
    aki.refresh_from_db()
    with pytest.raises(ValidationError, match="already has a login"):
        guest_services.guest_invitation_issue(guest=aki, by=host)


def test_the_host_sees_the_invitation_link_once(client, aki, host):
    client.force_login(host)
    url = reverse("ledger:guest_invitation_issue", args=[aki.pk])
    page = client.post(url).content.decode()
    assert "/invite/" in page
    again = client.get(reverse("ledger:guest_detail", args=[aki.pk])).content.decode()
    assert "/invite/" not in again and "An invitation is out" in again
    entry = AuditEntry.objects.get(action=AuditEntry.Action.INVITATION_ISSUED)
    assert entry.by == host and entry.event is None


# --- query budgets ---------------------------------------------------------------------------


def queries(client, url, params=None) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params or {})
    assert response.status_code == 200
    return len(captured)


def test_guest_pages_run_constant_queries(client, host, demo_night, django_assert_max_num_queries):
    client.force_login(host)
    few = Guest.objects.create(name="Zed", name_key="zed")
    other = Guest.objects.create(name="Zoe", name_key="zoe")
    busy = Guest.objects.filter(bets__isnull=False).distinct().order_by("pk")
    first, second, plain = busy[0], busy[1], busy[2]
    small = {
        "detail": queries(client, reverse("ledger:guest_detail", args=[plain.pk])),
        "merge": queries(client, reverse("ledger:guest_merge", args=[few.pk]), {"other": other.pk}),
    }
    guest_services.guest_invitation_issue(guest=first, by=host)
    for index in range(5):
        guest_services.guest_alias_add(guest=first, name=f"Alias {index}", by=host)
    with django_assert_max_num_queries(small["detail"]):
        queries(client, reverse("ledger:guest_detail", args=[first.pk]))
    with django_assert_max_num_queries(small["merge"]):
        queries(client, reverse("ledger:guest_merge", args=[first.pk]), {"other": second.pk})
    tonight = game_services.event_create(
        name="Tonight", date=demo_night.date, rules=demo_night.rule_set, by=host
    )
    url = reverse("ledger:event_guests_bring_back", args=[tonight.pk])
    with django_assert_max_num_queries(12):
        queries(client, url, {"from_event": demo_night.pk})
