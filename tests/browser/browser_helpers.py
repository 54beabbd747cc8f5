"""Click-only helpers for the browser tests of the Voila app (Play / Replay / Settings tabs).

Everything here drives the page as a learner would: it clicks buttons and reads what is shown.
The stable names (CSS classes, button texts) are documented in widgets/play.py, widgets/replay.py,
widgets/settings.py and widgets/app.py.
"""
from __future__ import annotations

import re
import time
from collections import Counter
from pathlib import Path

# Generous: the test machines are loaded (first widgets take 3-10 s, a click round trip up to seconds).
WIDGETS_TIMEOUT_MS = 120_000
ACTION_TIMEOUT_S = 60.0
HAND_TIMEOUT_S = 600.0
POLL_S = 0.25

SCORED_RESULTS = ("made", "set")


# ----------------------------------------------------------------------------- page basics
def open_app(page, voila_url: str) -> None:
    """Open the app and wait for the Play panel to show.

    The viewport is made tall: Voila scrolls inside its own container, so a ``full_page`` screenshot
    only holds what fits the viewport, and the Play panel is about 1300 px high.
    """
    page.set_viewport_size({"width": 1280, "height": 1400})
    page.goto(voila_url, wait_until="domcontentloaded")
    page.wait_for_selector(".rook-app-tabs", state="visible", timeout=WIDGETS_TIMEOUT_MS)
    page.wait_for_selector(".rook-play", state="visible", timeout=WIDGETS_TIMEOUT_MS)


def open_tab(page, title: str) -> None:
    """Click the tab titled ``title`` ("Play", "Replay", "Rules", "Settings")."""
    tab = page.locator(".rook-app-tabs .lm-TabBar-tab").filter(
        has=page.locator(".lm-TabBar-tabLabel", has_text=re.compile(rf"^\s*{re.escape(title)}\s*$")))
    tab.first.click()
    page.wait_for_function(
        """(title) => [...document.querySelectorAll('.rook-app-tabs .lm-TabBar-tab.lm-mod-current')]
                        .some(t => t.textContent.trim() === title)""",
        arg=title, timeout=30_000)


def button(page, cls: str, text: str | None = None):
    """Locator of the visible <button class="... cls"> (optionally with exactly ``text``)."""
    loc = page.locator(f"button.{cls}:visible")
    if text is not None:
        loc = loc.filter(has_text=re.compile(rf"^\s*{re.escape(text)}\s*$"))
    return loc


def assert_no_traceback(page) -> None:
    body = page.locator("body").inner_text()
    assert "Traceback" not in body, "a Python traceback is shown on the page"
    assert "internal error" not in body, "the app reports an internal error"


def wait_until(predicate, timeout_s: float = ACTION_TIMEOUT_S, what: str = "condition"):
    """Poll ``predicate()`` until it returns something truthy; return it (AssertionError on timeout)."""
    deadline = time.monotonic() + timeout_s
    while True:
        result = predicate()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s:.0f}s waiting for {what}")
        time.sleep(POLL_S)


# ----------------------------------------------------------------------------- Play tab
def set_speed(page, seconds: float = 0.0) -> bool:
    """Type ``seconds`` into the speed slider's editable readout (ipywidgets 8); True when it took."""
    readout = page.locator(".rook-speed .widget-readout")
    if readout.count() == 0:
        return False
    readout.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(f"{seconds:g}")
    page.keyboard.press("Enter")
    handle = page.locator(".rook-speed .noUi-handle")
    try:
        wait_until(lambda: float(handle.get_attribute("aria-valuenow") or "nan") == seconds,
                   timeout_s=15, what="the speed slider to move")
    except AssertionError:
        return False
    return True


def status_text(page) -> str:
    return page.locator(".rook-status").inner_text()


def header_text(page) -> str:
    return page.locator(".rook-header").inner_text()


def score_rows(page) -> list[list[str]]:
    """The score sheet's rows (cells' text): hand, dealer, declarer, bid, result, N-S, E-W, totals."""
    return page.locator(".rook-score-sheet tr.rook-score-row").evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.textContent.trim()))")


def scored_rows(page) -> list[list[str]]:
    """Score-sheet rows of hands that were played out (made or set; not passed out)."""
    return [r for r in score_rows(page) if len(r) > 4 and r[4] in SCORED_RESULTS]


HAND_CODES_JS = ("[...document.querySelectorAll('.rook-play button.rook-tv-card')].map(b => b.dataset.code + "
                 "(b.classList.contains('legal') ? '+' : '') + (b.classList.contains('picked') ? '*' : '')).join(' ')")
"""JavaScript: South's cards on the table (`widgets.table_view`), each its code, + when it may be tapped, * when
picked to put back."""
CARD = ".rook-play button.rook-tv-card"
"""South's card pictures on the table; ``.legal`` when one may be tapped now."""


def tap_card(locator) -> None:
    """Tap a card of South's fan where a finger would: on its top-left corner, the part the next card leaves
    uncovered (its number and symbol)."""
    locator.click(position={"x": 5, "y": 14})


