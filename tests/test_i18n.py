"""The interface in Japanese and English."""

from __future__ import annotations

import io
import uuid
from decimal import Decimal
from pathlib import Path

import polib
import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from openpyxl import load_workbook

from games.models import Event
from ledger.guests import services as guest_services
from ledger.models import Settlement
from ledger.money import services as money_services
from ledger.workbook.exports import (
    COUPS_COLUMNS,
    RECORD_COLUMNS,
    RECORD_EXTRA_COLUMNS,
    RULES_COLUMNS,
    workbook_bytes,
)
from tests.conftest import bet

LOCALE = Path(__file__).resolve().parent.parent / "locale" / "ja" / "LC_MESSAGES"
pytestmark = pytest.mark.django_db


def test_english_by_default_and_japanese_when_the_browser_asks(client):
    english = client.get(reverse("games:rules_and_odds")).content.decode()
    assert '<html lang="en"' in english and "House edge (%)" in english
    japanese = client.get(reverse("games:rules_and_odds"), HTTP_ACCEPT_LANGUAGE="ja,en;q=0.5")
    page = japanese.content.decode()
    assert '<html lang="ja"' in page
    assert "ハウスエッジ（%）" in page
    assert "8デッキ — バンカー 1:1（コミッション5%）、タイ 8:1" in page


def test_the_language_switch_sticks(client):
    response = client.post(reverse("set_language"), {"language": "ja", "next": "/rules/"})
    assert response.status_code == 302
    assert "ルールと確率" in client.get(reverse("games:rules_and_odds")).content.decode()
    client.post(reverse("set_language"), {"language": "en", "next": "/rules/"})
    assert "<h1>Rules & odds</h1>" in client.get(reverse("games:rules_and_odds")).content.decode()


def test_rule_errors_and_results_speak_japanese(client, host, seated, shoe):
    client.force_login(host)
    data = {
        "number": "1",
        "idempotency_key": str(uuid.uuid4()),
        "player_cards": "10 5",
        "banker_cards": "10 7",
        "stake_1_player": "5",
    }
    page = client.post(
        reverse("ledger:hand_record", args=[shoe.pk]),
        data,
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="ja",
    ).content.decode()
    assert "プレイヤーは5なので3枚目を引きます（プレイヤーは0〜5で引きます）。" in page
    data |= {"player_cards": "9 7", "banker_cards": "J J 10", "stake_1_player": "100"}
    page = client.post(
        reverse("ledger:hand_record", args=[shoe.pk]),
        data,
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="ja",
    ).content.decode()
    assert "ハンド1を保存：プレイヤーの勝ち 6–0。" in page
    guest_services.guest_link_issue(guest=seated[1])
    guest_page = client.get(
        reverse("ledger:guest_page", args=[seated[1].pk, seated[1].access_token]),
        HTTP_ACCEPT_LANGUAGE="ja",
    ).content.decode()
    assert "残高 <strong>+$100</strong> · ¥10,000" in guest_page


def test_every_text_is_translated_and_the_compiled_catalogue_is_current():
    source = polib.pofile(str(LOCALE / "django.po"))
    compiled = polib.mofile(str(LOCALE / "django.mo"))
    assert source.untranslated_entries() == []
    assert source.fuzzy_entries() == []
    # Keyed by context too: one msgid may read differently in two contexts ("Coups").
    assert {(e.msgctxt, e.msgid): e.msgstr for e in source if not e.msgid_plural} == {
        (e.msgctxt, e.msgid): e.msgstr for e in compiled if e.msgid and not e.msgid_plural
    }


def test_the_event_form_is_labelled_in_japanese(client, host):
    client.force_login(host)
    page = client.get(reverse("ledger:event_create"), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    for english in ("Name:", "Venue:", "Currency symbol", "Money per chip", "Hands per shoe"):
        assert english not in page
    with translation.override("ja"):
        labels = [str(Event._meta.get_field(name).verbose_name) for name in JAPANESE_LABELLED]
    assert all(label and label.isascii() is False for label in labels), labels
    assert all(f"{label}:" in page for label in labels)


JAPANESE_LABELLED = ("name", "date", "venue", "format", "decks", "currency_symbol", "currency",
                     "money_per_chip", "table_min", "table_max", "hands_per_shoe")  # fmt: skip


def test_the_audit_log_reads_in_japanese_entries_written_before_included(
    client, host, seated, shoe, record
):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(2, "tie", 10)])
    money_services.settlement_record(
        guest=seated[1], event=shoe.event, amount=Decimal("-97.5"), method="cash", by=host
    )
    client.force_login(host)
    english = client.get(reverse("ledger:audit_log")).content.decode()
    assert "Friday night · shoe 1 · hand 1" in english
    assert "Seat 1 · Aki · Player 100 → +100" not in english  # a net reads as the journal has it
    assert "Seat 1 · Aki · Player 100 → 100" in english and "Seat 2 · Ben · Tie 10 → −10" in english
    assert "amount: −97.50" in english and "method: Cash" in english and "note:" not in english
    japanese = client.get(reverse("ledger:audit_log"), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    for english_text in ("shoe 1", "hand 1", "Seat 1", "Player", "amount:", "method:", "Cash"):
        assert english_text not in japanese
    with translation.override("ja"):
        place = str(_("{event} · shoe {shoe} · hand {hand}")).format(
            event="Friday night", shoe=1, hand=1
        )
        settled = f"{_('amount')}: −97.50, {_('method')}: {Settlement.Method.CASH.label}"
    assert place in japanese and settled in japanese


def test_the_hands_sheet_is_named_for_the_hands_not_their_number(demo_night):
    with translation.override("ja"):
        sheets = load_workbook(io.BytesIO(workbook_bytes([demo_night]))).sheetnames
        count = str(_("Hands"))
    assert len(sheets) == 8 and count not in sheets  # "ハンド数" is "number of hands"
    assert all(not sheet.isascii() for sheet in sheets)  # every sheet named in Japanese


def test_signs_are_true_minus_signs_on_the_house_page(client, host, seated, shoe, record):
    from ledger.count import services as count_services

    guest = seated[1]
    count_services.chips_record(
        event=shoe.event, guest=guest, kind="buy_in", chips=Decimal(100), source="cash", by=host
    )  # the drop: the hold is the house's result over it
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])  # the house loses: a negative hold
    client.force_login(host)
    page = client.get(reverse("ledger:house")).content.decode()
    assert "−100.00%" in page and "-100" not in page


