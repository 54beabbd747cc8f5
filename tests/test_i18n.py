"""Message catalogs (issue 26; rookcore/i18n.py): complete, same placeholders as English, plural forms, compile,
follow the glossaries taken from the seeds; the pseudo-locale translates everything the engine shows; English
output and the command line stay as they were."""
from __future__ import annotations

import io
import json
import re
import threading
from html import unescape
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from rookcore import i18n
from rookcore.actions import PASS, PLAYS, bid
from rookcore.hand import IllegalAction
from rookcore.i18n import (LANGUAGES, LRI, PDI, PSEUDO, Translator, catalog_path, compile_catalog, placeholders,
                           using)
from rookcore.rules import VARIANTS, get_rules
from rookcore.table import Table
from widgets.rules_view import rules_html

ROOT = Path(__file__).resolve().parents[1]
POT = i18n.LOCALE_DIR / "rook.pot"


def _read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def _messages(cat: Catalog) -> dict:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in cat if m.id}


TEMPLATE = _messages(_read(POT))
CATALOGS = {lang: _read(catalog_path(lang), lang) for lang in LANGUAGES}
ENGLISH_GLOSSARY = json.loads((i18n.GLOSSARY_DIR / "en.json").read_text(encoding="utf-8"))
GLOSSARIES = {lang: json.loads((i18n.GLOSSARY_DIR / f"{lang}.json").read_text(encoding="utf-8"))
              for lang in LANGUAGES}


def _english(m) -> list[str]:
    return [m.id] if isinstance(m.id, str) else list(m.id)


def _strings(m) -> list[str]:
    return [m.string] if isinstance(m.string, str) else list(m.string)


# ------------------------------------------------------------------------------------------- the template
def test_template_has_every_message_of_the_code():
    """The .pot is what `pybabel extract` finds now (README "Translations"): a new or changed message fails here
    until extract/update are run and the catalogs translated."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    keywords = {**DEFAULT_KEYWORDS, **i18n.EXTRACT_KEYWORDS}
    found = {(ctx, msg if isinstance(msg, str) else msg[0])
             for _file, _line, msg, _comments, ctx in extract_from_dir(ROOT, method_map, options_map, keywords)}
    assert found == set(TEMPLATE), (f"missing from rook.pot: {sorted(found - set(TEMPLATE), key=str)[:5]}; "
                                    f"stale in rook.pot: {sorted(set(TEMPLATE) - found, key=str)[:5]}")


def test_template_placeholders_are_named():
    """English messages use named placeholders only ({seat}, never {} or {0}), so translators can reorder them; a
    format spec may follow the name ({chance:.0%}, {score:+d}: the translation keeps it as it is)."""
    for (_ctx, _id), m in TEMPLATE.items():
        for text in _english(m):
            for field in placeholders(text):
                assert re.fullmatch(r"[a-z_]+(:[^{}!]*)?", field), (text, field)


# ------------------------------------------------------------------------------------------- each catalog
@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_has_every_message(lang):
    """Every template message is in the catalog, translated (every plural form), not fuzzy; nothing obsolete."""
    cat = CATALOGS[lang]
    msgs = _messages(cat)
    missing = [k for k in TEMPLATE if k not in msgs]
    assert not missing, f"{lang}: not in the catalog: {missing[:5]}"
    for key, m in msgs.items():
        assert key in TEMPLATE, f"{lang}: {key} is not in rook.pot (run pybabel update)"
        assert "fuzzy" not in m.flags, f"{lang}: fuzzy {key}"
        assert all(s.strip() for s in _strings(m)), f"{lang}: untranslated {key}"
    assert not cat.obsolete, f"{lang}: obsolete entries {list(cat.obsolete)[:3]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_placeholders_match_english(lang):
    """Each translation has exactly the English placeholders (a plural form may not drop or add one)."""
    for key, m in _messages(CATALOGS[lang]).items():
        english = set().union(*(placeholders(t) for t in _english(m)))
        for s in _strings(m):
            assert placeholders(s) == english, f"{lang} {key}: {s!r} has {placeholders(s)}, English {english}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_plural_forms(lang):
    """The header's plural rule is the language's (CLDR via Babel) and each plural message has all its forms."""
    cat = CATALOGS[lang]
    expected = Catalog(locale=lang)
    assert cat.num_plurals == expected.num_plurals and cat.plural_expr == expected.plural_expr
    plurals = [m for m in cat if m.id and not isinstance(m.id, str)]
    assert plurals, "the catalogs have plural messages"
    for m in plurals:
        assert len(m.string) == cat.num_plurals, (lang, m.id)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_compiles(lang):
    """The .po compiles (as `pybabel compile` does), Babel's checks pass, and the result translates."""
    cat = CATALOGS[lang]
    errors = [(m.id, e) for m, errs in cat.check() for e in errs]
    assert not errors, errors[:3]
    import gettext
    t = gettext.GNUTranslations(io.BytesIO(compile_catalog(lang)))
    assert t.gettext("Name trump.") != "Name trump."
    assert t.pgettext("card", "Crow") == _messages(cat)[("card", "Crow")].string


