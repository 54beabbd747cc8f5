"""The Statistics panel: run many AI self-play deals (`rookcore.stats.simulate`) and plot what happened.

Thin widget over `rookcore.stats`: parameters (rule set, deals, seed, AI level, optional dask scheduler
address), a Run button, a progress bar fed by simulate's ``progress`` callback, and four matplotlib plots
rendered to PNG bytes in ``ipywidgets.Image`` (works in Voila, testable without a browser), plus a text line
for how often the nest decides the hand. Errors are shown in the panel, never raised.

Stable names for browser tests: ``rook-stats`` (panel), ``rook-stats-variant`` (Dropdown), ``rook-stats-deals``
(IntText), ``rook-stats-seed`` (IntText), ``rook-stats-level`` (Dropdown), ``rook-stats-scheduler`` (Text),
button "Run", ``rook-stats-progress`` (IntProgress), ``rook-stats-status``, ``rook-stats-error``,
``rook-stats-plot-bids`` / ``-strength`` / ``-bird`` / ``-tricks`` (Images), ``rook-stats-nest`` (HTML),
``rook-stats-note`` (a bad ``?lang=``).

Language (issue 26): the page follows ``?lang=`` as the app does (`widgets.app.parse_links`; an unknown code: a
note, English); the panel's words, messages and the plots' titles and labels are in it (`rookcore.i18n`).
"""
from __future__ import annotations

import math
from html import escape
from io import BytesIO
import ipywidgets as w
from matplotlib.figure import Figure  # no pyplot: no backend or global figure state needed

from rookcore import i18n
from rookcore.ai import LEVELS
from rookcore.i18n import _, ngettext, pgettext
from rookcore.rules import VARIANTS
from rookcore.stats import HandStats, simulate
from rookcore.words import bird_name as bird_word, rules_title

from .settings import AI_LEVELS

STYLE = {"description_width": "130px"}
MAX_DEALS = 100_000
FIG_SIZE = (5.0, 3.2)
DPI = 80


def _png(fig: Figure) -> bytes:
    buf = BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


def _no_data(ax, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, color="#666")
    ax.set_xticks([])
    ax.set_yticks([])


def plot_bid_success(stats: HandStats) -> bytes:
    """Bar chart: share of hands made at each winning bid (hands played written over each bar). PNG bytes."""
    fig = Figure(figsize=FIG_SIZE)
    ax = fig.add_subplot()
    data = stats.bid_success()
    if data:
        bids = list(data)
        rates = [m / t for m, t in data.values()]
        bars = ax.bar([str(b) for b in bids], rates, color="#3949ab")
        for bar, (_m, t) in zip(bars, data.values()):
            ax.annotate(f"n={t}", (bar.get_x() + bar.get_width() / 2, bar.get_height()), ha="center",
                        va="bottom", fontsize=7)
        ax.set_ylim(0, 1.12)
        ax.set_xlabel(_("winning bid"))
        ax.set_ylabel(_("share made"))
        ax.tick_params(axis="x", labelsize=7)
    else:
        _no_data(ax, _("no hand was played"))
    ax.set_title(_("Bid success rate by bid"))
    return _png(fig)


def plot_strength(stats: HandStats) -> bytes:
    """Scatter: declarer's hand strength vs the points the declaring team took. PNG bytes."""
    fig = Figure(figsize=FIG_SIZE)
    ax = fig.add_subplot()
    xs, ys = stats.strength_vs_points()
    if xs:
        made = [r["made"] for r in stats.played]
        ax.scatter([x for x, m in zip(xs, made) if m], [y for y, m in zip(ys, made) if m], s=10, alpha=0.5,
                   color="#2e7d32", label=pgettext("bid", "made"))
        ax.scatter([x for x, m in zip(xs, made) if not m], [y for y, m in zip(ys, made) if not m], s=10,
                   alpha=0.5, color="#c62828", label=pgettext("bid", "set"))
        ax.legend(fontsize=7, loc="lower right")
        ax.set_xlabel(_("declarer's hand strength (dealt hand)"))
        ax.set_ylabel(_("points taken by declarers"))
    else:
        _no_data(ax, _("no hand was played"))
    ax.set_title(_("Hand strength vs points taken"))
    return _png(fig)


