"""Every notebook runs top to bottom without an exception (nbval, lax mode).

All notebooks (``notebooks/app.ipynb``, ``notebooks/analysis.ipynb`` and every tutorial lesson
``notebooks/tutorial/NN-*.ipynb``) are executed once per session by
``python -m pytest --nbval-lax --nbval-current-env <notebooks...>`` in a subprocess (nbval only collects
notebooks with ``--nbval-lax``, so it is kept out of this suite's own options); each notebook then gets
a test of its own here that reads its cells' results from the subprocess's JUnit XML report, so a
failure names the notebook and the cell. ``--nbval-lax`` fails on any cell that raises and compares
outputs only for cells marked ``# NBVAL_CHECK_OUTPUT`` (the saved notebooks have no outputs).
``--nbval-current-env`` runs the kernels with this interpreter, where the project is installed
(editable), so ``rookcore`` and ``widgets`` import as they do under Voila.

Each notebook starts a kernel: about 5-20 s each on an idle machine (about a minute in all).
"""
from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS_DIR = REPO_ROOT / "notebooks"
NOTEBOOKS = sorted(
    p.relative_to(REPO_ROOT).as_posix()
    for p in NOTEBOOKS_DIR.rglob("*.ipynb")
    if ".ipynb_checkpoints" not in p.parts
)
RUN_TIMEOUT_S = 2400  # all notebooks; generous: the test machines are loaded
CELL_TIMEOUT_S = 600


@pytest.fixture(scope="module")
def nbval_run(tmp_path_factory):
    """Run nbval over every notebook once; return (per-notebook cell results, the run's output)."""
    tmp = tmp_path_factory.mktemp("nbval")
    junit = tmp / "nbval.xml"
    env = dict(os.environ)
    env.pop("PYTEST_ADDOPTS", None)  # run exactly the command below
    cmd = [
        sys.executable, "-m", "pytest", "--nbval-lax", "--nbval-current-env",
        f"--nbval-cell-timeout={CELL_TIMEOUT_S}", "-p", "no:cacheprovider", "-q", "-o", "addopts=-ra",
        "--basetemp", str(tmp / "basetemp"), f"--junitxml={junit}", *NOTEBOOKS,
    ]
    try:
        proc = subprocess.run(cmd, cwd=REPO_ROOT, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        output = proc.stdout + proc.stderr
    except subprocess.TimeoutExpired as e:
        output = f"nbval did not finish in {RUN_TIMEOUT_S}s\n{e.stdout or ''}{e.stderr or ''}"
    results: dict[str, list[tuple[str, str, str]]] = {}  # notebook -> [(cell, outcome, message)]
    if junit.exists():
        for tc in ET.parse(junit).iter("testcase"):
            outcome, message = "passed", ""
            for child in tc:
                if child.tag in ("failure", "error", "skipped"):
                    outcome = child.tag
                    message = (child.get("message") or "") + "\n" + (child.text or "")
                    break
            results.setdefault(tc.get("classname", ""), []).append((tc.get("name", ""), outcome, message))
    return results, output


def test_the_expected_notebooks_are_found():
    names = set(NOTEBOOKS)
    assert "notebooks/app.ipynb" in names
    assert "notebooks/analysis.ipynb" in names
    assert sum(n.startswith("notebooks/tutorial/") for n in names) >= 8, names


@pytest.mark.timeout(RUN_TIMEOUT_S + 120)
@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_notebook_runs(notebook, nbval_run):
    results, output = nbval_run
    cells = results.get(notebook.replace("/", "."))
    assert cells, f"{notebook}: nbval ran no cell of it\n{output[-6000:]}"
    failed = [f"{name}: {outcome}\n{message[-3000:]}" for name, outcome, message in cells if outcome in ("failure", "error")]
    assert not failed, f"{notebook}:\n" + "\n".join(failed)
