"""A class on one server: N learners (default 20) play a hand each at the same time in headless Chromium, and the
server's response to every click, its memory and the correctness of every learner's hand are reported.

    python benchmarks/load.py                       # 20 learners, a full hand each
    python benchmarks/load.py --learners 3 --json /tmp/load.json

Starts the app as the browser tests do (Voila on a free port of 127.0.0.1 serving notebooks/, the app's template from
this checkout; `benchmarks.page_open.Server`), its kept games in a new temporary folder (``ROOK_GAME_FILE`` in it),
and opens one Chromium with one browser context per learner (its own cookies and local storage: a separate learner,
as another computer in the class). Learner ``i`` opens ``app.ipynb?deal=<--seed + i>`` (every learner a different
deal), sets the AIs' pace to 0 (the speed slider's readout: AI moves are not slowed for show) and plays South with
the rule-based AI, the app's default level, in the three other seats: even learners bid the lowest bid whenever they
may (so they often declare: they pick the nest's cards by tapping them, press Discard and name trump), odd learners
pass; everyone plays the first card the table offers as legal, tapping it where a finger would. A learner waits
``--think`` seconds (0.5-1.5 x, seeded) before each click, as a person reads the table; ``--think 0`` clicks at once.
A passed-out hand is followed by "Next hand".

Per click (in the page's own clock, `performance.now`, by a script that watches the page; not Python's loop):

* ``redraw``: from the click to the table drawing the decision that follows it (``.rook-tv[data-token]`` changes:
  the learner's move and the AIs' moves after it are on the table; for a card picked for the nest, the counter
  under the table saying one more card is chosen);
* ``ready``: from the click to the learner's next control drawn (bid buttons, Discard, trump buttons, a playable
  card) or the end-of-hand panel;
* ``server``: the server's part, from the page sending the click's websocket frame to the page receiving the frame
  that redraws the table (Chromium's network events through CDP, so without the page's own drawing).

The learners open their pages at once and, once every page shows the learner's own game, play together (a page that
first shows the app's page-only game, when the browser's learner id comes after the app's wait, is waited on until
the app has replaced it). Each page's main-thread time (script, style, layout) is read from Chromium's performance
counters. Chromium's processes are given this script's niceness (as root it raises some of them above the server).

Checks, per learner: the hand completed (the end-of-hand panel shows, no error line, no traceback); the hand score
shown in that panel equals the engine's score (`rookcore.records.score_report`) of the learner's own record (the
page's "Download" link: the record the app offers); that record is the learner's own deal (the cards of deal
``--seed + i``, the South cards shown at the start) and holds exactly the learner's clicks with the AI moves the
engine makes in reply (the same clicks replayed on a `rookcore.table.Table` of that deal); the learner id in the
context's local storage is the one given to it (each context starts with its own) and no other learner's; and the
game the server keeps for the learner (``learners/<id>/deal.json`` under the temporary folder, when the app keeps one
game per learner) holds that same hand and deal seed. A learner whose hand, record or kept game differs is counted
in ``failed`` (with the reason); a record or kept game that is not the learner's own, South cards of another
learner's deal on its page, or a learner id held twice also count as ``cross_talk``.

Memory: the resident set (RSS) and proportional set (PSS: shared pages split between the processes that share them)
of each kernel (one per learner) and of the Voila process, sampled every ``--sample`` seconds (psutil) and once
more when every hand is over; the server's total is Voila plus its kernels. CPU seconds of the server and of the
browser are reported next to the wall-clock times, with the load average at start and end (the cores may be
shared with other work).

Every wait is bounded (``--open-timeout`` for a page to open, ``--action-timeout`` for a click's redraw,
``--hand-timeout`` for a whole hand): a stuck page is a failed hand with its reason, never a hang. The server (and so
every kernel) and the browser are stopped at the end, also after an error or Ctrl-C. Results go to
``benchmarks/load_results.json`` (``--json`` to change); ``--keep-dir`` keeps the app's kept games in a folder of
your own (empty) for a look afterwards.
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `python benchmarks/load.py` from anywhere, without installing
    sys.path.insert(0, str(ROOT))

from benchmarks.page_open import CHROMIUM, CHROMIUM_ARGS, Server, pool_args, pool_size  # noqa: E402

try:
    from widgets.page_request import LEARNER_COOKIE  # noqa: E402
except ImportError:  # a version of the app before the learner cookie
    LEARNER_COOKIE = "rook_learner"

DEFAULT_JSON = ROOT / "benchmarks" / "load_results.json"
CARD = ".rook-play button.rook-tv-card"
"""South's card pictures on the Play tab's table (`widgets.table_view`); ``.legal`` when one may be tapped now."""
TAP = {"x": 5, "y": 14}
"""Where a finger taps a card of the fan: its top-left corner, which the next card leaves uncovered."""
RECORD_FIELDS = ("variant", "dealer", "hands", "nest", "auction", "discard", "trump", "tricks")
"""The members of a rook-hand/1 record that make the hand: its deal and every action (not comments or meta)."""
COLOUR_WORDS = {"R": "Red", "Y": "Yellow", "G": "Green", "B": "Black"}
APPS_SETTLE_S = 15.0
"""Seconds a page may take, once the learner's game shows, to take away the page-only game it showed before."""
VIEWPORT = {"width": 1024, "height": 768}
"""Each learner's window: a small laptop's, which the Play tab's table and controls fit (README)."""
PAGE_PARTS_JS = """() => {
  const n = (sel) => document.querySelectorAll(sel).length;
  return {app_pages: n('.rook-app-page'), apps: n('.rook-app-tabs'), play_panels: n('.rook-play'),
          tables: n('.rook-play .rook-tv'), statuses: n('.rook-play .rook-status'),
          cards: n('.rook-play button.rook-tv-card'),
          tokens: [...document.querySelectorAll('.rook-play .rook-tv')].map((t) => t.dataset.token || ''),
          status: [...document.querySelectorAll('.rook-play .rook-status')].map((e) => e.innerText.slice(0, 100))};
}"""
"""JavaScript: what a page holds of the app (counts of its parts, the tables' tokens, the status lines), for a
failed learner's reason."""
PAGE_METRICS = ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration")
"""Chromium's per-page counters (seconds of its main thread) reported for the hand: all tasks, JavaScript, style
recalculation, layout."""
FRESH = ":not([data-load-stale]):visible"
"""Of the action buttons, those of the decision on show (the instrument marks the older ones) that are shown."""

