"""Run by tests/shoebook/test_settings.py in a fresh interpreter: several threads write to one
SQLite
file through Django's real settings, each reading before it writes (the pattern that fails under
SQLite's deferred transactions). Prints a JSON report."""

from __future__ import annotations

import json
import sys
import threading
import time

import django
from django.conf import settings

THREADS, WRITES = 4, 25


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else None
    django.setup()
    if mode:
        settings.DATABASES["default"]["OPTIONS"]["transaction_mode"] = mode
    from django.db import connection, transaction

    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE hand (number INTEGER PRIMARY KEY)")
        cursor.execute("PRAGMA journal_mode")
        journal_mode = cursor.fetchone()[0]
        cursor.execute("PRAGMA busy_timeout")
        busy_timeout_ms = cursor.fetchone()[0]
    connection.close()
    errors: list[str] = []

    def writer() -> None:
        from django.db import connection as own

        for _ in range(WRITES):
            try:
                with transaction.atomic(), own.cursor() as cursor:
                    cursor.execute("SELECT COALESCE(MAX(number), 0) FROM hand")
                    next_number = cursor.fetchone()[0] + 1
                    time.sleep(0.002)
                    cursor.execute("INSERT INTO hand (number) VALUES (%s)", [next_number])
            except Exception as error:
                errors.append(f"{type(error).__name__}: {error}")
        own.close()

    threads = [threading.Thread(target=writer) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM hand")
        rows = cursor.fetchone()[0]
    print(
        json.dumps(
            {
                "journal_mode": journal_mode,
                "busy_timeout_ms": busy_timeout_ms,
                "rows": rows,
                "expected": THREADS * WRITES,
                "errors": errors,
            }
        )
    )


if __name__ == "__main__":
    main()
