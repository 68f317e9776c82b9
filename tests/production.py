"""The production server, for the tests: static files collected (hashed and compressed, as
``make serve`` does) into a temporary STATIC_ROOT, then gunicorn with uvicorn workers (ASGI) and
DEBUG off on a free loopback port, over the database it is given. Stopped whatever happens, by
its own process id."""

from __future__ import annotations

import ctypes
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
START_SECONDS = 30
PR_SET_PDEATHSIG = 1  # linux/prctl.h
# What the test process's environment may hold that would change the server's configuration.
NOT_INHERITED = {
    "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "CONN_MAX_AGE", "STATIC_ROOT",
    "SECURE_SSL_REDIRECT", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE",
    "FORWARDED_ALLOW_IPS",
}  # fmt: skip


@dataclass(frozen=True)
class Server:
    url: str  # http://127.0.0.1:<port>, no slash at the end
    static_root: Path
    log: Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def production_environment(
    *, database_url: str, static_root: Path, settings_module: str = "shoebook.settings"
) -> dict[str, str]:
    """The environment of a production deployment on loopback: DEBUG off, a secret key of its
    own, this host only; no HTTPS redirect (no TLS proxy in front of it here). Loopback is the
    trusted proxy (FORWARDED_ALLOW_IPS), as behind the documented nginx: a test names its client
    in X-Forwarded-For."""
    clean = {name: value for name, value in os.environ.items() if name not in NOT_INHERITED}
    return clean | {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "FORWARDED_ALLOW_IPS": "127.0.0.1",
        "DATABASE_URL": database_url,
        "STATIC_ROOT": str(static_root),
        "DJANGO_SETTINGS_MODULE": settings_module,
    }


def manage(environment: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        check=True,
        capture_output=True,
        timeout=120,
    )


@contextmanager
def production_server(
    *,
    database_url: str,
    workdir: Path,
    settings_module: str = "shoebook.settings",
    migrate: bool = False,
) -> Iterator[Server]:
    """Collect the static files into ``workdir``, (``migrate``: set the database up), start
    gunicorn, wait until it answers; stop it when the block ends, whatever happened."""
    static_root = workdir / "static"
    environment = production_environment(
        database_url=database_url, static_root=static_root, settings_module=settings_module
    )
    if migrate:
        manage(environment, "migrate", "--no-input")
    manage(environment, "collectstatic", "--no-input", "--verbosity", "0")
    url = f"http://127.0.0.1:{free_port()}"
    log = workdir / "gunicorn.log"
    with log.open("wb") as output:
        server = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "shoebook.asgi",  # as `make serve`: ASGI, uvicorn workers
                "--worker-class",
                "uvicorn_worker.UvicornWorker",
                "--bind",
                url.removeprefix("http://"),
                "--workers",
                "1",
                "--graceful-timeout",
                "5",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its workers in a process group of its own, stopped below
            preexec_fn=_stop_with_the_tests,
        )
        try:
            _wait_until_it_answers(server, url, log)
            yield Server(url=url, static_root=static_root, log=log)
        finally:
            _stop(server)


def _stop_with_the_tests() -> None:
    """In the server's process, before gunicorn starts: should the test process die without
    stopping it (killed, or its output pipe closed), Linux sends the server SIGTERM."""
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _wait_until_it_answers(server: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn stopped ({server.returncode}):\n{log.read_text()}")
        try:
            urllib.request.urlopen(f"{url}/offline/", timeout=2).close()
            return
        except urllib.error.HTTPError:
            return  # it answers, if not as hoped: the test says what it wanted
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"gunicorn did not answer within {START_SECONDS} s:\n{log.read_text()}")


def _stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)  # the group this server leads, and only it
            server.wait(timeout=15)