# Runs in every page before its own scripts. Times each armed click (capture-phase listener: the page's clock when
# the click reaches it) to the redraw it causes and to the learner's next control, from a MutationObserver (no
# polling). Buttons on show at an armed click are marked stale (data-load-stale): the next decision's buttons are
# new elements, and only those are clicked.
INSTRUMENT_JS = r"""
(() => {
  if (window.__load) return;
  const L = window.__load = { armed: null, waiters: [] };
  const all = (sel) => Array.from(document.querySelectorAll(sel));
  // shown: in the page and in no box hidden by its layout (ipywidgets' display: none); read without a layout pass
  const shown = (el) => !!el && el.isConnected && !el.closest('[style*="display: none"], .lm-mod-hidden');
  const table = () => document.querySelector(".rook-play .rook-tv");
  const token = () => { const t = table(); return t ? (t.dataset.token || "") : ""; };
  const fresh = (sel) => all(sel).filter((e) => !e.hasAttribute("data-load-stale") && shown(e));
  const ACTIONS = ".rook-play button.rook-bid, .rook-play button.rook-trump, .rook-play button.rook-discard-button";
  // What the learner can do now: "end" (the end-of-hand panel), "discard", "trump", "auction", "play", or null.
  L.situation = () => {
    const t = table();
    if (!t) return null;
    const end = document.querySelector(".rook-play .rook-hand-end");
    if (shown(end) && end.querySelector("tr.rook-hand-end-row")) return "end";
    const tok = t.dataset.token || "";
    const count = document.querySelector(".rook-play .rook-discard-count");
    if (t.dataset.mode === "discard" && fresh(".rook-play button.rook-discard-button").length && count
        && /Tap \d+ card/.test(count.innerText)) return "discard";
    if (fresh(".rook-play button.rook-trump").length) return "trump";
    if (fresh(".rook-play button.rook-bid").length) return "auction";
    if (t.dataset.mode === "play" && all(".rook-play button.rook-tv-card.legal").some((b) => b.dataset.token === tok)
        && !all(".rook-play button.rook-tv-card").some((b) => b.dataset.token !== tok)) return "play";
    return null;
  };
  // The page-only game the app opens when the browser's learner id comes late (kept nowhere, said in the status).
  L.pageOnlySeen = false;
  L.pageOnly = () => {
    const st = document.querySelector(".rook-play .rook-status");
    const now = !!st && st.innerText.includes("keeps no learner id");
    if (now) L.pageOnlySeen = true;
    return now;
  };
  const settle = (a) => {
    const error = document.querySelector(".rook-play .rook-status .rook-error");
    a.error = error ? error.innerText : null;
    L.waiters.splice(0).forEach((w) => w(a));
  };
  // The opening, in the page's clock (ms from navigation start): the kernel's websocket made (Voila's scripts have
  // loaded), its first message, its first widget message (comm_open / comm_msg: the widgets' state), the first
  // widget drawn, the learner's own game with a control to click.
  const O = L.open = { ws: null, first: null, widget: null, drawn: null, game: null };
  const Native = window.WebSocket;
  if (Native) {
    const decoder = new TextDecoder();
    const COMM = /"msg_type":\s*"comm_(open|msg)"/;
    const isWidget = (data) => {
      try {
        if (typeof data === "string") return COMM.test(data.slice(0, 2000));
        if (!(data instanceof ArrayBuffer) || data.byteLength < 24) return false;
        const view = new DataView(data);  // Jupyter's v1.kernel.websocket.jupyter.org framing: offsets, then parts
        const at = (i) => Number(view.getBigUint64(8 * (i + 1), true));
        return COMM.test(decoder.decode(data.slice(at(1), at(2))));
      } catch (e) { return false; }
    };
    const Watched = function (url, protocols) {
      const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
      if (/\/api\/kernels\/[^\/?]+\/channels/.test(String(url))) {
        if (O.ws === null) O.ws = performance.now();
        ws.addEventListener("message", (e) => {
          const t = performance.now();
          if (O.first === null) O.first = t;
          if (O.widget === null && isWidget(e.data)) O.widget = t;
        });
      }
      return ws;
    };
    Watched.prototype = Native.prototype;
    ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach((k) => { Watched[k] = Native[k]; });
    window.WebSocket = Watched;
  }
  // looked at on the page's changes, at most every 100 ms (a page draws hundreds of widgets as it opens)
  let looking = null;
  const look = () => {
    looking = null;
    if (O.game !== null) return;
    const now = performance.now();
    if (O.drawn === null && document.querySelector(".jupyter-widgets")) O.drawn = now;
    if (O.drawn !== null && L.situation() && !document.querySelector(".rook-app-opening") && !L.pageOnly()) {
      O.game = now;
    }
  };
  const opening = () => { if (O.game === null && looking === null) looking = setTimeout(look, 100); };
  const check = () => {
    opening();
    const a = L.armed;
    if (!a || a.click === null || a.ready !== null) return;
    const now = performance.now();
    if (a.kind === "pick") {  // a card picked for the nest: the counter the server draws says one more is chosen
      const c = document.querySelector(".rook-play .rook-discard-count");
      if (c && c.innerText.includes(a.want)) { a.redraw = now; a.ready = now; a.situation = "discard"; settle(a); }
      return;
    }
    if (a.redraw === null && token() !== a.token) a.redraw = now;
    if (a.redraw !== null) {
      const s = L.situation();
      if (s) { a.ready = now; a.situation = s; settle(a); }
    }
  };
  L.arm = (kind, want) => {
    L.armed = { kind, want, token: token(), click: null, redraw: null, ready: null, situation: null };
    L.waiters = [];
    return L.armed.token;
  };
  // Resolves with the armed click's times once its next control is drawn, or with timeout: true after `ms`.
  L.wait = (ms) => new Promise((resolve) => {
    const a = L.armed;
    if (!a || a.ready !== null) { resolve(a); return; }
    L.waiters.push(resolve);
    setTimeout(() => resolve(Object.assign({}, L.armed, { timeout: true })), ms);
  });
  window.addEventListener("click", () => {
    const a = L.armed;
    if (a && a.click === null) {
      a.click = performance.now();
      if (a.kind !== "pick") all(ACTIONS).forEach((e) => e.setAttribute("data-load-stale", ""));
      check();
    }
  }, true);
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true,
                                                  characterData: true });
})();
"""


# ----------------------------------------------------------------------------------------------- pure helpers
def summary_ms(values: list[float]) -> dict:
    """Median, p95, p99, min and max (ms, as given) and the count of ``values`` (a list of float).

    Percentiles are `statistics.quantiles` with ``n=100, method="inclusive"`` (linear between the sorted values,
    within their range); one value is its own percentiles. Returns ``{"n": 0}`` for no values. Raises nothing.
    """
    if not values:
        return {"n": 0}
    data = sorted(float(v) for v in values)
    if len(data) == 1:
        cuts = [data[0]] * 99
    else:
        cuts = statistics.quantiles(data, n=100, method="inclusive")
    return {"n": len(data), "median": statistics.median(data), "p95": cuts[94], "p99": cuts[98],
            "min": data[0], "max": data[-1]}


def signed_points(text: str) -> int:
    """A score as the end-of-hand panel writes it ("+85", "−90" with a minus sign, "-90", "0", "120") as an int.
    Raises ValueError for anything else."""
    s = text.strip().replace("\u2212", "-")
    if not s or not (s.lstrip("+-").isdigit()) or s.count("+") + s.count("-") > 1:
        raise ValueError(f"not a score: {text!r}")
    return int(s)


def hand_score_shown(rows: list[list[str]]) -> dict:
    """{"NS": int, "EW": int} from the end-of-hand table's rows ([label, N–S cell, E–W cell], as on the page),
    the row labelled "Hand score". Raises ValueError when there is no such row or its cells are not scores."""
    for row in rows:
        if len(row) == 3 and row[0].strip() == "Hand score":
            return {"NS": signed_points(row[1]), "EW": signed_points(row[2])}
    raise ValueError(f"no 'Hand score' row in the end-of-hand table: {rows!r}")


TOKEN_RE = re.compile(rb'"token":\s*"([^"]*)"')
CHOSEN_RE = re.compile(rb"(\d+) chosen")


def frame_info(direction: str, payload: bytes) -> tuple:
    """What `round_trip_ms` needs of one websocket frame of a page (``payload``: its bytes, text or binary
    Jupyter message): for a frame the page sent, whether it is a comm message (a click or a tap); for one it
    received, the table's decision tokens and the discard counter's "N chosen" it carries."""
    if direction == "sent":
        return (b"comm_msg" in payload,)
    return (tuple(t.decode("utf-8", "replace") for t in TOKEN_RE.findall(payload)),
            tuple(f"{int(n)} chosen" for n in CHOSEN_RE.findall(payload)))


def round_trip_ms(frames: list[tuple], start: int, old_token: str, want: str | None = None) -> float | None:
    """The server's part of a click, ms: from the page sending the click (the first comm message in
    ``frames[start:]``) to the page receiving the redraw (the first frame after it with a table token other than
    ``old_token``; for a card picked for the nest, ``want``: the frame whose counter says "N chosen"). ``frames``:
    (seconds, "sent"|"recv", `frame_info`) in the browser's network clock. None when either is missing."""
    sent = next((f[0] for f in frames[start:] if f[1] == "sent" and f[2][0]), None)
    if sent is None:
        return None
    for t, direction, info in frames[start:]:
        if direction != "recv" or t < sent:
            continue
        if (want is not None and want in info[1]) or (want is None and any(x != old_token for x in info[0])):
            return (t - sent) * 1000.0
    return None


def hand_part(record: dict) -> dict:
    """The members of a rook-hand/1 record (a JSON dict) that make the hand (`RECORD_FIELDS`), absent ones left
    out."""
    return {k: record[k] for k in RECORD_FIELDS if k in record}


def deal_part(record: dict) -> dict:
    """The deal of a rook-hand/1 record (a JSON dict): its variant, dealer, hands and nest."""
    return {k: record.get(k) for k in ("variant", "dealer", "hands", "nest")}


def expected_record(seed: int, actions: list[list], variant: str | None = None) -> dict:
    """The rook-hand/1 record (JSON dict) of the hand the app deals for ``?deal=<seed>`` (a `rookcore.table.Table`
    with that deal and the rule-based AI in the other seats, as `rookcore.saved.start_game` makes it) after the
    learner's ``actions`` in order, the AIs moving after each as the Play panel lets them: ``["bid", points]``,
    ``["pass"]``, ``["discard", [card codes]]``, ``["trump", "R"|"Y"|"G"|"B"]``, ``["play", card code]``,
    ``["next"]`` (a new hand after a passed-out one). ``variant``: the rule set (None: CrowsNest).
    Raises ValueError (an `IllegalAction` too) when an action is not legal there, KeyError for an unknown kind."""
    from rookcore.actions import PASS, NameTrump, Play, bid  # noqa: PLC0415
    from rookcore.cards import Card  # noqa: PLC0415
    from rookcore.rules import get_rules  # noqa: PLC0415
    from rookcore.table import Table  # noqa: PLC0415

    table = Table(get_rules(variant) if variant else None, deal=seed, level="rules")
    table.run_ai()
    for kind, *args in actions:
        if kind == "next":
            table.new_hand()
        elif kind == "discard":
            table.learner_discard(list(args[0]))
        else:
            table.learner_act({"bid": lambda: bid(int(args[0])), "pass": lambda: PASS,
                               "trump": lambda: NameTrump(args[0]),
                               "play": lambda: Play(Card.parse(args[0]))}[kind]())
        table.run_ai()
    return json.loads(table.record_json())


