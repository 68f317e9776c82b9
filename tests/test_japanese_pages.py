"""The main pages read in Japanese: rendered with a night that has a count (a buy-in on a
marker, the tray), a settlement and its void and a page of the audit log past its first, they
hold none of the English words that were left in them, and a seat is 席 everywhere."""

from __future__ import annotations

import html
import io
import json
import re
import uuid
from datetime import date
from decimal import Decimal
from urllib.parse import unquote

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from openpyxl import load_workbook

from ledger.audit import describe_place
from ledger.count import services as count_services
from ledger.guests import services as guest_services
from ledger.money import services as money_services
from ledger.people import services as people_services
from ledger.workbook.exports import workbook_bytes
from shoebook.base.roles import DEALERS
from tests.conftest import GUEST_NAMES, bet
from tournaments import services as tournament_services

D = Decimal
pytestmark = pytest.mark.django_db

# Words that were left in English on Japanese pages, and the raw data of the audit log.
ENGLISH = ("next", "previous", "Tray", "tray", "buy_in", "marker", "kind", "source", "Seat",
           "seat", "round", "Result", "hands", "owes", "house", "Void", "void", "Receipt",
           "Balance", "Date", "Counted", "Events", "even money", "count", "cash", "by_denomination",
           "opening_float", "True", "False", "dated")  # fmt: skip


def visible_text(page: str, names: tuple[str, ...]) -> str:
    """What a reader sees: no script, no style, no tags, entities read; the guests' and the
    night's names (typed by the host, in any language) taken out."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", page))
    for name in names:
        text = text.replace(name, " ")
    return text


def english_left(text: str) -> list[str]:
    return [word for word in ENGLISH if re.search(rf"(?<![A-Za-z_]){word}(?![A-Za-z_])", text)]


@pytest.fixture
def night(host, seated, shoe, record):
    event = shoe.event
    aki, ben = seated[1], seated[2]
    count_services.count_setup_save(event=event, by=host, opening_float=D(1000))
    count_services.chips_record(
        event=event, guest=aki, kind="buy_in", chips=D(500), source="marker", by=host
    )
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(2, "banker", 50)])
    count_services.chips_record(event=event, guest=None, kind="tray", chips=D(900), by=host)
    paid = money_services.settlement_record(
        guest=aki, event=event, amount=D(-50), method="cash", by=host
    )
    money_services.settlement_void(settlement=paid, reason="二重入力", by=host)
    for _top_up in range(50):  # the audit log past its first page: its pager
        count_services.chips_record(
            event=event, guest=ben, kind="top_up", chips=D(5), source="cash", by=host,
            idempotency_key=uuid.uuid4(),
        )  # fmt: skip
    guest_services.guest_link_issue(guest=aki)
    aki.refresh_from_db()
    return event, aki


def test_the_main_pages_hold_no_english_left(night, host):
    event, aki = night
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    client.force_login(host)
    names = (*GUEST_NAMES, event.name)
    shoe = event.shoes.get()
    token = people_services.staff_invitation_issue(role="dealer", note="ミカ", by=host)
    dealer = User.objects.create_user("mika", password="pw-for-tests")
    dealer.groups.add(Group.objects.get_or_create(name=DEALERS)[0])
    people_services.role_change(user=dealer, role="host", by=host)
    pages = {
        "event": reverse("ledger:event_detail", args=[event.pk]),
        "table": reverse("ledger:shoe_table", args=[shoe.pk]),
        "count": reverse("ledger:count_page", args=[event.pk]),
        "count_guest": reverse("ledger:count_guest", args=[event.pk, aki.pk]),
        "guest": reverse("ledger:guest_detail", args=[aki.pk]),
        "guest_link": reverse("ledger:guest_page", args=[aki.pk, aki.access_token]),
        "receipt": reverse("ledger:guest_receipt", args=[aki.pk, event.pk]),
        "audit": reverse("ledger:audit_log"),
        "audit_2": reverse("ledger:audit_log") + "?page=2",
        "house": reverse("ledger:house"),
        "people": reverse("ledger:people"),
        "join": reverse("ledger:staff_invitation_accept", args=[token]),
    }
    left = {}
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, name
        page = response.content.decode()
        assert '<html lang="ja"' in page, name
        text = visible_text(page, names)
        if english_left(text):
            left[name] = english_left(text)
        assert "シート" not in text.replace("スコアシート", ""), name  # a seat is 席
    assert left == {}
    audit = visible_text(client.get(pages["audit"]).content.decode(), names)
    older = visible_text(client.get(pages["audit_2"]).content.decode(), names)
    assert "次へ" in audit and "前へ" in older
    for words in ("トレイ", "支払い方法: クレジット（マーカー）", "記録の種類: バイイン"):
        assert words in older, words
    receipt = visible_text(client.get(pages["receipt"]).content.decode(), names)
    assert "取り消し 精算" not in receipt


def test_the_manifest_and_the_receipt_s_file_name_are_in_japanese(night):
    event, aki = night
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    manifest = json.loads(client.get(reverse("ledger:guest_manifest",
                                             args=[aki.pk, aki.access_token])).content)  # fmt: skip
    assert manifest["lang"] == "ja" and not english_left(manifest["description"])
    assert not re.search(r"[A-Za-z]{4,}", manifest["description"])
    pdf = client.get(reverse("ledger:link_receipt_pdf", args=[aki.pk, aki.access_token, event.pk]))
    filename = unquote(pdf["Content-Disposition"])
    assert "receipt" not in filename and "明細" in filename


def test_a_tournament_table_s_generated_name_reads_in_the_reader_s_language(host, client):
    cup = tournament_services.tournament_create(
        name="Spring cup", date=date(2026, 11, 20), by=host, entry_fee=D(50)
    )
    for name in ("Aki", "Ben"):
        tournament_services.entrant_add(tournament=cup, name=name, by=host)
    round_ = tournament_services.round_add(tournament=cup, by=host, hands=3)
    tournament_services.round_draw(round_=round_, by=host)  # in English: the name is stored
    table = round_.tables.get().event
    assert table.name == "Spring cup · round 1 · table 1"
    client.force_login(host)
    for lang, shown in (("en", "Spring cup · round 1 · table 1"),
                        ("ja", "Spring cup・ラウンド1・テーブル1")):  # fmt: skip
        page = client.get(
            reverse("ledger:event_detail", args=[table.pk]), HTTP_ACCEPT_LANGUAGE=lang
        ).content.decode()
        assert f"<h1>{shown}</h1>" in page
    with translation.override("ja"):  # the audit log's "Where": str(event), or a shoe of it
        assert describe_place(str(table)) == "Spring cup・ラウンド1・テーブル1 (2026-11-20)"
        assert "ラウンド1" in describe_place(f"{table.name} · shoe 1 · hand 2")


def test_the_count_sheet_says_how_the_night_is_kept_in_japanese(night):
    event, _aki = night
    with translation.override("ja"):
        content = workbook_bytes([event])
        sheet = load_workbook(io.BytesIO(content))[str(_("Count"))]
        kept = {row[9] for row in sheet.iter_rows(min_row=2, values_only=True)}
        hands = pgettext("a night kept by", "hands")
    assert kept == {hands} and hands != "hands"
    assert "ハンド数" not in kept  # the number of hands, not how the night is kept
