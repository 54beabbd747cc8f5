"""The whole app: a page header and a Tab with Play, Replay, Rules and Settings.

`build_app()` returns the top widget (an `RookApp` VBox) for the Voila notebook.
Settings' Apply stores the chosen `Rules` as ``play_panel.pending_rules``: the Play
tab keeps its game and starts the next *new game* with them (the header line of the
Play tab says so), and the Rules tab is regenerated for them. The Play tab keeps its game for the next visit
(`rookcore.saved`): a new page goes on with it (`rookcore.saved.start_game`).

Stable names for browser tests: ``rook-app`` (top box), ``rook-app-header`` (page header),
``rook-app-tabs`` (the Tab; titles "Play", "Replay", "Learn", "Rules", "Settings"), ``rook-learn``
(Learn tab), ``rook-link-message`` (a bad deep link's message),
``rook-play-ruleset`` (Play tab header line), ``rook-play-placeholder`` (shown if the Play panel
cannot be built), ``rook-rules`` (Rules tab content); the panels' own names are in their modules. A right-to-left
language adds the class ``rook-rtl`` to ``rook-app`` (the page laid out right to left, `RTL_STYLE`).

Language (issue 26): ``?lang=de`` (es, de, cs, ro, fa; xx is the pseudo-locale) or Settings' Language list chooses
it; without either the kept game's language (kept in its ``extra`` as ``"lang"``), else English. The app keeps it in
``lang`` and builds and redraws the Play, Rules and Settings tabs and the page's own words in it
(`rookcore.i18n.using`), and Replay (`ReplayPanel.set_language`); the Learn tab's lessons are not translated yet.
"""
from __future__ import annotations

from html import escape, unescape

import ipywidgets as w

import os
import re
from urllib.parse import parse_qs, urlencode

from rookcore import i18n
from rookcore.examples import list_examples
from rookcore.i18n import _, pgettext
from rookcore.records import quoted, read_seed
from rookcore.rules import VARIANTS, Rules, RulesError, get_rules
from rookcore.words import bird_name, rules_title

from . import paths
from .clicks import close_with_parts
from .lessons import LINK_STYLE, PROGRESS, progress_view, tutorial_index
from .replay import ReplayPanel
from .rules_view import option_phrases, rules_html
from .settings import SettingsPanel

TAB_TITLES = ("Play", "Replay", "Learn", "Rules", "Settings")
"""The tabs in English (stable names; the page shows `tab_titles`)."""
HEADER_HTML = ("<div style='display:flex;flex-wrap:wrap;align-items:baseline;column-gap:12px;margin:0 0 2px'>"
               "<span style='font-size:20px;font-weight:bold;color:#283593'>CrowsNest Rook</span>"
               "<span style='color:#555'>learn the Rook card game: play with AI partners, replay hands, "
               "read the rules</span></div>")
"""The page header in English (`header_html` gives it in the active language)."""
RTL_STYLE = ("<style>.rook-app.rook-rtl {direction: rtl; text-align: right}"
             ".rook-app.rook-rtl .widget-label, .rook-app.rook-rtl .widget-label-basic {text-align: left}"
             ".rook-app.rook-rtl .rook-save-path input, .rook-app.rook-rtl .rook-settings-target input "
             "{direction: ltr; text-align: left}"
             # the AI's sentences are still English (rookcore.ai): each block takes the direction of its own text
             ".rook-app.rook-rtl .rook-decision, .rook-app.rook-rtl .rook-score-meaning {unicode-bidi: plaintext}"
             # signed scores ("+70", "−90") alone in a cell read left to right
             ".rook-app.rook-rtl .rook-hand-end-table td, .rook-app.rook-rtl .rook-score-table td {direction: ltr}"
             # a checkbox keeps a gap to its words, which now stand on its left; labels keep theirs to their box
             ".rook-app.rook-rtl .widget-checkbox input[type='checkbox'] {margin: 0 0 0 8px}"
             ".rook-app.rook-rtl .widget-checkbox {column-gap: 4px}"
             ".rook-app.rook-rtl .widget-inline-hbox > .widget-label {margin: 0 0 0 10px; padding-left: 2px}"
             ".rook-app.rook-rtl .rook-settings-bird {margin: 2px 168px 2px 0 !important}"
             ".rook-app.rook-rtl .widget-button i {margin: 0 0 0 4px}"
             "</style>")
