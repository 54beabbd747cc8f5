"""What saying everything in the learner's language costs (issue 26): the AI's sentences are `rookcore.i18n.Message`
values made at every decision, and a kept game keeps them as data beside their English (`rookcore.saved`).

Prints medians of:

* the rule-based AI's time per decision (40 CrowsNest hands, four rule-based players; every candidate's note is a
  Message), and the time to say all of a hand's sentences in German and Persian (what the reasoning pane does);
* the kept game's save and load time and size at the end of a hand (the largest AI log), with the sentences kept
  as messages and, for comparison, as English text only (`rookcore.saved._said` left out).

Usage: ``python benchmarks/i18n_cost.py [--hands N]``. No goal is asserted: the numbers go into benchmarks/README.md.
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from rookcore import saved  # noqa: E402
from rookcore.ai import RuleBasedPlayer, describe_action, play_hand  # noqa: E402
from rookcore.hand import HandState  # noqa: E402
from rookcore.i18n import localize, using  # noqa: E402
from rookcore.rules import get_rules  # noqa: E402
from rookcore.table import Table  # noqa: E402


def decisions(hands: int) -> None:
    """The rule-based AI's milliseconds per decision, and per hand to say its sentences in de and fa."""
    rules = get_rules("crowsnest")
    per_decision, per_hand = [], {"de": [], "fa": []}
    for seed in range(hands):
        state = HandState.deal(rules, seed % 4, seed)
        start = time.perf_counter()
        made = play_hand(state, [RuleBasedPlayer(seed=s) for s in range(4)])
        per_decision.append((time.perf_counter() - start) / len(made) * 1000)
        for lang in per_hand:
            start = time.perf_counter()
            with using(lang):
                for d in made:
                    localize(d.summary(rules.bird_name))
                    for c in d.candidates:
                        localize(describe_action(c.action, rules.bird_name)), localize(c.note)
            per_hand[lang].append((time.perf_counter() - start) * 1000)
    print(f"rule-based AI: {statistics.median(per_decision):.3f} ms a decision (median of {hands} hands)")
    for lang, times in per_hand.items():
        print(f"saying a hand's AI sentences in {lang}: {statistics.median(times):.1f} ms (median of {hands} hands)")


def kept_game(rounds: int = 5) -> None:
    """Save and load of a kept game at the end of a hand, with and without the sentences kept as messages."""
    table = Table(seed=3)
    while not table.state.is_over:
        table.run_ai()
        if table.state.is_over:
            break
        if table.state.phase.value == "discard":
            table.learner_discard(table.discard_options()[:table.rules.nest_size])
        else:
            table.learner_act(table.legal_for_learner()[0])
    path = pathlib.Path(tempfile.mkdtemp()) / "game.json"
    real = saved._said  # noqa: SLF001 - the comparison leaves the messages out
    results = {"as messages": ([], []), "English only": ([], [])}
    sizes = {}
    try:
        for _ in range(rounds):
            for label, (save_ms, load_ms) in results.items():
                saved._said = real if label == "as messages" else (lambda thing, names: {})  # noqa: SLF001
                for _ in range(6):
                    start = time.perf_counter()
                    saved.save_table(table, path)
                    save_ms.append((time.perf_counter() - start) * 1000)
                    start = time.perf_counter()
                    saved.load_table(path)
                    load_ms.append((time.perf_counter() - start) * 1000)
                sizes[label] = path.stat().st_size
    finally:
        saved._said = real  # noqa: SLF001
    for label, (save_ms, load_ms) in results.items():
        print(f"kept game, end of a hand ({len(table.log)} AI decisions), sentences {label}: save "
              f"{statistics.median(save_ms):.1f} ms, load {statistics.median(load_ms):.1f} ms, {sizes[label]} bytes "
              f"(medians of {len(save_ms)})")


def main() -> None:
    """Run both measurements (``--hands``: hands for the AI's part, default 40)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=40)
    args = parser.parse_args()
    decisions(args.hands)
    kept_game()


if __name__ == "__main__":
    main()
