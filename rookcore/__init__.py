"""rookcore: the Rook family engine (rules, hand state, games, records, AI, analysis). No UI imports."""
from .actions import PASS, Bid, Discard, NameTrump, Pass, Play, bid
from .cards import COLOURS, Card, CardError
from .hand import SEATS, TEAMS, HandState, IllegalAction, Observation, OutOfTurn, Phase, WrongPhase, seat_index, team_of
from .rules import VARIANTS, Rules, RulesError, get_rules

__all__ = ["PASS", "Bid", "Discard", "NameTrump", "Pass", "Play", "bid", "COLOURS", "Card", "CardError", "SEATS",
           "TEAMS", "HandState", "IllegalAction", "Observation", "OutOfTurn", "Phase", "WrongPhase", "seat_index",
           "team_of", "VARIANTS", "Rules", "RulesError", "get_rules"]
