"""Bundled example records: listing, loading, and their expected score reports (library and CLI)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rookcore import records
from rookcore.examples import example_path, expected_path, list_examples, load_example, step_count
from rookcore.records import HandRecord

EXAMPLES = list_examples()


def test_examples_listed():
    assert len(EXAMPLES) >= 16
    assert "crowsnest-made" in EXAMPLES
    assert not any(n.endswith(".expected") for n in EXAMPLES)
    assert EXAMPLES == sorted(EXAMPLES)


def test_every_example_has_expected_output():
    for name in EXAMPLES:
        assert example_path(name).is_file()
        assert expected_path(name).is_file(), name


def test_unknown_example():
    with pytest.raises(KeyError):
        example_path("no-such-example")
    with pytest.raises(KeyError):
        load_example("crowsnest-made.expected")


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_scores_as_expected(name):
    record = load_example(name)
    assert isinstance(record, HandRecord)
    expected = json.loads(expected_path(name).read_text("utf-8"))
    assert records.score_report(record) == expected
    assert step_count(record) == len(record.actions())
    assert record.replay().step == step_count(record)


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_round_trips(name):
    doc = json.loads(example_path(name).read_text("utf-8"))
    assert load_example(name).to_json() == doc


@pytest.mark.parametrize("name", EXAMPLES)
def test_cli_main_score_matches_expected(name, capsys):
    from rookcore.cli import main
    assert main(["score", str(example_path(name))]) == 0
    expected = json.loads(expected_path(name).read_text("utf-8"))
    assert json.loads(capsys.readouterr().out) == expected


def test_cli_subprocess_score_matches_expected():
    """``python -m rookcore score FILE`` for every example (processes run side by side: each start-up is slow)."""
    procs = {name: subprocess.Popen([sys.executable, "-m", "rookcore", "score", str(example_path(name))],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for name in EXAMPLES}
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, f"{name}: {err}"
        expected = json.loads(expected_path(name).read_text("utf-8"))
        assert json.loads(out) == expected, name
