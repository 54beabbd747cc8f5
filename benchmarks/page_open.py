"""Seconds to open the app page in headless Chromium: from navigation start to the first visible widget, to the
learner's hand drawn and to the first control the learner can click.

    python benchmarks/page_open.py                  # 5 runs of app.ipynb?deal=1
    python benchmarks/page_open.py --runs 1 --deal none --json page_open.json

Starts the app as the browser tests do (Voila on a free port of 127.0.0.1 serving notebooks/, the app's template
from this checkout's share/jupyter, nothing kept between pages: ROOK_GAME_FILE and ROOK_PROGRESS_FILE empty) with a
pool of ``--pool`` app kernels (default: as many as ``--runs``, refilled after voila.json's ``fill_delay``; 0: a
kernel started for each page, as without a pool), opens the app ``--runs`` times, each in a new browser context and
page (no cache, no cookies) once the pool has a kernel ready (it has run the app's notebook up to the page's request:
`widgets.page_request`), and stops the server
(and so its kernels) at the end, also after an error or Ctrl-C. Needs /usr/bin/chromium and playwright (the
``test`` extra).

Times are the page's own clock (``performance.now()``: milliseconds since navigation start), taken by a script
that runs before the page's own and looks at the page after every change of it:

* ``html``: the page's HTML fully received (Voila sends it while the notebook runs: the server's share);
* ``widget``: the first visible ipywidget (``--widget-selector``);
* ``hand``: the first card of the learner's hand on show (``--hand-selector``), clickable or not;
* ``control``: the first control the learner can click (visible, not disabled): a card of the hand
  (``--selector``; ``button.rook-tv-card.legal`` is the card table widget's legal card,
  ``button.rook-card-S`` the former card buttons) or, as a new hand starts with the auction and every AI before
  the learner calls at once, the auction's buttons (``--auction-selector``, "Pass" / "Bid N"); which one it was
  is printed. ``--auction-selector ''`` waits for a card only (it never comes before the learner has called);
* ``server_cpu``: CPU seconds (user + system) that Voila and the page's kernel spent from navigation start to the
  first control (psutil), next to the wall-clock seconds above, which other jobs on the cores stretch;
* ``browser_cpu``: CPU seconds of Chromium's processes over the same time (loading Voila's scripts, drawing).

Each page is closed as a learner closes it, which shuts its kernel down before the next run.

``?deal=<seed>`` (default 1) makes every run the same deal with the same AI calls before the learner's.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
READY_TIMEOUT_S = 90.0
STOP_TIMEOUT_S = 15.0
CARD_SELECTOR = "button.rook-tv-card.legal, button.rook-card-S:not([disabled])"
AUCTION_SELECTOR = "button.rook-bid:not([disabled])"
HAND_SELECTOR = ".rook-tv-card, button.rook-card-S"
WIDGET_SELECTOR = ".jupyter-widgets"
METRICS = ("html", "widget", "hand", "control", "server_cpu", "browser_cpu")

# Runs in the page before its own scripts: records when each selector first matches a visible (and, for the
# controls, clickable) element, in performance.now() milliseconds (0 = navigation start).
WATCH_JS = """
(() => {
  const checks = %s;  // [key, css selector, must be clickable]
  const found = {};
  window.__pageOpen = found;
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const clickable = (el) => visible(el) && !el.disabled && el.getAttribute('aria-disabled') !== 'true';
  const look = () => {
    for (const [key, css, click] of checks) {
      if (found[key] || !css) continue;
      for (const el of document.querySelectorAll(css)) {
        if (click ? clickable(el) : visible(el)) {
          const text = (el.innerText || el.getAttribute('aria-label') || el.title || '').trim();
          found[key] = {ms: performance.now(), text: text.slice(0, 40), cls: String(el.className).slice(0, 80)};
          break;
        }
      }
    }
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true, attributes: true});
  const tick = () => { look(); if (checks.some(([key, css]) => css && !found[key])) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})();
