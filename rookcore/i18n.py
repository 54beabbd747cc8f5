"""Message catalogs: the learner's language for every sentence the engine and the app show (issue 26).

One gettext domain, ``rook`` (`DOMAIN`), English as the source: the English text in the code *is* the message id.
Catalogs live in ``rookcore/locale/<lang>/LC_MESSAGES/rook.po`` for `LANGUAGES` (es, de, cs, ro, fa); the template
is ``rookcore/locale/rook.pot`` (``pybabel extract``, see README "Translations"). A ``.mo`` file is used when it is
there and not older than its ``.po``; otherwise the ``.po`` is compiled in memory with Babel at first use, so an
editable install or a fresh checkout needs no build step.

Marking and translating (Babel's default keywords but one):

- ``_("{seat} cannot bid {amount}", seat=..., amount=...)``: translate, then fill the named placeholders
  (``str.format`` fields; a message without keyword arguments is returned as it is, braces and all).
- ``ngettext("{count} card", "{count} cards", n, count=n)``: plural forms of the current language.
- ``pgettext("seat", "N")``: a message with a context, for short words that mean different things.
- ``N_("The deal")``: mark only (module-level data); translate where it is shown with ``_(value)``.
- ``NP_("rule set", "CrowsNest")``: mark only, with a context; translate with ``pgettext("rule set", value)``.
  (Not a Babel default keyword: extract with ``-k NP_:1c,2``, as README "Translations" says.)

Sentences made now and shown later (an AI's reasoning, made while it decides and read by a learner whose language
may change; a kept game's welcome, made before the page's language is known) are `Message` values, made with
``lazy.gettext(...)``, ``lazy.ngettext(...)``, ``lazy.pgettext(...)`` (Babel finds them as it finds ``_``): each is
its English text (a `str`, so records, the command line and tests read English) and `localize` says it in the
active language when it is drawn. `message_json` / `message_from_json` keep one as data (`rookcore.saved`).

The current language is per context, not per process: a `contextvars.ContextVar` holds the active `Translator`
(English when nothing is chosen). ``with using("de"): ...`` switches it for a block (a panel wraps its event
handlers in it, so two learners' panels never share a language); `Translator` objects can also be used
directly. The command line never sets a language, so its output stays English.

Right-to-left languages (`RTL`, Persian): `Translator.direction` is ``"rtl"``, and every placeholder value that
reads left to right (numbers, card codes such as ``R14``, ``+80``, "R12, R10") is wrapped in Unicode isolates
(LRI … PDI) so it keeps its order inside the sentence.

The pseudo-locale `PSEUDO` (``"xx"``) needs no catalog: every message is accented letter by letter and bracketed
(``"⟦Ñáḿé ţŕúḿṕ.⟧"``), placeholders kept, so a page shown in it reveals any English that bypasses the
catalogs.
"""
from __future__ import annotations

import contextlib
import contextvars
import datetime
import gettext as _gettext
import io
import re
import string
import functools
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

DOMAIN = "rook"
SOURCE = "en"
LANGUAGES: tuple[str, ...] = ("es", "de", "cs", "ro", "fa")
"""The translated languages (besides the English source), in the order the Settings list shows them."""
PSEUDO = "xx"
RTL = frozenset({"fa"})
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "es": "Español", "de": "Deutsch", "cs": "Čeština",
                                  "ro": "Română", "fa": "فارسی", PSEUDO: "Pseudo (xx)"}
"""Each language in its own name (the Settings list; never translated)."""
LOCALE_DIR = Path(__file__).with_name("locale")

EXTRACT_KEYWORDS: dict = {"NP_": ((1, "c"), 2)}
"""Keywords ``pybabel extract`` needs besides Babel's defaults (``-k NP_:1c,2``); the catalog tests use them too."""
GLOSSARY_DIR = LOCALE_DIR / "glossary"
SEEDS_DIR = LOCALE_DIR / "seeds"

