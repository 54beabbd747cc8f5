"""Shared set-up of the panel tests: the app's folder and the page's records folder (`widgets.paths`) are each test's
temporary directory, where the tests write and read the files they name by path (the class folder is its
``class/``)."""
import pytest

from widgets import paths
from widgets.paths import FILES_ROOT_ENV


@pytest.fixture(autouse=True)
def _files_root(tmp_path, monkeypatch):
    monkeypatch.setenv(FILES_ROOT_ENV, str(tmp_path))
    monkeypatch.delenv(paths.CLASS_DIR_ENV, raising=False)
    paths.use_folder(tmp_path)
    yield
    paths.use_folder(None)


@pytest.fixture
def no_callback_errors(caplog):
    """Fail the test if a widget callback raised (ipywidgets logs "Exception in callback" instead of raising): the
    panels must show errors on the page, never let one escape. Used by the modules that mark it."""
    yield
    bad = [r for r in caplog.records if "Exception in callback" in r.getMessage()]
    assert not bad, bad[0].getMessage()
