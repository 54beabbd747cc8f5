"""Command-line interface (record-format.md "Commands"). Exit codes: 0 ok, 2 bad input or record; ``analyze``
also 3 (stopped by ``--max-seconds``) and 130 (interrupted by Ctrl-C), both with the partial result on stdout."""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import threading
import time
from typing import Any, Sequence

from . import records
from .game import MAX_GAME_HANDS
from .rules import RulesError, get_rules

EXIT_BAD_INPUT = 2
EXIT_TIME_LIMIT = 3
"""``analyze`` stopped by ``--max-seconds``: the cards analysed so far are on stdout, with ``"interrupted": true``."""
EXIT_INTERRUPTED = 130
"""``analyze`` stopped by Ctrl-C (128 + SIGINT, as shells report it): the partial result as for `EXIT_TIME_LIMIT`."""
PROGRESS_TICK = 0.5
"""Seconds between two checks of ``analyze``'s time limit (and refreshes of its progress bar's clock)."""
DEFAULT_BUDGET = 60.0
"""``analyze --budget``'s default: wall-clock seconds per hand (issue 25: answers within seconds on every rule set,
exact values as time allows)."""
CLI_MAX_RECORD_BYTES = 64_000_000
"""The largest record file the commands read (bytes): far above any real game, it only stops a wrong file (a
disk image, say) from being read whole. The app's uploads keep `records.MAX_RECORD_BYTES`."""


def _fail(message: str) -> int:
    """Print ``message`` on stderr as one line of at most `records.MAX_MESSAGE_CHARS` characters
    (`records.one_line`: line breaks escaped, long values cut with their length named); returns `EXIT_BAD_INPUT`."""
    print(records.one_line(message) if message else "error", file=sys.stderr)
    return EXIT_BAD_INPUT


def read_record(path: str, max_bytes: int = CLI_MAX_RECORD_BYTES) -> records.HandRecord | records.GameRecord:
    """Read and validate the record at ``path`` (str), reading at most ``max_bytes`` + 1 bytes (a longer file is
    refused without being read in full). Only a regular file is read: a named pipe, a folder or a device is refused
    without waiting for it (`records.open_regular`). Raises RecordError (one line) for any problem."""
    try:
        with records.open_regular(path) as fp:
            data = fp.read(max_bytes + 1)
    except OSError as e:
        raise records.RecordError(f"{path}: cannot read: {e.strerror or e}") from e
    # its errors stay as record-format.md shows them ("step 14: …", a JSON path)
    return records.loads(data, max_bytes)


def _write(path: str, text: str) -> int:
    """Write ``text`` and a newline to the file ``path``: exit code 0, or 2 with one error line."""
    try:
        with open(path, "w", encoding="utf-8") as fp:
            fp.write(text + "\n")
    except OSError as e:
        return _fail(f"{path}: cannot write: {e.strerror}")
    return 0


def _print(text: str) -> int:
    """Print ``text`` on standard output: exit code 0, or 2 with one error line if the output cannot be written
    (e.g. a full disk)."""
    try:
        print(text, flush=True)
    except OSError as e:
        return _fail(f"cannot write the output: {e.strerror or e}")
    return 0


def _print_json(doc) -> int:
    """`_print` of ``doc`` as JSON (indent 1)."""
    return _print(json.dumps(doc, indent=1))


def cmd_score(args: argparse.Namespace) -> int:
    """``score FILE``: print the score report JSON (exit 0) or one error line on stderr (exit 2)."""
    try:
        record = read_record(args.file)
    except records.RecordError as e:
        return _fail(str(e))
    return _print_json(records.score_report(record))