def check_learner(outcome: dict, expected: dict | None, others_deals: dict[int, dict]) -> tuple[list, list]:
    """Judge one learner's hand. ``outcome``: what the page showed and gave (keys ``completed``, ``reason``,
    ``rows`` the end-of-hand table, ``record`` the downloaded rook-hand/1 dict or None, ``south_dealt`` the South
    card codes shown at the start, ``kept_record`` the hand in the learner's kept game or None, ``kept_deal`` the
    deal seed kept with it or None, ``seed``); ``expected``: `expected_record` of its seed and clicks (None when
    they could not be replayed); ``others_deals``: {seed: `deal_part`} of every other learner's deal.

    Returns (failures, cross_talk): lists of one-line reasons; a cross-talk reason says whose deal was seen.
    Raises nothing."""
    failures: list[str] = []
    cross: list[str] = []
    own_seed = outcome.get("seed")

    def whose(deal: dict) -> str:
        hits = [s for s, d in others_deals.items() if d == deal]
        return f"deal {hits[0]}'s (another learner's)" if hits else "no learner's"

    if not outcome.get("completed"):
        failures.append(outcome.get("reason") or "the hand did not complete")
    record = outcome.get("record")
    if expected is not None:
        exp_south = sorted(expected["hands"]["S"])
        if outcome.get("south_dealt") is not None and sorted(outcome["south_dealt"]) != exp_south:
            shown = sorted(outcome["south_dealt"])
            owner = [s for s, d in others_deals.items() if sorted(d["hands"]["S"]) == shown]
            if owner:  # another learner's cards on this page
                cross.append(f"South's cards shown at the start are not deal {own_seed}'s but deal {owner[0]}'s")
            else:  # none drawn, or cards of no learner's deal: this page is wrong, no other learner's game leaked
                failures.append(f"South's cards shown at the start ({len(shown)}) are not deal {own_seed}'s")
    if outcome.get("completed"):
        if record is None:
            failures.append("no record offered for download after the hand")
        else:
            try:
                from rookcore import records  # noqa: PLC0415
                score = records.score_report(records.from_json(record))["score"]
                shown = hand_score_shown(outcome.get("rows") or [])
                if shown != score:
                    failures.append(f"the hand score shown {shown} is not the engine's score of the record {score}")
            except Exception as e:  # noqa: BLE001 - a bad record or row is this learner's failure, not the run's
                failures.append(f"score check: {type(e).__name__}: {e}")
    if record is not None and expected is not None:
        if deal_part(record) != deal_part(expected):
            cross.append(f"the record's deal is {whose(deal_part(record))}, not deal {own_seed}'s")
        elif hand_part(record) != hand_part(expected):
            cross.append("the record's moves are not this learner's clicks with the engine's replies")
    kept = outcome.get("kept_record")
    if kept is not None:
        if record is not None and hand_part(kept) != hand_part(record):
            where = ("" if expected is None or deal_part(kept) == deal_part(expected)
                     else f" (its deal is {whose(deal_part(kept))})")
            cross.append("the game kept for this learner is not the hand played on its page" + where)
        if outcome.get("kept_deal") not in (None, own_seed):
            cross.append(f"the game kept for this learner is deal {outcome['kept_deal']}'s, not {own_seed}'s")
    elif outcome.get("kept_expected"):
        failures.append(outcome.get("kept_problem") or "no game kept for this learner")
    return failures, cross


def duplicate_ids(ids: dict[int, str | None]) -> dict[str, list[int]]:
    """{learner id: [learners]} for every id (a str) that more than one learner (int) holds; None ids are ignored."""
    by_id: dict[str, list[int]] = {}
    for learner, lid in ids.items():
        if lid:
            by_id.setdefault(lid, []).append(learner)
    return {k: v for k, v in by_id.items() if len(v) > 1}


# ----------------------------------------------------------------------------------------------- the server's memory
def server_processes(pid: int):
    """(the Voila `psutil.Process`, [its kernels' processes]) for the server of process id ``pid``: kernels are its
    descendants running ipykernel. Raises psutil.Error when the server is gone."""
    import psutil  # noqa: PLC0415 - ipykernel's dependency, so there with the app

    root = psutil.Process(pid)
    kernels = []
    for proc in root.children(recursive=True):
        try:
            if any("ipykernel" in part for part in proc.cmdline()):
                kernels.append(proc)
        except psutil.Error:
            pass
    return root, kernels


def process_memory(proc) -> dict | None:
    """{"pid", "rss_mb", "pss_mb", "uss_mb", "cpu_s"} of a `psutil.Process` (MB = 2**20 bytes; PSS/USS from
    /proc/<pid>/smaps_rollup), None when it is gone."""
    import psutil  # noqa: PLC0415

    try:
        with proc.oneshot():
            full = proc.memory_full_info()
            cpu = proc.cpu_times()
        return {"pid": proc.pid, "rss_mb": full.rss / 2**20, "pss_mb": getattr(full, "pss", float("nan")) / 2**20,
                "uss_mb": full.uss / 2**20, "cpu_s": cpu.user + cpu.system}
    except psutil.Error:
        return None


def memory_snapshot(pid: int) -> dict:
    """Voila's and each kernel's memory now (`process_memory`) with the totals: {"voila", "kernels": [...],
    "kernel_count", "total_rss_mb", "total_pss_mb", "cpu_s"}; {"error": why} when the server is gone."""
    try:
        root, kernels = server_processes(pid)
    except Exception as e:  # noqa: BLE001
        return {"error": f"{type(e).__name__}: {e}"}
    voila = process_memory(root)
    ks = [m for m in (process_memory(k) for k in kernels) if m is not None]
    parts = [voila, *ks] if voila else ks
    return {"voila": voila, "kernels": ks, "kernel_count": len(ks),
            "total_rss_mb": sum(p["rss_mb"] for p in parts), "total_pss_mb": sum(p["pss_mb"] for p in parts),
            "cpu_s": sum(p["cpu_s"] for p in parts)}


class MemorySampler(threading.Thread):
    """Samples `memory_snapshot` of the server every ``every`` seconds in the background; ``peak`` holds the
    largest totals and kernel count seen. Each round also gives new Chromium processes the script's niceness
    (`renice_browser`), so that the browser does not run ahead of the server. `stop` ends it (within ``every``
    seconds)."""

    def __init__(self, pid: int, every: float) -> None:
        super().__init__(daemon=True)
        self.pid, self.every = pid, every
        self.peak = {"total_rss_mb": 0.0, "total_pss_mb": 0.0, "kernel_count": 0, "kernel_rss_mb": 0.0,
                     "kernel_pss_mb": 0.0}
        self.samples = 0
        self.reniced = 0  # Chromium processes given the script's niceness (`renice_browser`)
        self._halt = threading.Event()

    def run(self) -> None:
        while not self._halt.is_set():
            self.reniced += renice_browser()
            snap = memory_snapshot(self.pid)
            if "error" not in snap:
                self.samples += 1
                for k in ("total_rss_mb", "total_pss_mb", "kernel_count"):
                    self.peak[k] = max(self.peak[k], snap[k])
                for k in snap["kernels"]:
                    self.peak["kernel_rss_mb"] = max(self.peak["kernel_rss_mb"], k["rss_mb"])
                    self.peak["kernel_pss_mb"] = max(self.peak["kernel_pss_mb"], k["pss_mb"])
            self._halt.wait(self.every)

    def stop(self) -> None:
        self._halt.set()
        self.join(timeout=30)


def cpu_split(pid: int) -> dict:
    """CPU seconds (user + system) so far of Voila (process ``pid``), of its kernels together and of this script
    with its children (the browser): {"voila", "kernels", "client"}; NaN for a part that cannot be read."""
    out = {"voila": float("nan"), "kernels": float("nan"), **client_cpu_split()}
    out["client"] = out["browser"] + out["script"]
    try:
        root, kernels = server_processes(pid)
        out["voila"] = sum(root.cpu_times()[:2])
        out["kernels"] = sum(sum(k.cpu_times()[:2]) for k in kernels)
    except Exception:  # noqa: BLE001 - psutil.Error or no psutil: the figure is left out
        pass
    return out


