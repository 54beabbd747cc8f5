"""The AI's sentences in the learner's language (issue 26; rookcore.ai, rookcore.i18n.Message): made once while the
AI decides, said in whatever language is active when they are shown; the masking's final text check holds in every
language; the command line stays English."""
from __future__ import annotations

import copy
import json
import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rookcore import i18n
from rookcore.ai import Candidate, Decision, RandomPlayer, RuleBasedPlayer, SamplingPlayer, play_hand
from rookcore.ai.masking import hidden_from, mask_decision, names_hidden_card
from rookcore.actions import Play
from rookcore.cards import Card
from rookcore.examples import example_path
from rookcore.hand import HandState
from rookcore.i18n import LANGUAGES, Message, lazy, localize, using
from rookcore.rules import get_rules

ROOT = Path(__file__).resolve().parents[1]
_ENGLISH_WORD = re.compile(r"(?<![\w⟦])[A-Za-z]{2,}(?!\w)")


def _texts(decision: Decision, bird: str) -> list:
    """Every sentence of a decision a page shows: its summary, each candidate's move and note, what scores mean."""
    from rookcore.ai import describe_action

    out = [decision.summary(bird), decision.explanation, decision.score_meaning]
    for c in decision.candidates:
        out += [describe_action(c.action, bird), c.note]
    return [t for t in out if t]


def _hands(variant: str, players, seeds=range(2)) -> list[Decision]:
    decisions = []
    for seed in seeds:
        state = HandState.deal(get_rules(variant), seed % 4, seed)
        decisions += play_hand(state, players)
    return decisions


@pytest.mark.parametrize("variant", ["crowsnest", "red-1", "partnership"])
def test_ai_sentences_are_said_in_every_language(variant):
    """Every sentence of the rule-based and random AIs' hands is a `Message`: English where a str is read, and said
    in each language with its placeholders filled; in the pseudo-locale no English word is left (card codes aside)."""
    rules = get_rules(variant)
    decisions = _hands(variant, [RuleBasedPlayer(seed=s) for s in range(4)])
    decisions += _hands(variant, [RandomPlayer(seed=s) for s in range(4)], seeds=[5])
    texts = [t for d in decisions for t in _texts(d, rules.bird_name)]
    assert len(texts) > 200 and all(isinstance(t, Message) for t in texts if not re.fullmatch(r"[A-Z]\d+|\d+", t))
    for lang in LANGUAGES:
        with using(lang):
            said = [localize(t) for t in texts]
        assert not any("{" in s for s in said), lang
        changed = sum(s != str(t) for s, t in zip(said, texts))
        assert changed > 0.9 * len(texts), (lang, changed, len(texts))
    with using("xx"):
        left = [w for t in texts for w in _ENGLISH_WORD.findall(localize(t)) if w not in ("CROW", "ROOK")]
    assert not left, left[:10]


def test_strong_ai_sentences_are_said_in_every_language():
    """The strong AI's call and card sentences (deals, percents, the next best choice) in the pseudo-locale and
    in Persian: no English word, no placeholder left."""
    rules = get_rules("crowsnest")
    state = HandState.deal(rules, 0, 3)
    players = [SamplingPlayer(seed=s, worlds=4) for s in range(4)]
    decisions = []
    while not state.is_over and len(decisions) < 14:
        d = players[state.to_act].decide(state.observation(state.to_act))
        state.apply(d.action)
        decisions.append(d)
    texts = [t for d in decisions for t in _texts(d, rules.bird_name)]
    with using("xx"):
        left = [w for t in texts for w in _ENGLISH_WORD.findall(localize(t)) if w not in ("CROW", "ROOK")]
    assert not left, left[:10]
    with using("fa"):
        assert not any("{" in localize(t) for t in texts)


def test_a_message_is_english_and_keeps_itself():
    """A `Message` equals its English text, compares and hashes as it, and pickles and copies as a Message (a kept
    game, the arena's process pool), said again in any language afterwards."""
    m = lazy.ngettext("{seat} buries {count} card", "{seat} buries {count} cards", 5, seat=lazy.pgettext("seat", "E"),
                      count=5)
    assert m == "E buries 5 cards" and {m: 1}["E buries 5 cards"] == 1 and json.dumps(m) == '"E buries 5 cards"'
    for back in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m)):
        assert isinstance(back, Message) and back == m
        with using("de"):
            assert localize(back) == localize(m) == "O legt 5 Karten ab"
    assert localize("a plain str") == "a plain str"


