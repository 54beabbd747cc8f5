"""Bundled example hand records (``rookcore/data/records/*.json``).

Each example ``NAME.json`` ships with ``NAME.expected.json``, the ``score``
command's output for it. Files are found with importlib.resources, so this
works from a wheel install as well as an editable checkout.
"""
from __future__ import annotations

import pathlib
from importlib import resources

from .records import GameRecord, HandRecord, RecordError, loads

RECORDS_PACKAGE = "rookcore.data.records"
EXPECTED_SUFFIX = ".expected.json"


def _records_dir():
    return resources.files(RECORDS_PACKAGE)


def list_examples() -> list[str]:
    """Names (without ``.json``) of the bundled records, sorted; ``*.expected.json`` left out."""
    names = []
    for entry in _records_dir().iterdir():
        name = entry.name
        if name.endswith(".json") and not name.endswith(EXPECTED_SUFFIX):
            names.append(name[:-len(".json")])
    return sorted(names)


def _check_name(name: str) -> None:
    if name not in list_examples():
        raise KeyError(f"no bundled example named {name!r} (known: {', '.join(list_examples())})")


def example_path(name: str) -> pathlib.Path:
    """Filesystem path of the bundled record ``name`` (raises KeyError for an unknown name)."""
    _check_name(name)
    return pathlib.Path(str(_records_dir().joinpath(name + ".json")))


def expected_path(name: str) -> pathlib.Path:
    """Path of ``name``'s expected score report (``NAME.expected.json``)."""
    _check_name(name)
    return pathlib.Path(str(_records_dir().joinpath(name + EXPECTED_SUFFIX)))


def example_text(name: str) -> str:
    """JSON text of the bundled record ``name``."""
    _check_name(name)
    return _records_dir().joinpath(name + ".json").read_text("utf-8")


def load_example(name: str) -> HandRecord | GameRecord:
    """Read and validate the bundled record ``name`` (a HandRecord for every shipped example).

    Raises KeyError for an unknown name, RecordError if the file is not a valid record.
    """
    try:
        return loads(example_text(name))
    except RecordError as e:
        raise RecordError(f"{name}.json: {e}") from e


def step_count(record: HandRecord) -> int:
    """Number of steps of a hand record (calls, discard, trump, cards): the replay's last step."""
    return len(record.actions())
