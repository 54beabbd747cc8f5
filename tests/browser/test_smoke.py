"""Smoke test: the Voila app renders widgets in headless Chromium without page errors."""
from __future__ import annotations


def test_app_renders_widgets(voila_url, page, artifacts_dir):
    page.goto(voila_url, wait_until="domcontentloaded")
    # Generic: any rendered ipywidget (the real app replaces the placeholder notebook).
    page.wait_for_selector(".jupyter-widgets", state="visible", timeout=60_000)
    page.screenshot(path=str(artifacts_dir / "smoke.png"), full_page=True)
    assert not page.errors, page.errors