def test_masking_text_check_holds_in_every_language():
    """The masking's final safety pass reads a sentence as the learner is shown it: a sentence naming a hidden
    card by its translated name (the Crow in German: "Krähe") is caught in that language, whether it is a `Message`
    or a plain str from an older record; the same sentence about a card that is seen is kept."""
    rules = get_rules("crowsnest")
    crow = Card.bird()
    says = lazy.gettext("the {bird} is the lowest trump in {title}", bird=lazy.pgettext("card", "Crow"),
                        title="CrowsNest")
    for lang in ("en", *LANGUAGES, "xx"):
        with using(lang):
            assert names_hidden_card(says, frozenset({crow}), rules), lang
            assert not names_hidden_card(says, frozenset({Card.parse("R14")}), rules), lang
    with using("de"):
        assert names_hidden_card("Sie behält die Krähe.", frozenset({crow}), rules)  # a foreign plain sentence
    # a decision whose explanation names the hidden Crow, without `secret`: replaced by the waiting sentence
    decision = Decision(Play(Card.parse("R14")), (Candidate(Play(Card.parse("R14")), 1.0, says),), says, 1, "play")
    state = HandState.deal(rules, 0, 4)
    hidden = hidden_from(state, 2) | {crow}
    for lang in ("de", "fa", "xx"):
        with using(lang):
            masked = mask_decision(decision, hidden - {Card.parse("R14")}, rules)
            shown = localize(masked.explanation) + " " + " ".join(localize(c.note) for c in masked.candidates)
            assert not names_hidden_card(shown, frozenset({crow}), rules), (lang, shown)
            assert localize(masked.explanation) == localize(
                lazy.gettext("{seat} weighed cards you cannot see yet; its reasoning is shown when the hand is over.",
                             seat=lazy.pgettext("seat", "E")))


@pytest.mark.parametrize("command", [["score"], ["analyze", "--budget", "none"]])
def test_command_line_stays_english(command, tmp_path):
    """The command line's output is machine-readable JSON with English keys whatever the process's locale says,
    and it takes no --lang: none of its output is written for a learner to read (score, analyze and play print
    JSON; arena's summary line is for developers)."""
    record = str(example_path("crowsnest-made"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    plain = subprocess.run([sys.executable, "-m", "rookcore", *command, record], capture_output=True, text=True,
                           env={**env, "LANG": "C.UTF-8", "LANGUAGE": ""}, timeout=300, cwd=tmp_path)
    german = subprocess.run([sys.executable, "-m", "rookcore", *command, record], capture_output=True, text=True,
                            env={**env, "LANG": "de_DE.UTF-8", "LANGUAGE": "de", "LC_ALL": "C.UTF-8"}, timeout=300,
                            cwd=tmp_path)
    assert plain.returncode == german.returncode == 0, (plain.stderr, german.stderr)
    doc = json.loads(german.stdout)
    assert german.stdout == plain.stdout and "variant" in doc  # the same JSON, English keys
    refused = subprocess.run([sys.executable, "-m", "rookcore", *command, "--lang", "de", record],
                             capture_output=True, text=True, env=env, timeout=60, cwd=tmp_path)
    assert refused.returncode == 2 and "--lang" in refused.stderr


def test_a_kept_game_says_its_ai_sentences_in_the_page_language(tmp_path):
    """A kept game keeps its AI's sentences as messages ("said", beside the English): resumed, the reasoning of the
    hand on show is said in the page's language as before it was kept; a "said" member whose English is not the
    text beside it, or that is not message data, is refused like any bad member."""
    from rookcore import saved
    from rookcore.table import Table

    table = Table(seed=3)
    table.run_ai()
    path = tmp_path / "game.json"
    saved.save_table(table, path)
    back = saved.load_table(path).table
    assert [e.decision.summary() for e in back.log] == [e.decision.summary() for e in table.log]
    for lang in ("de", "fa", "xx"):
        with using(lang):
            before = [localize(e.decision.summary(table.rules.bird_name)) for e in table.log]
            after = [localize(e.decision.summary(back.rules.bird_name)) for e in back.log]
        assert after == before and after != [str(e.decision.summary()) for e in table.log]
    doc = json.loads(path.read_text(encoding="utf-8"))
    said = doc["table"]["log"][0]["decision"]["said"]
    said["explanation"]["params"]["seat"] = {"message": "W", "plural": None, "n": 1, "context": "seat", "params": {}}
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(saved.SavedGameError, match="do not match their English"):
        saved.load_table(path)
    said["explanation"] = {"message": 5, "plural": None, "n": 1, "context": None, "params": {}}
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(saved.SavedGameError, match="not described"):
        saved.load_table(path)
