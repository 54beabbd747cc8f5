"""The app in the learner's language (issue 26): Settings' Language list and ``?lang=`` switch the header, the tab
titles, the Play tab (panel, card table, end of hand), the Rules tab and Settings; Persian is laid out right to left
with the table's seats mirrored; an unknown ``?lang=`` says so and stays English; the pseudo-locale leaves no English
on the Play panel's labels, buttons, headers and the AI's own sentences (its reasoning and the hint; card codes and
numbers aside), nor on Replay (a record loaded, stepped through, commented, marked, analysed within a short time
budget, its marks applied and saved) or the statistics panel (a run, its plots' words); the statistics page follows
``?lang=`` as the app does."""
from __future__ import annotations

import re
from html import unescape

import ipywidgets as w
import pytest

from rookcore import i18n, saved
from rookcore.hand import Phase
from widgets.app import TAB_TITLES, build_app, parse_links
from widgets.table_view import TableView


pytestmark = pytest.mark.usefixtures("no_callback_errors")  # tests/widgets/conftest.py


def _text(html: str) -> str:
    html = re.sub(r"<style>.*?</style>", " ", html, flags=re.S)  # the page's styles are no words
    return unescape(re.sub(r"<[^>]+>", " ", html))


def _walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


def _words_of(widget) -> list[str]:
    """Every text a widget tree shows: descriptions, tooltips, placeholders, HTML, the lists' labels and the card
    table's words (seat labels, captions, each card's label)."""
    texts = []
    for x in _walk(widget):
        for attr in ("description", "tooltip", "placeholder"):
            value = getattr(x, attr, None)
            if isinstance(value, str) and value:
                texts.append(value)
        if isinstance(x, (w.HTML, w.Label)):
            texts.append(_text(x.value))
        if isinstance(x, w.Dropdown):
            texts.extend(label for label, _value in x._options_full)  # noqa: SLF001 - the labels on show
        if isinstance(x, TableView) and x.view:
            labels = x.view["labels"]
            texts += [labels[k] for k in ("trump", "nest", "last", "trick", "hand")]
            texts += [v for seat in labels["seats"].values() for v in seat.values()]
            texts += [c["label"] for c in x.view["hand"]]
    return [t for t in texts if t.strip()]


# ------------------------------------------------------------------------------------------- switching
def test_settings_language_switches_the_play_tab_rules_and_settings():
    app = build_app(query="")
    panel = app.play_panel
    assert app.lang == "en" and panel.hint_button.description == "Hint" and "Dealer" in panel.header.value
    assert app.settings.language.value == "en"
    app.settings.language.value = "de"
    assert app.lang == "de" and panel.lang == "de"
    assert panel.hint_button.description == "Tipp"
    assert panel.undo_button.description == "Rückgängig"
    assert panel.new_game_button.description == "Neues Spiel"
    assert "Geber" in panel.header.value and "Dealer" not in panel.header.value
    assert "KI-Überlegungen" in panel.reasoning_pane.heading.value
    assert tuple(app.tab.titles) == ("Spielen", "Wiederholen", "Lernen", "Regeln", "Einstellungen")
    assert "Regelwerk" in app.play_header.value and "Auf einen Blick" in app.rules_view.value
    assert app.settings.apply_button.description == "Übernehmen"
    assert "Lernen Sie das Kartenspiel Rook" in app.header.value
    seats = panel.table_view.view["labels"]["seats"]
    assert seats["S"]["name"] == "Süd" and seats["S"]["role"] == "(Sie)"
    # a callback after the change speaks German too (the panel's handlers run in its language)
    if panel.table.is_learner_turn() and panel.table.state.phase is Phase.AUCTION:
        assert panel.pass_button.description == "Passen"
        panel.pass_button.click()
        assert "Rule set" not in app.play_header.value and "Your" not in panel.status.value
    # and back: English exactly as before
    app.settings.language.value = "en"
    assert panel.hint_button.description == "Hint" and tuple(app.tab.titles) == TAB_TITLES
    assert "Rule set: <b>CrowsNest</b>" in app.play_header.value and "rook-rtl" not in app._dom_classes


