"""StatsPanel: parameters, Run with a progress bar, PNG plots, errors shown in the panel."""
from __future__ import annotations

import pytest

from widgets.stats import StatsPanel

PNG = b"\x89PNG\r\n\x1a\n"


pytestmark = pytest.mark.usefixtures("no_callback_errors")  # tests/widgets/conftest.py


def _images(p: StatsPanel):
    return [p.bid_image, p.strength_image, p.bird_image, p.trick_image]


def test_run_shows_plots_and_progress():
    p = StatsPanel()
    assert p.variant.value == "crowsnest" and "rules" in [value for _label, value in p.level.options]
    assert p.plots.layout.display == "none"
    p.variant.value = "tournament"
    p.deals.value = 20
    p.seed.value = 5
    p.level.value = "rules"
    values = []
    p.progress.observe(lambda ch: values.append(ch["new"]), names="value")
    p.run_button.click()
    assert p.error.layout.display == "none", p.error.value
    assert p.stats is not None and p.stats.deals == 20 and p.stats.variant == "tournament"
    assert p.progress.max == 20 and p.progress.value == 20
    assert values and values[-1] == 20
    for img in _images(p):
        assert bytes(img.value).startswith(PNG) and len(img.value) > 1000
    assert p.plots.layout.display == ""
    assert "nest decided" in p.nest_text.value
    assert "20 deals" in p.status.value
    assert not p.run_button.disabled


def test_same_seed_same_result():
    a, b = StatsPanel(deals=10, level="random"), StatsPanel(deals=10, level="random")
    assert a.run().rows == b.run().rows


def test_bad_address_shows_error():
    p = StatsPanel(deals=5, level="random")
    p.scheduler.value = "tcp://127.0.0.1:1"  # nothing listens there
    p.run_button.click()
    assert p.error.layout.display == ""
    assert "scheduler" in p.error.value
    assert p.stats is None
    assert not p.run_button.disabled


def test_garbage_address_and_bad_deals_show_errors():
    p = StatsPanel(level="random")
    p.scheduler.value = "not a scheduler address!"
    p.deals.value = 3
    p.run_button.click()
    assert p.error.layout.display == "" and p.stats is None
    p.scheduler.value = ""
    p.deals.value = 0
    p.run_button.click()
    assert "Deals must be" in p.error.value


def test_no_nest_rule_set_text():
    p = StatsPanel(variant="partnership", deals=4, level="random")
    p.run()
    assert p.error.layout.display == "none", p.error.value
    assert "no nest" in p.nest_text.value
    assert all(bytes(img.value).startswith(PNG) for img in _images(p))
