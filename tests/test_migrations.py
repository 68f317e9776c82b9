"""Shipped migrations are never rewritten: a database migrated by one of them would never run
the new text. A change to the schema is a new migration, added after the shipped ones."""

from __future__ import annotations

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Every migration shipped so far, with the first 16 hex digits of its file's SHA-256. A new
# migration joins this list once it ships; none leaves it or changes.
SHIPPED = {
    "games/migrations/0001_initial.py": "e425d53886def25f",
    "games/migrations/0002_table_display_link.py": "170811132fd3c078",
    "games/migrations/0003_event_limits_messages.py": "fdaa69b6a92a560d",
    "games/migrations/0004_hand_entry_digest.py": "9f8ecaec4e8ed443",
    "games/migrations/0005_event_limit_bounds.py": "82bce36b02586216",
    "games/migrations/0006_event_labels.py": "373a56701784b69b",
    "games/migrations/0007_event_share_names.py": "87b7fadad7df305e",
    "games/migrations/0008_event_kind_bet_unit.py": "a41fed6fe19a8209",
    "games/migrations/0009_guest_banked_games.py": "4916f240d94a4827",
    "games/migrations/0010_table_limits_within_one_amount.py": "2932fb26ea641f34",
    "games/migrations/0011_event_results_token.py": "bac5a29f5a2fbcb5",
    "games/migrations/0012_event_suite_returns.py": "3a8c2fab2a3058a6",
    "games/migrations/0013_event_seats.py": "a03668c2d19b70b4",
    "ledger/migrations/0001_initial.py": "5ea4ea3421ecd4f1",
    "ledger/migrations/0002_roles.py": "c6ef8e0a1f20dd0d",
    "ledger/migrations/0003_audit_log.py": "e0769d2f9ba48e18",
    "ledger/migrations/0004_audit_event_edited.py": "6d5c74c0b89d7c46",
    "ledger/migrations/0005_guest_name_key.py": "d0cb2203f234fe2f",
    "ledger/migrations/0006_audit_close_reopen.py": "660c5e0820daa861",
    "ledger/migrations/0007_settlement_void_credit_limit.py": "d359a5aae481a90f",
    "ledger/migrations/0008_guest_aliases_invitations.py": "fa16d59401dd6a62",
    "ledger/migrations/0009_audit_actions_combined.py": "a96370127e61cf75",
    "ledger/migrations/0010_audit_credit_limit.py": "84a3e23281a9ac80",
    "ledger/migrations/0011_settlement_idempotency_key.py": "e6d21caeb9d7866d",
    "ledger/migrations/0012_stack_rows_charges.py": "1eab2cd971386d55",
    "ledger/migrations/0013_guest_banked_games.py": "a001a3ba9e55f732",
    "ledger/migrations/0014_transfers.py": "6e049e11e497c05c",
    "ledger/migrations/0015_hand_revision_idempotency_key.py": "de7da08134bec5c8",
    "ledger/migrations/0016_money_rows_content_digest.py": "11247b6c592b2504",
    "ledger/migrations/0017_the_count.py": "6dc9cd9dcfbcbfbb",
    "ledger/migrations/0018_seats_1_to_9.py": "238aa993e2c562a6",
    "ledger/migrations/0019_transfer_in_chips.py": "b058abe580d393fb",
    "ledger/migrations/0020_a_count_of_nothing.py": "562acf6bebceb573",
    "tournaments/migrations/0001_initial.py": "ef4e2c028864a78b",
    "tournaments/migrations/0002_counts_bounded.py": "916e682f6951a1fa",
    "tournaments/migrations/0003_table_limits_within_one_amount.py": "945b2136ad6a56a7",
    "tournaments/migrations/0004_seats_per_table_final_overflow.py": "e3c67b1c165beea8",
    "tournaments/migrations/0005_seats_per_table_6_to_9.py": "8996f2b2c740c668",
}


def test_no_shipped_migration_was_rewritten_or_removed():
    changed = {
        name
        for name, digest in SHIPPED.items()
        if not (ROOT / name).is_file()
        or hashlib.sha256((ROOT / name).read_bytes()).hexdigest()[:16] != digest
    }
    assert changed == set()


def test_new_migrations_come_after_the_shipped_ones():
    for app in ("games", "ledger", "tournaments"):
        shipped = sorted(name for name in SHIPPED if name.startswith(f"{app}/"))
        on_disk = sorted(
            str(path.relative_to(ROOT)) for path in (ROOT / app / "migrations").glob("0*.py")
        )
        assert on_disk[: len(shipped)] == shipped