LRI, PDI = "\u2066", "\u2069"   # left-to-right isolate, pop directional isolate
_RTL_LETTER = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")
_LTR_CHAR = re.compile(r"[0-9A-Za-z+\-]")


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it (module-level data; translate it where shown).

    Returns ``message`` unchanged; raises nothing."""
    return message


def NP_(context: str, message: str) -> str:
    """Mark ``message`` with a ``context`` for extraction (``pybabel extract -k NP_:1c,2``) without translating it;
    translate it where shown with ``pgettext(context, value)``. Returns ``message``; raises nothing."""
    return message


def normalize(lang: str | None) -> str:
    """The supported language code for ``lang`` ("de", "de-AT", "DE_de", "fa-IR" → "de", "de", "de", "fa").

    Returns `SOURCE` ("en") for None, "", or a language without a catalog; `PSEUDO` for "xx". Raises nothing."""
    if not lang or not isinstance(lang, str):
        return SOURCE
    code = re.split(r"[-_.@]", lang.strip().lower(), maxsplit=1)[0]
    return code if code in LANGUAGES or code == PSEUDO else SOURCE


def catalog_path(lang: str, ext: str = "po") -> Path:
    """Path of ``lang``'s catalog file: ``locale/<lang>/LC_MESSAGES/rook.<ext>`` (ext "po" or "mo")."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.{ext}"


def compile_catalog(lang: str) -> bytes:
    """Compile ``lang``'s ``.po`` into ``.mo`` bytes with Babel (fuzzy entries left out, as ``pybabel compile``).

    Returns the bytes. Raises FileNotFoundError if the ``.po`` is missing, babel's errors for a broken file."""
    from babel.messages.mofile import write_mo  # noqa: PLC0415 (only when no fresh .mo is there)
    from babel.messages.pofile import read_po  # noqa: PLC0415

    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


@lru_cache(maxsize=None)
def _translations(lang: str, stamp: tuple) -> _gettext.GNUTranslations:
    """The catalog of ``lang`` (``stamp``: the files' mtimes, so a Translator made after an edit reads it again)."""
    po, mo = catalog_path(lang), catalog_path(lang, "mo")
    if mo.exists() and (not po.exists() or mo.stat().st_mtime_ns >= po.stat().st_mtime_ns):
        with mo.open("rb") as f:
            return _gettext.GNUTranslations(f)
    return _gettext.GNUTranslations(io.BytesIO(compile_catalog(lang)))


def translations(lang: str) -> _gettext.NullTranslations:
    """The gettext translations of ``lang`` (a `LANGUAGES` code): its compiled catalog, or NullTranslations for
    English and the pseudo-locale. Raises FileNotFoundError if a listed language has no catalog."""
    if lang not in LANGUAGES:
        return _gettext.NullTranslations()
    po, mo = catalog_path(lang), catalog_path(lang, "mo")
    stamp = tuple(p.stat().st_mtime_ns if p.exists() else 0 for p in (po, mo))
    return _translations(lang, stamp)


# ----------------------------------------------------------------------------------------- pseudo-locale
_PSEUDO_MAP = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçďéƒĝĥíĵķĺḿñóṕʠŕšţúṽŵẋýžÁƁÇĎÉƑĜĤÍĴĶĹḾÑÓṔǪŔŠŢÚṼŴẊÝŽ")
_FIELD = re.compile(r"(\{[^{}]*\})")


def pseudo(message: str) -> str:
    """``message`` in the pseudo-locale: ASCII letters accented, ``{placeholders}`` kept, bracketed ⟦…⟧.

    Returns the new string; raises nothing."""
    parts = _FIELD.split(message)
    return "⟦" + "".join(p if i % 2 else p.translate(_PSEUDO_MAP) for i, p in enumerate(parts)) + "⟧"


# ----------------------------------------------------------------------------------------- formatting
class _Formatter(string.Formatter):
    """``str.format`` that wraps left-to-right values in isolates for a right-to-left language."""

    def __init__(self, rtl: bool) -> None:
        super().__init__()
        self.rtl = rtl

    def format_field(self, value: Any, format_spec: str) -> str:
        text = super().format_field(value, format_spec)
        if self.rtl and _LTR_CHAR.search(text) and not _RTL_LETTER.search(text):
            return LRI + text + PDI
        return text


def placeholders(message: str) -> set[str]:
    """The named placeholders of ``message`` as written (``{seat}``, ``{ns:+d}`` → {"seat", "ns:+d"}).

    Returns a set of field texts (name with any conversion and format spec). Raises ValueError for a message
    that is not a valid format string (an unmatched brace)."""
    return {f"{name}{'!' + conv if conv else ''}{':' + spec if spec else ''}"
            for _text, name, spec, conv in string.Formatter().parse(message) if name is not None}


