"""benchmarks/page_open.py runs (one opening of the app: about 10-20 s), reports its numbers and stops its server."""
from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import _require_chromium

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_page_open_benchmark_one_run(tmp_path):
    _require_chromium()
    out_json = tmp_path / "page_open.json"
    proc = subprocess.run([sys.executable, "benchmarks/page_open.py", "--runs", "1", "--json", str(out_json)],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    for label in ("html", "widget", "hand", "control", "first control of the learner"):
        assert re.search(rf"^{label}\b", proc.stdout, re.M), proc.stdout
    results = json.loads(out_json.read_text())
    (run,) = results["runs"]
    assert 0 < run["html"] and 0 < run["widget"] <= run["control"] < 180, run  # the control is inside a widget
    assert run["control_kind"] in ("card", "auction") and run["control_text"], run
    assert results["seconds"]["control"]["median"] == run["control"]
    # the server it started is gone
    port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stdout).group(1))
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0, f"Voila still answers on port {port}"