"""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _jupyter_path() -> str:
    """JUPYTER_PATH with this checkout's share/jupyter first: Voila finds the app's template there."""
    own = str(ROOT / "share" / "jupyter")
    rest = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p and p != own]
    return os.pathsep.join([own, *rest])


READY_LINE = "ready, waiting for a page"
"""What the server's log says when a kernel of Voila's pool has run its notebook up to its page's request
(`widgets.page_request`)."""


def pool_args(app: int | None, lessons: bool = True, fill_delay: float | None = None) -> list[str]:
    """Voila's options for the app's kernel pool: ``app`` kernels of app.ipynb (None: voila.json's pools as they are,
    README line 1; 0: no pool, a kernel started for each page), the lessons' pools of voila.json kept when
    ``lessons``, and ``fill_delay`` (seconds before a taken kernel is replaced; None: voila.json's)."""
    if app is None:
        return []
    if app <= 0:
        return ["--VoilaConfiguration.preheat_kernel=False"]
    pools = {"default": {"pool_size": 0}, "app.ipynb": {"pool_size": app}}
    if lessons:
        own = json.loads((ROOT / "voila.json").read_text())["VoilaKernelManager"]["kernel_pools_config"]
        pools.update({k: v for k, v in own.items() if k.startswith("tutorial/")})
    delay = [] if fill_delay is None else [f"--VoilaKernelManager.fill_delay={fill_delay:g}"]
    return ["--VoilaConfiguration.preheat_kernel=True", f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}",
            *delay]


def pool_size(args: list[str]) -> int:
    """The number of pooled kernels (every notebook's) a server started with Voila's options ``args`` keeps: from
    ``args`` (`pool_args`), else from voila.json (0 when the pool is off)."""
    config = json.loads((ROOT / "voila.json").read_text())
    on = config.get("VoilaConfiguration", {}).get("preheat_kernel", False)
    pools = config.get("VoilaKernelManager", {}).get("kernel_pools_config", {})
    for arg in args:
        if arg.startswith("--VoilaConfiguration.preheat_kernel="):
            on = arg.split("=", 1)[1] == "True"
        elif arg.startswith("--VoilaKernelManager.kernel_pools_config="):
            pools = json.loads(arg.split("=", 1)[1])
    return sum(int(v.get("pool_size", 0)) for k, v in pools.items() if k != "default") if on else 0