"""The page laid out right to left (Persian): the app's boxes, tabs and labels from the right; paths and numbers
typed in boxes stay left to right; the card table draws its own mirrored view (`widgets.table_view.mirrored`)."""


def tab_titles() -> tuple[str, ...]:
    """The tabs' titles in the active language, in the order of `TAB_TITLES`."""
    return (pgettext("tab", "Play"), pgettext("tab", "Replay"), pgettext("tab", "Learn"), pgettext("tab", "Rules"),
            pgettext("tab", "Settings"))


def header_html() -> str:
    """The page header (the app's name, then what it is for) in the active language; `HEADER_HTML` in English."""
    tr = i18n.current()
    lang = "" if tr.lang == i18n.SOURCE else f" lang='{tr.lang}' dir='{tr.direction}'"
    tagline = escape(_("learn the Rook card game: play with AI partners, replay hands, read the rules"))
    return (f"<div{lang} style='display:flex;flex-wrap:wrap;align-items:baseline;column-gap:12px;margin:0 0 2px'>"
            "<span style='font-size:20px;font-weight:bold;color:#283593'>CrowsNest Rook</span>"
            f"<span style='color:#555'>{tagline}</span></div>")


def waiting_line() -> str:
    """The Play tab's line while the learner's game is on its way (class ``rook-app-opening``), in the active
    language."""
    words = _("Opening your game…")  # outside the f-string: pybabel does not read calls inside one
    return f"<p class='rook-app-opening' style='color:#555'>{escape(words)}</p>"


def _kept_language(start) -> str | None:
    """The language kept with the game ``start`` resumes (a `rookcore.saved.GameStart`: ``extra["lang"]``), or
    None (a new game, or none kept). Raises nothing."""
    if start.extra.get("lang"):
        return start.extra["lang"]
    if not (start.resumed or start.from_kept) or start.path is None:
        return None
    try:
        from rookcore.saved import load_table  # noqa: PLC0415
        found = load_table(start.path)
        return (found.extra.get("lang") or None) if found is not None else None
    except Exception:  # noqa: BLE001 - a preference: never a reason for the page to fail
        return None


def _make_play_panel(deal: int | None = None, rules: Rules | None = None, lang: str | None = None,
                     session=None, claim: bool = True):
    """The Play panel, or a placeholder Label if it fails to build. Its game is the one `rookcore.saved.start_game`
    picks, and it is kept for the next visit from the start (`PlayPanel.start_keeping`), with its language; the
    status line welcomes the learner back, or says why the game is not kept. ``lang``: the page's language (None: the
    kept game's, else English); the panel's ``lang`` says which was taken. ``session``: where the learner's games
    are kept (a `rookcore.learners.LearnerSession`; None: the single per-account file of `rookcore.saved`; its
    ``note`` ends the status line). ``claim``: False for a page opened by a link other than a deal (``?record=``,
    or a link that is not valid): it shows the learner's own game without taking it over from the page that keeps
    it, and keeps it only once the learner acts in it (`PlayPanel.start_keeping`)."""
    try:
        from rookcore.saved import start_game  # noqa: PLC0415
        from .play import PlayPanel  # noqa: PLC0415
        paths = {} if session is None else {"own_path": session.game, "deal_path": session.deal}
        start = start_game(deal, rules, **paths)
        lang = i18n.normalize(lang or _kept_language(start))
        keep = session is None or (session.deal if deal is not None else session.game) is not None
        with i18n.using(lang):
            panel = PlayPanel(start.table, pending_rules=start.pending_rules, lang=lang,
                              **({} if start.pace is None else {"pace": start.pace}))
            panel.resumed = start.resumed
            panel.kept_settings = start.from_kept
            problem = (panel.start_keeping(start.path, {**start.extra, "lang": lang}, claim=claim or deal is not None)
                       if keep else "")
            words = [i18n.localize(text) for text in (start.welcome, problem, session.note if session else "") if text]
            if words:
                panel.show_info(" ".join(words + [panel.table.prompt()]))
        return panel
    except Exception as e:  # noqa: BLE001 - the rest of the app must still work
        with i18n.using(lang):
            text = _("The Play panel is not available: {kind}: {error}", kind=type(e).__name__, error=str(e))
        label = w.HTML(f"<p><i>{escape(text)}</i></p>")
        label.add_class("rook-play-placeholder")
        return label


