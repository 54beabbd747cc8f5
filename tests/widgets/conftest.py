"""Shared set-up of the panel tests: the app's folder (`widgets.paths`) is each test's temporary directory, where
the tests write and read the files they name by path."""
import pytest

from widgets.paths import FILES_ROOT_ENV


@pytest.fixture(autouse=True)
def _files_root(tmp_path, monkeypatch):
    monkeypatch.setenv(FILES_ROOT_ENV, str(tmp_path))
