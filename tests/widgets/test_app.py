"""The app (tabs, header, Settings → Play/Rules), the Settings panel and the Rules tab text."""
from __future__ import annotations

import re

import ipywidgets as w
import pytest

from rookcore.rules import VARIANTS, RulesError, get_rules
from widgets.app import TAB_TITLES, build_app
from widgets.rules_view import PROSE, rules_html, rules_rows
from widgets.settings import SettingsPanel


pytestmark = pytest.mark.usefixtures("no_callback_errors")  # tests/widgets/conftest.py


@pytest.fixture(scope="module")
def app():
    return build_app()


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


# ----- app --------------------------------------------------------------------------
def test_build_app_five_tabs(app):
    assert isinstance(app, w.Widget)
    assert len(app.tab.children) == 5
    assert tuple(app.tab.titles) == TAB_TITLES == ("Play", "Replay", "Learn", "Rules", "Settings")
    assert "CrowsNest Rook" in app.header.value
    assert "rook-app-tabs" in app.tab._dom_classes
    assert app.tab.children[1] is app.replay
    assert app.tab.children[4] is app.settings
    assert "tutorial/01-" in app.learn.children[1].value
    assert "Rule set: <b>CrowsNest</b>" in app.play_header.value
    assert "CrowsNest" in app.rules_view.value


def test_apply_stores_pending_rules_and_redraws_rules(app):
    s = app.settings
    s.variant.value = "buckeye"
    s.choices["bid_min"].value = 70
    s.apply_button.click()
    pending = app.play_panel.pending_rules
    assert pending.variant == "buckeye" and pending.bid_min == 70
    assert "Buckeye Rook" in app.play_header.value and "next new game" in app.play_header.value
    assert "Buckeye Rook" in app.rules_view.value
    assert "applies from the next new game" in s.message.value
    # the game in progress keeps its rules until New game
    table = getattr(app.play_panel, "table", None)
    if table is not None:
        assert table.rules.variant == "crowsnest"
        first = app.play_panel.new_game_button
        app.play_panel.call_pass()  # a decision later, New game is a new button (`widgets.clicks`)
        assert app.play_panel.new_game_button is not first
        app.play_panel.confirm.wait = 0
        app.play_panel.new_game_button.click()  # South has passed: the game has started, so it asks
        assert table.rules.variant == "crowsnest"
        app.play_panel.new_game_button.click()
        assert table.rules.variant == "buckeye" and table.rules.bid_min == 70
        assert app.play_panel.pending_rules is None
        assert "next new game" not in app.play_header.value
        assert "next new game" not in s.message.value and "Buckeye Rook" in s.message.value  # Settings agrees
        assert "the game in play" in s.message.value


def test_play_placeholder_when_play_missing(monkeypatch):
    import builtins
    real_import = builtins.__import__

    def fake_import(name, globals=None, locals=None, fromlist=(), level=0):
        if name in ("play", "widgets.play") or (level == 1 and name == "play"):
            raise ImportError("no play panel")
        return real_import(name, globals, locals, fromlist, level)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    a = build_app()
    assert "rook-play-placeholder" in a.play_panel._dom_classes
    assert len(a.tab.children) == 5
    a.settings.apply_button.click()  # still works without a Play panel


# ----- settings ----------------------------------------------------------------------
def test_settings_lists_seven_rule_sets():
    s = SettingsPanel()
    assert [v for _label, v in s.variant.options] == list(VARIANTS)
    assert [label for label, _v in s.variant.options] == [r.title for r in VARIANTS.values()]
    assert s.variant.value == "crowsnest"


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_settings_option_widgets(variant):
    s = SettingsPanel()
    s.variant.value = variant
    rules = VARIANTS[variant]
    shown = list(s.options_box.children)
    assert s.target in shown and s.first_lead in shown
    assert (s.bird in shown) == (variant in ("crowsnest", "tournament"))  # rules.md §2 "Options"
    assert set(s.choices) == set(rules.option_choices)
    for name, dd in s.choices.items():
        assert [v for _l, v in dd.options] == list(rules.option_choices[name])
    applied = []
    s.on_apply = applied.append
    s.apply_button.click()
    assert applied == [rules]


def test_settings_apply_options():
    got = []
    s = SettingsPanel(on_apply=got.append)
    s.target.value = " 500 "
    s.bird.value = False
    s.first_lead.value = "left-of-declarer"
    s.apply_button.click()
    (rules,) = got
    assert rules.target == 500 and not rules.bird and rules.nest_size == 4 and rules.bid_max == 100
    assert rules.first_lead == "left-of-declarer"
    assert rules == get_rules("crowsnest", {"target": 500, "bird": False, "first_lead": "left-of-declarer"})
    assert s.error.layout.display == "none"