# Japanese words that stand for more than one English text on purpose, and why. A new English
# text translated like an old one that means something else (the Transfers sheet's "Pays" as 配当,
# a payout; its "To" as 終了日, an end date) fails the test below: give it a context
# (``pgettext``) and its own words.
SHARED_ON_PURPOSE = {
    "日付": "a date column, whatever its heading",
    "スタンド": "the move and the ponte who made it",
    "金額": "an amount of money",
    "方法": "how a settlement was made",
    "別名": "singular and plural",
    "ログイン": "the noun and the verb",
    "支払う人": "who pays, in a column and a sentence",
    "受け取る人": "who is paid, in a column and a sentence",
    "取り消し": "an undo and a void both take a row back",
    "シューを終了": "the button and the journal's entry",
    "イベントを終了": "the button and the journal's entry",
    "イベントを再開": "the button and the journal's entry",
    "別名を追加": "the button and the journal's entry",
    "ゲストを統合": "the button and the journal's entry",
    "精算": "to settle and a settlement",
    "結果": "a hand's outcome is its result",
    "精算済み": "a settled balance is square",
    "ログインを作る": "my login and your login, said by the guest",
    "終了": "closed, done and finished rounds",
    "%(place)s位": "a place, written two ways",
    "勝ち上がり": "going on to the next round",
    "プレイ中": "still playing",
}


def _english_meaning(msgid: str) -> str:
    """The English text as far as a translation may ignore: case, articles, plurals, "'s"."""
    text = msgid.casefold().strip().rstrip(":.")
    words = [word for word in text.replace("'s", "").split() if word not in ("the", "a", "an")]
    return " ".join(word[:-1] if word.endswith("s") and len(word) > 3 else word for word in words)


def test_no_two_english_texts_share_a_japanese_one_by_accident():
    catalogue = polib.pofile(str(Path(__file__).parent.parent / "locale/ja/LC_MESSAGES/django.po"))
    meanings: dict[str, set[str]] = {}
    for entry in catalogue:
        if entry.msgstr and not entry.obsolete:
            meanings.setdefault(entry.msgstr, set()).add(_english_meaning(entry.msgid))
    shared = {japanese for japanese, english in meanings.items() if len(english) > 1}
    assert shared - set(SHARED_ON_PURPOSE) == set(), {j: meanings[j] for j in shared}
    assert set(SHARED_ON_PURPOSE) <= shared  # the list keeps no stale entry


@pytest.mark.django_db
def test_the_transfers_sheet_says_who_pays_and_who_is_paid_in_japanese(make_event, host):
    # "Pays" is also a payout's odds ("pays 8:1") and "To" an end date: each has its context.
    from tests.ledger.banked_nights import play_debts, seven_guest_night

    event, shoe, guests = seven_guest_night(make_event, host)
    play_debts(shoe, host, {name: seat for seat, name in enumerate(guests, start=1)},
               [("A", "B", "50")])  # fmt: skip
    with translation.override("ja"):
        content = workbook_bytes([event])
        sheet_name = _("Transfers")
    header = [cell.value for cell in load_workbook(io.BytesIO(content))[sheet_name][1]]
    assert "支払う人" in header and "受け取る人" in header
    assert "配当" not in header and "終了日" not in header


# Column headings that are the scoresheet's own columns (read back by the import, so the same in
# every language; the Coups sheet's figures after them are named the same way) or a symbol.
KEPT_AS_WRITTEN = {"shoe", "hand", "player_cards", "banker_cards", "result", "player_pair",
                   "banker_pair", "seat", "guest", "bet", "stake", "gross", "commission", "net",
                   "$", "¥", *COUPS_COLUMNS, *RULES_COLUMNS, *RECORD_COLUMNS,
                   *RECORD_EXTRA_COLUMNS,
                   "z"}  # fmt: skip  # the Ratings sheet's z: a symbol, as statistics write it


@pytest.mark.django_db
def test_every_workbook_sheet_and_heading_is_in_japanese(make_event, host, demo_night):
    # The crawl of the pages reads no workbook: the night's, a guest-banked night's and a
    # tournament's, their sheet names and their headings.
    from tests.ledger.banked_nights import play_debts, seven_guest_night
    from tournaments.demo import load_demo_tournament
    from tournaments.exports import tournament_workbook_bytes

    banked, shoe, guests = seven_guest_night(make_event, host)
    play_debts(shoe, host, {name: seat for seat, name in enumerate(guests, start=1)},
               [("A", "B", "50")])  # fmt: skip
    with translation.override("ja"):
        workbooks = [workbook_bytes([demo_night]), workbook_bytes([banked]),
                     tournament_workbook_bytes(load_demo_tournament(by=host))]  # fmt: skip
    english = []
    for content in workbooks:
        for sheet in load_workbook(io.BytesIO(content)):
            if sheet.title.isascii():
                english.append(sheet.title)
            headings = [cell.value for cell in sheet[1] if isinstance(cell.value, str)]
            english += [h for h in headings if h.isascii() and h not in KEPT_AS_WRITTEN]
    assert english == []
