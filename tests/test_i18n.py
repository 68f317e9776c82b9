"""The interface in Japanese and English."""

from __future__ import annotations

import uuid
from pathlib import Path

import polib
import pytest
from django.urls import reverse

from ledger import services

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
    services.guest_link_issue(guest=seated[1])
    guest_page = client.get(
        reverse("ledger:guest_page", args=[seated[1].pk, seated[1].access_token]),
        HTTP_ACCEPT_LANGUAGE="ja",
    ).content.decode()
    assert "残高 <strong>+100</strong> · ¥10,000" in guest_page


def test_every_text_is_translated_and_the_compiled_catalogue_is_current():
    source = polib.pofile(str(LOCALE / "django.po"))
    compiled = polib.mofile(str(LOCALE / "django.mo"))
    assert source.untranslated_entries() == []
    assert source.fuzzy_entries() == []
    assert {e.msgid: e.msgstr for e in source if not e.msgid_plural} == {
        e.msgid: e.msgstr for e in compiled if e.msgid and not e.msgid_plural
    }