class _AnalyzeRun:
    """The ``analyze`` command's analysis of a record (every hand of a game in turn), run in a worker thread so that
    the main thread stays free to stop it at once (Ctrl-C, ``--max-seconds``: the compiled search does not return
    to Python for seconds at a time, so a KeyboardInterrupt raised in it would wait) and to keep the progress bar's
    clock moving while one card (the first lead of a 13/14-trick hand) takes minutes.

    It keeps what is needed for a partial result: the reports of the hands done and the entries of the hand under
    way (the analysis goes from its last card back: `rookcore.analysis.annotate.analyze_hand`'s ``progress``).
    """

    def __init__(self, record: records.HandRecord | records.GameRecord, threshold: int, first_trick: int,
                 budget: float | None = None) -> None:
        """The analysis of ``record`` (not started: `start`) with ``analyze_record``'s ``question_threshold``,
        ``first_trick`` and ``budget`` (seconds per hand, None: exact values however long they take). Raises
        nothing (bad values are the worker's ValueError, in `error`)."""
        from .analysis import Solver  # noqa: PLC0415 - the solver is only needed here

        self.record = record
        self.game = isinstance(record, records.GameRecord)
        self.hands = record.hands if self.game else [record]
        self.threshold, self.first_trick, self.budget = threshold, first_trick, budget
        self.total = sum(len(t) for h in self.hands for t in (h.tricks or [])[max(first_trick, 1) - 1:])
        """The cards to analyse (all hands)."""
        self.reports: list[dict[str, Any]] = []  # of the hands done
        self.cards: list[dict[str, Any]] = []  # entries of the hand under way so far (step order)
        self.done_before = 0  # cards of the hands done
        self.result: dict[str, Any] | None = None  # the whole report, once done
        self.error: BaseException | None = None  # what the analysis raised (not a cancellation)
        self.solver = Solver()
        self.finished = threading.Event()
        self._bar = None

    @property
    def done(self) -> int:
        """Cards analysed so far (all hands)."""
        return self.done_before + len(self.cards)

    def start(self, bar) -> None:
        """Start the worker thread; ``bar`` (a tqdm bar over `total` cards) follows the cards analysed."""
        self._bar = bar
        threading.Thread(target=self._run, name="rook-analyze", daemon=True).start()

    def stop(self) -> None:
        """Stop the analysis (`Solver.cancel`) and wait for the worker to end (milliseconds)."""
        self.solver.cancel()
        self.finished.wait()

    def _progress(self, done: int, total: int, cards: list[dict[str, Any]]) -> None:
        self.cards = cards
        if not cards:
            return
        self._bar.set_postfix_str(f"back to trick {cards[0]['trick']}", refresh=False)
        self._bar.update(self.done - self._bar.n)

    def _run(self) -> None:
        from .analysis import SearchCancelled  # noqa: PLC0415
        from .analysis.annotate import analyze_hand  # noqa: PLC0415

        try:
            for hand in self.hands:
                self.cards = []
                report = analyze_hand(hand, self.threshold, self.solver, self.first_trick, self._progress,
                                      self.budget)
                self.done_before += len(report["cards"])
                self.cards = []
                self.reports.append(report)
            self.result = ({"variant": self.record.variant, "hands": self.reports} if self.game  # = analyze_record
                           else self.reports[0])
        except SearchCancelled:
            pass
        except BaseException as e:  # noqa: BLE001 - handed to the main thread
            self.error = e
        finally:
            self.finished.set()

    def partial(self) -> dict[str, Any]:
        """The report of a stopped analysis (after `stop`): as the whole one, but the hand under way lists only
        the cards analysed so far (its last ones) with ``"start": null`` and ``"interrupted": true``; a game
        lists the hands done and the hand under way (not the later ones) and also has ``"interrupted": true``."""
        hand = self.hands[len(self.reports)]
        current: dict[str, Any] = {"variant": hand.variant, "start": None, "cards": self.cards}
        final = hand.replay()
        if not final.is_over and not final.passed_out:
            current["complete"] = False  # as analyze_hand says of an unfinished record
        current["interrupted"] = True
        if not self.game:
            return current
        return {"variant": self.record.variant, "hands": [*self.reports, current], "interrupted": True}