def renice_browser() -> int:
    """Give every Chromium process under this script this script's niceness (Chromium, run as root, raises the
    priority of some of its processes above the server's, which starts with this script's); returns how many
    were changed. Raises nothing."""
    try:
        import psutil  # noqa: PLC0415
        me = psutil.Process()
        mine = me.nice()
        changed = 0
        for proc in me.children(recursive=True):
            try:
                if "chrom" in proc.name().lower() and proc.nice() < mine:
                    proc.nice(mine)
                    changed += 1
            except psutil.Error:
                pass
        return changed
    except Exception:  # noqa: BLE001 - a fairness measure, not the measurement
        return 0


def client_cpu_split() -> dict:
    """CPU seconds (user + system) so far of the browser (Chromium's processes) and of this script with
    Playwright's driver: {"browser", "script"}; NaN without psutil."""
    try:
        import psutil  # noqa: PLC0415
    except ImportError:
        return {"browser": float("nan"), "script": float("nan")}
    out = {"browser": 0.0, "script": 0.0}
    me = psutil.Process()
    for proc in [me, *me.children(recursive=True)]:
        try:
            t = proc.cpu_times()
            out["browser" if "chrom" in proc.name().lower() else "script"] += t.user + t.system
        except psutil.Error:
            pass
    return out


def client_cpu() -> float:
    """CPU seconds (user + system) of this process and its children (the browser): the sum of `client_cpu_split`;
    NaN without psutil."""
    split = client_cpu_split()
    return split["browser"] + split["script"]


# ----------------------------------------------------------------------------------------------- one learner
class Stuck(Exception):
    """A page did not get where it should within its time (the learner's hand fails with this reason)."""


class Gate:
    """Where the learners wait for each other: `arrive` returns once ``n`` learners have arrived (a learner that
    failed to open arrives too, so nobody waits for it)."""

    def __init__(self, n: int, on_open=None) -> None:
        self.n, self.count, self.event, self.on_open = n, 0, asyncio.Event(), on_open

    async def arrive(self) -> None:
        """Count this learner in and wait for the rest (each has a bounded opening, so this wait is bounded); the
        last to arrive calls ``on_open()`` (no arguments) first."""
        self.count += 1
        if self.count >= self.n:
            if self.on_open is not None:
                self.on_open()
            self.event.set()
        await self.event.wait()


