"""benchmarks/load.py runs with two learners on a server with a pool of two app kernels (about 30-60 s): both pages
open from the pool and say when, both hands complete and are checked, its figures are reported, and the server it
started is gone. Not a timed test: the speed goal lives in the benchmark."""
from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import _require_chromium

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_load_benchmark_two_learners(tmp_path):
    _require_chromium()
    out_json = tmp_path / "load.json"
    proc = subprocess.run([sys.executable, "benchmarks/load.py", "--learners", "2", "--think", "0", "--pool", "2",
                           "--json", str(out_json)], cwd=REPO_ROOT, capture_output=True, text=True, timeout=540,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert re.search(r"^learners 2, hands completed 2, failed hands 0, cross-talk 0", proc.stdout, re.M), proc.stdout
    results = json.loads(out_json.read_text())
    assert results["completed"] == 2 and results["failed_hands"] == 0 and results["cross_talk"] == 0
    assert results["learner_ids"] == 2 and results["kept_files"] == 2 and results["distinct_deals"] == 2
    clicks = results["clicks"]["all"]
    assert clicks["redraw_ms"]["n"] >= 2 * 9 and clicks["server_ms"]["n"] == clicks["redraw_ms"]["n"]
    assert 0 < clicks["redraw_ms"]["median"] <= clicks["redraw_ms"]["p95"] <= clicks["redraw_ms"]["max"]
    assert re.search(r"^opening \(2 pooled kernels, warmed in \d+ s\): 2 of 2 pages reached the learner's own game, "
                     r"0 lost$", proc.stdout, re.M), proc.stdout
    opening = results["opening"]
    assert opening["lost"] == 0 and opening["seconds"]["game"]["n"] == 2
    for learner in results["per_learner"]:  # the page's own clock, in the order the page gets there
        t = learner["opening"]
        assert 0 < t["html"] <= t["ws"] <= t["first"] <= t["widget"] and t["drawn"] <= t["game"], t
        assert learner["open_s"] == t["game"]
    assert results["warm"]["memory"]["kernel_count"] == 2 and results["warm"]["pool_total_rss_mb"] > 0
    memory = results["memory"]["final"]
    # the two pages' kernels (the pool is refilled only after voila.json's fill_delay)
    assert memory["kernel_count"] >= 2 and memory["total_rss_mb"] > memory["voila"]["rss_mb"] > 0
    for learner in results["per_learner"]:
        assert learner["completed"] and not learner["failures"] and not learner["cross_talk"], learner
        assert learner["kept_file"] == f"learners/{learner['pinned_id']}/deal.json"
        assert learner["actions"] and learner["actions"][-1][0] == "play"
    port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stdout).group(1))
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0, f"Voila still answers on port {port}"