def cmd_analyze(args: argparse.Namespace) -> int:
    """``analyze FILE [--threshold T] [--from-trick K] [--budget B] [--max-seconds S]``: double-dummy loss and mark
    of every card played (record-format.md "Commands"; `rookcore.analysis.annotate`). ``--budget`` (default
    `DEFAULT_BUDGET` seconds per hand; ``none``: exact values however long) bounds each hand's analysis: proven
    marks and ranges first, exact values as time allows (`rookcore.analysis.budget`; a card not valued exactly
    carries ``"exact": false`` and its proven ``lo``/``hi``).

    Prints the report JSON and returns 0; a bad record or option: one error line on stderr, 2. Shows a progress
    bar on stderr when stderr is a terminal (tqdm, ``disable=None``: piped output is unchanged). Stopped by Ctrl-C
    (KeyboardInterrupt) or after ``args.max_seconds`` seconds (None: no limit), it prints the partial report
    (`_AnalyzeRun.partial`: the cards analysed so far, ``"interrupted": true``) on stdout and one line on stderr
    ("interrupted after k of n cards") and returns `EXIT_INTERRUPTED` (130) or `EXIT_TIME_LIMIT` (3); 2 if the
    output cannot be written.
    """
    from tqdm import tqdm  # noqa: PLC0415

    try:
        record = read_record(args.file)
        run = _AnalyzeRun(record, args.threshold, args.from_trick, args.budget)
    except records.RecordError as e:
        return _fail(str(e))
    except KeyboardInterrupt:
        return _fail_with("analyze: interrupted before the analysis started", EXIT_INTERRUPTED)
    stopped = None
    # no estimate of the time left: the cards go from the last back, and the first lead takes longest by far
    with tqdm(total=run.total, desc="analyze", unit="card", file=sys.stderr, disable=None, leave=False,
              bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} cards [{elapsed}{postfix}]") as bar:
        deadline = None if args.max_seconds is None else time.monotonic() + args.max_seconds
        run.start(bar)
        try:
            while not run.finished.wait(PROGRESS_TICK if deadline is None else
                                        max(0.0, min(PROGRESS_TICK, deadline - time.monotonic()))):
                if deadline is not None and time.monotonic() >= deadline:
                    stopped = EXIT_TIME_LIMIT
                    break
                bar.refresh()  # the elapsed time moves on while one card takes long
        except KeyboardInterrupt:
            stopped = EXIT_INTERRUPTED
        if stopped is not None:
            run.stop()
    if isinstance(run.error, ValueError):  # bad --threshold / --from-trick
        return _fail(str(run.error))
    if run.error is not None:
        raise run.error
    if run.result is not None:  # done (even if just as it was stopped)
        return _print_json(run.result)
    code = _print_json(run.partial())
    if code:
        return code
    why = ("interrupted" if stopped == EXIT_INTERRUPTED else
           f"time limit (--max-seconds {args.max_seconds:g}) reached: interrupted")
    return _fail_with(f"analyze: {why} after {run.done} of {run.total} cards; the cards analysed so far are on "
                      "standard output", stopped)


def _fail_with(message: str, code: int) -> int:
    """`_fail` with another exit code: ``message`` as one line on stderr; returns ``code``."""
    _fail(message)
    return code


def _seed(text: str) -> int:
    """A ``--seed`` value: a whole number ≥ 0 (argparse type). Python's random seeds with the absolute value, so -7
    would silently replay seed 7. Raises argparse.ArgumentTypeError (a one-line usage error, exit 2) otherwise."""
    try:
        return records.read_seed(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"must be {e}") from None


def _budget(text: str) -> float | None:
    """The ``--budget`` value: a positive finite number of seconds, or ``none`` (no budget: exact values however
    long they take) as None (argparse type). Raises argparse.ArgumentTypeError (a one-line usage error, exit 2)
    otherwise."""
    if text.strip().lower() == "none":
        return None
    return _positive_seconds(text)


def _ismcts_ms(text: str) -> float | None:
    """The ``--ismcts-ms`` value: a positive number of milliseconds, or ``none`` (None: no time limit; then
    ``--ismcts-sims`` bounds the search) (argparse type). Raises argparse.ArgumentTypeError otherwise."""
    if text.strip().lower() == "none":
        return None
    try:
        return _positive_seconds(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"must be a positive number of milliseconds or none, not {text!r}") from None


MAX_SECONDS = 10_000_000
"""The largest time a command takes as a limit (seconds, about 116 days): a larger one overflows the timers that
stop a search (an OverflowError in a timer thread, printed as a traceback)."""


MAX_WORKERS = 64
"""The most processes ``arena --workers`` starts (each holds an AI and its deals: hundreds would only thrash)."""