class Learner:
    """One learner: a browser context of its own, the app opened on deal ``seed``, a hand played by clicking.

    Args:
      index: the learner's number (int, 0-based); ``seed``: the ``?deal=`` seed; ``bids``: True to bid the lowest
      bid whenever possible, False to pass; ``think``: mean seconds before each click; ``opts``: the parsed
      command-line options (timeouts). `run` fills ``out`` (a dict of JSON values) and never raises for a page
      problem: the learner's hand fails with the reason.
    """

    def __init__(self, index: int, seed: int, bids: bool, think: float, opts) -> None:
        self.index, self.seed, self.bids, self.think, self.opts = index, seed, bids, think, opts
        self.rng = random.Random(f"load-{index}-{seed}")
        self.learner_id = f"10ad{index:028x}"  # 32 hexadecimal digits, as `rookcore.learners` wants them
        self.dealt_south = expected_record(seed, [])["hands"]["S"]
        self.context = None
        self.page = None
        self.cdp = None
        self.frames: list[tuple] = []  # the page's websocket frames (`frame_info`), from CDP
        self.pending: list[tuple] = []  # (click, index in frames, token before, want) for `round_trip_ms`
        self.out: dict = {"learner": index, "seed": seed, "pinned_id": self.learner_id,
                          "policy": "bid" if bids else "pass", "clicks": [], "actions": [], "completed": False,
                          "reason": None, "south_dealt": None, "record": None, "rows": None, "errors": [],
                          "page_errors": [], "local_storage": {}}

    async def run(self, browser, url: str, t_start: float, gate: "Gate") -> dict:
        """Open the app (within ``opts.open_timeout`` seconds), wait at ``gate`` until every learner has opened it
        (the class starts together), then play one hand (within ``opts.hand_timeout`` seconds); returns ``out``."""
        opened = False
        try:
            await asyncio.wait_for(self._open(browser, url, t_start), timeout=self.opts.open_timeout + 30)
            opened = True
        except asyncio.TimeoutError:
            self.out["reason"] = f"the app did not open within {self.opts.open_timeout:.0f} s"
        except Stuck as e:
            self.out["reason"] = str(e)
        except Exception as e:  # noqa: BLE001 - any page problem fails this learner's hand, not the run
            self.out["reason"] = f"opening: {type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}"
        if not opened:
            self.out.setdefault("lost", self.out["reason"])
        await gate.arrive()
        if opened and not self.opts.open_only:
            try:
                await asyncio.wait_for(self._play(), timeout=self.opts.hand_timeout)
                self.out["completed"] = True
            except asyncio.TimeoutError:
                self.out["reason"] = (f"the hand was not over after {self.opts.hand_timeout:.0f} s "
                                      f"(last clicks: {self.out['actions'][-3:]})")
            except Stuck as e:
                self.out["reason"] = str(e)
            except Exception as e:  # noqa: BLE001
                self.out["reason"] = f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}"
        try:
            await asyncio.wait_for(self._read_after(), timeout=self.opts.action_timeout)
        except Exception as e:  # noqa: BLE001
            self.out["errors"].append(f"reading the page after the hand: {type(e).__name__}: {str(e)[:200]}")
        return self.out

    async def _open(self, browser, url: str, t_start: float) -> None:
        """A new context holding this learner's id (``learner_id``) in its local storage (and, for a returning
        learner, in the learner cookie the app's template sets from it), the app opened on the learner's deal, its
        game built for that id (not the page-only game the app opens when the id comes late: the app replaces it
        once the id comes), the AIs' pace set to 0. The opening's times (the page's own clock) go into ``out``."""
        o = self.opts
        self.t_start = t_start
        self.context = await browser.new_context(viewport=VIEWPORT)
        key = o.storage_key
        if key:
            await self.context.add_init_script(
                f"try {{ if (!localStorage.getItem({json.dumps(key)})) localStorage.setItem({json.dumps(key)}, "
                f"{json.dumps(self.learner_id)}); }} catch (e) {{}}")
            if not o.first_visit:  # a learner who has opened the app before: the template set the cookie then
                await self.context.add_cookies([{"name": LEARNER_COOKIE, "value": self.learner_id, "url": url}])
        page = self.page = await self.context.new_page()
        page.set_default_timeout(o.action_timeout * 1000)
        page.on("pageerror", lambda exc: self.out["page_errors"].append(str(exc)[:200]))
        await page.add_init_script(INSTRUMENT_JS)
        start = time.monotonic()
        try:
            await page.goto(f"{url}?deal={self.seed}", wait_until="commit", timeout=o.open_timeout * 1000)
            left = max(1.0, o.open_timeout - (time.monotonic() - start))
            # the learner's game, or the page saying it could not open (arrived whole without it) or lost its kernel
            await page.wait_for_function(
                "() => window.__load && (window.__load.open.game !== null || (document.querySelector("
                "'.rook-page-problem') && (document.querySelector('.rook-page-lost') || performance.getEntriesByType("
                "'navigation')[0].responseEnd > 0)))", polling=1000, timeout=left * 1000)
            if await page.evaluate("() => window.__load.open.game === null"):
                raise Stuck("the page says it could not open")
        except Exception as e:
            self.out["lost"] = await self._why_lost()
            raise Stuck(f"the learner's game did not open within {o.open_timeout:.0f} s ({self.out['lost']})") from e
        times = await page.evaluate(
            "() => { const n = performance.getEntriesByType('navigation')[0];"
            " return Object.assign({html: n && n.responseEnd ? n.responseEnd : null}, window.__load.open); }")
        self.out["opening"] = {k: (v / 1000 if v is not None else None) for k, v in times.items()}
        self.out["open_s"] = self.out["opening"]["game"]
        self.out["page_only_first"] = await page.evaluate("() => window.__load.pageOnlySeen")
        try:  # a page shows one app (the page-only one, if any, is taken away as the learner's opens)
            await page.wait_for_function("() => document.querySelectorAll('.rook-play').length === 1", polling=250,
                                         timeout=APPS_SETTLE_S * 1000)
        except Exception:  # noqa: BLE001 - said below
            pass
        apps = await page.evaluate("() => document.querySelectorAll('.rook-play').length")
        if apps != 1:
            shot = await self._screenshot("apps")
            raise Stuck(f"the page holds {apps} Play panels once the learner's game is open (the page-only game "
                        f"was not taken away; page: {await page.evaluate(PAGE_PARTS_JS)}; screenshot {shot})")
        self.out["south_dealt"] = await page.eval_on_selector_all(CARD, "bs => bs.map(b => b.dataset.code)")
        if sorted(self.out["south_dealt"]) != sorted(self.dealt_south):
            self.out["open_page"] = await page.evaluate(PAGE_PARTS_JS)
            shot = await self._screenshot("deal")
            raise Stuck(f"the learner's game shows South {len(self.out['south_dealt'])} cards that are not deal "
                        f"{self.seed}'s {len(self.dealt_south)} (page: {self.out['open_page']}; screenshot {shot})")
        await self._pace_zero()
        try:  # the page's own time (script, style, layout), from Chromium's performance counters
            self.cdp = await self.context.new_cdp_session(page)
            await self.cdp.send("Performance.enable")
            self.metrics0 = await self._metrics()
            self.cdp.on("Network.webSocketFrameSent", lambda e: self._frame("sent", e))
            self.cdp.on("Network.webSocketFrameReceived", lambda e: self._frame("recv", e))
            await self.cdp.send("Network.enable")
        except Exception:  # noqa: BLE001 - a diagnostic only
            self.cdp = None

    async def _why_lost(self) -> str:
        """Why this page did not open, in a word: "banner" (the page says it could not open or lost its kernel),
        "no html" (the page never arrived whole), "no widget" (it arrived without the app), "no game" (the app
        without the learner's game). Raises nothing."""
        try:
            return await self.page.evaluate(
                "() => { if (document.querySelector('.rook-page-problem')) return 'banner: ' +"
                " document.querySelector('.rook-page-problem').className;"
                " const n = performance.getEntriesByType('navigation')[0];"
                " if (!n || !n.responseEnd) return 'no html';"
                " if (!document.querySelector('.jupyter-widgets')) return 'no widget'; return 'no game'; }")
        except Exception as e:  # noqa: BLE001
            return f"unknown ({type(e).__name__})"

    async def _screenshot(self, what: str) -> str:
        """A full-page screenshot of this learner's page in tests/artifacts/ (its path, or "none" if it failed)."""
        shot = ROOT / "tests" / "artifacts" / f"load-learner-{self.index}-{what}.png"
        try:
            shot.parent.mkdir(parents=True, exist_ok=True)
            await self.page.screenshot(path=str(shot), full_page=True)
            return str(shot.relative_to(ROOT))
        except Exception:  # noqa: BLE001 - a help, not the finding
            return "none"

    def _frame(self, direction: str, event: dict) -> None:
        """Keep what `round_trip_ms` needs of a websocket frame (CDP's Network.webSocketFrame* event)."""
        r = event.get("response") or {}
        data = r.get("payloadData") or ""
        try:
            payload = base64.b64decode(data) if r.get("opcode") == 2 else data.encode("utf-8", "replace")
        except ValueError:
            return
        self.frames.append((float(event.get("timestamp", 0.0)), direction, frame_info(direction, payload)))

    async def _metrics(self) -> dict:
        """Chromium's counters of this page in seconds (`PAGE_METRICS`)."""
        got = await self.cdp.send("Performance.getMetrics")
        return {m["name"]: m["value"] for m in got["metrics"] if m["name"] in PAGE_METRICS}

    async def _play(self) -> None:
        """Click through the hand: calls, the nest's cards and Discard, trump, cards; Next hand after a passed-out
        hand. Raises Stuck when the page does not get on."""
        page = self.page
        while True:
            situation, code = await page.evaluate(
                "() => { const c = document.querySelector('.rook-play button.rook-tv-card.legal');"
                " return [window.__load.situation(), c ? c.dataset.code : null]; }")
            if situation is None:  # nothing to click yet (only after a click whose wait ran out, in practice)
                raise Stuck(f"no control to click after the last click ({self.out['actions'][-1:]})")
            if situation == "end":
                heading = await page.inner_text(".rook-play .rook-hand-end-heading")
                if "All four passed" not in heading:
                    return
                await self._click(page.locator(".rook-play button.rook-hand-end-next:visible").first, "next",
                                  ["next"])
            elif situation == "auction":
                await self._call(page)
            elif situation == "discard":
                await self._discard(page)
            elif situation == "trump":
                await self._trump(page)
            else:
                card = page.locator(f'{CARD}.legal[data-code="{code}"]')
                await self._click(card, "play", ["play", code], position=TAP)

    async def _pace_zero(self) -> None:
        """Type 0 into the speed slider's readout ("Seconds per AI move") and wait for the slider to follow."""
        page = self.page
        readout = page.locator(".rook-play .rook-speed .widget-readout")
        await readout.click()
        await page.keyboard.press("Control+A")
        await page.keyboard.type("0")
        await page.keyboard.press("Enter")
        try:
            await page.wait_for_function(
                "() => { const h = document.querySelector('.rook-speed .noUi-handle');"
                " return h && Number(h.getAttribute('aria-valuenow')) === 0; }", polling=250,
                timeout=self.opts.action_timeout * 1000)
        except Exception as e:
            raise Stuck("the AIs' pace could not be set to 0") from e

    async def _pause(self) -> None:
        if self.think > 0:
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))

    async def _click(self, locator, kind: str, action: list | None, position: dict | None = None,
                     want: str | None = None) -> dict:
        """Click ``locator`` (at ``position``) after the think time, timed from the click to its redraw; the
        click is logged with ``kind`` and the learner's ``action`` (None: not an action of the hand, a pick)."""
        await self._pause()
        page = self.page
        old_token = await page.evaluate("([k, w]) => window.__load.arm(k, w)", [kind, want])
        start = len(self.frames)
        try:
            await locator.click(position=position, timeout=self.opts.action_timeout * 1000)
        except Exception as e:
            raise Stuck(f"could not click {kind} {action or want}: {type(e).__name__}") from e
        ms = self.opts.action_timeout * 1000
        try:
            times = await asyncio.wait_for(page.evaluate("(ms) => window.__load.wait(ms)", ms),
                                           timeout=self.opts.action_timeout + 10)
        except asyncio.TimeoutError:
            times = {"timeout": True}
        if action is not None:
            self.out["actions"].append(action)
        if not times or times.get("timeout") or times.get("click") is None:
            status = await page.inner_text(".rook-play .rook-status")
            raise Stuck(f"no redraw within {self.opts.action_timeout:.0f} s after {kind} {action or want} "
                        f"(status: {status[:160]!r})")
        click = {"kind": kind, "redraw_ms": times["redraw"] - times["click"],
                 "ready_ms": times["ready"] - times["click"], "then": times["situation"], "server_ms": None,
                 "at_s": round(time.monotonic() - self.t_start, 2)}
        self.pending.append((click, start, old_token, want))  # the frames' events may still be on their way
        self.out["clicks"].append(click)
        if times.get("error"):
            raise Stuck(f"the status line shows an error after {kind} {action or want}: {times['error'][:200]}")
        return click

    async def _call(self, page) -> None:
        bids = page.locator(f".rook-play button.rook-bid:not(.rook-pass){FRESH}")
        amounts = []
        if self.bids:
            for text in await bids.all_inner_texts():
                parts = text.split()
                if len(parts) == 2 and parts[1].isdigit():
                    amounts.append(int(parts[1]))
        if amounts:
            low = min(amounts)
            await self._click(page.locator(f".rook-play button.rook-bid{FRESH}", has_text=f"Bid {low}").first, "bid",
                              ["bid", low])
        else:
            await self._click(page.locator(f".rook-play button.rook-pass{FRESH}").first, "pass", ["pass"])

    async def _discard(self, page) -> None:
        """Tap the fan's last ``n`` cards (its lowest) to put back, one at a time, then press Discard."""
        text = await page.inner_text(".rook-play .rook-discard-count")
        words = text.split()
        n = int(words[words.index("Tap") + 1]) if "Tap" in words else 0
        if n <= 0:
            raise Stuck(f"the discard counter says no number of cards: {text!r}")
        codes = await page.eval_on_selector_all(CARD, "bs => bs.map(b => b.dataset.code)")
        picked = codes[-n:]
        for k, code in enumerate(picked, start=1):
            await self._click(page.locator(f'{CARD}[data-code="{code}"]'), "pick", None, position=TAP,
                              want=f"{k} chosen")
        await self._click(page.locator(f".rook-play button.rook-discard-button{FRESH}").first, "discard",
                          ["discard", picked])

    async def _trump(self, page) -> None:
        """Name the colour South holds most of."""
        codes = await page.eval_on_selector_all(CARD, "bs => bs.map(b => b.dataset.code)")
        counts = {c: sum(1 for code in codes if code[:1] == c and code[1:].isdigit()) for c in COLOUR_WORDS}
        colour = max(COLOUR_WORDS, key=lambda c: (counts[c], -list(COLOUR_WORDS).index(c)))
        await self._click(page.locator(f".rook-play button.rook-trump{FRESH}", has_text=f"Trump {COLOUR_WORDS[colour]}")
                          .first, "trump", ["trump", colour])

    async def _read_after(self) -> None:
        """The end-of-hand table, the record the page offers for download, any error line, the local storage."""
        page = self.page
        if page is None:
            return
        o = self.out
        o["local_storage"] = await page.evaluate("() => Object.assign({}, window.localStorage)")
        for click, start, old_token, want in self.pending:
            click["server_ms"] = round_trip_ms(self.frames, start, old_token, want)
        if getattr(self, "cdp", None) is not None:
            end = await self._metrics()
            o["page_cpu_s"] = {k: end[k] - self.metrics0.get(k, 0.0) for k in end}
        if not o["completed"]:
            return
        o["rows"] = await page.eval_on_selector_all(
            ".rook-play .rook-hand-end-table tr.rook-hand-end-row",
            "rows => rows.map(r => [...r.querySelectorAll('th, td')].map(c => c.textContent.trim()))")
        href = await page.get_attribute(".rook-play .rook-download a", "href")
        prefix = "data:application/json;base64,"
        if href and href.startswith(prefix):
            o["record"] = json.loads(base64.b64decode(href[len(prefix):]).decode("utf-8"))
        body = await page.inner_text("body")
        if "Traceback" in body or "internal error" in body:
            o["errors"].append("a traceback or an internal error is shown on the page")
        errors = await page.locator(".rook-play .rook-status .rook-error").all_inner_texts()
        o["errors"].extend(f"status: {e[:200]}" for e in errors)

    async def close(self) -> None:
        """Close the page as a learner closes it (its kernel is shut down), then the context. Raises nothing."""
        try:
            if self.page is not None:
                await self.page.close(run_before_unload=True)
                await asyncio.sleep(0.3)
            if self.context is not None:
                await self.context.close()
        except Exception:  # noqa: BLE001
            pass


