#!/usr/bin/env python
"""Django's command-line utility for Shoebook."""

from __future__ import annotations

import gc
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shoebook.settings")
    # Starting Django builds tens of thousands of objects that live as long as the process; the
    # garbage collector's passes over them while they are made find nothing to free and cost about
    # a tenth of a short command (`baccarat_odds`). So it rests while Django loads; before any
    # command runs (every command is fetched first) what was built is set aside for good (frozen:
    # never scanned again) and collection resumes for what the command makes.
    gc.disable()
    from django.core.management import BaseCommand, ManagementUtility

    class Utility(ManagementUtility):
        def fetch_command(self, subcommand: str) -> BaseCommand:
            gc.freeze()
            gc.enable()
            return super().fetch_command(subcommand)

    Utility(sys.argv).execute()
    if not gc.isenabled():
        # `version` and `help` fetch no command: set start-up's objects aside all the same, or the
        # collection at exit scans them all.
        gc.freeze()


if __name__ == "__main__":
    main()