def test_settings_bad_option_shows_error(monkeypatch):
    got = []
    s = SettingsPanel(on_apply=got.append)
    s.target.value = "400"
    s.apply_button.click()
    assert got.pop().target == 400 and "applies from the next new game" in s.message.value
    for typed in ("-5", "1e3", "", "9", "10001", "abc", "³⁰⁰", "9" * 5000):  # refused in words, nothing changed
        s.target.value = typed
        s.apply_button.click()
        assert got == [] and "Game to: type a whole number of points from 10 to 10,000" in s.error.value, typed
        assert "Nothing applied: the rule set stays <b>CrowsNest</b> (game to 400" in s.message.value, s.message.value
        assert "applies from the next new game" not in s.message.value  # no earlier success beside the error
    s.target.value = "1,000"
    s.apply_button.click()
    assert got.pop().target == 1000 and s.error.layout.display == "none"
    s.target.value = "٣٠٠"  # Arabic-Indic digits are a whole number too
    s.apply_button.click()
    assert got.pop().target == 300 and s.error.layout.display == "none"
    import widgets.settings as settings_module
    real = settings_module.get_rules

    def refuse(variant, options=None):
        raise RulesError("option target must be a positive integer, got 0")

    monkeypatch.setattr(settings_module, "get_rules", refuse)  # an option the engine refuses
    s.apply_button.click()
    assert got == []
    assert s.error.layout.display == ""
    assert "target" in s.error.value
    monkeypatch.setattr(settings_module, "get_rules", real)
    s.target.value = "300"
    s.apply_button.click()
    assert len(got) == 1 and s.error.layout.display == "none"


def test_settings_apply_that_the_app_refuses_changes_nothing():
    """When the app cannot take the rules (its callback raises), the panel keeps its rule set and says nothing was
    applied, next to the error line."""
    def broken(rules):
        raise RuntimeError("the table is busy")

    s = SettingsPanel(on_apply=broken)
    s.target.value = "500"
    s.apply_button.click()
    assert "could not apply: the table is busy" in s.error.value and s.error.layout.display == ""
    assert s.rules.target != 500 and s.message.value.startswith("Nothing applied: the rule set stays <b>CrowsNest")


def test_settings_callback_error_is_shown():
    def boom(_rules):
        raise RuntimeError("table busy")
    s = SettingsPanel(on_apply=boom)
    s.apply_button.click()
    assert "table busy" in s.error.value


# ----- rules view ---------------------------------------------------------------------
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_rules_html_every_variant(variant):
    rules = VARIANTS[variant]
    html = rules_html(rules)
    assert variant in PROSE and len(PROSE[variant]) >= 2
    assert rules.title in html
    text = _text(html)
    for label, value in rules_rows(rules):
        assert value in text.replace("&amp;", "&")


def test_crowsnest_prose():
    text = _text(rules_html(get_rules()))
    for phrase in ("nest", "auction", "trump", "follow", "lowest trump", "any trick", "last trick",
                   "a made bid scores the bid", "300"):
        assert phrase in text, phrase


def test_rules_html_shows_options():
    html = rules_html(get_rules("crowsnest", {"bird": False, "target": 500}))
    assert "first team to 500" in html
    assert "40 cards" in html
    assert "Options: without the Crow; game to 500." in html and "describes the standard rules" in html
    assert "bird: False" not in html


def test_one_bird_choice_on_play_and_in_settings():
    """Settings (Tournament, no Rook) → Apply: the Play tab's checkbox says the next game is without the Rook;
    after New game it still says so; ticking it on Play ticks Settings' box too, and the next game has the Rook.
    The Settings line says it in words, not option names."""
    from widgets.app import build_app
    app = build_app(query="")
    play, s = app.play_panel, app.settings
    s.variant.value = "tournament"
    s.bird.value = False
    s.apply()
    assert "without the Rook" in s.message.value and "bird no" not in s.message.value
    assert "From the next new game; the game in play keeps CrowsNest" in app.rules_view.value
    assert play.bird_toggle.value is False and "Rook" in play.bird_toggle.description
    play.new_game()
    assert not play.table.rules.bird and play.bird_toggle.value is False
    assert "From the next new game" not in app.rules_view.value
    play.bird_toggle.value = True
    assert s.bird.value is True and play.table.bird_next_game
    assert "From the next new game: with the Rook (chosen on the Play tab)." in s.message.value
    play.new_game()
    assert play.table.rules.bird and play.table.rules.variant == "tournament"
    # Settings → Partnership (no bird) and back to CrowsNest: an old Play choice does not override Settings
    play.bird_toggle.value = False
    s.variant.value = "crowsnest"
    s.bird.value = True
    s.apply()
    play.new_game()
    assert play.table.rules.bird