# ----------------------------------------------------------------------------------------- the translator
class Translator:
    """Translates messages into one language (`normalize`d: en, es, de, cs, ro, fa or the pseudo-locale xx).

    Attributes: ``lang`` (the code), ``direction`` ("ltr" or "rtl"), ``name`` (the language in its own name).
    A message that fails to fill in the translated form (a translator's bad placeholder) falls back to the
    English message, so the learner still reads a sentence; the catalog tests keep that from happening."""

    def __init__(self, lang: str | None = None) -> None:
        self.lang = normalize(lang)
        self.direction = "rtl" if self.lang in RTL else "ltr"
        self.name = LANGUAGE_NAMES[self.lang]
        self._t = translations(self.lang)
        self._fmt = _Formatter(self.direction == "rtl")

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"

    def _fill(self, text: str, fallback: str, params: dict) -> str:
        if not params:
            return text
        # left to right: str.format_map (in C; the AI makes thousands of sentences a hand); right to left: the
        # formatter that isolates left-to-right values
        rtl = self._fmt.rtl
        try:
            return self._fmt.vformat(text, (), params) if rtl else text.format_map(params)
        except (KeyError, IndexError, ValueError, AttributeError):
            return self._fmt.vformat(fallback, (), params) if rtl else fallback.format_map(params)

    def gettext(self, message: str, /, **params: Any) -> str:
        """``message`` (the English id) in this language, with ``params`` filled into its named placeholders.

        Returns the string (the English message where the catalog has none). Raises KeyError only if the
        *English* message names a placeholder missing from ``params``."""
        text = pseudo(message) if self.lang == PSEUDO else self._t.gettext(message)
        return self._fill(text, message, params)

    __call__ = gettext

    def ngettext(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The plural form for the number ``n`` (this language's plural rule), with ``params`` filled in.

        Returns the string. Raises KeyError as `gettext` does."""
        english = singular if n == 1 else plural
        text = pseudo(english) if self.lang == PSEUDO else self._t.ngettext(singular, plural, n)
        return self._fill(text, english, params)

    def pgettext(self, context: str, message: str, /, **params: Any) -> str:
        """``message`` with the disambiguating ``context`` (e.g. "seat" for "N"), with ``params`` filled in.

        Returns the string. Raises KeyError as `gettext` does."""
        text = pseudo(message) if self.lang == PSEUDO else self._t.pgettext(context, message)
        return self._fill(text, message, params)


@lru_cache(maxsize=None)
def get_translator(lang: str | None) -> Translator:
    """The shared `Translator` of ``lang`` (normalized; English for None or an unknown code). Raises nothing
    for a known language (FileNotFoundError if its catalog file is missing from the install)."""
    code = normalize(lang)
    return Translator(code) if code == lang else get_translator(code)


_current: contextvars.ContextVar[Translator | None] = contextvars.ContextVar("rook_translator", default=None)


def current() -> Translator:
    """The `Translator` active in this context (English when none was chosen). Raises nothing."""
    return _current.get() or get_translator(SOURCE)


def current_language() -> str:
    """The code of the active language ("en" by default)."""
    return current().lang


@contextlib.contextmanager
def using(lang: str | Translator | None) -> Iterator[Translator]:
    """Make ``lang`` (a code or a `Translator`) the active language inside the ``with`` block, then restore the
    previous one. Yields the Translator. Raises nothing for an unknown code (English is used)."""
    tr = lang if isinstance(lang, Translator) else get_translator(lang)
    token = _current.set(tr)
    try:
        yield tr
    finally:
        _current.reset(token)


def in_own_language(method: Callable) -> Callable:
    """Decorator: run ``method`` (of an object with a ``lang`` attribute: a code or None) inside
    ``using(self.lang)``, so a callback or a drawing of a panel speaks that panel's language whichever thread or
    context calls it. Returns the wrapped method; raises what ``method`` raises."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        with using(self.lang):
            return method(self, *args, **kwargs)

    return wrapper


def set_language(lang: str | None) -> contextvars.Token:
    """Make ``lang`` the active language of the current context from now on (a notebook's first cell); returns
    the token for ``contextvars`` reset. Prefer `using` in code that serves several learners."""
    return _current.set(get_translator(lang))


def _(message: str, /, **params: Any) -> str:
    """``message`` in the active language with ``params`` filled in (`Translator.gettext`)."""
    return current().gettext(message, **params)


def gettext(message: str, /, **params: Any) -> str:
    """Same as `_`."""
    return current().gettext(message, **params)


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The plural form for ``n`` in the active language (`Translator.ngettext`)."""
    return current().ngettext(singular, plural, n, **params)


def pgettext(context: str, message: str, /, **params: Any) -> str:
    """``message`` with ``context`` in the active language (`Translator.pgettext`)."""
    return current().pgettext(context, message, **params)


# ----------------------------------------------------------------------------------------- messages said later
class Message(str):
    """A sentence kept whole with its parts, to be said in any language when it is shown (an AI's reasoning is
    made once, during the hand, and read later by a learner in their language; issue 26).

    It *is* the English text (a `str`: printing, comparing, JSON and the command line see English, as before);
    `Message.render` says it in a `Translator`'s language, or `localize` in the active one. Build it with
    `lazy` (``lazy.gettext("{seat} passes.", seat=...)``, ``lazy.ngettext``, ``lazy.pgettext``) so ``pybabel
    extract`` finds the message. A parameter may itself be a `Message` (said in the same language), a list (its
    items said and joined by the language's list separator, "R12, R10, Crow"), a tuple (its items said and joined
    by spaces: a card sequence as the record writes it, "R5 R6 Crow"), a `datetime.datetime` (a day and time in the
    language's short form, `_when`), or any value ``str.format`` takes.

    Attributes: ``msgid`` (the English singular), ``plural`` (the English plural or None), ``n`` (the number that
    picks the plural form), ``context`` (a pgettext context or None), ``params`` (dict). Pickles and copies as
    itself (a kept game, a process pool)."""

    def __new__(cls, msgid: str, plural: str | None = None, n: int = 1, context: str | None = None,
                params: dict | None = None) -> "Message":
        params = dict(params or {})
        obj = super().__new__(cls, _english(msgid, plural, n, params))
        obj.msgid, obj.plural, obj.n, obj.context, obj.params = msgid, plural, n, context, params
        return obj

    def __reduce__(self):
        return (Message, (self.msgid, self.plural, self.n, self.context, self.params))

    def render(self, tr: "Translator | None" = None) -> str:
        """This message in ``tr``'s language (the active one when None), nested messages too. Returns a plain str;
        raises nothing for a message built with `lazy` (a translation whose placeholders fail falls back to
        English, as `Translator.gettext`)."""
        return _render(tr or current(), self.msgid, self.plural, self.n, self.context, self.params)


def _say(value: Any, tr: "Translator") -> Any:
    """A message parameter said in ``tr``'s language (a Message rendered, a list joined)."""
    if isinstance(value, Message):
        return value.render(tr)
    if isinstance(value, list):
        return tr.pgettext("list separator", ", ").join(str(_say(v, tr)) for v in value)
    if isinstance(value, tuple):
        return " ".join(str(_say(v, tr)) for v in value)
    if isinstance(value, datetime.datetime):
        return _when(value, tr)
    return value


def _when(value: datetime.datetime, tr: "Translator") -> str:
    """A day and time as ``tr``'s language writes it briefly: "1 Dec at 16:46" in English (the pseudo-locale
    accents it), each language's own short day and time elsewhere (Babel's CLDR data, skeletons "MMMd" and "Hm": de
    "1. Dez. 16:46")."""
    english = f"{value.day} {value.strftime('%b')} at {value:%H:%M}"
    if tr.lang == SOURCE:
        return english
    if tr.lang == PSEUDO:
        return pseudo(english)
    from babel.dates import format_skeleton  # noqa: PLC0415 - only for a date in a sentence

    return f"{format_skeleton('MMMd', value, locale=tr.lang)} {format_skeleton('Hm', value, locale=tr.lang)}"


def _english(msgid: str, plural: str | None, n: int, params: dict) -> str:
    """The English text of a `Message` (fast: a nested Message is its English text already; the AI makes thousands
    of sentences a hand). Raises KeyError if ``params`` miss a placeholder of the English message."""
    text = msgid if plural is None or n == 1 else plural
    if not params:
        return text
    said = {k: (v if isinstance(v, str) or not isinstance(v, (list, tuple, datetime.datetime))
                else _say(v, get_translator(SOURCE))) for k, v in params.items()}
    return text.format_map(said)


def _render(tr: "Translator", msgid: str, plural: str | None, n: int, context: str | None, params: dict) -> str:
    said = {k: _say(v, tr) for k, v in params.items()}
    if plural is not None:
        return tr.ngettext(msgid, plural, n, **said)
    if context is not None:
        return tr.pgettext(context, msgid, **said)
    return tr.gettext(msgid, **said)


class _Lazy:
    """The `Message` makers: the same names as the translating functions, so ``pybabel extract`` (Babel's default
    keywords) finds ``lazy.gettext(...)``, ``lazy.ngettext(...)`` and ``lazy.pgettext(...)`` as it finds ``_``."""

    @staticmethod
    def gettext(message: str, /, **params: Any) -> Message:
        """``message`` with ``params``, to be said later (`Message`). Raises KeyError if ``params`` miss one of the
        English message's placeholders."""
        return Message(message, params=params)

    @staticmethod
    def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> Message:
        """The plural message for the number ``n``, to be said later. Raises KeyError as `gettext`."""
        return Message(singular, plural, n, params=params)

    @staticmethod
    def pgettext(context: str, message: str, /, **params: Any) -> Message:
        """``message`` with a ``context``, to be said later. Raises KeyError as `gettext`."""
        return Message(message, context=context, params=params)


lazy = _Lazy()
"""Makers of `Message` values: ``lazy.gettext``, ``lazy.ngettext``, ``lazy.pgettext``."""


def localize(value: Any, tr: "Translator | None" = None) -> Any:
    """``value`` said in ``tr``'s language (the active one when None) if it is a `Message`; any other value
    (a plain str made before messages were kept, a number) is returned as it is. Raises nothing."""
    return value.render(tr or current()) if isinstance(value, Message) else value


# ----------------------------------------------------------------------------------------- messages kept as data
_MAX_DEPTH = 8  # messages nest a few levels (a sentence, a clause, a word): deeper is not one of ours


def message_json(value: Any) -> Any:
    """``value`` (a `Message`, or a parameter of one) as plain JSON data, so a kept game can say its AI's sentences
    in any language after it is resumed (`rookcore.saved`): a Message as ``{"message": msgid, "plural", "n",
    "context", "params"}`` (the last four left out when they are None, 1, None and empty), a list as
    ``{"list": [...]}``, a tuple as ``{"tuple": [...]}``, a datetime as ``{"datetime": ISO text}``; str, int, float,
    bool and None as they are; anything else as its str. Returns new data each time (a Message keeps nothing
    derived from it). Raises nothing."""
    if isinstance(value, Message):
        doc = {"message": value.msgid}
        if value.plural is not None:
            doc["plural"], doc["n"] = value.plural, value.n
        if value.context is not None:
            doc["context"] = value.context
        if value.params:
            doc["params"] = {str(k): message_json(v) for k, v in value.params.items()}
        return doc
    if isinstance(value, list):
        return {"list": [message_json(v) for v in value]}
    if isinstance(value, tuple):
        return {"tuple": [message_json(v) for v in value]}
    if isinstance(value, datetime.datetime):
        return {"datetime": value.isoformat()}
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    return str(value)


def message_from_json(doc: Any, _depth: int = 0) -> Any:
    """The `Message` (or parameter) that `message_json` wrote, every part checked: the ids and context are str,
    ``n`` a whole number, the parameters JSON of the same kinds, nested at most a few levels, and the English
    message fills with them. Returns the value. Raises ValueError for anything else."""
    if _depth > _MAX_DEPTH:
        raise ValueError("a message nested too deeply")
    if doc is None or isinstance(doc, (str, bool, int, float)):
        return doc
    if not isinstance(doc, dict):
        raise ValueError("not a message")
    if "message" not in doc and len(doc) == 1:
        (kind, value), = doc.items()
        if kind in ("list", "tuple") and isinstance(value, list):
            items = [message_from_json(v, _depth + 1) for v in value]
            return items if kind == "list" else tuple(items)
        if kind == "datetime" and isinstance(value, str):
            try:
                return datetime.datetime.fromisoformat(value)
            except ValueError as e:
                raise ValueError(f"not a date and time: {e}") from None
        raise ValueError("not a message")
    if not set(doc) <= {"message", "plural", "n", "context", "params"}:
        raise ValueError("not a message")
    msgid, plural, n, context, params = (doc.get("message"), doc.get("plural"), doc.get("n", 1), doc.get("context"),
                                         doc.get("params", {}))
    if not (isinstance(msgid, str) and (plural is None or isinstance(plural, str)) and type(n) is int
            and (context is None or isinstance(context, str)) and isinstance(params, dict)):
        raise ValueError("not a message")
    values = {k: message_from_json(v, _depth + 1) for k, v in params.items()}
    try:
        return Message(msgid, plural, n, context, values)
    except (KeyError, IndexError, ValueError, AttributeError) as e:
        raise ValueError(f"a message whose placeholders do not fill: {type(e).__name__}") from None