def parse_links(query: str) -> dict:
    """Deep-link parameters of the page's query string: ``deal`` (int seed), ``variant`` (the deal's rule set, a
    `Rules`, with ``deal`` only; default CrowsNest), ``record`` (a bundled record's name, or the path of a record
    file in the app's folder) and ``lang`` (the page's language: "es", "de", "cs", "ro", "fa", "en" or the
    pseudo-locale "xx"; "de-AT" is "de").

    Returns a dict with those keys present; bad parameters give ``{"errors": [message, ...]}`` (one line each, in
    the link's language) instead of raising; an unknown ``?lang=`` is one of them, and the page is in English.
    """
    params = {k: v[-1] for k, v in parse_qs(query.lstrip("?"), keep_blank_values=True).items()}  # ?deal= is a mistake
    links: dict = {}
    errors = []
    if "lang" in params:
        code = i18n.normalize(params["lang"])
        if code == i18n.SOURCE and re.split(r"[-_.@]", params["lang"].strip().lower())[0] != i18n.SOURCE:
            errors.append(_("?lang= names a language of the page ({codes}), not {value}: the page is in English.",
                            codes=", ".join((i18n.SOURCE, *i18n.LANGUAGES)), value=repr(params["lang"])))
        else:
            links["lang"] = code
    with i18n.using(links.get("lang")):
        _link_errors(params, links, errors)
    if errors:
        links["errors"] = errors
    return links


def page_language(query: str | None = None) -> tuple[str, list[str]]:
    """The language a page's query string names (the app, a lesson, the statistics page), read by `parse_links`.

    Args: ``query`` (str | None) the page's query string ("?lang=de"; None: Voila's ``QUERY_STRING``).
    Returns (code, notes): the `rookcore.i18n` code ("en" when the link names none or an unknown one) and the
    one-line notes to show (one for an unknown code, in English). Raises nothing."""
    query = os.environ.get("QUERY_STRING", "") if query is None else query
    values = parse_qs(query.lstrip("?"), keep_blank_values=True).get("lang")
    if not values:
        return "en", []
    links = parse_links(urlencode({"lang": values[-1]}))  # the app's reading of ?lang=, nothing else of the link
    return links.get("lang", "en"), list(links.get("errors", ()))


def _link_errors(params: dict, links: dict, errors: list) -> None:
    """`parse_links`' ``record``, ``deal`` and ``variant``: put into ``links``, or a line into ``errors``."""
    if "record" in params:
        links["record"] = params["record"]
    if "deal" in params:
        try:
            links["deal"] = read_seed(params["deal"])
        except ValueError:
            value = quoted(params["deal"])
            errors.append(_("?deal= (a deal seed) needs a whole number ≥ 0 of at most 4,300 digits, not {value}.",
                            value=value) if params["deal"].strip().isdecimal() else
                          _("?deal= (a deal seed) needs a whole number ≥ 0, not {value}.", value=value))
    if "variant" in params:
        try:
            rules = get_rules(params["variant"])
        except RulesError:
            sets, value = ", ".join(VARIANTS), repr(params["variant"])
            errors.append(_("?variant= names a rule set ({sets}), not {value}. Deal {deal} opens in {title}, the "
                            "default.", sets=sets, value=value, deal=links["deal"], title=rules_title(get_rules()))
                          if "deal" in links else
                          _("?variant= names a rule set ({sets}), not {value}.", sets=sets, value=value))
        else:
            if "deal" in params:
                links["variant"] = rules
            else:
                errors.append(_("?variant= goes with ?deal= (the rule set of that deal): add ?deal=<seed>."))