class Server:
    """``python -m voila`` serving notebooks/ on a free port of 127.0.0.1, as tests/browser/conftest.py starts it;
    a context manager that always stops it.

    Args:
      log_path: the file that receives Voila's output (a `Path`; written, not removed).
      env: variables for the server and its kernels over this process's (dict of str); by default the app keeps
        nothing (``ROOK_GAME_FILE`` and ``ROOK_PROGRESS_FILE`` empty), which ``env`` may change.
      args: Voila's options after the README's (`pool_args`); none: voila.json as it is (README line 1).
    Entering raises RuntimeError when Voila exits or does not answer within ``READY_TIMEOUT_S`` seconds.
    """

    def __init__(self, log_path: Path, env: dict | None = None, args: list[str] | None = None) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}/"
        self.log_path = log_path
        self.env = dict(env or {})
        self.args = list(args or [])
        self.proc: subprocess.Popen | None = None

    def ready_kernels(self) -> int:
        """How many pooled kernels have reached their page's request so far (the log's `READY_LINE`s)."""
        self._log.flush()
        return self.log_path.read_text(errors="replace").count(READY_LINE)

    def wait_pool(self, count: int, timeout_s: float) -> float:
        """Wait until ``count`` pooled kernels in all have been ready (`ready_kernels`); returns the seconds waited.
        Raises RuntimeError after ``timeout_s`` seconds or when Voila exits."""
        start = time.monotonic()
        while self.ready_kernels() < count:
            if self.proc is None or self.proc.poll() is not None:
                raise RuntimeError(f"Voila exited:\n{self._log_tail()}")
            if time.monotonic() - start > timeout_s:
                raise RuntimeError(f"{self.ready_kernels()} of {count} pooled kernels ready after {timeout_s:.0f} s")
            time.sleep(0.5)
        return time.monotonic() - start

    def __enter__(self) -> "Server":
        self._log = open(self.log_path, "wb")
        env = {**os.environ, "JUPYTER_PATH": _jupyter_path(), "ROOK_GAME_FILE": "", "ROOK_PROGRESS_FILE": "",
               **self.env}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "voila", "--no-browser", f"--port={self.port}", "--Voila.ip=127.0.0.1",
             *self.args, "notebooks"],
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
            start_new_session=True)
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"Voila exited with {self.proc.returncode}:\n{self._log_tail()}")
            try:
                with urllib.request.urlopen(self.base + "voila/static/voila.js", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"Voila not ready after {READY_TIMEOUT_S:.0f}s:\n{self._log_tail()}")
            time.sleep(0.25)

    def _log_tail(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")[-4000:]

    def stop(self) -> None:
        """SIGTERM (Voila then shuts its kernels down), SIGKILL to its process group if it does not exit."""
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait(timeout=STOP_TIMEOUT_S)
        if getattr(self, "_log", None) is not None and not self._log.closed:
            self._log.close()


def server_cpu(pid: int) -> dict[int, float]:
    """CPU seconds (user + system) of the server and its children (the pages' kernels), by process id."""
    try:
        import psutil  # noqa: PLC0415 - ipykernel's dependency, so there with the app
    except ImportError:
        return {}
    out = {}
    try:
        root = psutil.Process(pid)
        for proc in [root, *root.children(recursive=True)]:
            try:
                t = proc.cpu_times()
                out[proc.pid] = t.user + t.system
            except psutil.Error:
                pass
    except psutil.Error:
        pass
    return out


def browser_cpu() -> float:
    """CPU seconds (user + system) so far of the Chromium processes under this script; NaN without psutil."""
    try:
        import psutil  # noqa: PLC0415
    except ImportError:
        return float("nan")
    total = 0.0
    for proc in psutil.Process().children(recursive=True):
        try:
            if "chrom" in proc.name().lower():
                t = proc.cpu_times()
                total += t.user + t.system
        except psutil.Error:
            pass
    return total


def open_once(browser, url: str, checks: list, timeout_s: float, server_pid: int) -> dict:
    """Open ``url`` in a new context; the seconds from navigation start to each metric, what was clicked, and the
    CPU seconds the server and the page's kernel spent meanwhile. The page is then closed as a learner closes it
    (Voila's kernel-shutdown request ends its kernel)."""
    context = browser.new_context(viewport={"width": 1280, "height": 1400})
    try:
        page = context.new_page()
        page.add_init_script(WATCH_JS % json.dumps(checks))
        cpu_before, chrome_before = server_cpu(server_pid), browser_cpu()
        page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
        want_control = [key for key, css, _ in checks if key in ("card", "auction") and css]
        page.wait_for_function(
            "(keys) => { const f = window.__pageOpen; return f && f.widget && f.hand && keys.some(k => f[k]); }",
            arg=want_control, timeout=timeout_s * 1000, polling=100)
        cpu_after, chrome_after = server_cpu(server_pid), browser_cpu()
        found = page.evaluate("() => window.__pageOpen")
        nav = page.evaluate("() => { const n = performance.getEntriesByType('navigation')[0];"
                            " return n ? n.responseEnd : null; }")
        if not nav:  # the HTML is still streaming when the controls show (not with Voila's template today)
            page.wait_for_load_state("domcontentloaded", timeout=timeout_s * 1000)
            nav = page.evaluate("() => performance.getEntriesByType('navigation')[0].responseEnd")
        control_key = min((k for k in want_control if k in found), key=lambda k: found[k]["ms"])
        control = found[control_key]
        cpu = sum(t - cpu_before.get(pid, 0.0) for pid, t in cpu_after.items()) if cpu_after else float("nan")
        page.close(run_before_unload=True)
        return {"html": nav / 1000, "widget": found["widget"]["ms"] / 1000, "hand": found["hand"]["ms"] / 1000,
                "control": control["ms"] / 1000, "control_kind": control_key, "control_text": control["text"],
                "control_class": control["cls"], "server_cpu": cpu, "browser_cpu": chrome_after - chrome_before}
    finally:
        time.sleep(0.5)  # the closing page's kernel-shutdown request goes out before its context is gone
        context.close()


def summary(values: list[float]) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "all": values}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="page openings, each in a new browser context (default 5)")
    ap.add_argument("--deal", default="1", help="?deal=<seed> of the app link (default 1); 'none' for no link")
    ap.add_argument("--selector", default=CARD_SELECTOR, help="a clickable card of the learner's hand")
    ap.add_argument("--auction-selector", default=AUCTION_SELECTOR,
                    help="the auction's clickable controls ('' to wait for a card only)")
    ap.add_argument("--hand-selector", default=HAND_SELECTOR, help="a card of the learner's hand on show")
    ap.add_argument("--widget-selector", default=WIDGET_SELECTOR, help="any widget")
    ap.add_argument("--timeout", type=float, default=180.0, help="seconds per opening before giving up")
    ap.add_argument("--pool", type=int, default=None,
                    help="app kernels in Voila's pool, ready before the runs (default: --runs; 0: no pool)")
    ap.add_argument("--json", type=Path, default=None, help="also write the results to this file")
    args = ap.parse_args(argv)
    args.pool = args.runs if args.pool is None else args.pool
    if args.runs < 1 or args.pool < 0:
        ap.error("--runs must be at least 1 and --pool at least 0")
    if not os.path.exists(CHROMIUM):
        print(f"{CHROMIUM} not found (apt-get install -y chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - the test extra

    # a SIGTERM (e.g. a test's timeout) ends the run through the finally blocks, which stop the server
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    query = "" if args.deal.lower() == "none" else f"?deal={int(args.deal)}"
    checks = [["widget", args.widget_selector, False], ["hand", args.hand_selector, False],
              ["card", args.selector, True], ["auction", args.auction_selector, True]]
    log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"page_open-voila-{os.getpid()}.log"
    runs: list[dict] = []
    t0 = time.perf_counter()
    try:
        measure(args, checks, query, log_path, runs, sync_playwright)
    except BaseException:
        print(f"page_open: stopped; Voila's log: {log_path}", file=sys.stderr)
        raise
    results = {"url_query": query, "pool": args.pool, "runs": runs,
               "seconds": {m: summary([r[m] for r in runs]) for m in METRICS},
               "control_kinds": sorted({f"{r['control_kind']} ({r['control_class']})" for r in runs}),
               "wall_s": time.perf_counter() - t0}
    print(f"\nseconds from navigation start ({args.runs} run(s), pool {args.pool}; server_cpu, browser_cpu: CPU "
          "seconds of Voila with its kernels, and of Chromium, until the first control):")
    print(f"{'':10}  {'median':>6}  {'min':>6}  {'max':>6}  all")
    for m in METRICS:
        s = results["seconds"][m]
        print(f"{m:10}  {s['median']:6.2f}  {s['min']:6.2f}  {s['max']:6.2f}  "
              + " ".join(f"{v:.2f}" for v in s["all"]))
    print("first control of the learner: " + "; ".join(results["control_kinds"]))
    print(f"whole run (server start and stop included): {results['wall_s']:.1f} s")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    log_path.unlink(missing_ok=True)
    return 0


def measure(args, checks: list, query: str, log_path: Path, runs: list, sync_playwright) -> None:
    """Start the server and a browser, open the app ``args.runs`` times (appending to ``runs``), stop both."""
    with Server(log_path, args=pool_args(args.pool, lessons=False)) as server, sync_playwright() as pw:
        url = f"{server.base}voila/render/app.ipynb{query}"
        print(f"page_open: {url}, {args.runs} run(s), a new browser context each, pool {args.pool}; load average "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores", flush=True)
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            print(f"{'run':>3}  {'html':>6}  {'widget':>6}  {'hand':>6}  {'control':>7}  {'server_cpu':>10}  "
                  f"{'browser_cpu':>11}  first control", flush=True)
            for i in range(args.runs):
                if args.pool:  # a kernel of the pool has run the notebook up to the request (refills count too)
                    server.wait_pool(max(args.pool if i == 0 else 0, i + 1), READY_TIMEOUT_S * 8)
                    time.sleep(1.0)  # and the server has settled after the last page's close
                r = open_once(browser, url, checks, args.timeout, server.proc.pid)
                runs.append(r)
                print(f"{i + 1:>3}  {r['html']:6.2f}  {r['widget']:6.2f}  {r['hand']:6.2f}  {r['control']:7.2f}  "
                      f"{r['server_cpu']:10.2f}  {r['browser_cpu']:11.2f}  {r['control_kind']}: {r['control_text']!r}",
                      flush=True)
        finally:
            browser.close()


if __name__ == "__main__":
    sys.exit(main())