# ----------------------------------------------------------------------------------------------- kept games
def kept_games(folder: Path) -> dict:
    """Every game the app kept under ``folder`` (its ``ROOK_GAME_FILE``'s folder): {relative path: the document
    (crowsnest-kept-game/1 JSON)} for each ``*.json`` file that parses; others are listed with an "error"."""
    found: dict = {}
    for path in sorted(folder.rglob("*.json")):
        rel = str(path.relative_to(folder))
        try:
            found[rel] = json.loads(path.read_text())
        except (OSError, ValueError) as e:
            found[rel] = {"error": f"{type(e).__name__}: {e}"}
    return found


def kept_hand(doc: dict) -> tuple[dict | None, int | None]:
    """(the hand on show in a kept game, as a rook-hand/1 dict, the deal seed kept with it) from a
    crowsnest-kept-game/1 document (`rookcore.saved`): the game record's last hand, or the one before it while the
    last scored hand is on show (``table.on_show`` "last": the next hand is already dealt after it); the seed is
    ``settings.extra.deal``. (None, None) for a document that holds no hand. Raises nothing."""
    def member(d, key, kind):
        value = d.get(key) if isinstance(d, dict) else None
        return value if isinstance(value, kind) else None

    hands = member(member(doc, "game", dict), "hands", list) or []
    table = member(doc, "table", dict) or {}
    deal = member(member(member(doc, "settings", dict), "extra", dict), "deal", int)
    if not hands:
        return None, deal
    last = table.get("on_show") == "last" and "next_deal" not in table and len(hands) >= 2
    hand = hands[-2] if last else hands[-1]
    return (hand if isinstance(hand, dict) else None), deal


def storage_names() -> tuple[str, str, str] | None:
    """(the localStorage key of the learner id, the learners' folder name, the deal-link game's file name) of the
    app's per-learner keeping (`rookcore.learners`), or None when this version of the app keeps one game per
    server."""
    try:
        from rookcore import learners  # noqa: PLC0415
        return learners.STORAGE_KEY, "learners", learners.DEAL_NAME
    except (ImportError, AttributeError):
        return None


def learner_kept(learner: dict, games: dict, names: tuple[str, str, str] | None) -> tuple[dict | None, int | None,
                                                                                         str, str]:
    """(the hand kept for ``learner`` (its `Learner.out`), the deal seed kept with it, the file, why none) from
    ``games`` (`kept_games`) under the per-learner layout ``names`` (`storage_names`): the deal-link game in the
    folder of the learner id its browser holds. Raises nothing."""
    if names is None:
        return None, None, "", "this app keeps one game per server"
    key, folder, deal_name = names
    lid = (learner.get("local_storage") or {}).get(key)
    if not lid:
        return None, None, "", f"no learner id in the browser's local storage ({key})"
    rel = str(Path(folder) / lid / deal_name)
    doc = games.get(rel)
    if doc is None:
        return None, None, rel, f"no kept game {rel}"
    if "error" in doc:
        return None, None, rel, f"the kept game {rel} does not read: {doc['error']}"
    hand, deal = kept_hand(doc)
    return hand, deal, rel, "" if hand is not None else f"the kept game {rel} holds no hand"


# ----------------------------------------------------------------------------------------------- the run
async def run_learners(opts, url: str, server_pid: int) -> tuple[list[dict], dict, dict, dict, dict]:
    """Open one browser, run ``opts.learners`` learners at once, sample the server's memory meanwhile and once all
    hands are over; close every page (their kernels shut down) and the browser. Returns (the learners' ``out``,
    the final memory snapshot, the sampler's peaks, the play phase: {"wall_s", "cpu_s": {"voila", "kernels",
    "client"}} from the moment every learner had opened the app to the last hand's end, the opening phase: the same
    from the class's start to that moment, with the server's memory then)."""
    from playwright.async_api import async_playwright  # noqa: PLC0415 - the test extra

    sampler = MemorySampler(server_pid, opts.sample)
    sampler.start()
    learners = [Learner(i, opts.seed + i, bids=(i % 2 == 0), think=opts.think, opts=opts)
                for i in range(opts.learners)]
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                t_start, cpu_start = time.monotonic(), cpu_split(server_pid)
                marks: list = []
                gate = Gate(len(learners), on_open=lambda: marks.append((time.monotonic(), cpu_split(server_pid),
                                                                         memory_snapshot(server_pid))))
                outs = await asyncio.gather(*(lr.run(browser, url, t_start, gate) for lr in learners))
                t_end, cpu_end = time.monotonic(), cpu_split(server_pid)
                final = await asyncio.to_thread(memory_snapshot, server_pid)
                for lr in learners:
                    await lr.close()
            finally:
                await browser.close()
    finally:
        sampler.stop()
    t_open, cpu_open = marks[0][:2] if marks else (t_end, cpu_end)
    phase = {"opened_after_s": t_open - t_start, "wall_s": t_end - t_open,
             "cpu_s": {k: cpu_end[k] - cpu_open[k] for k in cpu_end}}
    opening = {"wall_s": t_open - t_start, "cpu_s": {k: cpu_open[k] - cpu_start[k] for k in cpu_open},
               "memory": marks[0][2] if marks and len(marks[0]) > 2 else None}
    return (list(outs), final, {**sampler.peak, "samples": sampler.samples, "reniced": sampler.reniced}, phase,
            opening)