def learn_panel() -> w.VBox:
    """The Learn tab: links to the tutorial lessons and the statistics notebook, and this session's progress (its
    introduction and the statistics link in the active language; the lessons' index is not translated yet)."""
    text = _("Eight short lessons, each with live examples and exercises the engine checks. Each opens in a new "
             "browser tab, so the game on the Play tab stays as it is; the progress below follows what you do there.")
    intro = w.HTML(f"<p>{escape(text)}</p>")
    words = escape(_("Statistics over many deals"))
    link = f"<a href='analysis.ipynb' target='_blank' rel='noopener' style='{LINK_STYLE}'>{words}</a>"
    stats = w.HTML("<p>" + escape(_("{link} (new tab) — simulate thousands of hands with the AI and plot what wins.",
                                    link="\0")).replace("\0", link) + "</p>")
    stats.add_class("rook-stats-link")
    PROGRESS.watch()
    box = w.VBox([intro, tutorial_index(base="tutorial/", new_tab=True), stats, progress_view()])
    box.add_class("rook-learn")
    return box


def _text_of(html: str) -> str:
    """The text of an HTML message line (tags dropped, entities decoded, the warning sign taken off)."""
    return unescape(re.sub(r"<[^>]+>", "", html)).strip().lstrip("⚠").strip()


MESSAGE_LINES = (".rook-status", ".rook-save-result", ".rook-replay-error", ".rook-annotate-status",
                 ".rook-annotate-result", ".rook-analysis-status", ".rook-replay-comment")
MESSAGE_STYLE = (f"<style>{', '.join(MESSAGE_LINES)} {{overflow-wrap: anywhere}}"
                 ".rook-app .widget-tab > .widget-tab-contents, .rook-app .lm-TabPanel-stackedPanel {padding: 4px 6px}"
                 ".rook-app .rook-app-header, .rook-app .rook-play-ruleset {min-height: 0}"
                 # on a phone each tab is as wide as its title, and the titles take a second row rather than be
                 # cut ('Einstellu' for Einstellungen at 390 px): each tab's own words are its label
                 "@media (max-width: 600px) {.rook-app .rook-app-tabs > .lm-TabBar .lm-TabBar-content "
                 "{flex-wrap: wrap} .rook-app .rook-app-tabs > .lm-TabBar .lm-TabBar-tab "
                 "{flex: 1 0 auto; min-width: max-content; padding: 0 8px}}"
                 # Replay's buttons as wide as their words in any language (German's long ones), at least as
                 # wide as in English; the file box wide enough for its placeholder, but never wider than the pane
                 ".rook-app .rook-replay .widget-button {width: auto !important; min-width: 44px}"
                 ".rook-app .rook-replay .rook-annotate-save, .rook-app .rook-replay .rook-annotate-delete "
                 "{min-width: 130px}"
                 ".rook-app .rook-replay-path {width: 440px !important; max-width: 100%}"
                 ".rook-app .rook-annotate-path {width: 420px !important; max-width: 100%}"
                 ".rook-app .rook-annotate-path > .widget-label {width: auto !important; min-width: 80px}</style>")
"""Status and result lines and Replay's comment break anywhere: a long word (a 300-character file name, a comment
without spaces) stays on the page."""



LINK_PARAMETERS = ("deal", "variant", "record")
"""The query parameters that make a page a deep link's (valid or not): such a page never takes the learner's own
kept game over (`_make_play_panel`)."""


def is_link_page(query: str) -> bool:
    """True if the query string ``query`` has a deep link's parameter (`LINK_PARAMETERS`), valid or not."""
    return any(name in LINK_PARAMETERS for name in parse_qs(query.lstrip("?"), keep_blank_values=True))