def _positive_seconds(text: str) -> float:
    """The ``--max-seconds`` value: a positive finite number of at most `MAX_SECONDS` (argparse type). Raises
    argparse.ArgumentTypeError (a one-line usage error, exit 2) otherwise."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds up to {MAX_SECONDS:,}, not {text!r}")
    return value


def cmd_play(args: argparse.Namespace) -> int:
    """``play``: the AI plays all four seats; writes a hand record (1 hand) or a game record."""
    from .ai import LEVELS  # noqa: PLC0415 - the AI is only needed here
    from .selfplay import play_game, play_hands

    try:
        rules = get_rules(args.variant, _options(args.options))
    except RulesError as e:
        return _fail(str(e))
    if args.level not in LEVELS:
        return _fail(f"unknown AI level {args.level!r} (known: {', '.join(LEVELS)})")
    if args.hands is not None and args.hands < 1:
        return _fail("--hands must be at least 1")
    players = [LEVELS[args.level](seed=(args.seed or 0) * 4 + s) for s in range(4)]
    variant = args.variant.lower()  # records name rule sets in lower case (record-format.md "variant")
    if args.game:
        record = play_game(rules, players, seed=args.seed, variant=variant, max_hands=MAX_GAME_HANDS)
        if record.winner is None:  # stopped at the limit of hands
            print(f"note: no team reached the target in {len(record.hands)} hands; the record stops there, with no "
                  "winner", file=sys.stderr)
    elif (args.hands or 1) == 1:
        record = play_hands(rules, players, 1, seed=args.seed, variant=variant).hands[0]
    else:
        record = play_hands(rules, players, args.hands, seed=args.seed, variant=variant)
    text = records.dumps(record)
    if args.out:
        return _write(args.out, text)
    return _print(text)


def _options(text: str | None) -> dict | None:
    """The ``--options`` JSON object (None if not given); RulesError naming the option when it is not one."""
    if not text:
        return None
    try:
        options = json.loads(text)
    except (ValueError, RecursionError) as e:  # JSONDecodeError, over-long integers, deep nesting
        raise RulesError(f"--options is not valid JSON: {records.json_problem(e)}") from e
    if not isinstance(options, dict):
        raise RulesError(f"--options must be a JSON object such as '{{\"bird\": false}}', not {text}")
    return options


def _check_output(path: str | None) -> None:
    """Raise OSError (one line) unless ``path`` can be written as a file: its folder exists, it is no folder."""
    if path is None:
        return
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise OSError(f"{path}: cannot write: no folder {folder}")
    if os.path.isdir(path):
        raise OSError(f"{path}: cannot write: it is a folder")


def cmd_arena(args: argparse.Namespace) -> int:
    """``arena``: mirrored deals of level A against level B; prints text and JSON (and writes --json FILE).
    Every argument is checked before the first deal (exit 2, one line)."""
    from tqdm import tqdm  # noqa: PLC0415

    from .arena import OPENSPIEL_LEVELS, OpenSpielSettings, arena_rules, run_arena

    if args.deals < 1:
        return _fail("--deals must be at least 1")
    if not 1 <= args.workers <= MAX_WORKERS:
        return _fail(f"--workers must be from 1 to {MAX_WORKERS}, not {args.workers}")
    settings = OpenSpielSettings(args.ismcts_ms, args.ismcts_sims, args.ismcts_uct, args.ismcts_utility)
    try:
        options = _options(args.options)
        arena_rules(args.a, args.b, args.variant, options)
        if "ismcts" in (args.a, args.b):
            settings.check()
        _check_output(args.json)
    except KeyError as e:
        return _fail(e.args[0])
    except ImportError as e:
        return _fail(f"{'/'.join(OPENSPIEL_LEVELS)} need OpenSpiel: {e}")
    except (RulesError, OSError, ValueError) as e:
        return _fail(str(e))
    with tqdm(total=args.deals, desc=f"{args.a} vs {args.b}", unit="deal", file=sys.stderr) as bar:
        result = run_arena(args.a, args.b, args.deals, args.variant, options, args.seed, args.workers,
                           progress=lambda done, total: bar.update(done - bar.n), openspiel=settings)
    print(result.text())
    text = json.dumps(result.to_json(), indent=1)
    print(text)
    return _write(args.json, text) if args.json else 0


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr (record-format.md: "prints one line to stderr
    naming the problem"), exit code 2."""

    def error(self, message: str):
        """Print ``<prog>: <message> (see --help)`` on stderr and exit 2 (raises SystemExit)."""
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser for all sub-commands."""
    parser = _Parser(prog="python -m rookcore", description="Rook engine commands")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    score = sub.add_parser("score", help="validate and score a hand or game record")
    score.add_argument("file")
    score.set_defaults(func=cmd_score)
    analyze = sub.add_parser(
        "analyze", help="double-dummy analysis of every card of a hand record",
        description="Double-dummy analysis of every card played in a hand or game record: one JSON object on "
                    "standard output. The cards are analysed from the last one back, within --budget seconds per "
                    "hand: the marks are proven first, then exact values as time allows (the first tricks of a "
                    "13/14-trick hand can take minutes to value exactly; a progress bar shows on stderr when it is "
                    "a terminal).",
        epilog=f"Exit codes: 0 done; {EXIT_BAD_INPUT} bad record or option (one line on stderr); {EXIT_TIME_LIMIT} "
               f"stopped by --max-seconds and {EXIT_INTERRUPTED} stopped by Ctrl-C: both print the partial result "
               '(the cards analysed so far, "start": null, "interrupted": true) and one line on stderr.')
    analyze.add_argument("file")
    analyze.add_argument("--threshold", type=int, default=10, help='points lost for a "?" mark (default 10)')
    analyze.add_argument("--from-trick", type=int, default=1,
                         help="analyse from this trick on (faster; start is then the value there)")
    analyze.add_argument("--budget", type=_budget, default=DEFAULT_BUDGET, metavar="SECONDS",
                         help=f"seconds per hand (default {DEFAULT_BUDGET:g}): proven marks and ranges first, exact "
                              'values as time allows; cards not valued exactly get "exact": false, "lo", "hi" '
                              '("none": exact values however long they take)')
    analyze.add_argument("--max-seconds", type=_positive_seconds, default=None, metavar="S",
                         help=f"stop after S seconds (a positive number) with the partial result, exit code "
                              f"{EXIT_TIME_LIMIT}")
    analyze.set_defaults(func=cmd_analyze)
    play = sub.add_parser("play", help="let the AI play all four seats and write the record")
    play.add_argument("--variant", default="crowsnest")
    play.add_argument("--options", help='JSON object of options, e.g. \'{"bird": false}\'')
    play.add_argument("--seed", type=_seed, default=None, help="game seed (a whole number ≥ 0; the same seed, the "
                      "same game)")
    group = play.add_mutually_exclusive_group()
    group.add_argument("--hands", type=int, default=None, help="number of hands (1: a hand record)")
    group.add_argument("--game", action="store_true", help="play a whole game (a game record; at most "
                       f"{MAX_GAME_HANDS} hands, then it stops with no winner)")
    play.add_argument("--level", default="rules", help="AI level (default: rules)")
    play.add_argument("--out", help="file to write (default: standard output)")
    play.set_defaults(func=cmd_play)
    arena = sub.add_parser("arena", help="compare two AI levels on mirrored deals",
                           description="Mirrored deals of level A against level B. Levels: random, rules, strong "
                                       "(the engine's AIs) and, with OpenSpiel installed (the openspiel extra), "
                                       "ismcts (OpenSpiel's ISMCTS bot, --ismcts-ms per decision) and os-random "
                                       "(OpenSpiel's uniform random bot), played through OpenSpiel's python_rook; "
                                       "then each side's time per decision is reported too.")
    arena.add_argument("--a", default="strong", help="level A (default: strong)")
    arena.add_argument("--b", default="rules", help="level B (default: rules; also ismcts, os-random)")
    arena.add_argument("--deals", type=int, default=100, help="mirrored deals (each played twice)")
    arena.add_argument("--variant", default="crowsnest")
    arena.add_argument("--options", help="JSON object of options")
    arena.add_argument("--seed", type=_seed, default=0, help="first deal seed (a whole number ≥ 0)")
    arena.add_argument("--workers", type=int, default=1, help="processes (2 uses both cores here)")
    arena.add_argument("--json", help="also write the JSON result to this file")
    arena.add_argument("--ismcts-ms", type=_ismcts_ms, default=100.0, metavar="MS",
                       help="ismcts: milliseconds per decision (default 100; 'none': only --ismcts-sims)")
    arena.add_argument("--ismcts-sims", type=int, default=None, metavar="N",
                       help="ismcts: at most N simulations per decision (default: no limit but the time)")
    arena.add_argument("--ismcts-uct", type=float, default=None, metavar="C",
                       help="ismcts: UCT exploration constant in points (default 100)")
    arena.add_argument("--ismcts-utility", choices=("margin", "score"), default="margin",
                       help="what python_rook returns to the OpenSpiel bots: the hand-score margin (default, what "
                            "the arena counts) or each team's hand score")
    arena.set_defaults(func=cmd_arena)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (argparse usage errors also exit 2)."""
    args = build_parser().parse_args(argv)
    return args.func(args)