def test_languages_do_not_leak_between_pages():
    """Two pages in two languages: each page's callbacks speak its own language; nothing else changes."""
    de, fa = build_app(query="?lang=de"), build_app(query="?lang=fa")
    de.play_panel.refresh()
    fa.play_panel.refresh()
    assert de.play_panel.hint_button.description == "Tipp"
    assert fa.play_panel.hint_button.description == "راهنما"
    assert i18n.current_language() == "en"


def test_lang_link_fa_is_right_to_left_with_mirrored_seats():
    app = build_app(query="?lang=fa")
    assert app.lang == "fa" and app.direction == "rtl" and "rook-rtl" in app._dom_classes
    assert app.settings.language.value == "fa"
    view = app.play_panel.table_view.view
    assert view["dir"] == "rtl"
    # the learner (South) at the bottom; West, on the learner's left at a real table, is drawn on the right
    assert view["positions"]["bottom"] == "S" and view["positions"]["right"] == "W" and view["positions"]["left"] == "E"
    assert view["labels"]["seats"]["W"]["name"] == "غرب"
    assert "dir='rtl'" in app.header.value and "dir='rtl'" in app.rules_view.value
    assert tuple(app.tab.titles)[0] == "بازی"
    # numbers and card codes stay left to right inside Persian sentences (isolates around them)
    assert i18n.LRI in app.play_panel.header.value
    english = build_app(query="")
    assert english.play_panel.table_view.view["positions"]["left"] == "W" and "dir" not in \
        english.play_panel.table_view.view


def test_unknown_lang_gives_a_note_and_english():
    links = parse_links("?lang=zz")
    assert "lang" not in links and len(links["errors"]) == 1 and "?lang=" in links["errors"][0]
    app = build_app(query="?lang=zz")
    assert app.lang == "en" and tuple(app.tab.titles) == TAB_TITLES
    assert "?lang= names a language of the page" in app.link_message.value and "English" in app.link_message.value
    assert app.play_panel.hint_button.description == "Hint"
    assert parse_links("?lang=de-AT")["lang"] == "de" and parse_links("?lang=en")["lang"] == "en"
    assert parse_links("?lang=xx")["lang"] == "xx"


def test_the_language_is_kept_with_the_game(monkeypatch, tmp_path):
    monkeypatch.setenv(saved.GAME_FILE_ENV, str(tmp_path / "game.pickle"))
    first = build_app(query="")
    first.play_panel.call_pass() if first.play_panel.table.is_learner_turn() else None
    first.settings.language.value = "cs"
    again = build_app(query="")
    assert again.lang == "cs" and again.play_panel.hint_button.description == "Nápověda"
    assert build_app(query="?lang=ro").lang == "ro"  # a link's language comes first


def test_the_welcome_back_line_is_in_the_page_language(monkeypatch, tmp_path):
    """The kept game's welcome (made by rookcore.saved before the page's language is known) is said in the page's
    language, its date in that language's short form; in the pseudo-locale no English word is left on the line."""
    monkeypatch.setenv(saved.GAME_FILE_ENV, str(tmp_path / "game.pickle"))
    first = build_app(query="")
    first.play_panel.call_pass()
    status = _text(build_app(query="").play_panel.status.value).strip()
    assert status.startswith("Welcome back: your game goes on (hand 1, N–S 0 · E–W 0; kept on ")
    german = _text(build_app(query="?lang=de").play_panel.status.value).strip()
    assert german.startswith("Willkommen zurück: Ihre Partie geht weiter (Spiel 1, N–S 0 · O–W 0; gespeichert am ")
    pseudo = _text(build_app(query="?lang=xx").play_panel.status.value).strip()
    assert pseudo.startswith("⟦") and not _english_words([pseudo]), pseudo


# ------------------------------------------------------------------------------------------- pseudo-locale
_ENGLISH_WORD = re.compile(r"(?<![\w⟦])[A-Za-z]{2,}(?!\w)")
_NOTATION = {"CROW", "ROOK"}
_FILE = re.compile(r"[\w./-]+\.json")