class RookApp(w.VBox):
    """Header + Tab. Attributes: ``tab``, ``play_panel``, ``play_header``, ``replay``, ``rules_view``,
    ``settings``, ``rules`` (the last applied rule set), ``lang`` (the page's language code: ``lang``, else
    ``?lang=`` in ``query``, else the kept game's, else "en"; `set_language` changes it), ``session`` (where the
    learner's games are kept: a `rookcore.learners.LearnerSession`, or None for the single per-account file).

    Built in three steps, which `build_app` takes at once: the app itself (``opened`` False: every tab, the Play tab
    saying "Opening your game…", in English: what a kernel of Voila's pool builds before its page's request comes,
    `widgets.learner`), then the page's link (`follow_link`: its language, a record to show, the message of a bad
    link), then the learner's game (`open_game`). A page built in steps is the same as one built at once."""

    def __init__(self, rules: Rules | None = None, query: str | None = None, lang: str | None = None,
                 session=None, opened: bool = True):
        self.base_rules = rules or get_rules()
        self.rules = self.base_rules
        self.session = session
        self.play_panel = None
        self.links: dict = {}
        self.query, self.chosen_lang, self.lang = "", lang, i18n.normalize(lang)
        if opened:
            self._take_link(query, lang)
        self._words_lang = self.lang  # the language the page's own words are drawn in
        with i18n.using(self.lang):
            self._build(settings=not opened)  # a page built at once gets its Settings with its game
            if opened:
                self._follow_links()
        if opened:
            self.open_game(session)

    def _build(self, settings: bool = True) -> None:
        """The header, the tabs (the Play tab waiting for its game, `waiting_line`; the Settings tab empty unless
        ``settings``) and the line for the links' messages (in the active language)."""
        self.header = w.HTML(header_html())
        self.header.add_class("rook-app-header")
        self.play_header = w.HTML("")
        self.play_header.add_class("rook-play-ruleset")
        self.waiting = w.HTML(waiting_line())
        self.play_tab = w.VBox([self.play_header, self.waiting])
        self.replay = ReplayPanel()
        self.rules_view = w.HTML(rules_html(self.rules))
        self.rules_view.add_class("rook-rules-view")
        self.settings = self._settings_panel("rules") if settings else w.VBox()
        self.learn = learn_panel()
        self.tab = w.Tab(children=[self.play_tab, self.replay, self.learn, self.rules_view, self.settings])
        self.tab.titles = tab_titles()
        self.tab.add_class("rook-app-tabs")
        self.link_message = w.HTML("")
        self.link_message.add_class("rook-link-message")
        style = w.HTML(MESSAGE_STYLE, layout=w.Layout(display="none"))
        rtl = w.HTML(RTL_STYLE, layout=w.Layout(display="none"))
        super().__init__([style, rtl, self.header, self.link_message, self.tab], layout=w.Layout(padding="4px 8px"))
        self.add_class("rook-app")
        self._set_direction()

    def _settings_panel(self, level: str) -> SettingsPanel:
        """A Settings panel for ``self.rules``, the AI ``level`` and ``self.lang``, wired to this app."""
        return SettingsPanel(self.rules, on_apply=self.apply_rules, on_level=self.set_level,
                             on_language=self.set_language, level=level, lang=self.lang)

    def follow_link(self, query: str | None = None, lang: str | None = None, waiting: bool = True) -> None:
        """Take the page's link: ``query`` (its query string; None: Voila's ``QUERY_STRING``) read by `parse_links`,
        ``lang`` (the language before the link's ``?lang=``; None: the link's). The page is drawn in that language
        (English when the link names none: the kept game's language, if any, comes with `open_game`), a
        ``?record=`` opens Replay, a bad link is said above the tabs. ``waiting``: False when `open_game` follows at
        once (Settings is then drawn once, with the game). Raises nothing."""
        self._take_link(query, lang)
        if self.play_panel is None and waiting:  # the Settings tab in the link's language while the game is awaited
            self._replace_settings("rules")
        self._draw_language(self.lang)
        with i18n.using(self.lang):
            self._follow_links()

    def _take_link(self, query: str | None, lang: str | None) -> None:
        """Read the page's link (`follow_link`'s ``query`` and ``lang``) into ``query``, ``links``, ``chosen_lang``
        and ``lang``, drawing nothing."""
        self.query = query if query is not None else os.environ.get("QUERY_STRING", "")
        self.links = parse_links(self.query)
        self.chosen_lang = lang if lang is not None else self.links.get("lang")
        self.lang = i18n.normalize(self.chosen_lang)

    def open_game(self, session=None) -> None:
        """Show the learner's game on the Play tab: the Play panel of `_make_play_panel` for the link's deal (if any)
        and ``session`` (a `rookcore.learners.LearnerSession`; None: the single per-account file), in place of the
        waiting line or of the game shown before (a page that opened a game of its own before its learner was
        known: that panel is closed). Settings and the Rules tab follow the game's kept rules, and the page its
        language (the link's, else the kept game's, else English). Raises nothing (a Play panel that fails to build
        is a line saying so)."""
        old = self.play_panel
        paths.use_session(session)  # the page's records are saved in this learner's own folder (issue 31)
        panel = _make_play_panel(self.links.get("deal"), self.links.get("variant"), self.chosen_lang, session,
                                 claim=not is_link_page(self.query))
        self.session, self.play_panel = session, panel
        lang = getattr(panel, "lang", None) or i18n.normalize(self.chosen_lang)
        table = getattr(panel, "table", None)
        self.rules = (table.next_game_rules(panel.pending_rules) if getattr(panel, "kept_settings", False)
                      else self.base_rules)  # Settings and the Rules tab show the kept game's rules
        for hooks, hook in (("on_new_game", self._update_play_header), ("on_open_replay", self.open_replay),
                            ("on_bird_choice", self._bird_chosen_on_play)):
            if getattr(panel, hooks, None) is not None:  # New game, "Replay this hand", the bird's choice on Play
                getattr(panel, hooks).append(hook)
        self.lang = lang
        self._replace_settings(table.level if table is not None else "rules")
        self.play_tab.children = [self.play_header, panel]
        self._draw_language(lang)
        if old is not None:
            _close_tree(old)
        if paths.link_waited():  # a ?record= of the learner's own records folder, held back until now
            with i18n.using(self.lang):
                self._follow_links()

    def _replace_settings(self, level: str) -> None:
        """A new Settings panel (`_settings_panel`) for the rules, ``level`` and the language now, in the Settings
        tab; the one it replaces is closed."""
        with i18n.using(self.lang):
            old, self.settings = self.settings, self._settings_panel(level)
        children = list(self.tab.children)
        children[TAB_TITLES.index("Settings")] = self.settings
        self.tab.children = children
        _close_tree(old)

    def _set_direction(self) -> None:
        """The class ``rook-rtl`` on the app in a right-to-left language (`RTL_STYLE`), none otherwise."""
        if i18n.get_translator(self.lang).direction == "rtl":
            self.add_class("rook-rtl")
        else:
            self.remove_class("rook-rtl")

    @property
    def direction(self) -> str:
        """str: the page's direction, "rtl" for a right-to-left language (Persian), else "ltr"."""
        return i18n.get_translator(self.lang).direction

    def set_language(self, lang: str | None) -> None:
        """Show the app in ``lang`` (a `rookcore.i18n` code; an unknown one is English) from now on: the header, the
        tab titles, the Play tab (its panel, `PlayPanel.set_language`, and its rule-set line), Replay
        (`ReplayPanel.set_language`), the Rules tab and Settings are drawn again in it, the page's direction
        follows it, and the language is kept with the game (its ``extra``) for the next visit. Raises nothing."""
        self.lang = i18n.normalize(lang)
        if hasattr(self.play_panel, "set_language"):
            self.play_panel.set_language(self.lang)
            self.play_panel.keep_extra["lang"] = self.lang
            self.play_panel.keep_game()
        with i18n.using(self.lang):
            self.settings.draw_words()
            if self.settings.language.value != self.lang:
                self.settings._relabeling = True
                try:
                    self.settings.language.value = self.lang
                finally:
                    self.settings._relabeling = False
            self.settings.message.value = self.settings._with_rules(_("Rule set: {rules}", rules="\0"),
                                                                    self.settings.rules)
            self.settings.language_message.value = ""
        self._draw_language(self.lang)

    def _draw_language(self, lang: str | None) -> None:
        """Draw the page's own words in ``lang`` (normalized; it becomes ``self.lang``): the header, the tab titles,
        the waiting line, Replay, the Learn tab, the page's direction, the Play tab's rule-set line and the Rules
        tab. Settings and the Play panel draw their own."""
        self.lang = i18n.normalize(lang)
        with i18n.using(self.lang):
            if self.lang != self._words_lang:
                self._words_lang = self.lang
                self.header.value = header_html()
                self.tab.titles = tab_titles()
                self.waiting.value = waiting_line()
                self.replay.set_language(self.lang)
                index = self.tab.selected_index
                self.learn.children = learn_panel().children
                self.tab.selected_index = index
            self._set_direction()
            self._update_play_header()

    @i18n.in_own_language
    def open_replay(self, record, step: int) -> bool:
        """Show ``record`` (a `HandRecord` of a hand played on the Play tab) on the Replay tab at navigator ``step``
        (int, actions applied: 0 = the deal) and select the Replay tab (`ReplayPanel.show_record`; the same hand
        already on show keeps its comments and marks). Returns True when the hand is on show at that step; False
        when Replay's error line says why not (e.g. unsaved comments on the record on show: a second click goes
        ahead). The tab is selected either way, so that the line is seen. Raises nothing."""
        ok = self.replay.show_record(record, step, name="played-hand", again=_("open it from the Play tab again"))
        self.tab.selected_index = TAB_TITLES.index("Replay")
        return ok

    def _follow_links(self) -> None:
        """Open Replay on ``?record=<name>``; report every bad link in the page (one line each) instead of
        failing."""
        problems = list(self.links.get("errors", ()))
        name = self.links.get("record")
        if name is not None and name in list_examples():
            self.replay.examples.value = name
            self.tab.selected_index = TAB_TITLES.index("Replay")
        elif paths.waits_for_learner(name):
            pass  # a record of the learner's own folder: opened with the learner's game (open_game)
        elif name is not None and name.lower().endswith(".json"):  # a record saved in the app's folder
            if self.replay.load_file(name):
                self.tab.selected_index = TAB_TITLES.index("Replay")
            else:
                problems.append(_("?record={name}: {problem}", name=name if len(name) <= 40 else quoted(name),
                                  problem=_text_of(self.replay.error.value)))
        elif name is not None:
            problems.append(_("?record={name}: there is no example record of that name. A record you saved is named "
                              "by its file name, ending in .json (class/… for your class's folder).", name=quoted(name)))
        self.link_message.value = "".join(f"<div style='color:#b71c1c'>{escape(p)}</div>" for p in problems)

    def _current_play_rules(self) -> Rules | None:
        table = getattr(self.play_panel, "table", None)
        try:
            return table.rules if table is not None else None
        except Exception:  # noqa: BLE001
            return None

    def _upcoming_rules(self) -> Rules:
        """The rules the next new game will have: Settings' last Apply with the Play tab's bird choice on top
        (`Table.next_game_rules`); Settings' last Apply when the Play panel failed to build."""
        table = getattr(self.play_panel, "table", None)
        return self.rules if table is None else table.next_game_rules(self.play_panel.pending_rules)

    def _draw_rules_view(self, current: Rules, upcoming: Rules) -> None:
        """The Rules tab shows the next game's rules (``upcoming``) and, while the game in play has others, says
        so and shows those below."""
        note = in_play = ""
        if not current.same_game(upcoming):
            title = rules_title(current)
            text = (_("From the next new game; the game in play keeps {title} with its options (below).", title=title)
                    if current.variant == upcoming.variant else
                    _("From the next new game; the game in play keeps {title} (below).", title=title))
            note = f"<p class='rook-rules-next' style='color:#8a6d00'><i>{escape(text)}</i></p>"
            summary = escape(_("The rules of the game in play ({title})", title=title))
            in_play = (f"<details class='rook-rules-in-play' style='margin-top:12px'><summary><b>{summary}</b>"
                       f"</summary>{rules_html(current)}</details>")
        self.rules_view.value = note + rules_html(upcoming) + in_play

    @i18n.in_own_language
    def _update_play_header(self) -> None:
        """The Play tab's rule-set line (the game in play and its options; the next game's if they differ), the
        Rules tab, and Settings' line once the game in play has the chosen rules."""
        current = self._current_play_rules() or self.rules
        upcoming = self._upcoming_rules()
        self._draw_rules_view(current, upcoming)
        text = escape(_("Rule set: {rules}", rules="\0")).replace(
            "\0", f"<b>{escape(rules_title(current))}</b>{_phrases(current)}")
        if not current.same_game(upcoming):
            text = escape(_("Rule set: {rules} (from the next new game; this game: {current})", rules="\0",
                            current="\1")).replace(
                "\0", f"<b>{escape(rules_title(upcoming))}</b>{_phrases(upcoming)}").replace(
                "\1", escape(rules_title(current)) + _phrases(current))
        self.play_header.value = f"<div style='color:#333;margin:0;font-size:12px'>{text}</div>"
        if current.same_game(upcoming):  # after New game, say so in Settings too (not "from the next new game")
            self.settings.show_in_play(current)

    @i18n.in_own_language
    def _bird_chosen_on_play(self, on: bool) -> None:
        """The learner ticked or unticked the bird on the Play tab: Settings' box and line say the same."""
        s = self.settings
        s.bird.value = on
        upcoming = VARIANTS[s.variant.value]
        if upcoming.bird_optional:
            bird = bird_name(upcoming.bird_name)
            s.message.value = escape(_("From the next new game: with the {bird} (chosen on the Play tab).", bird=bird)
                                     if on else
                                     _("From the next new game: without the {bird} (chosen on the Play tab).",
                                       bird=bird))
        self._update_play_header()

    @i18n.in_own_language
    def set_level(self, level: str) -> None:
        """Settings' AI level: the three AI seats and the Hint use ``level`` from their next move."""
        self.play_panel.table.set_level(level)
        self.play_panel.keep_game()

    @i18n.in_own_language
    def apply_rules(self, rules: Rules) -> None:
        """Settings' Apply: keep ``rules`` for the next new game and redraw the Rules tab."""
        self.rules = rules
        try:
            self.play_panel.pending_rules = rules
            # Settings' choice of the bird is the newest: the Play tab's checkbox shows it, and no older choice
            # made there overrides it at New game
            if rules.bird_optional and self.play_panel.table.rules.bird_optional:
                self.play_panel.set_bird(rules.bird)
            else:
                self.play_panel.set_bird(None)
            self.play_panel.keep_game()  # the rules for the next game are kept with the game
            self.play_panel.show_info(self.play_panel.table.prompt())  # the Play header names the change
        except Exception:  # noqa: BLE001
            pass
        self._update_play_header()


