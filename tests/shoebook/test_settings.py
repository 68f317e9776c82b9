from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from shoebook.base.env import env_bool, env_int, env_list

ROOT = Path(__file__).resolve().parents[2]


def run_python(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "CONN_MAX_AGE"}
    }
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "shoebook.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def sqlite_writers(tmp_path: Path, *mode: str) -> dict[str, object]:
    database = f"sqlite:///{tmp_path / 'night.sqlite3'}"
    result = run_python(["-m", "tests.sqlite_writers", *mode], DATABASE_URL=database)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_sqlite_takes_concurrent_writers_without_database_is_locked(tmp_path):
    report = sqlite_writers(tmp_path)
    assert report["journal_mode"] == "wal"
    assert report["busy_timeout_ms"] >= 5000
    assert report["errors"] == []
    assert report["rows"] == report["expected"]


def test_the_same_writers_fail_under_sqlites_default_deferred_mode(tmp_path):
    # The control: what IMMEDIATE is there to prevent.
    report = sqlite_writers(tmp_path, "DEFERRED")
    assert any("database is locked" in error for error in report["errors"])


def test_production_settings_refuse_to_start_without_secret_key_or_allowed_hosts():
    no_key = run_python(["manage.py", "check"], DEBUG="0")
    assert no_key.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in no_key.stderr
    no_hosts = run_python(["manage.py", "check"], DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50))
    assert no_hosts.returncode != 0
    assert "ALLOWED_HOSTS must be set when DEBUG is off" in no_hosts.stderr


def test_check_deploy_is_clean_with_production_settings():
    result = run_python(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="shoebook.example",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


PRINT_CONNECTIONS = (
    "import django; django.setup(); from django.conf import settings; "
    "d = settings.DATABASES['default']; print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'])"
)


PRINT_POOL = (
    "import django; django.setup(); from django.conf import settings; "
    "print(settings.DATABASES['default'].get('OPTIONS', {}).get('pool'))"
)


def test_production_under_asgi_keeps_no_connection_past_its_request_and_checks_them():
    # Under ASGI each request has its own context: a kept connection would never be reused.
    production = run_python(
        ["-c", PRINT_CONNECTIONS],
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="shoebook.example",
    )
    assert production.stdout.split() == ["0", "True"], production.stderr
    assert run_python(["-c", PRINT_CONNECTIONS]).stdout.split() == ["0", "True"]
    chosen = run_python(["-c", PRINT_CONNECTIONS], CONN_MAX_AGE="60")
    assert chosen.stdout.split() == ["60", "True"]


def test_production_on_postgresql_borrows_connections_from_psycopgs_pool():
    production = {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "shoebook.example",
        "DATABASE_URL": "postgres://shoebook:pw@127.0.0.1:5432/nights",
    }
    pooled = run_python(["-c", PRINT_POOL], **production)
    assert pooled.stdout.strip() == "{'min_size': 1, 'max_size': 10}", pooled.stderr
    kept = run_python(["-c", PRINT_POOL], **production, CONN_MAX_AGE="60")
    assert kept.stdout.strip() == "None"  # persistent connections chosen: no pool
    assert (
        run_python(["-c", PRINT_POOL], DATABASE_URL=production["DATABASE_URL"]).stdout.strip()
        == "None"
    )


def test_database_url_chooses_the_database(tmp_path):
    result = run_python(
        [
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            "print(settings.DATABASES['default']['ENGINE'], settings.DATABASES['default']['NAME'])",
        ],
        DATABASE_URL="postgres://shoebook:pw@127.0.0.1:5432/nights",
    )
    assert result.stdout.split() == ["django.db.backends.postgresql", "nights"]


@pytest.mark.parametrize(
    ("raw", "expected"), [("1", True), ("yes", True), ("off", False), ("", False)]
)
def test_env_bool_reads_the_usual_spellings(monkeypatch, raw, expected):
    monkeypatch.setenv("SHOEBOOK_FLAG", raw)
    assert env_bool("SHOEBOOK_FLAG", default=not expected) is expected


def test_env_readers_refuse_bad_values(monkeypatch):
    monkeypatch.setenv("SHOEBOOK_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="SHOEBOOK_FLAG must be true or false"):
        env_bool("SHOEBOOK_FLAG", default=False)
    monkeypatch.setenv("SHOEBOOK_NUMBER", "twenty")
    with pytest.raises(ImproperlyConfigured, match="SHOEBOOK_NUMBER must be a whole number"):
        env_int("SHOEBOOK_NUMBER", 1)


def test_env_list_splits_on_commas(monkeypatch):
    monkeypatch.setenv("SHOEBOOK_HOSTS", "a.example, b.example,,")
    assert env_list("SHOEBOOK_HOSTS", []) == ["a.example", "b.example"]
    monkeypatch.delenv("SHOEBOOK_HOSTS")
    assert env_list("SHOEBOOK_HOSTS", ["default"]) == ["default"]