def test_deep_links_open_the_deal_and_the_record():
    from rookcore import HandState
    from widgets.app import build_app
    app = build_app(query="?deal=12345&record=tournament-set")
    assert app.play_panel.table.state.dealt == HandState.deal(None, 0, 12345).dealt
    assert app.tab.titles[app.tab.selected_index] == "Replay"
    assert app.replay.examples.value == "tournament-set"


def test_a_deal_link_names_its_rule_set_and_a_record_link_a_file_of_the_app_folder(tmp_path, monkeypatch):
    from rookcore import HandState
    from rookcore.examples import example_path
    from widgets.app import build_app

    monkeypatch.setenv("ROOK_FILES_ROOT", str(tmp_path))
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "week1.json").write_text(example_path("dixie-made").read_text())
    app = build_app(query="?deal=77&variant=dixie&record=class/week1.json")
    table = app.play_panel.table
    assert table.rules.variant == "dixie"
    assert table.state.dealt == HandState.deal(get_rules("dixie"), 0, 77).dealt
    assert app.tab.titles[app.tab.selected_index] == "Replay" and "Dixie" in app.replay.title.value
    assert app.replay.path.value == "class/week1.json" and app.link_message.value == ""
    bad = build_app(query="?variant=nope&record=missing.json")
    message = _text(bad.link_message.value)
    assert "?variant= names a rule set" in message and "?record=missing.json:" in message
    assert str(tmp_path) not in message and bad.tab.titles[bad.tab.selected_index] == "Play"
    assert "?variant= goes with ?deal=" in build_app(query="?variant=dixie").link_message.value
    fallback = build_app(query="?variant=nope&deal=3")  # the deal still opens, and the message says in what
    message = fallback.link_message.value
    assert "nope" in message and "Deal 3 opens in CrowsNest, the default." in message
    assert fallback.play_panel.table.rules.variant == "crowsnest"
    negative = build_app(query="?deal=-1")  # Python seeds with the absolute value: -1 would silently be deal 1
    assert "needs a whole number ≥ 0" in negative.link_message.value


def test_bad_deep_links_show_a_message_not_an_error():
    from widgets.app import build_app
    app = build_app(query="deal=xyz&record=nope")
    assert "?record=&#x27;nope&#x27;: there is no example record of that name." in app.link_message.value
    assert "whole number" in app.link_message.value  # both problems, one line each
    assert app.tab.titles[app.tab.selected_index] == "Play"
    assert "whole number" in build_app(query="deal=xyz").link_message.value
    empty = build_app(query="deal=&record=").link_message.value  # left empty: said, not ignored
    assert "?deal= (a deal seed) needs a whole number ≥ 0, not &#x27;&#x27;." in empty
    assert "?record=&#x27;&#x27;: there is no example record" in empty
    huge = build_app(query="deal=" + "9" * 5000).link_message.value  # more digits than int() reads
    assert "of at most 4,300 digits, not &#x27;99999999999999999999&#x27;… (5,000 characters)" in huge
    long_name = build_app(query="record=" + "x" * 3000).link_message.value  # a long name is shortened
    assert "?record=&#x27;xxxxxxxxxxxxxxxxxxxx&#x27;… (3,000 characters): there is no example" in long_name
    german = build_app(query="deal=xyz&record=nope&lang=de").link_message.value  # in the page's language
    assert "?deal= (ein Verteil-Startwert) braucht eine ganze Zahl ≥ 0, nicht &#x27;xyz&#x27;." in german
    assert "?record=&#x27;nope&#x27;: Es gibt keinen Beispielbericht dieses Namens." in german


def test_settings_ai_level_reaches_every_ai_seat_and_the_hint():
    from rookcore.ai import RuleBasedPlayer, SamplingPlayer
    from widgets.app import build_app
    app = build_app(query="")
    table = app.play_panel.table
    assert all(isinstance(p, RuleBasedPlayer) for p in table.players.values())
    app.settings.level.value = "strong"
    assert len(table.players) == 3 and all(isinstance(p, SamplingPlayer) for p in table.players.values())
    assert "Strong" in app.settings.level_message.value
    if table.is_learner_turn():
        assert table.hint().action in table.legal_for_learner()