def plot_bird(stats: HandStats, bird_name: str | None = None) -> bytes:
    """Bars: average points of the team dealt the bird vs the other team. PNG bytes. ``bird_name``: how the bird
    is called, in the active language (None: the word "bird" in it)."""
    bird_name = bird_name or _("bird")
    fig = Figure(figsize=FIG_SIZE)
    ax = fig.add_subplot()
    with_bird, without = stats.bird_value()
    if math.isnan(with_bird):
        _no_data(ax, _("no {bird} was dealt to a player", bird=bird_name))
    else:
        bars = ax.bar([_("team with the {bird}", bird=bird_name), _("other team")], [with_bird, without],
                      color=["#f9a825", "#78909c"])
        for bar in bars:
            ax.annotate(f"{bar.get_height():.1f}", (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                        ha="center", va="bottom", fontsize=8)
        ax.set_ylabel(_("average points captured"))
    ax.set_title(_("The value of holding the {bird}", bird=bird_name))
    return _png(fig)


def plot_tricks(stats: HandStats) -> bytes:
    """Bars: average counter points in each trick number (the nest not included). PNG bytes."""
    fig = Figure(figsize=FIG_SIZE)
    ax = fig.add_subplot()
    by_trick = stats.points_by_trick()
    if by_trick:
        ax.bar(range(1, len(by_trick) + 1), by_trick, color="#00897b")
        ax.set_xticks(range(1, len(by_trick) + 1))
        ax.set_xlabel(_("trick number"))
        ax.set_ylabel(_("average points in the trick"))
    else:
        _no_data(ax, _("no hand was played"))
    ax.set_title(_("Points by trick number"))
    return _png(fig)





class StatsPanel(w.VBox):
    """Parameters, Run, progress bar and plots of a many-deal simulation (never raises into the UI).

    After a successful run ``stats`` holds the `HandStats`; ``run()`` is the same as clicking Run.
    ``lang``: the panel's language (a `rookcore.i18n` code); None: the page's ``?lang=`` (``query``, default the
    ``QUERY_STRING`` Voila sets; `page_language`), English without one. An unknown ``?lang=`` gets a note
    (``rook-stats-note``) and English.
    """

    def __init__(self, variant: str = "crowsnest", deals: int = 200, seed: int = 0, level: str = "rules",
                 scheduler: str = "", lang: str | None = None, query: str | None = None, **kwargs):
        notes: list[str] = []
        if lang is None:
            from .app import page_language  # noqa: PLC0415 - the app's reading of links, loaded with the page only

            lang, notes = page_language(query)
        self.lang = i18n.normalize(lang)
        self.stats: HandStats | None = None
        self.variant = w.Dropdown(options=[(r.title, key) for key, r in VARIANTS.items()],
                                  value=variant if variant in VARIANTS else "crowsnest",
                                  description="Rule set", style=STYLE, layout=w.Layout(width="420px"))
        self.deals = w.IntText(value=deals, description="Deals", style=STYLE, layout=w.Layout(width="260px"))
        self.seed = w.IntText(value=seed, description="Seed", style=STYLE, layout=w.Layout(width="260px"))
        self.level = w.Dropdown(options=list(LEVELS), value=level if level in LEVELS else "rules",
                                description="AI level", style=STYLE, layout=w.Layout(width="420px"))
        self.scheduler = w.Text(value=scheduler, description="Dask scheduler",
                                placeholder="empty = this machine, or tcp://host:8786", style=STYLE,
                                layout=w.Layout(width="420px"))
        self.run_button = w.Button(description="Run", button_style="primary", icon="play")
        self.run_button.on_click(self._on_run)
        self.progress = w.IntProgress(value=0, min=0, max=1, description="Progress", style=STYLE,
                                      layout=w.Layout(width="420px"))
        self.status = w.HTML("")
        self.error = w.HTML("", layout=w.Layout(display="none"))
        img_layout = w.Layout(width="400px", height="256px")
        self.bid_image = w.Image(format="png", layout=img_layout)
        self.strength_image = w.Image(format="png", layout=img_layout)
        self.bird_image = w.Image(format="png", layout=img_layout)
        self.trick_image = w.Image(format="png", layout=img_layout)
        self.nest_text = w.HTML("")
        self.plots = w.VBox([w.HBox([self.bid_image, self.strength_image]),
                             w.HBox([self.bird_image, self.trick_image]), self.nest_text],
                            layout=w.Layout(display="none"))
        for widget, name in ((self.variant, "variant"), (self.deals, "deals"), (self.seed, "seed"),
                             (self.level, "level"), (self.scheduler, "scheduler"), (self.progress, "progress"),
                             (self.status, "status"), (self.error, "error"), (self.bid_image, "plot-bids"),
                             (self.strength_image, "plot-strength"), (self.bird_image, "plot-bird"),
                             (self.trick_image, "plot-tricks"), (self.nest_text, "nest")):
            widget.add_class(f"rook-stats-{name}")
        self.intro = w.HTML("")
        self.note = w.HTML("", layout=w.Layout(display="none" if not notes else ""))
        self.note.add_class("rook-stats-note")
        super().__init__([
            self.note, self.intro,
            self.variant, w.HBox([self.deals, self.seed]), self.level, self.scheduler, self.run_button,
            self.progress, self.error, self.status, self.plots,
        ], **kwargs)
        self.add_class("rook-stats")
        self._notes = notes
        self.draw_words()

    @i18n.in_own_language
    def draw_words(self) -> None:
        """The panel's words in its language: the heading and introduction (what the page is, and how to use a
        dask cluster), the parameters' labels and lists, Run, Progress; the page's direction (Persian: right to
        left, the plots and numbers as drawn). Raises nothing."""
        tr = i18n.current()
        head = escape(_("Statistics"))
        intro = escape(_("Let four AI players bid and play many deals, then see how often bids are made, what the "
                         "bird is worth, where the points fall and how often the nest decides the hand. Each deal "
                         "is one hand; the same seed gives the same deals."))
        cluster = escape(_("Runs use both cores of this machine (dask's local process scheduler). To use a dask "
                           "cluster, type its scheduler address (e.g. tcp://host:8786) in Dask scheduler."))
        direction = f" dir='{tr.direction}' lang='{tr.lang}'" if tr.lang != i18n.SOURCE else ""
        self.intro.value = (f"<div{direction}><h3 style='margin:4px 0'>{head}</h3><p style='margin:2px 0'>{intro}</p>"
                            f"<p style='margin:2px 0;color:#555'>{cluster}</p></div>")
        self.note.value = "".join(f"<div style='color:#555'>{escape(line)}</div>" for line in self._notes)
        value = self.variant.value
        self.variant.options = [(rules_title(r), key) for key, r in VARIANTS.items()]
        self.variant.value = value
        self.variant.description = _("Rule set")
        self.deals.description = _("Deals")
        self.seed.description = _("Seed")
        level = self.level.value
        labels = {v: k for k, v in AI_LEVELS.items()}
        self.level.options = [(_(labels[key]) if key in labels else key, key) for key in LEVELS]
        self.level.value = level
        self.level.description = _("AI level")
        self.scheduler.description = _("Dask scheduler")
        self.scheduler.placeholder = _("empty = this machine, or tcp://host:8786")
        self.run_button.description = _("Run")
        self.progress.description = _("Progress")

    # ----- messages -----------------------------------------------------------------------
    def show_error(self, message: str) -> None:
        """Show one error line in the panel."""
        self.error.value = f"<div style='color:#b71c1c;font-weight:bold'>⚠ {escape(message, quote=False)}</div>"
        self.error.layout.display = ""

    def clear_error(self) -> None:
        """Hide the error line."""
        self.error.value = ""
        self.error.layout.display = "none"

    @i18n.in_own_language
    def _on_progress(self, done: int, total: int) -> None:
        self.progress.max = max(1, total)
        self.progress.value = min(done, self.progress.max)
        self.status.value = escape(_("Playing deals: {done} / {total}", done=done, total=total))

    # ----- run ----------------------------------------------------------------------------
    def run(self) -> HandStats | None:
        """Run the simulation with the panel's parameters and show the plots; returns the stats or None on error."""
        self._on_run()
        return self.stats

    @i18n.in_own_language
    def _on_run(self, _button=None) -> None:
        self.clear_error()
        deals = self.deals.value
        if not 1 <= deals <= MAX_DEALS:
            self.show_error(_("Deals must be between 1 and {most}, not {value}.", most=MAX_DEALS, value=deals))
            return
        address = self.scheduler.value.strip() or None
        self.run_button.disabled = True
        self.progress.max, self.progress.value = deals, 0
        self.progress.bar_style = ""
        self.status.value = escape(_("Starting… (connecting to {address})", address=address) if address
                                   else _("Starting…"))
        try:
            stats = simulate(self.variant.value, deals, self.seed.value, level=self.level.value, client=address,
                             progress=self._on_progress, connect_timeout=5.0)
            self._show(stats)
        except Exception as e:  # noqa: BLE001 - shown in the panel, never raised into the widget event loop
            self.progress.bar_style = "danger"
            self.status.value = ""
            if address:
                self.show_error(_("The simulation failed (scheduler {address}): {kind}: {error}", address=address,
                                  kind=type(e).__name__, error=e))
            else:
                self.show_error(_("The simulation failed: {kind}: {error}", kind=type(e).__name__, error=e))
            return
        finally:
            self.run_button.disabled = False
        self.stats = stats

    def _show(self, stats: HandStats) -> None:
        rules = VARIANTS[stats.variant]
        bird_name = bird_word(rules.bird_name) if rules.bird else None
        title = rules_title(rules)
        self.bid_image.value = plot_bid_success(stats)
        self.strength_image.value = plot_strength(stats)
        self.bird_image.value = plot_bird(stats, bird_name)
        self.trick_image.value = plot_tricks(stats)
        rate = stats.nest_decides_rate()
        played = len(stats.played)
        if not rules.nest_size:
            nest = _("{title} has no nest, so the nest never decides a hand.", title=title)
        elif math.isnan(rate):
            nest = _("No hand was played, so the nest never decided one.")
        else:
            decided = sum(1 for r in stats.played if r["nest_decides"])
            nest = _("The nest decided {rate:.1%} of the played hands ({decided} of {played}): made would have been "
                     "set, or set made, had its points gone to the other team.", rate=rate, decided=decided,
                     played=played)
        self.nest_text.value = f"<p>{escape(nest)}</p>"
        c = stats.counts()
        self.progress.value = self.progress.max
        self.progress.bar_style = "success"
        self.status.value = escape(ngettext(
            "{count} deal of {title} in {seconds:.1f} s: {made} made, {set} set, {passed} passed out.",
            "{count} deals of {title} in {seconds:.1f} s: {made} made, {set} set, {passed} passed out.", stats.deals,
            count=stats.deals, title=title, seconds=stats.seconds, made=c["made"], set=c["set"],
            passed=c["passed_out"]))
        self.plots.layout.display = ""

