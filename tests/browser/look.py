"""Accessibility checks for the browser tests: axe-core's findings, WCAG AA."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

WCAG_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21aa"]}}


def problems(page):
    results = Axe().run(page, options=WCAG_AA)
    return [
        (violation["id"], [node["target"] for node in violation["nodes"]][:5])
        for violation in results.response["violations"]
    ]
