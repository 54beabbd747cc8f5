"""binder/ works the way mybinder.org (repo2docker's Python buildpack) uses it.

repo2docker reads ``binder/runtime.txt`` (``python-X.Y`` picks the Python version) and, because
``binder/requirements.txt`` names a local path (``.``), copies the whole repository and runs
``pip install -r binder/requirements.txt`` with the repository root as the working directory; pip
reads a bare ``.`` in a requirements file relative to that working directory, i.e. the repository
root. The README's Binder badge then opens ``?urlpath=voila/render/notebooks/app.ipynb`` on a Jupyter
server started in the repository root, which Voila's server extension serves.

This test does the same without Docker: a fresh virtual environment in a temporary directory,
``pip install -r binder/requirements.txt`` from the repository root, then that environment's Voila
serving the repository root, and the app and a tutorial lesson fetched at the Binder URL paths. ``binder/postBuild``
(run by repo2docker after the install) is run too: it compiles the double-dummy core into numba's cache.
Slow (a full install: about 1-3 minutes with a warm pip cache) and needs PyPI.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]

REPO_ROOT = Path(__file__).resolve().parents[1]
BINDER = REPO_ROOT / "binder"
BINDER_PAGES = (  # what the README's badge opens, and a lesson linked from the Learn tab
    "voila/render/notebooks/app.ipynb",
    "voila/render/notebooks/tutorial/01-deck-and-counters.ipynb",
)
PIP_TIMEOUT_S = 1800
READY_TIMEOUT_S = 180
PAGE_TIMEOUT_S = 600  # a page runs its notebook in a new kernel before answering
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _venv_env(venv: Path, home: Path | None = None) -> dict:
    """Environment for running the venv's programs: its bin/ first, nothing leaking in from outside."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTEST_ADDOPTS")
           and not k.startswith("JUPYTER")}
    env["VIRTUAL_ENV"] = str(venv)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    if home is not None:  # no user-level Jupyter config or kernelspecs from the outer environment
        env["HOME"] = str(home)
        env["JUPYTER_CONFIG_DIR"] = str(home / ".jupyter")
        env["JUPYTER_DATA_DIR"] = str(home / ".local" / "share" / "jupyter")
        env["JUPYTER_RUNTIME_DIR"] = str(home / ".local" / "share" / "jupyter" / "runtime")
    return env


def _run(cmd, *, cwd, env, timeout, what):
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"{what} did not finish in {timeout}s:\n{(e.stdout or '')[-4000:]}{(e.stderr or '')[-4000:]}")
    assert proc.returncode == 0, f"{what} failed (exit {proc.returncode}):\n{proc.stdout[-6000:]}\n{proc.stderr[-6000:]}"
    return proc


def test_runtime_txt_is_a_python_3_11_runtime():
    # repo2docker reads the whole file, stripped, and expects "python-X.Y" (X.Y = major.minor).
    runtime = (BINDER / "runtime.txt").read_text().strip()
    assert re.fullmatch(r"python-3\.\d+", runtime), runtime
    assert runtime == "python-3.11", runtime
    # ... and the project itself must accept that Python.
    pyproject = (REPO_ROOT / "pyproject.toml").read_text()
    assert 'requires-python = ">=3.11"' in pyproject


def test_requirements_install_the_project_from_the_repository_root():
    lines = [ln.split("#", 1)[0].strip() for ln in (BINDER / "requirements.txt").read_text().splitlines()]
    lines = [ln for ln in lines if ln]
    # "." is read relative to pip's working directory, which repo2docker sets to the repository root
    # (binder/ itself holds no project, so a path relative to binder/ would have to be "..").
    assert "." in lines, lines
    assert not (BINDER / "pyproject.toml").exists() and not (BINDER / "setup.py").exists()


