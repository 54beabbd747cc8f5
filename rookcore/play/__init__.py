"""Play as an engine-side session: a learner's game at a `rookcore.table.Table` as the Play tab plays it, with no UI
import (the Play panel, ``widgets/play.py``, draws it).

* `PlaySession` (`session`) — the AIs' pace, the status line, the learner's decisions and actions, the discard
  picks, the Hint, the questions before a hand or a game is thrown away, opening Replay on a finished hand;
* `Keeper` (`keeping`) — the game kept for the learner's next visit (`rookcore.saved`);
* `RecordSaver` (`saving`) — the hand record saved and downloaded;
* `ReviewJob` (`review`) — "Could we have done better?", the double-dummy review of a finished hand, and
  `ReviewShown` / `ReviewLink` (`review_words`), what it shows, as data and words.
"""
from .keeping import Keeper
from .review import ReviewJob
from .review_words import ReviewLink, ReviewShown
from .saving import RecordSaver, Saved
from .session import PlaySession, Status

__all__ = ["PlaySession", "Status", "Keeper", "RecordSaver", "Saved", "ReviewJob", "ReviewShown", "ReviewLink"]