def _english_words(texts) -> list[tuple[str, str]]:
    """(word, text) for each ASCII word left in ``texts``: card notation, file names and numbers aside."""
    found = []
    for text in texts:
        for word in _ENGLISH_WORD.findall(_FILE.sub(" ", text)):
            if word not in _NOTATION:
                found.append((word, text))
    return found


def _play_panel_texts(panel) -> list[str]:
    """What the Play panel shows, the AI's own sentences included (the reasoning pane's moves, their candidates and
    notes, and the hint's decision), without the save row's path box (a file name)."""
    texts = []
    for x in _walk(panel):
        if x is panel.save_path or getattr(x, "children", None):
            continue
        texts += _words_of(x)
    return texts


def test_pseudo_locale_play_panel_has_no_english():
    """A whole hand played on the Play panel in the pseudo-locale: at every decision and at the end of the hand,
    no English word on its labels, buttons, headers, status line, tally, score sheet, card table, the AI's reasoning
    (masked during the hand, whole at its end) or the hint."""
    app = build_app(query="?lang=xx&deal=11")
    panel = app.play_panel
    panel.pace = 0
    assert app.lang == "xx"
    seen, steps = [], 0
    while not panel.table.state.is_over and steps < 80:
        steps += 1
        t = panel.table
        assert t.is_learner_turn()
        panel.show_hint()
        seen += _play_panel_texts(panel)
        phase = t.state.phase
        if phase is Phase.AUCTION:
            panel.call_pass()
        elif phase is Phase.DISCARD:
            panel.discard(t.discard_options()[:t.rules.nest_size])
        elif phase is Phase.TRUMP:
            panel.name_trump("R")
        else:
            panel.play_card(panel.table_view.cards(legal_only=True)[0])
    assert panel.table.state.is_over
    seen += _play_panel_texts(panel)
    moves = [_text(x.value) for x in panel.reasoning_pane.moves.children]  # the AI's sentences, checked below
    assert len(moves) >= 10 and all(m in seen and "⟦" in m for m in moves)
    panel.undo()
    seen += _play_panel_texts(panel)
    seen += _words_of(app.settings) + [_text(app.play_header.value)] + list(app.tab.titles)
    language_names = set(i18n.LANGUAGE_NAMES.values())
    leftover = [(word, text) for word, text in _english_words(t for t in seen if t not in language_names)]
    assert len(seen) > 200
    assert not leftover, leftover[:8]


def test_pseudo_check_can_fail():
    assert _english_words(["⟦Ṕĺáý⟧ R14", "hands/hand-1.json", "Your hand"]) == [("Your", "Your hand"),
                                                                             ("hand", "Your hand")]


# ------------------------------------------------------------------------------------------- Replay, statistics
def _leaves(widget, skip=()) -> list[str]:
    """The words of every leaf widget under ``widget`` (`_words_of`), the widgets in ``skip`` left out."""
    ids = {id(x) for x in skip}
    texts = []
    for x in _walk(widget):
        if id(x) in ids or getattr(x, "children", None):
            continue
        texts += _words_of(x)
    return texts


def _replay_texts(panel) -> list[str]:
    """What Replay shows in its own words: the record's own words left out (its comments, the players named in its
    meta, the File and Save boxes' paths and the examples' names, which are identifiers as ``?record=`` takes
    them)."""
    from rookcore.examples import list_examples

    names = set(list_examples())
    texts = _leaves(panel, skip=(panel.comment, panel.comment_text, panel.path, panel.save_path))
    texts = [re.sub(r"<span class='rook-replay-players'.*?</span>", " ", t) for t in texts]
    players = re.compile(r"\((?:[^()]*: AI(?: · )?)+\)")  # the meta's player names, as _text leaves them
    return [players.sub(" ", t) for t in texts if t not in names]


