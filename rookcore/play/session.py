"""`PlaySession`: a learner's game at a `rookcore.table.Table` as the Play tab plays it — the session logic behind the
Play panel (``widgets/play.py``), with no UI import.

The `Table` holds the game and its rules; the session adds what a page needs around it: the AIs' pace and whether
they are moving, the status line (what happens now, what an action did, its error), the learner's decisions (a
number that changes whenever the learner has a new decision to make, so that a click made before the table
changed can be told apart), the cards picked to put back as the nest, the Hint, the questions before a hand or a
game is thrown away (New hand, New game), the kept game (`Keeper`), the record saved and downloaded
(`RecordSaver`), the end-of-hand review (`ReviewJob`), opening Replay on the finished hand, and where the keyboard
goes next.

Typical use::

    s = PlaySession(seed=7, pace=0)     # the AIs before the learner's first turn act at once
    s.call_pass()                       # the AIs answer (paced by ``pace`` seconds per move)
    s.status.text                       # "Your call: bid 75 or more (up to 200), or pass."
    s.show_hint(); s.hint.action        # the AI's choice in the learner's seat
    s.save("hands/hand-1.json")         # `Saved`

Refusals raise ValueError (the engine's IllegalAction and RulesError are ValueErrors) with the sentence to show, and
leave the session as it was; the view shows them in the status line (`complain`). Sentences are in the session's
language (``lang``).

A view connects itself with three hooks: ``draw`` (redraw everything: called after the AIs' moves, an Undo),
``move_ais`` (let the AIs move after a learner's action; default `advance` with ``draw``) and the ``on_status``
listeners (the status line changed, possibly in the middle of the AIs' moves).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Hashable

from .. import i18n
from ..actions import PASS, NameTrump, Play, bid as make_bid
from ..cards import Card
from ..confirm import SecondClick
from ..hand import Phase
from ..i18n import _
from ..replay.files import RecordFiles
from ..rules import Rules
from ..table import Table, table_order
from ..words import bird_name, seat_name, team_name
from .keeping import Keeper
from .review import ReviewJob
from .saving import RecordSaver, Saved

__all__ = ["PlaySession", "Status"]


@dataclass(frozen=True)
class Status:
    """The status line: ``text`` (words, no HTML), whether it is an ``error``, and ``after`` (words shown after an
    error, e.g. what happens now; None: nothing)."""

    text: str
    error: bool = False
    after: str | None = None


class PlaySession:
    """A learner's game: ``table`` (a `Table`), its pace, status line, decisions, hint, questions, kept game, saved
    records and review.

    Args:
      table: the `Table` (default: a new CrowsNest table with ``seed``).
      seed: deal/AI seed for the default table (None = random).
      pace: seconds between AI moves (float; below 0 counts as 0; 0 = instant).
      pending_rules: the `Rules` chosen for the next new game (None: the same as now).
      lang: the session's language (a `rookcore.i18n` code; None: the one active now).
      files, guard: where typed Save-to paths lead and who asks before a file is replaced (`RecordSaver`).

    The AIs before the learner's first turn act at once. Attributes: ``table``, ``lang``, ``pace``,
    ``pending_rules``, ``status`` (`Status`), ``decision`` (int), ``picks`` (set of `Card`), ``hint`` (the last
    Hint's `Decision`, None once the learner acted), ``ai_moving``, ``confirm`` (`rookcore.confirm.SecondClick` of
    New hand / New game), ``keeper``, ``saver``, ``review``; hooks ``draw``, ``move_ais``, ``on_status``, and the
    app's ``on_new_game`` (callables run once a new game has started, before the AIs move), ``on_open_replay``
    (callables(record, step) that open Replay) and ``on_bird_choice`` (callables(on: bool), run by a view when the
    learner ticks the bird box).
    """

    def __init__(self, table: Table | None = None, *, seed: int | None = None, pace: float = 0.6,
                 pending_rules: Rules | None = None, lang: str | None = None, files: RecordFiles | None = None,
                 guard: Any = None) -> None:
        self.lang = i18n.normalize(lang) if lang is not None else i18n.current_language()
        self.table = table if table is not None else Table(seed=seed)
        self.pace = max(0.0, float(pace))
        self.pending_rules = pending_rules
        self.status = Status("")
        self.decision = 0  # counts the learner's decisions (`start_decision`)
        self._decision_key: Hashable = object()
        self.picks: set[Card] = set()  # the cards picked to put back as the nest (discard phase)
        self._picks_key = None
        self.hint = None
        self.ai_moving = False  # True while `advance` paces the AIs: Hint, Undo, New hand and New game wait
        self.confirm = SecondClick()  # New hand / New game ask before throwing a hand or a game away
        self.keeper = Keeper(self)
        self.saver = RecordSaver(self, files, guard)
        self.review = ReviewJob(self)
        self.on_status: list[Callable[[], None]] = []
        self.on_new_game: list[Callable[[], None]] = []
        self.on_open_replay: list[Callable[[Any, int], None]] = []
        self.on_bird_choice: list[Callable[[bool], None]] = []
        self.draw: Callable[[], None] = self.settle
        self.move_ais: Callable[[], None] = lambda: self.advance(self.draw)
        self._last_info = ""  # the text of the last `say`, kept by a stale click's note
        self.table.run_ai()  # before anything is shown: no pacing

    # ----- the status line ----------------------------------------------------------------------
    def say(self, text: str) -> None:
        """Show ``text`` in the status line."""
        self._last_info = text
        self._set(Status(text))

    def complain(self, text: str, after: str | None = None) -> None:
        """Show ``text`` as an error in the status line, followed by ``after`` (None: nothing)."""
        self._last_info = ""
        self._set(Status(text, True, after))

    def _set(self, status: Status) -> None:
        self.status = status
        for listener in list(self.on_status):
            listener()

    @i18n.in_own_language
    def stale_click(self) -> None:
        """A click on a button (or a card) of an earlier decision: say it was ignored, keeping what the status said
        (a new hand dealt, say)."""
        note = _("A click made before the table changed was ignored.")
        said = self._last_info if self._last_info.strip() else self.table.prompt()
        self.say(said if said.startswith(note) else _("{note} {said}", note=note, said=said))

    # ----- after every change ---------------------------------------------------------------------
    def start_decision(self, key: Hashable = None) -> int:
        """Begin a new decision of the learner when ``key`` differs from the last one (default: the table's position,
        once the AIs have moved and the learner may act, or nobody can). Returns ``decision``."""
        if key is None:
            t = self.table
            if not (t.is_learner_turn() or not t.ai_to_act()):
                return self.decision
            key = (id(t.game), t.hand_number, id(t.state), len(t.state.history), t.state.phase)
        if key != self._decision_key:
            self._decision_key = key
            self.decision += 1
        return self.decision

    @i18n.in_own_language
    def settle(self) -> None:
        """Bring everything in step with the table (what a redraw shows): a new decision when the learner may act,
        the game kept, the discard picks and the review following the hand on show, the Save-to name following the
        hand, and the status line saying what happens now (with a note about keeping, once)."""
        self.start_decision()
        self.keeper.keep_game()
        t = self.table
        key = (t.hand_number, t.state.step)
        if key != self._picks_key:  # a new decision: nothing picked yet
            self.picks, self._picks_key = set(), key
        self.review.follow_hand()
        self.saver.follow()
        self.say(t.prompt() + self.keeper.take_note())

    # ----- the AIs --------------------------------------------------------------------------------
    @i18n.in_own_language
    def advance(self, draw: Callable[[], None] | None = None) -> None:
        """Let the AIs act until the learner must act, calling ``draw()`` (default: `settle`) after each move, paced
        by ``pace`` seconds (``ai_moving`` meanwhile); the status line names the AI deciding ("W is thinking…"), or
        at pace 0 "The AIs are thinking…" while they all move at once."""
        draw = draw or self.settle
        t = self.table
        if self.pace <= 0:
            if t.ai_to_act():
                self.say(_("The AIs are thinking…"))  # the strong AI can take seconds: say why nothing moves
            t.run_ai()
            draw()
            return
        self.ai_moving = True
        try:
            draw()
            while t.ai_to_act():
                time.sleep(self.pace)
                self.say(_("{seat} is thinking…", seat=seat_name(t.state.to_act)))
                t.step_ai()
                if t.ai_to_act():
                    draw()
        finally:
            self.ai_moving = False
            draw()

    def focus(self) -> str | None:
        """Where a keyboard player most likely goes next: "card" (a card to play, if one is legal), "bid" (the
        lowest bid, else Pass), "discard" (the cards to pick), "trump" (the first colour), "new hand" once the hand
        is over, "new game" once the game is; None: nothing to do (the AIs move)."""
        t = self.table
        if t.state.is_over or not (t.is_learner_turn() or t.ai_to_act()):
            return "new game" if t.game.is_over else "new hand"
        if not t.is_learner_turn():
            return None
        return {Phase.AUCTION: "bid", Phase.DISCARD: "discard", Phase.TRUMP: "trump"}.get(t.state.phase, "card")

    # ----- the learner's moves --------------------------------------------------------------------
    def _acted(self) -> None:
        """After the learner's action: this page keeps the game (`Keeper.learner_acted`); the Hint is out of date;
        the AIs move."""
        self.keeper.learner_acted()
        self.hint = None
        self.move_ais()

    @i18n.in_own_language
    def play_card(self, card: Card | int) -> None:
        """Play ``card`` (a `Card` or its id) for the learner, then let the AIs move. Raises ValueError (not your
        turn, must follow: `Table.learner_act`)."""
        self.table.learner_act(Play(Card.from_id(int(card))))
        self._acted()

    @i18n.in_own_language
    def call_bid(self, amount: int) -> None:
        """Bid ``amount`` points for the learner, then let the AIs call. Raises ValueError for an illegal bid."""
        self.table.learner_act(make_bid(int(amount)))
        self._acted()

    @i18n.in_own_language
    def call_pass(self) -> None:
        """Pass for the learner, then let the AIs call (or play, if the auction ends). Raises ValueError out of
        turn."""
        self.table.learner_act(PASS)
        self._acted()

    @i18n.in_own_language
    def name_trump(self, colour: str) -> None:
        """Name ``colour`` (R, Y, G, B) as trump for the learner, then let the AIs play. Raises ValueError."""
        self.table.learner_act(NameTrump(colour))
        self._acted()

    def picked(self) -> list[Card]:
        """The cards picked to put back, in the order the table lays them (`rookcore.table.table_order` of the hand
        and nest while the learner discards, else of the learner's hand: `Table.view`)."""
        t = self.table
        cards = t.state.discard_candidates() if self.discarding() else t.state.hands[t.learner]
        return [c for c in table_order(t.rules, cards, t.state.trump) if c in self.picks]

    def discarding(self) -> bool:
        """True while the learner picks the cards to put back as the nest (rules.md §1.3)."""
        return bool(self.table.discard_options()) and self.table.is_learner_turn()

    @i18n.in_own_language
    def toggle_pick(self, card: Card) -> None:
        """Pick ``card`` to put back as the nest, or unpick it. Raises ValueError for a card in neither the hand nor
        the nest."""
        if card not in self.table.discard_options():
            raise ValueError(_("{card} is neither in your hand nor in the nest", card=self.table.name(card)))
        self.picks ^= {card}
        self.say(self.table.prompt())  # an earlier message (an ignored click, say) is out of date

    @i18n.in_own_language
    def discard(self, cards=None) -> None:
        """Put back ``cards`` (default: the picks) as the nest, then let the AIs move. Raises ValueError unless they
        are exactly ``nest_size`` cards of the hand and nest, or when the learner is not discarding."""
        self.table.learner_discard(self.picked() if cards is None else list(cards))
        self._acted()

    @i18n.in_own_language
    def show_hint(self) -> None:
        """What the AI would do in the learner's seat, from the learner's view only (`Table.hint`): kept in
        ``hint`` until the learner acts. Raises ValueError when it is not the learner's turn."""
        decision = self.table.hint()
        self.say(self.table.prompt())
        self.hint = decision

    @i18n.in_own_language
    def undo(self) -> None:
        """Take back the learner's last action and the AI moves after it, and redraw. Raises ValueError when there
        is nothing to undo."""
        self.table.undo_learner()
        self.keeper.learner_acted()
        self.hint = None
        self.draw()
        self.say(_("Undone. {prompt}", prompt=self.table.prompt()))

    # ----- hands and games ------------------------------------------------------------------------
    @i18n.in_own_language
    def new_hand_clicked(self) -> None:
        """The New hand button: in the middle of a hand it first asks (``confirm``: a second click, at least
        ``confirm.wait`` seconds later, goes ahead), then deals (`new_hand`)."""
        if not self.table.state.is_over and not self.confirm.confirmed(("new hand", self.decision)):
            self.say(_("New hand throws this hand away (it is not scored). Click New hand again to deal a new one. "
                       "{prompt}", prompt=self.table.prompt()))  # still say whose turn it is
            return
        self.new_hand()

    @i18n.in_own_language
    def new_game_clicked(self) -> None:
        """The New game button: once the game has started (and is not over) it first asks (``confirm``)."""
        t = self.table
        if t.game_started and not t.game.is_over and not self.confirm.confirmed(("new game", self.decision)):
            ns, ew = t.game.scores
            self.say(_("New game ends this game (hand {hand}, {ns_team} {ns} · {ew_team} {ew}). Click New game again "
                       "to start a new one from 0–0. {prompt}", hand=t.hand_number, ns_team=team_name(0), ns=ns,
                       ew_team=team_name(1), ew=ew, prompt=t.prompt()))
            return
        self.new_game()

    @i18n.in_own_language
    def new_hand(self) -> None:
        """Deal the next hand (or redeal an unfinished one: `Table.new_hand`) and let the AIs act up to the learner's
        turn. Raises ValueError once the game is over."""
        self.table.new_hand()
        self.keeper.learner_acted()
        self.hint = None
        self.saver.reset()
        self.move_ais()
        t = self.table
        self.say(_("Hand {number} dealt by {seat}. {prompt}", number=t.hand_number, seat=seat_name(t.state.dealer),
                   prompt=t.prompt()))

    @i18n.in_own_language
    def new_game(self) -> None:
        """Start a new game with ``pending_rules`` if Settings chose a rule set (else the same one), applying the
        bird choice; run ``on_new_game``, then let the AIs act up to the learner's turn. Raises ValueError
        (RulesError) if the bird choice does not apply."""
        rules, self.pending_rules = self.pending_rules, None
        self.table.new_game(rules)
        self.keeper.learner_acted()
        self.hint = None
        self.saver.reset()
        for callback in self.on_new_game:  # before the AIs' paced moves, which take seconds to show
            callback()
        self.move_ais()

    @i18n.in_own_language
    def next_hand(self) -> None:
        """The end-of-hand panel's "Next hand": deal the next hand (`new_hand`), or start a new game from 0–0 once the
        game is over (`new_game`). While a hand is in play (a second click on the button that has just dealt) it
        only says so: it never throws the new hand away."""
        t = self.table
        if not t.state.is_over:
            self.say(_("The next hand is already dealt. {prompt}", prompt=t.prompt()))
            return
        if t.game.is_over:
            self.new_game()
        else:
            self.new_hand()

    @i18n.in_own_language
    def set_bird(self, on: bool | None) -> None:
        """Play with (True) or without (False) the bird from the next new game (`Table.set_bird`; None: as the next
        game's rules say, e.g. Settings' choice), keep it with the game and say it in the status line. Raises
        ValueError (RulesError) if the rule set has no bird option."""
        self.table.set_bird(None if on is None else bool(on))
        self.keeper.keep_game()
        if on is not None:
            name = bird_name(self.table.next_game_rules(self.pending_rules).bird_name)
            prompt = self.table.prompt()
            self.say(_("The next new game is played with the {bird}. {prompt}", bird=name, prompt=prompt) if on
                     else _("The next new game is played without the {bird}. {prompt}", bird=name, prompt=prompt))

    # ----- records ----------------------------------------------------------------------------------
    @i18n.in_own_language
    def save(self, typed: str | None = None) -> Saved:
        """Write the hand record (rook-hand/1) to ``typed`` (default: the Save-to box, ``saver.path``): see
        `RecordSaver.save`. The status line says what was done, or asks, or shows the error followed by what happens
        now. Returns the `Saved`; raises nothing."""
        saved = self.saver.save(typed or self.saver.path)
        prompt = self.table.prompt()
        if saved.kind == "question":
            self.say(_("{question}. {prompt}", question=saved.text, prompt=prompt))
        elif saved.kind == "error":
            self.complain(saved.text, after=prompt)  # the game goes on: still say what comes next
        else:  # replaces any earlier error in the status line, and still says whose turn it is
            self.say(_("Saved the hand record to {path}. {prompt}", path=self.saver.shown, prompt=prompt))
        return saved

    @i18n.in_own_language
    def open_replay(self, step: int = 0) -> None:
        """"Replay this hand": open Replay on the finished hand's record (`Table.record`, the AIs' reasons as
        comments) at ``step``, the Replay navigator's step (int: actions applied, 0 = the deal), through the
        ``on_open_replay`` hooks. Raises ValueError for a hand still in play, a bad step or no hook."""
        if not self.table.state.is_over:
            raise ValueError(_("Replay this hand opens once the hand is over (the cards still in hand stay hidden "
                               "until then)"))
        self.open_replay_at(self.table.record(), step)

    @i18n.in_own_language
    def open_replay_at(self, record, step: int) -> None:
        """Run the ``on_open_replay`` hooks with (``record``, ``step``) and say so. Raises ValueError for a step that
        is not a whole number ≥ 0, or when no hook is connected (no Replay on this page)."""
        if isinstance(step, bool) or not isinstance(step, int) or step < 0:
            raise ValueError(_("the step to open Replay at must be a whole number ≥ 0, not {step}", step=repr(step)))
        if not self.on_open_replay:
            raise ValueError(_("there is no Replay tab on this page: save the record (Save record) and load it in a "
                               "Replay panel"))
        for callback in self.on_open_replay:
            callback(record, step)
        self.say(_("The hand is open in Replay at step {step}. {prompt}", step=step, prompt=self.table.prompt()))

    # ----- the end-of-hand review -------------------------------------------------------------------
    @i18n.in_own_language
    def start_review(self) -> None:
        """"Could we have done better?" (`ReviewJob.start`). Raises ValueError while the hand is in play."""
        self.review.start()

    @i18n.in_own_language
    def stop_review(self) -> None:
        """The review's Stop (`ReviewJob.stop`)."""
        self.review.stop()
