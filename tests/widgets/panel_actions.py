"""Learner actions on the app's panels, shared by the panel tests (imported by name: tests/widgets is on the
path of its test modules)."""
from __future__ import annotations

from rookcore.hand import Phase


def act_once(panel) -> None:
    """One learner action on a Play panel through its own handlers (the first offer: pass, the first cards to
    discard, Red trump, the first legal card)."""
    t = panel.table
    if t.state.phase is Phase.DISCARD:
        panel.discard(t.discard_options()[:t.rules.nest_size])
    elif t.state.phase is Phase.AUCTION:
        panel.call_pass()
    elif t.state.phase is Phase.TRUMP:
        panel.name_trump("R")
    else:
        panel.play_card(t.legal_for_learner()[0].card)