def test_pseudo_locale_replay_has_no_english(tmp_path):
    """Replay in the pseudo-locale: a record loaded and stepped through to its end, a comment saved and a mark set,
    Analyze within a 5 s time budget (its status, first-lead and auction lines, the card view, the table of costly
    cards and the Go to list), Mark mistakes and Save record: no English word anywhere but card codes, numbers and
    the record's own words (its comments, its players' names, the examples' names)."""
    from widgets.replay import ReplayPanel

    panel = ReplayPanel(lang="xx", analyze_in_background=False)
    assert panel.lang == "xx" and panel.record is not None
    panel.analysis_budget.value = 5.0
    seen = []
    for k in range(panel.n_steps + 1):
        panel.go(k)
        seen += _replay_texts(panel)
    panel.go(7)
    panel.save_comment("⟦ţéšţ⟧")
    panel.set_mark("?")
    seen += _replay_texts(panel)
    panel.analyze()
    assert panel.analysis is not None and "⟦" in panel.analysis_status.value
    assert _text(panel.analysis_start.value).strip() and len(panel.analysis_goto.options) > 1
    for k in range(panel.n_steps + 1):
        panel.go(k)
        seen += _replay_texts(panel)
    panel.apply_analysis_marks()
    seen += _replay_texts(panel)
    assert panel.save_record("annotated/replay.json") and (tmp_path / "annotated" / "replay.json").is_file()
    seen += _replay_texts(panel)
    panel.examples.value = "crowsnest-passed-out"  # the question about the unsaved marks, then the other record
    panel.examples.value = "crowsnest-passed-out"
    panel.go(panel.n_steps)
    panel.analyze()  # says why nothing is analysed
    seen += _replay_texts(panel)
    leftover = _english_words(seen)
    assert len(seen) > 1000
    assert not leftover, leftover[:8]


def test_replay_follows_the_app_language():
    """Replay is built in the app's language and switches with it; English comes back exactly."""
    app = build_app(query="?lang=de")
    replay = app.replay
    assert replay.lang == "de" and replay.forward_button.description == "Vor"
    assert replay.step_label.value.startswith("Schritt ")
    app.set_language("fa")
    assert replay.lang == "fa" and replay.step_label.value.startswith("گام ")
    app.set_language("en")
    assert replay.forward_button.description == "Forward" and replay.step_label.value.startswith("Step 0 / ")


def test_pseudo_locale_statistics_panel_has_no_english(monkeypatch):
    """The statistics panel in the pseudo-locale (``?lang=xx``, read as the app reads it): its words, a run's
    status and nest line, and the words drawn in its four plots (titles, axis labels, legends; the no-data text of
    an empty run), with no English word."""
    import matplotlib.axes

    from rookcore import i18n as rook_i18n
    from rookcore.stats import HandStats
    from widgets import stats as wstats

    drawn: list[str] = []
    for name in ("set_title", "set_xlabel", "set_ylabel", "text", "bar", "scatter"):
        real = getattr(matplotlib.axes.Axes, name)

        def spy(ax, *args, _real=real, **kwargs):
            drawn.extend(x for x in (*args, kwargs.get("label")) if isinstance(x, str))  # words, bar names
            drawn.extend(x for a in args if isinstance(a, list) for x in a if isinstance(x, str))
            return _real(ax, *args, **kwargs)

        monkeypatch.setattr(matplotlib.axes.Axes, name, spy)
    panel = wstats.StatsPanel(deals=4, query="?lang=xx")
    assert panel.lang == "xx" and panel.note.layout.display == "none"
    panel.run()
    assert panel.stats is not None and panel.plots.layout.display == ""
    with rook_i18n.using("xx"):
        empty = HandStats("crowsnest", 0, "rules")
        for plot in (wstats.plot_bid_success, wstats.plot_strength, wstats.plot_tricks):
            plot(empty)
        wstats.plot_bird(empty)
    assert len(drawn) > 12
    leftover = _english_words(_leaves(panel) + drawn)
    assert not leftover, leftover[:8]


def test_statistics_page_language_from_the_link():
    """The statistics page reads ``?lang=`` with the app's own reading (`parse_links`): a known code is taken, an
    unknown one gets the app's note and English."""
    from widgets.stats import StatsPanel

    de = StatsPanel(query="?lang=de")
    assert de.lang == "de" and de.run_button.description == "Starten" and "Statistik" in de.intro.value
    bad = StatsPanel(query="?lang=zz")
    assert bad.lang == "en" and bad.note.layout.display == "" and "?lang=" in bad.note.value
    assert bad.run_button.description == "Run"
    fa = StatsPanel(lang="fa")
    assert "dir='rtl'" in fa.intro.value