def test_the_header_names_the_new_game_s_rules_while_the_ais_make_their_first_moves():
    """New game with Settings' rule set: while the AIs' first (paced) moves are shown, the header already names the
    new game's rules, not "(from the next new game; this game: …)"."""
    app = build_app(query="")
    panel = app.play_panel
    app.settings.variant.value = "buckeye"
    app.settings.apply_button.click()
    assert "from the next new game" in app.play_header.value
    seen = []
    advance = panel._advance
    panel._advance = lambda: (seen.append(app.play_header.value), advance())
    panel.pace = 0
    panel.new_game()
    assert seen and "Buckeye Rook" in seen[0] and "next new game" not in seen[0], seen


def test_a_typed_target_stays_when_the_rule_set_changes():
    s = SettingsPanel(get_rules())
    s.variant.value = "partnership"  # untouched: each rule set shows its own default
    assert s.target.value == str(VARIANTS["partnership"].target)
    s.target.value = "150"
    s.variant.value = "buckeye"
    assert s.target.value == "150"
    s.apply_button.click()
    assert s.rules.variant == "buckeye" and s.rules.target == 150


def test_settings_apply_keeps_the_play_prompt_and_names_the_change():
    """Apply in Settings does not replace the Play tab's turn prompt with a line about the bird (the header names
    the next game's rule set and options); ticking the bird on Play names the next game's own bird."""
    from widgets.app import build_app
    app = build_app(query="")
    play, s = app.play_panel, app.settings
    prompt = play.table.prompt()
    s.variant.value = "tournament"
    s.apply()
    assert "next new game is played" not in play.status.value and prompt in play.status.value
    assert "Tournament" in app.play_header.value
    play.bird_toggle.value = False
    assert "without the Rook" in play.status.value and prompt in play.status.value  # Tournament's bird
    s.variant.value = "crowsnest"
    s.target.value = "10"
    s.apply()
    assert "game to 10" in app.play_header.value
    assert "next new game is played" not in play.status.value and prompt in play.status.value  # the prompt again


def test_rules_tab_shows_the_game_in_play_too_when_the_next_differs():
    from widgets.app import build_app
    app = build_app(query="")
    app.settings.variant.value = "dixie"
    app.settings.apply()
    html = app.rules_view.value
    assert html.index("Dixie Rook") < html.index("rook-rules-in-play")  # the next game's rules first
    assert "The rules of the game in play (CrowsNest)" in html and "Crow" in html.split("rook-rules-in-play")[1]
    app.play_panel.new_game()
    assert "rook-rules-in-play" not in app.rules_view.value


def test_the_bird_choice_on_play_reaches_the_header_and_the_rules_tab():
    """Unticking the bird on Play changes what the next game is: the header and the Rules tab say so at once; a
    later Apply replaces the Play tab's bird line with the turn prompt; a game without the bird says so."""
    from widgets.app import build_app
    app = build_app(query="")
    play, s = app.play_panel, app.settings
    play.bird_toggle.value = False
    assert "without the Crow" in app.play_header.value and "from the next new game" in app.play_header.value
    assert "rook-rules-in-play" in app.rules_view.value and "40" in app.rules_view.value.split("rook-rules-in-play")[0]
    s.variant.value = "tournament"
    s.apply()
    assert "without the" not in play.status.value and play.table.prompt() in play.status.value
    s.variant.value = "crowsnest"
    s.bird.value = False
    s.apply()
    play.new_game()
    assert "Rule set: <b>CrowsNest</b>, without the Crow" in app.play_header.value
    assert "from the next new game" not in app.play_header.value


def test_message_lines_break_long_words(app):
    # a 300-character file name in an error must stay on the page: every message line of the app is styled
    from widgets.app import MESSAGE_LINES, MESSAGE_STYLE

    def walk(widget):
        yield widget
        for child in getattr(widget, "children", ()):
            yield from walk(child)

    classes = {c for widget in walk(app) for c in widget._dom_classes}
    assert all(line.lstrip(".") in classes for line in MESSAGE_LINES), set(MESSAGE_LINES) - {f".{c}" for c in classes}
    assert any(isinstance(x, w.HTML) and x.value == MESSAGE_STYLE for x in walk(app))
    assert "overflow-wrap: anywhere" in MESSAGE_STYLE
