"""The app's Voila template says a page's trouble in every language of the app (share/jupyter/voila/templates/rook:
the 'did not open' and 'lost its connection' banners, issue 31 items 2 and 6). The banners themselves are tested in
Chromium (tests/browser/test_learner_pages.py); here, that each language has its own words for each of them."""
from __future__ import annotations

import json
import re
from pathlib import Path

from rookcore import i18n

TEMPLATE = Path(__file__).resolve().parents[1] / "share" / "jupyter" / "voila" / "templates" / "rook" / "index.html.j2"
KEYS = ("open", "retry", "lost", "reload")


def _words() -> dict:
    """The template's WORDS table (a JavaScript object literal of plain strings) as a dict."""
    text = TEMPLATE.read_text(encoding="utf-8")
    block = re.search(r"var WORDS = (\{.*?\n    \});", text, re.S).group(1)
    keys = "|".join(("en", *i18n.LANGUAGES, *KEYS))
    as_json = re.sub(rf"(\{{|,\s*|\n\s*)({keys}):(?=\s)", r'\1"\2":', block.replace("'", '"'))
    return json.loads(as_json)


def test_every_language_of_the_app_has_its_own_words_for_each_banner():
    words = _words()
    assert set(words) == {"en", *i18n.LANGUAGES}
    for lang, table in words.items():
        assert set(table) == set(KEYS), lang
        assert all(table[k].strip() for k in KEYS), lang
        if lang != "en":
            assert all(table[k] != words["en"][k] for k in KEYS), lang  # translated, not English left in


def test_the_buttons_say_what_the_app_says_elsewhere():
    """'Try again' is the words of the server-full page (rookserver.full_page), from the catalogs."""
    words = _words()
    for lang in i18n.LANGUAGES:
        with i18n.using(lang):
            assert words[lang]["retry"] == i18n._("Try again"), lang