# ------------------------------------------------------------------------------------------- glossaries
@pytest.mark.parametrize("lang", LANGUAGES)
def test_glossary_terms_come_from_the_seeds(lang):
    """Every glossary term cites the seed line it was taken from (the quote is on that line of the copied seed),
    or says why it is not from the seeds; every English term has an entry."""
    gl = GLOSSARIES[lang]
    lines = (ROOT / gl["seed_file"]).read_text(encoding="utf-8").split("\n")
    assert set(gl["terms"]) == set(ENGLISH_GLOSSARY["terms"])
    for key, entry in gl["terms"].items():
        assert entry["stems"] and entry["term"], (lang, key)
        seed = entry.get("seed")
        if seed is None:
            assert "not in the seeds" in entry.get("note", ""), (lang, key)
        else:
            assert seed["quote"] in lines[seed["line"] - 1], (lang, key, seed)


def _term_hits(english: str, context: str | None) -> list[str]:
    """The glossary term keys found in an English message (placeholders and titles removed for plain terms)."""
    terms = ENGLISH_GLOSSARY["terms"]
    if context == "rule set":
        return [k for k, t in terms.items() if t.get("title") and re.search(t["pattern"], english)]
    plain = re.sub(r"\{[^{}]*\}", " ", english)
    hits = [k for k, t in terms.items() if t.get("title") and not t.get("context") and re.search(t["pattern"], plain)]
    for title in ENGLISH_GLOSSARY["titles"]:
        plain = plain.replace(title, " ")
    hits += [k for k, t in terms.items() if not t.get("title") and re.search(t["pattern"], plain, re.I)]
    return hits


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_uses_the_glossary_terms(lang):
    """Where the English message has a game term, its translation has the glossary's word (one of its stems)."""
    terms = GLOSSARIES[lang]["terms"]
    misses = []
    for (ctx, _id), m in _messages(CATALOGS[lang]).items():
        for key in _term_hits(_english(m)[-1], ctx):
            stems = [s.lower() for s in terms[key]["stems"]]
            for s in _strings(m):
                if not any(stem in s.lower() for stem in stems):
                    misses.append((key, s[:70]))
    assert not misses, f"{lang}: {len(misses)} translations without the glossary term, e.g. {misses[:4]}"


def test_glossary_check_can_fail():
    """The term check finds the terms of a message (so a translation without them would fail)."""
    assert set(_term_hits("The declarer picks up the 5 nest cards — the Crow may go back.", None)) == {
        "declarer", "nest", "crow"}
    assert _term_hits("Partnership Rook uses all 56 cards", None) == ["title_partnership"]
    assert _term_hits("{seat} cannot bid {amount}", None) == ["bid"]
    assert _term_hits("made {bid}", None) == []


# ------------------------------------------------------------------------------------------- pseudo-locale
_ENGLISH_WORD = re.compile(r"(?<![\w⟦])[A-Za-z]{2,}(?!\w)")
_NOTATION = {"CROW", "ROOK"}


def _english_words(text: str) -> list[str]:
    """ASCII words left in ``text`` (tags removed), card notation aside: what a pseudo-locale page must not show."""
    text = unescape(re.sub(r"<[^>]+>", " ", text))
    return [w for w in _ENGLISH_WORD.findall(text) if w not in _NOTATION]


def test_pseudo_translates_every_message():
    """Every template message comes out of the pseudo-locale changed, with no English word, placeholders kept."""
    tr = Translator(PSEUDO)
    for (ctx, _id), m in TEMPLATE.items():
        if isinstance(m.id, str):
            out = tr.pgettext(ctx, m.id) if ctx else tr.gettext(m.id)
            forms = [(m.id, out)]
        else:
            forms = [(m.id[0], tr.ngettext(m.id[0], m.id[1], 1)), (m.id[1], tr.ngettext(m.id[0], m.id[1], 5))]
        for english, out in forms:
            assert out != english and out.startswith("⟦")
            assert placeholders(out) == placeholders(english)
            assert not _english_words(re.sub(r"\{[^{}]*\}", " ", out)), out


def test_pseudo_check_can_fail():
    assert _english_words("<b>⟦Ñáḿé⟧</b> R14, CROW and trump") == ["and", "trump"]


def _pseudo_texts_of_a_game(lang: str) -> list[str]:
    """Prompts, card reasons and refused actions met while the learner plays a whole hand in ``lang``."""
    texts = []
    with using(lang):
        t = Table(seed=11)
        while not t.state.is_over:
            t.run_ai()
            if t.state.is_over:
                break
            texts.append(t.prompt())
            status = t.card_status()
            texts.extend(r for r in status.values() if r)
            refused = [lambda: t.learner_act(bid(72))]
            if t.state.phase.value == "discard":
                refused.append(lambda: t.learner_discard([]))
            refused += [lambda c=c: t.learner_act(PLAYS[c]) for c, why in status.items() if why][:1]
            for act in refused:
                with pytest.raises(IllegalAction) as e:
                    act()
                texts.append(str(e.value))
            if t.state.phase.value == "discard":
                t.learner_discard(t.discard_options()[:t.rules.nest_size])
            else:
                t.learner_act(t.hint().action)
        texts.append(t.prompt())
        with pytest.raises(IllegalAction) as e:
            t.state.apply(PASS)
        texts.append(str(e.value))
    return texts