def _close_tree(widget) -> None:
    """Close ``widget`` and every widget in its boxes (``children``, depth first), each with its own layout and
    style (`widgets.clicks.close_with_parts`): a panel the page no longer shows. Raises nothing."""
    for child in tuple(getattr(widget, "children", ()) or ()):
        _close_tree(child)
    close_with_parts(widget)


def _phrases(rules: Rules) -> str:
    """``rules``' options in words after a comma (", without the Crow, game to 500"), escaped; "" for none."""
    words = option_phrases(rules)
    sep = pgettext("list separator", ", ")
    return escape(sep + sep.join(words)) if words else ""


def build_app(rules: Rules | None = None, query: str | None = None, lang: str | None = None,
              session=None) -> RookApp:
    """Build the app widget (header + Play / Replay / Learn / Rules / Settings tabs) for the learner whose games
    ``session`` keeps (a `rookcore.learners.LearnerSession`; None: the single per-account file of `rookcore.saved`;
    the page gets it from the browser: `widgets.learner.build_page`).

    ``query``: the page's query string for deep links (default: Voila's ``QUERY_STRING``):
    ``?deal=<seed>`` opens Play on that deal, ``?record=<name>`` opens Replay on a bundled record, ``?lang=de`` shows
    the page in German (`parse_links`). ``lang``: the language, before ``?lang=`` (None: the link's, else the kept
    game's, else English). A deep link (``?deal=``, ``?record=``, valid or not) never takes the learner's own kept
    game over: a deal is kept beside it, and another link's page keeps the learner's game only once they act in it.
    Returns the `RookApp`; raises nothing for bad links (they are said on the page).
    """
    return RookApp(rules, query, lang, session)
