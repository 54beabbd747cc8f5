"""Command-line interface (record-format.md "Commands"). Exit codes: 0 ok, 2 bad input or record."""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Sequence

from . import records
from .rules import RulesError, get_rules

EXIT_BAD_INPUT = 2
CLI_MAX_RECORD_BYTES = 64_000_000
"""The largest record file the commands read (bytes): far above any real game, it only stops a wrong file (a
disk image, say) from being read whole. The app's uploads keep `records.MAX_RECORD_BYTES`."""


def _fail(message: str) -> int:
    print(message.splitlines()[0] if message else "error", file=sys.stderr)
    return EXIT_BAD_INPUT


def read_record(path: str) -> records.HandRecord | records.GameRecord:
    """Read and validate the record at ``path``; raises RecordError (one line) for any problem."""
    try:
        with open(path, "rb") as fp:
            data = fp.read(CLI_MAX_RECORD_BYTES + 1)
    except OSError as e:
        raise records.RecordError(f"{path}: cannot read: {e.strerror}") from e
    # its errors stay as record-format.md shows them ("step 14: …", a JSON path)
    return records.loads(data, CLI_MAX_RECORD_BYTES)


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


def cmd_analyze(args: argparse.Namespace) -> int:
    """``analyze FILE``: double-dummy loss and mark of every card played (JSON, exit 0) or one error line (exit 2)."""
    from .analysis import analyze_record  # noqa: PLC0415 - the solver is only needed here

    try:
        record = read_record(args.file)
        report = analyze_record(record, question_threshold=args.threshold, first_trick=args.from_trick)
    except ValueError as e:  # RecordError is a ValueError; bad --threshold / --from-trick
        return _fail(str(e))
    return _print_json(report)


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
        record = play_game(rules, players, seed=args.seed, variant=variant)
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
    except json.JSONDecodeError as e:
        raise RulesError(f"--options is not valid JSON: {e}") from e
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

    from .arena import arena_rules, run_arena

    if args.deals < 1:
        return _fail("--deals must be at least 1")
    if args.workers < 1:
        return _fail("--workers must be at least 1")
    try:
        options = _options(args.options)
        arena_rules(args.a, args.b, args.variant, options)
        _check_output(args.json)
    except KeyError as e:
        return _fail(e.args[0])
    except (RulesError, OSError) as e:
        return _fail(str(e))
    with tqdm(total=args.deals, desc=f"{args.a} vs {args.b}", unit="deal", file=sys.stderr) as bar:
        result = run_arena(args.a, args.b, args.deals, args.variant, options, args.seed, args.workers,
                           progress=lambda done, total: bar.update(done - bar.n))
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
    analyze = sub.add_parser("analyze", help="double-dummy analysis of every card of a hand record")
    analyze.add_argument("file")
    analyze.add_argument("--threshold", type=int, default=10, help='points lost for a "?" mark (default 10)')
    analyze.add_argument("--from-trick", type=int, default=1,
                         help="analyse from this trick on (faster; start is then the value there)")
    analyze.set_defaults(func=cmd_analyze)
    play = sub.add_parser("play", help="let the AI play all four seats and write the record")
    play.add_argument("--variant", default="crowsnest")
    play.add_argument("--options", help='JSON object of options, e.g. \'{"bird": false}\'')
    play.add_argument("--seed", type=int, default=None)
    group = play.add_mutually_exclusive_group()
    group.add_argument("--hands", type=int, default=None, help="number of hands (1: a hand record)")
    group.add_argument("--game", action="store_true", help="play a whole game (a game record)")
    play.add_argument("--level", default="rules", help="AI level (default: rules)")
    play.add_argument("--out", help="file to write (default: standard output)")
    play.set_defaults(func=cmd_play)
    arena = sub.add_parser("arena", help="compare two AI levels on mirrored deals")
    arena.add_argument("--a", default="strong", help="level A (default: strong)")
    arena.add_argument("--b", default="rules", help="level B (default: rules)")
    arena.add_argument("--deals", type=int, default=100, help="mirrored deals (each played twice)")
    arena.add_argument("--variant", default="crowsnest")
    arena.add_argument("--options", help="JSON object of options")
    arena.add_argument("--seed", type=int, default=0, help="first deal seed")
    arena.add_argument("--workers", type=int, default=1, help="processes (2 uses both cores here)")
    arena.add_argument("--json", help="also write the JSON result to this file")
    arena.set_defaults(func=cmd_arena)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (argparse usage errors also exit 2)."""
    args = build_parser().parse_args(argv)
    return args.func(args)
