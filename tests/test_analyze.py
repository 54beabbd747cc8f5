"""Double-dummy annotation (`rookcore.analysis.annotate`) and the ``analyze`` command."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rookcore import records
from rookcore.actions import PLAYS
from rookcore.hand import SEATS, Phase
from rookcore.records import HandRecord
from rookcore.rules import get_rules
from rookcore.analysis import analyze_record

from test_dd import brute, end_position

ROOT = Path(__file__).resolve().parent.parent
_BUNDLED = ROOT / "rookcore" / "data" / "records"
_SHARED = Path("/work/shared/data/records")
RECORD_DIR = _BUNDLED if any(_BUNDLED.glob("*-made.json")) else _SHARED
RECORDS = sorted(p for p in RECORD_DIR.glob("*.json") if not p.name.endswith(".expected.json"))
KEYS = ["step", "trick", "seat", "card", "best", "value", "loss", "mark", "best_cards"]
TRICKS_ANALYSED = 3  # the last tricks of each bundled record (a whole hand takes minutes in pure Python)


def load(path):
    return records.loads(path.read_bytes())


def check_invariants(rec: HandRecord, report: dict, threshold: int = 10) -> None:
    rules = rec.rules
    assert set(report) == {"variant", "start", "cards"} and report["variant"] == rec.variant
    cards = report["cards"]
    final = rec.replay()
    actions = rec.actions()
    total = rules.counter_total + (rules.majority_bonus if rules.hand_size % 2 else 0)
    constant_total = not (rules.majority_bonus and rules.hand_size % 2 == 0)  # all but Partnership
    for i, c in enumerate(cards):
        assert list(c) == KEYS
        assert c["loss"] == c["best"] - c["value"]
        assert c["seat"] in SEATS and c["mark"] in ("", "?", "??")
        assert actions[c["step"]].card == rules.parse_card(c["card"])
        if constant_total:
            assert c["loss"] >= 0
            assert (c["loss"] == 0) == (c["card"] in c["best_cards"])
        elif c["card"] in c["best_cards"]:
            assert c["loss"] == 0
        team = SEATS.index(c["seat"]) & 1
        if i + 1 < len(cards):
            nxt = cards[i + 1]
            assert nxt["step"] == c["step"] + 1
            if SEATS.index(nxt["seat"]) & 1 == team:
                assert c["value"] == nxt["best"]
            elif constant_total:
                assert c["value"] + nxt["best"] == total
        elif final.is_over:
            assert c["value"] == final.captured[team]
        if constant_total:
            decl = final.declarer & 1
            before = c["best"] if team == decl else total - c["best"]
            after = c["value"] if team == decl else total - c["value"]
            made_b, made_a = before >= final.high_bid, after >= final.high_bid
            turned = (made_b and not made_a) if team == decl else (not made_b and made_a)
            assert c["mark"] == ("??" if turned else "?" if c["loss"] >= threshold else "")
    if cards:
        first = cards[0]
        team = SEATS.index(first["seat"]) & 1
        assert first["best"] == report["start"][("NS", "EW")[team]]


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_bundled_records_late_tricks(path):
    rec = load(path)
    rules = rec.rules
    report = analyze_record(rec, first_trick=rules.hand_size - TRICKS_ANALYSED + 1)
    check_invariants(rec, report)
    if rec.auction == ["pass"] * 4:
        assert report == {"variant": rec.variant, "start": None, "cards": []}
    else:
        assert len(report["cards"]) == 4 * TRICKS_ANALYSED
        assert report["cards"][0]["trick"] == rules.hand_size - TRICKS_ANALYSED + 1


@pytest.mark.slow
def test_whole_record():
    """A whole hand from the first lead (slow: tens of seconds)."""
    rec = load(RECORD_DIR / "tournament-set.json")
    report = analyze_record(rec)
    check_invariants(rec, report)
    assert len(report["cards"]) == 4 * rec.rules.hand_size
    assert report["cards"][0]["step"] == len(rec.auction) + 2


@pytest.mark.parametrize("name,options", [("crowsnest", None), ("tournament", None), ("partnership", None),
                                          ("1-high-partnership", None), ("red-1", None), ("buckeye", None),
                                          ("dixie", None), ("crowsnest", {"bird": False})])
def test_synthetic_positions_against_brute_force(name, options):
    """Records of random hands; the last 3 tricks analysed and every card checked against brute force."""
    rules = get_rules(name, options)
    for seed in range(4):
        st = end_position(rules, 3000 + seed, 3)
        while st.phase is Phase.PLAY:
            st.apply(PLAYS[random.Random(seed).choice(st.legal_cards())])
        rec = records.loads(records.dumps(HandRecord.from_state(st)))
        first = rules.hand_size - 2
        report = analyze_record(rec, first_trick=first, question_threshold=5)
        check_invariants(rec, report, threshold=5)
        steps = list(rec.states())
        for c in report["cards"]:
            pos = steps[c["step"]].clone()
            team = SEATS.index(c["seat"]) & 1
            assert pos.to_act == SEATS.index(c["seat"])
            assert c["best"] == brute(pos)[1][team]
            pos.apply(PLAYS[rules.parse_card(c["card"])])
            assert c["value"] == brute(pos)[1][team]
            best = brute(steps[c["step"]].clone())[1]
            want = []
            for card in steps[c["step"]].legal_cards():
                p2 = steps[c["step"]].clone()
                p2.apply(PLAYS[card])
                if brute(p2)[1] == best:
                    want.append(rules.card_name(card))
            assert c["best_cards"] == want


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "rookcore", "analyze", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)


def test_cli_passed_out():
    out = run_cli(str(RECORD_DIR / "crowsnest-passed-out.json"))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"variant": "crowsnest", "start": None, "cards": []}


def test_cli_late_tricks():
    path = RECORD_DIR / "crowsnest-made.json"
    out = run_cli(str(path), "--from-trick", "8")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    check_invariants(load(path), report)
    assert len(report["cards"]) == 8


@pytest.mark.parametrize("text", ['{"format": "rook-hand/1"}', "not json", '{"format": "rook-hand/1", '
                                  '"variant": "crowsnest", "dealer": "N", "hands": {}, "nest": [], "auction": []}'])
def test_cli_bad_record(tmp_path, text):
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    out = run_cli(str(bad))
    assert out.returncode == 2
    assert out.stdout == "" and len(out.stderr.strip().splitlines()) == 1


def test_cli_missing_file(tmp_path):
    out = run_cli(str(tmp_path / "nope.json"))
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1


def test_progress_reports_from_the_last_card_back_and_can_stop():
    """``progress`` is called after every card, from the last card back, with the entries so far in step order; the
    report is the same as without it; an exception raised by ``progress`` stops the analysis."""
    rec = load(RECORD_DIR / "crowsnest-made.json")
    calls = []
    report = analyze_record(rec, progress=lambda done, total, cards: calls.append(
        (done, total, [c["step"] for c in cards])))
    steps = [c["step"] for c in report["cards"]]
    n = len(steps)
    assert n == 36 and steps == sorted(steps)
    assert [c[0] for c in calls] == list(range(1, n + 1)) and {c[1] for c in calls} == {n}
    assert all(got == steps[n - done:] for done, _n, got in calls)
    assert report == analyze_record(rec)

    class Stop(Exception):
        pass

    def stop(done, total, cards):
        if done == 5:
            raise Stop

    with pytest.raises(Stop):
        analyze_record(rec, progress=stop)


@pytest.mark.parametrize("args,message", [(["--threshold", "0"], "threshold must be a whole number of points"),
                                          (["--threshold", "-5"], "at least 1, not -5"),
                                          (["--from-trick", "99"], "1 to 9, not 99"),
                                          (["--from-trick", "0"], "1 to 9, not 0")])
def test_cli_bad_options(args, message):
    """Options out of range: one error line, exit 2, nothing on standard output."""
    out = run_cli(str(RECORD_DIR / "crowsnest-made.json"), *args)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and message in out.stderr


def test_cli_full_disk_is_one_line():
    with open("/dev/full", "w") as full:
        out = subprocess.run([sys.executable, "-m", "rookcore", "analyze", str(RECORD_DIR / "crowsnest-made.json"),
                              "--from-trick", "9"], stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                             timeout=600)
    assert out.returncode == 2 and "cannot write the output" in out.stderr and "Traceback" not in out.stderr


# ----- progress, Ctrl-C and --max-seconds: a partial result -------------------------------------------------------
LONG = RECORD_DIR / "1-high-partnership-made.json"  # 13 tricks: over a minute in full, the first tricks take most
STOPPED = r"^analyze: (time limit \(--max-seconds [0-9.]+\) reached: )?interrupted after (\d+) of (\d+) cards; "


def check_partial(path: Path, out: subprocess.CompletedProcess, code: int) -> list[dict]:
    """A stopped analysis: exit ``code``, one stderr line "… interrupted after k of n cards …", and on stdout the
    report with the last k cards of the hand (the same entries as a whole analysis), "start": null and
    "interrupted": true. Returns the cards."""
    import re
    rec = load(path)
    assert out.returncode == code, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    found = re.match(STOPPED, out.stderr)
    assert found, out.stderr
    k, n = int(found[2]), int(found[3])
    report = json.loads(out.stdout)
    assert list(report) == ["variant", "start", "cards", "interrupted"]
    assert report["variant"] == rec.variant and report["start"] is None and report["interrupted"] is True
    cards = report["cards"]
    plays = [step for step, action in enumerate(rec.actions()) if type(action).__name__ == "Play"]
    assert n == len(plays) and 0 < k == len(cards) < n
    assert [c["step"] for c in cards] == plays[n - k:]  # from the last card back
    last = analyze_record(rec, first_trick=rec.rules.hand_size - 1)["cards"]  # the last two tricks: milliseconds
    assert cards[-len(last):] == last
    return cards


def test_cli_time_limit_prints_the_cards_analysed_so_far():
    """``--max-seconds`` stops the analysis of a long hand: the partial report on stdout, exit 3."""
    check_partial(LONG, run_cli(str(LONG), "--max-seconds", "6"), 3)
    usage = " ".join(run_cli("--help").stdout.split())  # argparse wraps the text to the terminal's width
    assert "--max-seconds S" in usage and "3 stopped by --max-seconds and 130 stopped by Ctrl-C" in usage


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
def test_cli_ctrl_c_prints_the_cards_analysed_so_far():
    """Ctrl-C (SIGINT) during the analysis: the partial report on stdout, one line on stderr, exit 130, at once."""
    import signal
    import time
    proc = subprocess.Popen([sys.executable, "-m", "rookcore", "analyze", str(LONG)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    time.sleep(6)  # the late tricks are done in the first seconds; the first ones take much longer
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    stdout, stderr = proc.communicate(timeout=60)
    assert time.monotonic() - sent < 10  # the search stops at once, not when the card under way is done
    check_partial(LONG, subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr), 130)
    assert stderr.startswith("analyze: interrupted after ")


def test_cli_output_is_unchanged_with_a_time_limit_not_reached():
    """The whole report is the same JSON text as before, with nothing on stderr (no progress bar when stderr is not
    a terminal), with or without a --max-seconds that is not reached."""
    path = RECORD_DIR / "crowsnest-made.json"
    want = json.dumps(analyze_record(load(path), first_trick=6), indent=1) + "\n"
    for extra in ([], ["--max-seconds", "600"]):
        out = run_cli(str(path), "--from-trick", "6", *extra)
        assert (out.returncode, out.stderr, out.stdout) == (0, "", want)


def test_cli_time_limit_on_a_game_lists_the_hands_done_and_the_one_under_way(tmp_path):
    """A game record stopped at once: the hands done (a passed-out hand takes no time) and the hand under way, with
    "interrupted": true on it and on the game."""
    hands = [json.loads((RECORD_DIR / "crowsnest-passed-out.json").read_text()),
             json.loads((RECORD_DIR / "crowsnest-made.json").read_text())]
    hands[0]["dealer"] = hands[1]["dealer"]  # the same dealer deals again after a passed-out hand
    game = tmp_path / "game.json"
    game.write_text(json.dumps({"format": "rook-game/1", "variant": "crowsnest", "hands": hands}))
    out = run_cli(str(game), "--max-seconds", "0.001")
    assert out.returncode == 3, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and " of 36 cards" in out.stderr
    report = json.loads(out.stdout)
    assert list(report) == ["variant", "hands", "interrupted"] and report["interrupted"] is True
    done, current = report["hands"]
    assert done == {"variant": "crowsnest", "start": None, "cards": []}
    assert list(current) == ["variant", "start", "cards", "interrupted"] and current["start"] is None
    assert current["interrupted"] is True and len(current["cards"]) < 36


@pytest.mark.parametrize("value", ["0", "-1", "abc", "nan", "inf", "", "1e10", "1e308"])
def test_cli_bad_max_seconds(value):
    """--max-seconds takes a positive number up to 10,000,000 s: anything else is a one-line usage error, exit 2
    (1e10 printed a timer thread's OverflowError traceback)."""
    out = run_cli(str(RECORD_DIR / "crowsnest-made.json"), f"--max-seconds={value}")
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1
    assert f"--max-seconds: must be a positive number of seconds up to 10,000,000, not '{value}' (see --help)" \
        in out.stderr


@pytest.mark.parametrize("value", ["1e10", "1e308"])
def test_cli_budget_too_large_is_refused_in_one_line(value):
    """--budget beyond 10,000,000 s: one usage line, exit 2, no traceback (it overflowed a timer thread)."""
    out = run_cli(str(RECORD_DIR / "crowsnest-made.json"), f"--budget={value}")
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "up to 10,000,000" in out.stderr