def card_names(page, legal_only: bool = False) -> list[str]:
    """South's cards on the table by their page names ("R14", "Crow", "Red 1"), read from each card's label
    ("Play R14", "Put back Crow (from the nest)", "G5: must follow Red (holds R9)")."""
    sel = CARD + (".legal" if legal_only else "")
    labels = page.locator(sel).evaluate_all("bs => bs.map(b => b.getAttribute('aria-label') || '')")
    return [re.sub(r"^(Play|Put back|Keep) ", "", re.sub(r"( \(from the nest\)|: .*)$", "", t)) for t in labels]


def _play_signature(page) -> str:
    """Text of the parts a learner's action always changes (status, auction, hand, discard, trump, sheet)."""
    return page.evaluate(
        """() => ['.rook-status', '.rook-auction-history', '.rook-discard', '.rook-trump-box',
                  '.rook-score-sheet', '.rook-header']
                 .map(s => { const e = document.querySelector(s);
                             return e ? (e.offsetParent === null ? '<hidden>' : '') + e.innerText : '-'; })
                 .concat([HAND_CODES()]).join('\\u241e')""".replace("HAND_CODES()", HAND_CODES_JS))


def _settle(page, quiet_s: float = 0.6, timeout_s: float = ACTION_TIMEOUT_S) -> str:
    """Wait until the Play panel stops changing for ``quiet_s`` (a redraw is many widget messages)."""
    deadline = time.monotonic() + timeout_s
    last, since = _play_signature(page), time.monotonic()
    while time.monotonic() - since < quiet_s:
        if time.monotonic() > deadline:
            raise AssertionError(f"the Play panel kept changing for {timeout_s:.0f}s")
        time.sleep(POLL_S)
        now = _play_signature(page)
        if now != last:
            last, since = now, time.monotonic()
    return last


def _click_and_wait(page, locator, what: str, double: bool = False, position: dict | None = None) -> None:
    """Click (``double``: double-click) ``locator`` (at ``position`` in it, e.g. a card's uncovered corner) and wait
    until the Play panel shows the result (changes, then settles)."""
    before = _play_signature(page)
    where = {"position": position} if position else {}
    if double:
        locator.dblclick(timeout=10_000, **where)
    else:
        locator.click(timeout=10_000, **where)
    wait_until(lambda: _play_signature(page) != before, what=f"the app to react to {what}")
    _settle(page)


def _learner_situation(page) -> str | None:
    """What South can do now: "auction", "discard", "trump", "play", "passed-out", "scored" or None (wait)."""
    return page.evaluate(
        """() => {
            const vis = (sel) => [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null);
            const table = document.querySelector('.rook-play .rook-tv');
            const mode = table ? table.dataset.mode : '';
            if (mode === 'discard' && vis('button.rook-discard-button').length) return 'discard';
            if (vis('button.rook-trump').length) return 'trump';
            if (vis('button.rook-bid').length) return 'auction';
            if (mode === 'play' && vis('.rook-play button.rook-tv-card.legal').length) return 'play';
            const st = (document.querySelector('.rook-status') || {}).innerText || '';
            if (st.includes('All four passed')) return 'passed-out';
            if (st.startsWith('Hand over')) return 'scored';
            return null;
        }""")


def _lowest_bid(page):
    bids = button(page, "rook-bid").filter(has_text=re.compile(r"^\s*Bid \d+\s*$"))
    texts = bids.all_inner_texts()
    if not texts:
        return None
    amounts = [int(t.split()[1]) for t in texts]
    return bids.nth(amounts.index(min(amounts)))


def _choose_trump_button(page):
    """The trump colour South holds most of (card labels start with the colour letter: "R14")."""
    labels = card_names(page)
    counts = Counter(t.strip()[0] for t in labels if t.strip()[:1] in "RYGB" and t.strip()[1:2].isdigit())
    names = {"R": "Red", "Y": "Yellow", "G": "Green", "B": "Black"}
    for letter, _n in counts.most_common():
        loc = button(page, "rook-trump", f"Trump {names[letter]}")
        if loc.count():
            return loc.first
    return button(page, "rook-trump").first


def check_disabled_cards_have_reasons(page) -> int:
    """Every South card that cannot be tapped now says why in its label ("G5: must follow Red (holds R9)"); returns
    how many there are."""
    titles = page.locator(CARD + ".illegal").evaluate_all(
        "bs => bs.map(b => [b.dataset.code, b.getAttribute('aria-label') || ''])")
    for code, title in titles:
        reason = title.partition(": ")[2]
        assert reason.strip(), f"the card {code} that cannot be played has no reason in its label ({title!r})"
    return len(titles)


