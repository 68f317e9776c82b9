"""The table: who sits where, each hand (or guest-banked coup) recorded through the rules core by
the one public ``services.record_hand``, undone and corrected with its history kept; the table's
page, a hand's page and the keypad's helpers."""