def judge(outs: list[dict], keep_dir: Path) -> dict:
    """Check every learner's hand (`check_learner`) against the engine and the other learners' deals, and their
    kept games; adds ``failures`` and ``cross_talk`` to each ``out``; returns the counts."""
    expected = {}
    deals = {}
    for o in outs:
        try:
            expected[o["learner"]] = expected_record(o["seed"], o["actions"])
        except Exception as e:  # noqa: BLE001 - the page accepted a click the engine refuses: this learner fails
            expected[o["learner"]] = None
            o["replay_error"] = f"{type(e).__name__}: {e}"
        try:
            deals[o["seed"]] = deal_part(expected_record(o["seed"], []))
        except Exception:  # noqa: BLE001
            pass
    games = kept_games(keep_dir)
    names = storage_names()
    ids = {}
    for o in outs:
        hand, deal, where, problem = learner_kept(o, games, names)
        o["kept_record"], o["kept_deal"], o["kept_file"], o["kept_problem"] = hand, deal, where, problem
        o["kept_expected"] = names is not None and o["completed"]
        ids[o["learner"]] = (o.get("local_storage") or {}).get(names[0]) if names else None
        o["learner_id"] = ids[o["learner"]]
    dup = duplicate_ids(ids)
    own_files = {o["kept_file"] for o in outs}
    stray = sorted(rel for rel in games if rel not in own_files)
    failed = cross_talk = 0
    for o in outs:
        others = {s: d for s, d in deals.items() if s != o["seed"]}
        failures, cross = check_learner(o, expected[o["learner"]], others)
        if o.get("replay_error"):
            failures.append(f"the engine refuses the learner's clicks as replayed: {o['replay_error']}")
        failures += o["errors"]
        if names is not None and o.get("learner_id") != o["pinned_id"]:
            failures.append(f"the browser holds learner id {o.get('learner_id')!r}, not the one it was given "
                            f"({o['pinned_id']})")
        shared = [lid for lid, who in dup.items() if o["learner"] in who]
        if shared:
            cross.append(f"learner id {shared[0]!r} is also held by learners {dup[shared[0]]}")
        o["failures"], o["cross_talk"] = failures, cross
        failed += bool(failures or cross)
        cross_talk += bool(cross)
    return {"failed_hands": failed, "cross_talk": cross_talk, "kept_files": len(games),
            "per_learner_keeping": names is not None, "learner_ids": len({i for i in ids.values() if i}),
            "other_kept_files": stray,
            "distinct_deals": len(deals)}


OPENING = ("html", "ws", "first", "widget", "drawn", "game")
"""The opening's times of a page (seconds from its navigation start, the page's clock): its HTML received whole,
the kernel's websocket made (Voila's scripts loaded), the kernel's first message, its first widget message, the first
widget drawn, the learner's own game with a control to click."""


def opening_summary(outs: list[dict]) -> dict:
    """The pages' opening (`Learner.out["opening"]`): {"pages", "lost" (pages that did not reach the learner's
    game), "lost_pages" ([{"learner", "why"}]), "seconds": {time: `summary_ms` of it, for each of `OPENING`, and
    "server" (the page waiting on the server: its HTML, then its websocket's open to the first widget message) and
    "browser" (the rest of the way to the game)}}. Raises nothing."""
    opened = [o["opening"] for o in outs if o.get("opening")]
    seconds = {k: summary_ms([t[k] for t in opened if t.get(k) is not None]) for k in OPENING}
    full = [t for t in opened if all(t.get(k) is not None for k in ("html", "ws", "widget", "game"))]
    server = [t["html"] + max(0.0, t["widget"] - t["ws"]) for t in full]
    seconds["server"] = summary_ms(server)
    seconds["browser"] = summary_ms([t["game"] - v for t, v in zip(full, server)])
    lost = [{"learner": o["learner"], "why": o.get("lost") or o.get("reason")} for o in outs if not o.get("opening")]
    return {"pages": len(outs), "lost": len(lost), "lost_pages": lost, "seconds": seconds}


def _line(name: str, s: dict) -> str:
    return (f"  {name:8} median {s['median']:6.2f}  p95 {s['p95']:6.2f}  max {s['max']:6.2f}" if s.get("n") else
            f"  {name:8} -")


def opening_report(results: dict) -> list[str]:
    """The opening's lines of `report`."""
    op, warm, sv = results["opening"], results["warm"], results["server"]
    server = ("cold server" if sv["cold"] else
              f"{sv['pooled_kernels']} pooled kernels, warmed in {warm['wait_s']:.0f} s")
    visit = ", first visit" if sv["first_visit"] else ""
    lines = [f"opening ({server}{visit}): "
             f"{op['pages'] - op['lost']} of {op['pages']} pages reached the learner's own game, {op['lost']} lost"
             + (f" ({'; '.join(sorted({str(x['why'])[:80] for x in op['lost_pages']}))})" if op["lost"] else ""),
             "seconds from navigation (the page's clock): "]
    names = {"html": "html", "ws": "scripts", "first": "kernel", "widget": "widgets", "drawn": "drawn",
             "game": "game", "server": "server", "browser": "browser"}
    lines += [_line(names[k], op["seconds"][k]) for k in (*OPENING, "server", "browser")]
    cpu = op["cpu_s"]
    lines.append(f"opening phase: {op['wall_s']:.0f} s wall; CPU s: Voila {cpu['voila']:.1f}, kernels "
                 f"{cpu['kernels']:.1f}, Chromium {cpu['browser']:.1f}, this script and Playwright {cpu['script']:.1f}")
    if warm.get("memory") and "error" not in warm["memory"]:
        m = warm["memory"]
        lines.append(f"pool before the class: {m['kernel_count']} kernels x RSS {warm['pool_rss_mb']['median']:.0f} MB "
                     f"(median) = {warm['pool_total_rss_mb']:.0f} MB; server total RSS {m['total_rss_mb']:.0f} MB "
                     f"(Voila {m['voila']['rss_mb']:.0f} MB)")
    if op.get("memory") and "error" not in op["memory"]:
        m = op["memory"]
        lines.append(f"every page open: {m['kernel_count']} kernels, server total RSS {m['total_rss_mb']:.0f} MB")
    return lines


def report(results: dict) -> str:
    """The run's figures as a few lines of text."""
    c = results["clicks"]
    lines = opening_report(results)
    lines += [f"learners {results['learners']}, hands completed {results['completed']}, failed hands "
              f"{results['failed_hands']}, cross-talk {results['cross_talk']}, clicks {c['all']['redraw_ms']['n']}, "
              f"think {results['think_s']} s",
              "ms from the click to: the redraw | the next control | (server) the redraw's message received "
              "(median / p95 / p99, max of the redraw):"]
    for kind, s in c.items():
        r, d, v = s["redraw_ms"], s["ready_ms"], s["server_ms"]
        if r["n"]:
            server = (f"{v['median']:5.0f} {v['p95']:6.0f} {v['p99']:6.0f} (n={v['n']})" if v["n"] else "-")
            lines.append(f"  {kind:7} n={r['n']:4}  redraw {r['median']:5.0f} {r['p95']:6.0f} {r['p99']:6.0f} "
                         f"max {r['max']:6.0f} | ready {d['median']:5.0f} {d['p95']:6.0f} {d['p99']:6.0f} | "
                         f"server {server}")
    m = results["memory"]
    if "error" not in m["final"]:
        lines.append(f"memory at the end ({'when every hand was over' if c['all']['redraw_ms']['n'] else 'open only'}"
                     f"): {m['final']['kernel_count']} kernels (the pages' and the pool's), a kernel's "
                     f"RSS median {m['per_learner_rss_mb']['median']:.0f} MB "
                     f"(max {m['per_learner_rss_mb']['max']:.0f}),"
                     f" PSS median {m['per_learner_pss_mb']['median']:.0f} MB; Voila RSS "
                     f"{m['final']['voila']['rss_mb']:.0f} MB; server total RSS {m['final']['total_rss_mb']:.0f} MB, "
                     f"PSS {m['final']['total_pss_mb']:.0f} MB (peak while playing: RSS "
                     f"{m['peak']['total_rss_mb']:.0f} MB, PSS {m['peak']['total_pss_mb']:.0f} MB)")
    if results["page_only_first"]:
        lines.append(f"{results['page_only_first']} pages first showed a page-only game (the learner id came after "
                     "the app's wait)")
    ph = results["play_phase"]
    lines.append(f"play phase (every page open, until every hand is over): {ph['wall_s']:.0f} s wall; CPU s: Voila "
                 f"{ph['cpu_s']['voila']:.1f}, kernels {ph['cpu_s']['kernels']:.1f} (server "
                 f"{ph['server_cpu_ms_per_click']:.0f} ms a click), Chromium {ph['cpu_s']['browser']:.1f}, "
                 f"this script and Playwright's driver {ph['cpu_s']['script']:.1f}")
    pm = results["page_main_thread_ms_per_click"]
    lines.append("each page's main thread a click, ms: " + ", ".join(
        f"{k.replace('Duration', '').lower()} {v:.0f}" for k, v in pm.items()))
    if results["page_errors"]:
        lines.append(f"page errors (console, not counted as failed hands): {results['page_errors']}: " + "; ".join(
            sorted({e for o in results['per_learner'] for e in o['page_errors']}))[:300])
    lines.append(f"CPU s: server {results['cpu_s']['server']:.0f}, browser and this script "
                 f"{results['cpu_s']['client']:.0f}; wall {results['wall_s']:.0f} s; load average start "
                 f"{results['loadavg_start']} end {results['loadavg_end']} on {results['cores']} cores")
    for o in results["per_learner"]:
        if o["failures"] or o["cross_talk"]:
            lines.append(f"  learner {o['learner']} (deal {o['seed']}): " + "; ".join(o["failures"] + o["cross_talk"]))
    return "\n".join(lines)