def play_one_hand(page, *, bid: bool, shots: dict[str, Path] | None = None,
                  timeout_s: float = HAND_TIMEOUT_S, log: list[str] | None = None,
                  double_click: bool = False) -> list[str]:
    """Play by clicking until the score sheet gains a made/set row; return that row.

    ``bid``: South bids the lowest bid offered each time it may (and usually becomes declarer), else passes.
    Passed-out hands are followed by a click on "New hand". ``shots``: optional screenshot paths keyed by
    "auction" (first time South calls), "discard", "first-play" (first card South plays) and "end".
    ``log`` collects what was clicked. ``double_click``: bids, passes and cards are double-clicked, and each must
    act once (one card fewer in South's hand, no error line).
    """
    shots = dict(shots or {})
    log = log if log is not None else []
    start_rows = len(scored_rows(page))
    deadline = time.monotonic() + timeout_s
    checked_disabled = False

    def shot(key: str) -> None:
        path = shots.pop(key, None)
        if path is not None:
            page.screenshot(path=str(path), full_page=True)

    while True:
        rows = scored_rows(page)
        if len(rows) > start_rows:
            shot("end")
            return rows[-1]
        if time.monotonic() > deadline:
            raise AssertionError(f"no hand scored after {timeout_s:.0f}s; clicks: {log[-20:]}; "
                                 f"status: {status_text(page)!r}")
        _settle(page)
        situation = _learner_situation(page)
        if situation is None:
            time.sleep(POLL_S)  # AIs to move (paced) or the kernel is still busy
            continue
        if situation == "auction":
            shot("auction")
            target = _lowest_bid(page) if bid else None
            if target is None:
                target = button(page, "rook-bid", "Pass").first
            text = target.inner_text().strip()
            log.append(text)
            _click_and_wait(page, target, text, double=double_click)
            if double_click:
                assert not page.locator(".rook-status .rook-error").count(), status_text(page)
        elif situation == "discard":
            shot("discard")
            count_text = page.locator(".rook-discard-count").inner_text()
            m = re.search(r"Tap (\d+) cards", count_text)
            assert m, f"discard counter text: {count_text!r}"
            n = int(m.group(1))
            picks = page.locator(CARD)
            assert picks.count() > n, f"{picks.count()} cards to pick from for a nest of {n}"
            discard_button = button(page, "rook-discard-button", "Discard").first
            assert discard_button.is_disabled(), "Discard is enabled before any pick"
            # Put back the last n cards of the fan (its lowest cards), tapping each picture.
            total = picks.count()
            for i in range(total - n, total):
                p = picks.nth(i)
                tap_card(p)
                wait_until(lambda p=p: "picked" in (p.get_attribute("class") or ""),
                           what="a tapped card to be marked as picked")
            wait_until(lambda: f"{n} chosen" in page.locator(".rook-discard-count").inner_text()
                       and discard_button.is_enabled(), what=f"{n} chosen and Discard enabled")
            log.append(f"Discard {n}")
            _click_and_wait(page, discard_button, "Discard")
        elif situation == "trump":
            target = _choose_trump_button(page)
            text = target.inner_text().strip()
            log.append(text)
            _click_and_wait(page, target, text)
        elif situation == "play":
            if not checked_disabled:
                check_disabled_cards_have_reasons(page)
                checked_disabled = True
            shot("first-play")
            card = page.locator(CARD + ".legal").first
            text = card_names(page, legal_only=True)[0]
            log.append(text)
            held = page.locator(CARD).count()
            _click_and_wait(page, card, f"playing {text}", double=double_click, position={"x": 5, "y": 14})
            if double_click:
                _settle(page)
                assert page.locator(CARD).count() == held - 1, f"double click on {text}"
                assert not page.locator(".rook-status .rook-error").count(), status_text(page)
        elif situation == "passed-out":
            log.append("New hand")
            _click_and_wait(page, button(page, "rook-new-hand", "New hand").first, "New hand")
        else:  # "scored" but the row is not (yet) drawn: let the score sheet catch up
            time.sleep(POLL_S)


def assert_no_app_error(page) -> None:
    """No red error line in the Play status and no traceback text on the page."""
    errors = page.locator(".rook-status .rook-error").all_inner_texts()
    assert not errors, f"the Play status shows an error: {errors}"
    assert_no_traceback(page)


def check_score_row(page, row: list[str]) -> None:
    """A made/set score-sheet row has numbers where numbers belong, and the totals match the header."""
    hand, dealer, declarer, bid, result, ns, ew, total_ns, total_ew = row
    assert hand.isdigit() and int(hand) >= 1, row
    assert dealer in "NESW" and len(dealer) == 1, row
    assert declarer in "NESW" and len(declarer) == 1, row
    assert bid.isdigit() and int(bid) > 0, row
    assert result in SCORED_RESULTS, row
    for cell in (ns, ew, total_ns, total_ew):
        assert re.fullmatch(r"-?\d+", cell), f"not a number in the score sheet: {cell!r} in {row}"
    header = header_text(page)
    m = re.search(r"Game: N–S (-?\d+) · E–W (-?\d+)", header)
    assert m, f"no game score in the header: {header!r}"
    assert (m.group(1), m.group(2)) == (total_ns, total_ew), (header, row)