@pytest.fixture(scope="module")
def binder_venv(tmp_path_factory):
    """A fresh venv with ``pip install -r binder/requirements.txt`` run from the repository root."""
    base = tmp_path_factory.mktemp("binder")
    venv = base / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], cwd=base, env=_venv_env(venv), timeout=300,
         what="python -m venv")
    py = venv / "bin" / "python"
    _run([str(py), "-m", "pip", "install", "-r", "binder/requirements.txt"], cwd=REPO_ROOT,
         env=_venv_env(venv), timeout=PIP_TIMEOUT_S, what="pip install -r binder/requirements.txt")
    _run(["bash", "binder/postBuild"], cwd=REPO_ROOT, env=_venv_env(venv), timeout=600, what="binder/postBuild")
    try:
        yield venv
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_binder_install_provides_the_app(binder_venv, tmp_path):
    py = binder_venv / "bin" / "python"
    # Import from outside the checkout: the packages must come from the venv, not the working tree.
    code = ("import json, sys, rookcore, widgets.app, widgets.lessons, voila, ipywidgets, ipykernel; "
            "print(json.dumps({'rookcore': rookcore.__file__, 'widgets': widgets.app.__file__, "
            "'prefix': sys.prefix}))")
    out = _run([str(py), "-c", code], cwd=tmp_path, env=_venv_env(binder_venv), timeout=300,
               what="importing the app in the Binder venv")
    info = json.loads(out.stdout.strip().splitlines()[-1])
    assert Path(info["prefix"]).resolve() == binder_venv.resolve(), info
    for key in ("rookcore", "widgets"):
        assert str(binder_venv.resolve()) in str(Path(info[key]).resolve()), info
    # The bundled game records and schemas ship with the installed package (not only in the checkout).
    pkg = Path(info["rookcore"]).parent
    assert list((pkg / "data" / "records").glob("*.json")), "no records in the installed package"
    assert list((pkg / "schema").glob("*.json")), "no schemas in the installed package"


def test_binder_voila_serves_the_app_and_a_lesson(binder_venv, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = _venv_env(binder_venv, home)
    port = _free_port()
    log_path = tmp_path / "voila.log"
    base = f"http://127.0.0.1:{port}/"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [str(binder_venv / "bin" / "python"), "-m", "voila", "--no-browser", f"--port={port}",
             "--Voila.ip=127.0.0.1", "."],
            cwd=REPO_ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + READY_TIMEOUT_S
            while True:
                assert proc.poll() is None, f"Voila exited with {proc.returncode}:\n{log_path.read_text(errors='replace')}"
                try:
                    with urllib.request.urlopen(base + "voila/static/voila.js", timeout=5) as r:
                        if r.status == 200:
                            break
                except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                    pass
                assert time.monotonic() < deadline, (
                    f"Voila not ready after {READY_TIMEOUT_S}s:\n{log_path.read_text(errors='replace')}")
                time.sleep(0.5)

            for path in BINDER_PAGES:
                try:
                    with urllib.request.urlopen(base + path, timeout=PAGE_TIMEOUT_S) as r:
                        status, html = r.status, r.read().decode("utf-8", "replace")
                except urllib.error.HTTPError as e:
                    pytest.fail(f"GET /{path}: HTTP {e.code}\n{e.read()[-3000:]!r}\n"
                                f"{log_path.read_text(errors='replace')[-6000:]}")
                assert status == 200, path
                # The notebook ran in a kernel and its widgets are on the page.
                assert WIDGET_MIME in html, f"/{path}: no widget view in the page\n{html[-3000:]}"
                assert "Traceback" not in html, f"/{path}: a traceback is on the page"
                assert "There was an error when executing cell" not in html, f"/{path}: a cell failed"
                # The app's Voila template (voila.json), installed by pip as the project's data files: no Font
                # Awesome from a CDN (tests/browser/test_clean_page.py checks the pages in a browser)
                assert "/voila/templates/rook/static/" in html, f"/{path}: not rendered with the app's template"
                assert "cdn.jsdelivr.net" not in html, f"/{path}: the page links a CDN"
            log_text = log_path.read_text(errors="replace")
            assert "Traceback" not in log_text, log_text[-6000:]
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)  # Voila and the kernels it started
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=20)