def test_pseudo_locale_game_has_no_english():
    """A hand played in the pseudo-locale: every prompt, card reason and refusal is translated."""
    texts = _pseudo_texts_of_a_game(PSEUDO)
    assert len(texts) > 10
    leftover = [(t, _english_words(t)) for t in texts if _english_words(t)]
    assert not leftover, leftover[:3]


def test_pseudo_locale_rules_page_has_no_english():
    """The Rules tab of every rule set, with options, in the pseudo-locale: nothing left in English."""
    rule_sets = list(VARIANTS.values()) + [
        get_rules("crowsnest", {"bird": False, "target": 500, "first_lead": "left-of-declarer"}),
        get_rules("red-1", {"red_one_any_time": True}), get_rules("buckeye", {"bid_min": 70}),
        get_rules("1-high-partnership", {"bird_any_time": True})]
    with using(PSEUDO):
        for rules in rule_sets:
            html = rules_html(rules)
            assert not _english_words(html), (rules.variant, _english_words(html)[:10])


# ------------------------------------------------------------------------------------------- languages at run time
def test_english_is_the_default_and_unchanged():
    """With no language chosen the engine speaks English exactly as before (the CLI's case)."""
    assert i18n.current_language() == "en"
    rows = dict(get_rules("partnership").describe())
    assert rows["Points per hand"] == "120 (100 on a 7–7 split of the tricks)"
    assert rows["Deck"] == "56 cards: numbers 1–14 in four colours"
    assert dict(get_rules("red-1").describe())["The Rook"] == "the second trump, under the Red 1, may be played on any trick"
    t = Table(seed=3)
    t.run_ai()
    assert t.prompt() == "Your call: bid 75 or more (up to 120), or pass."
    with pytest.raises(IllegalAction, match=r"^S cannot bid 72: bids go in steps of 5$"):
        t.learner_act(bid(72))


def test_languages_switch_per_context_and_per_thread():
    """`using` switches the language for a block only; another thread keeps its own (English) language."""
    t = Table(seed=3)
    t.run_ai()
    seen = {}

    def other():
        seen["thread"] = t.prompt()

    with using("de"):
        german = t.prompt()
        th = threading.Thread(target=other)
        th.start()
        th.join()
        with using("cs"):
            czech = t.prompt()
        assert t.prompt() == german
    assert german.startswith("Ihre Ansage") and czech.startswith("Vaše hlášení")
    assert seen["thread"] == t.prompt() == "Your call: bid 75 or more (up to 120), or pass."


def test_persian_keeps_numbers_and_codes_left_to_right():
    """In Persian the filled-in numbers and card codes are isolated left to right (LRI … PDI)."""
    tr = Translator("fa")
    assert tr.direction == "rtl"
    out = tr.gettext("{seat} cannot play {card}: must follow {suit} (holds {cards})", seat="جنوب", card="G5",
                     suit="R", cards="R9, R12")
    assert f"{LRI}G5{PDI}" in out and f"{LRI}R9, R12{PDI}" in out and f"{LRI}جنوب" not in out
    with using("fa"):
        html = rules_html(get_rules("crowsnest"))
    assert "dir='rtl'" in html and "lang='fa'" in html


def test_normalize_and_fallback():
    assert [i18n.normalize(x) for x in (None, "", "de-AT", "FA_ir", "xx", "fr", "en")] == [
        "en", "en", "de", "fa", "xx", "en", "en"]

    class Broken:
        def gettext(self, message):
            return "{nope}"

    tr = Translator("de")
    tr._t = Broken()
    assert tr.gettext("{seat} to act.", seat="N") == "N to act."   # a bad translation falls back to English


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_plays_a_hand(lang):
    """A whole hand in each language: every sentence comes from the catalog (none is the English one)."""
    english = set(_pseudo_texts_of_a_game("en"))
    texts = _pseudo_texts_of_a_game(lang)
    assert texts and not english & set(texts), sorted(english & set(texts))[:3]


def test_words_in_english_are_the_engine_names():
    """`rookcore.words` in English gives the names the engine always used (seats, teams, colours, phases)."""
    from rookcore.cards import COLOUR_NAMES
    from rookcore.hand import SEATS, TEAM_NAMES, Phase
    from rookcore import words

    assert [words.seat_name(i) for i in range(4)] == list(SEATS)
    assert [words.team_name(i) for i in range(2)] == list(TEAM_NAMES)
    assert {c: words.colour_name(c) for c in COLOUR_NAMES} == COLOUR_NAMES
    assert [words.phase_name(p.value) for p in Phase] == [p.value for p in Phase]
    with using("de"):
        assert [words.seat_name(i) for i in range(4)] == ["N", "O", "S", "W"]
        assert words.rules_title(get_rules("partnership")) == "Partnerschaftsturm"
