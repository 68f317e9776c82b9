"""The files the upload-key tests send: a Punto Banco scoresheet, a count sheet, and the rules the
upload page asks for beside them (tests/ledger/workbook/test_upload_keys.py and
tests/upload_race.py, which runs in an interpreter of its own)."""

HANDS = (
    "shoe,hand,player_cards,banker_cards,result,player_pair,banker_pair,seat,guest,bet,stake\n"
    "1,1,9 7,J J 10,P,,,1,Aki,player,100\n"
    "1,1,9 7,J J 10,P,,,2,Ben,banker,50\n"
    "1,2,,,B,no,yes,1,Aki,banker,10\n"
)
COUNT = "guest,bought,cashed_out,paid_by\nAki,500,720,cash\nBen,300,80,marker\n"
RULES = {"money_per_chip": "100", "table_min": "10", "table_max": "1000", "decks": "8",
         "no_commission": "none", "commission": "5", "tie_pays": "8",
         "pair_pays": "11"}  # fmt: skip