PER_LEARNER = ("learner", "seed", "pinned_id", "policy", "completed", "reason", "failures", "cross_talk", "open_s",
               "opening", "lost",
               "page_only_first", "actions", "clicks", "learner_id", "kept_file", "kept_problem", "errors",
               "page_errors", "page_cpu_s", "south_dealt", "open_page")
"""What the results file keeps of each learner."""


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module's text). Returns 0 when every hand completed correctly with no
    cross-talk, 1 otherwise, 2 for a bad option or a missing browser."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--learners", type=int, default=20, help="learners at once, each its own browser context")
    ap.add_argument("--seed", type=int, default=1000, help="learner i opens ?deal=<seed + i> (default 1000)")
    ap.add_argument("--think", type=float, default=1.0,
                    help="mean seconds a learner waits before each click (0.5-1.5 x; 0: at once; default 1)")
    ap.add_argument("--open-timeout", type=float, default=420.0, help="seconds for a page's first control")
    ap.add_argument("--action-timeout", type=float, default=120.0, help="seconds for a click's redraw")
    ap.add_argument("--hand-timeout", type=float, default=1500.0, help="seconds for a learner's whole hand")
    ap.add_argument("--sample", type=float, default=3.0, help="seconds between memory samples")
    ap.add_argument("--keep-dir", type=Path, default=None,
                    help="an empty folder for the games the app keeps (default: a temporary one, removed at the end)")
    ap.add_argument("--json", type=Path, default=DEFAULT_JSON, help=f"results file (default {DEFAULT_JSON})")
    ap.add_argument("--pool", type=int, default=None,
                    help="app kernels in Voila's pool (default: voila.json's pools, README line 1; lessons' pools off "
                         "when given)")
    ap.add_argument("--cold", action="store_true",
                    help="a server without a pool: a kernel started for each page as it is asked for")
    ap.add_argument("--warm-timeout", type=float, default=900.0,
                    help="seconds for the pool to be ready before the class starts")
    ap.add_argument("--open-only", action="store_true", help="measure the opening only: no hand is played")
    ap.add_argument("--voila-log", type=Path, default=None, help="keep Voila's log (its kernels' too) in this file")
    ap.add_argument("--first-visit", action="store_true",
                    help="learners new to the app: no learner cookie from an earlier visit (the game opens once the "
                         "page reports the learner id)")
    opts = ap.parse_args(argv)
    if opts.learners < 1 or opts.think < 0 or min(opts.open_timeout, opts.action_timeout, opts.hand_timeout,
                                                   opts.sample) <= 0:
        ap.error("--learners must be at least 1, --think at least 0 and the timeouts and --sample above 0")
    if opts.cold and opts.pool is not None:
        ap.error("--cold and --pool exclude each other")
    if not os.path.exists(CHROMIUM):
        print(f"{CHROMIUM} not found (apt-get install -y chromium)", file=sys.stderr)
        return 2
    names = storage_names()
    opts.storage_key = names[0] if names else None
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # through the finally blocks: the server stops
    load_start = [round(x, 2) for x in os.getloadavg()]
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rook-load-") as tmp:
        keep_dir = opts.keep_dir or Path(tmp) / "kept"
        keep_dir.mkdir(parents=True, exist_ok=True)
        if any(keep_dir.iterdir()):
            print(f"--keep-dir {keep_dir} is not empty", file=sys.stderr)
            return 2
        log_path = Path(tmp) / "voila.log"
        env = {"ROOK_GAME_FILE": str(keep_dir / "game.json"), "ROOK_FILES_ROOT": str(Path(tmp))}
        args = pool_args(0 if opts.cold else opts.pool, lessons=False)
        pooled = pool_size(args)
        warm = {"pooled_kernels": pooled, "wait_s": 0.0}
        try:
            with Server(log_path, env=env, args=args) as server:
                url = f"{server.base}voila/render/app.ipynb"
                if pooled:
                    print(f"load: waiting for {pooled} pooled kernels to be ready", flush=True)
                    warm["wait_s"] = server.wait_pool(pooled, opts.warm_timeout)
                    time.sleep(3.0)  # their last messages
                    warm["memory"] = memory_snapshot(server.proc.pid)
                load_start = [round(x, 2) for x in os.getloadavg()]
                print(f"load: {opts.learners} learners on {url}, deals {opts.seed}..{opts.seed + opts.learners - 1}, "
                      f"think {opts.think} s, {'cold server' if opts.cold else f'{pooled} pooled kernels'}"
                      f"{', first visit' if opts.first_visit else ''}; load average {load_start} on "
                      f"{os.cpu_count()} cores", flush=True)
                cpu0 = memory_snapshot(server.proc.pid).get("cpu_s", 0.0)
                ccpu0 = client_cpu()
                outs, final, peak, phase, opening = asyncio.run(run_learners(opts, url, server.proc.pid))
                ccpu1 = client_cpu()
                server_cpu = final.get("cpu_s", float("nan")) - cpu0
        except BaseException:
            if log_path.exists():
                print(f"load: stopped; Voila's log ends:\n{log_path.read_text(errors='replace')[-3000:]}",
                      file=sys.stderr)
            raise
        finally:
            if opts.voila_log is not None and log_path.exists():
                opts.voila_log.write_bytes(log_path.read_bytes())
        counts = judge(outs, keep_dir) if not opts.open_only else {"failed_hands": 0, "cross_talk": 0}
    load_end = [round(x, 2) for x in os.getloadavg()]
    kinds = sorted({c["kind"] for o in outs for c in o["clicks"]})
    timed = ("redraw_ms", "ready_ms", "server_ms")
    clicks = {"all": {m: summary_ms([c[m] for o in outs for c in o["clicks"] if c.get(m) is not None])
                      for m in timed}}
    for kind in kinds:
        clicks[kind] = {m: summary_ms([c[m] for o in outs for c in o["clicks"]
                                       if c["kind"] == kind and c.get(m) is not None]) for m in timed}
    kernels = final.get("kernels", [])
    warm_kernels = (warm.get("memory") or {}).get("kernels", [])
    warm["pool_rss_mb"] = summary_ms([k["rss_mb"] for k in warm_kernels])
    warm["pool_total_rss_mb"] = sum(k["rss_mb"] for k in warm_kernels)
    results = {
        "benchmark": "load", "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": "python benchmarks/load.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "learners": opts.learners, "think_s": opts.think, "seeds": [opts.seed, opts.seed + opts.learners - 1],
        "completed": sum(o["completed"] for o in outs), **counts,
        "clicks": clicks,
        "memory": {"final": final, "peak": peak,
                   "per_learner_rss_mb": summary_ms([k["rss_mb"] for k in kernels]),
                   "per_learner_pss_mb": summary_ms([k["pss_mb"] for k in kernels]),
                   "per_learner_uss_mb": summary_ms([k["uss_mb"] for k in kernels])},
        "open_s": summary_ms([o["open_s"] for o in outs if "open_s" in o]),
        "opening": {**opening_summary(outs), "wall_s": opening["wall_s"], "cpu_s": opening["cpu_s"],
                    "memory": opening["memory"]},
        "server": {"cold": opts.cold, "pooled_kernels": pooled, "voila_args": args, "first_visit": opts.first_visit,
                   "open_only": opts.open_only},
        "warm": warm,
        "cpu_s": {"server": server_cpu, "client": ccpu1 - ccpu0},
        "play_phase": {**phase, "server_cpu_ms_per_click": (phase["cpu_s"]["voila"] + phase["cpu_s"]["kernels"])
                       * 1000 / max(1, sum(len(o["clicks"]) for o in outs))},
        "page_errors": sum(len(o["page_errors"]) for o in outs),
        "page_main_thread_ms_per_click": {k: 1000 * sum(o.get("page_cpu_s", {}).get(k, 0.0) for o in outs)
                                          / max(1, sum(len(o["clicks"]) for o in outs if "page_cpu_s" in o))
                                          for k in PAGE_METRICS},
        "page_only_first": sum(bool(o.get("page_only_first")) for o in outs),
        "wall_s": time.perf_counter() - t0, "loadavg_start": load_start, "loadavg_end": load_end,
        "cores": os.cpu_count(),
        "per_learner": [{k: o.get(k) for k in PER_LEARNER} for o in outs],
    }
    print(report(results))
    opts.json.parent.mkdir(parents=True, exist_ok=True)
    opts.json.write_text(json.dumps(results, indent=1, default=str) + "\n")
    print(f"results: {opts.json}")
    if opts.open_only:
        return 0 if results["opening"]["lost"] == 0 else 1
    return 0 if results["failed_hands"] == 0 and results["cross_talk"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
