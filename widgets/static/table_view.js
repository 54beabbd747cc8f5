// The card table of the Play tab (an anywidget ES module, shipped inside the package: no CDN).
// It draws the plain description that rookcore.table.Table.view() gives (through widgets.table_view), and sends
// back only what the learner tapped: {kind: "tap", id, token}. Rule logic stays in Python: which cards are legal
// and why comes in the description.

const POSITIONS = ["top", "left", "right", "bottom"];

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function reducedMotion() {
  return typeof window.matchMedia === "function" &&
    window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// A card picture from the faces atlas (SVG markup drawn by rookcore.svg), scaled by CSS.
function face(faces, code, cls) {
  const div = el("div", cls || "rook-tv-face");
  div.innerHTML = faces[code] || faces.back || "";
  return div;
}

function drawSeat(box, view, letter, faces) {
  box.replaceChildren();
  box.dataset.seat = letter;
  const s = view.seats[letter];
  const words = view.labels.seats[letter];
  box.classList.toggle("to-act", !!s.to_act);
  box.classList.toggle("declarer", !!s.declarer);
  const label = el("div", "rook-tv-seat-label");
  label.appendChild(el("b", "", words.name));
  for (const key of ["role", "count", "dealer", "badge", "call", "turn"]) {
    if (words[key]) label.appendChild(el("span", "rook-tv-" + key, words[key]));
  }
  box.appendChild(label);
  if (s.cards && !isBottom(view, letter)) { // a recorded hand: every hand face up
    const fan = el("div", "rook-tv-open");
    s.cards.forEach((code) => {
      const f = face(faces, code, "rook-tv-open-card");
      f.dataset.code = code;
      fan.appendChild(f);
    });
    box.appendChild(fan);
  } else if (!s.learner && !s.cards && s.count) {
    const fan = el("div", "rook-tv-backs");
    for (let i = 0; i < s.count; i++) fan.appendChild(face(faces, "back", "rook-tv-back"));
    box.appendChild(fan);
  }
}

function isBottom(view, letter) {
  return view.positions.bottom === letter;
}

function drawNest(box, view, faces) {
  box.replaceChildren();
  const words = view.labels;
  if (view.trump) box.appendChild(el("div", "rook-tv-trump rook-tv-trump-" + view.trump, words.trump));
  if (!view.nest.count) return;
  box.appendChild(el("div", "rook-tv-nest-caption", words.nest));
  const pile = el("div", "rook-tv-nest-pile");
  const shown = view.nest.cards || [];
  if (shown.length) shown.forEach((c) => pile.appendChild(face(faces, c, "rook-tv-mini")));
  else for (let i = 0; i < view.nest.count; i++) pile.appendChild(face(faces, "back", "rook-tv-mini"));
  box.appendChild(pile);
}

function drawLast(box, view, faces) {
  box.replaceChildren();
  const last = view.last_trick;
  if (!last) return;
  box.appendChild(el("div", "rook-tv-last-caption", view.labels.last));
  const row = el("div", "rook-tv-last-cards");
  last.cards.forEach((c) => {
    const f = face(faces, c.code, "rook-tv-mini" + (c.seat === last.winner ? " winner" : ""));
    f.dataset.code = c.code;
    f.title = c.seat + ": " + c.name;
    row.appendChild(f);
  });
  box.appendChild(row);
}

function posOf(view, letter) {
  for (const p of POSITIONS) if (view.positions[p] === letter) return p;
  return "bottom";
}

export default {
  render({ model, el: host }) {
    const root = el("div", "rook-tv");
    root.innerHTML = `
      <div class="rook-tv-felt">
        <div class="rook-tv-last"></div>
        <div class="rook-tv-seat" data-pos="top"></div>
        <div class="rook-tv-nest"></div>
        <div class="rook-tv-seat" data-pos="left"></div>
        <div class="rook-tv-trick" aria-label="trick">
          <div class="rook-tv-slot" data-pos="top"></div><div class="rook-tv-slot" data-pos="left"></div>
          <div class="rook-tv-slot" data-pos="right"></div><div class="rook-tv-slot" data-pos="bottom"></div>
          <div class="rook-tv-trick-caption"></div>
        </div>
        <div class="rook-tv-seat" data-pos="right"></div>
      </div>
      <div class="rook-tv-south">
        <div class="rook-tv-seat rook-tv-me" data-pos="bottom"></div>
        <div class="rook-tv-hand" role="group"></div>
        <div class="rook-tv-reason" role="status" aria-live="polite"></div>
      </div>`;
    host.appendChild(root);
    const q = (sel) => root.querySelector(sel);
    const seatBox = (pos) => root.querySelector(`.rook-tv-seat[data-pos="${pos}"]`);
    const slot = (pos) => root.querySelector(`.rook-tv-slot[data-pos="${pos}"]`);
    const hand = q(".rook-tv-hand");
    const reason = q(".rook-tv-reason");
    let shown = null; // the view on the page
    let queue = [];
    let busy = false;
    let wantFocus = false;
    let reasonTimer = null;

    function faces() {
      return model.get("faces") || {};
    }

    function sizes() {
      const w = root.clientWidth || 600;
      const cw = Math.max(46, Math.min(84, Math.round(w / 9)));
      root.style.setProperty("--cw", cw + "px");
      root.style.setProperty("--tw", Math.round(Math.max(42, Math.min(70, cw * 0.86))) + "px");
      root.classList.toggle("narrow", w < 560);
      return cw;
    }

    function sayReason(text) {
      reason.textContent = text || "";
      reason.classList.toggle("shown", !!text);
      clearTimeout(reasonTimer);
      if (text) reasonTimer = setTimeout(() => { reason.textContent = ""; reason.classList.remove("shown"); }, 4000);
    }

    // One overlapping fan, grouped by colour. A fan too tight to tap is laid in rows, each lower and in front of
    // the last, so that every card shows a part wide and tall enough to tap: on a narrow (phone) table at least
    // TOUCH_PX square, the usual touch target (a back row's card shows `step` px across and `drop` px down; 4 px
    // more than the target, for the card's rounded corner and the rounding of positions).
    const TOUCH_PX = 44 + 4;
    function layoutHand() {
      const buttons = Array.from(hand.children);
      const cw = sizes();
      const narrow = root.classList.contains("narrow");
      const minStep = narrow ? TOUCH_PX : 22;
      const avail = Math.max(hand.clientWidth, cw);
      const gap = Math.round(cw * 0.12);
      const fit = (row) => {
        const groups = row.map((b) => b.dataset.group);
        const breaks = groups.filter((g, i) => i > 0 && g !== groups[i - 1]).length;
        const room = avail - cw - breaks * gap - 4;
        const step = row.length > 1 ? Math.min(Math.max(cw * 0.78, minStep), room / (row.length - 1)) : cw;
        return { groups, breaks, step };
      };
      const split = (n) => {
        const per = Math.ceil(buttons.length / n);
        return Array.from({ length: n }, (_, r) => buttons.slice(r * per, (r + 1) * per)).filter((row) => row.length);
      };
      let rows = [buttons];
      if (buttons.length > (narrow ? 1 : 10)) {
        for (let n = 1; n <= buttons.length; n++) {
          rows = split(n);
          if (rows.every((row) => fit(row).step >= minStep)) break;
        }
      }
      const drop = Math.max(Math.round(cw * 0.62), narrow ? TOUCH_PX : 0);
      rows.forEach((row, r) => {
        const { groups, breaks } = fit(row);
        const step = Math.max(cw * 0.26, fit(row).step);
        const total = cw + step * Math.max(0, row.length - 1) + breaks * gap;
        let x = Math.max(0, (avail - total) / 2);
        row.forEach((b, i) => {
          if (i > 0) x += step + (groups[i] !== groups[i - 1] ? gap : 0);
          b.style.left = Math.round(x) + "px";
          b.style.top = (14 + r * drop) + "px";
          b.style.zIndex = String(r * 100 + i + 1);
        });
      });
      hand.style.height = buttons.length ? `calc(var(--cw) * 1.4 + ${16 + (rows.length - 1) * drop}px)` : "0px";
      hand.classList.toggle("rows", rows.length > 1);
    }

    function drawHand(view) {
      const f = faces();
      const old = new Map(Array.from(hand.children).map((b) => [b.dataset.id, b]));
      hand.setAttribute("aria-label", view.labels.hand);
      const buttons = view.hand.map((c) => {
        let b = old.get(String(c.id));
        if (!b) {
          b = el("button", "rook-tv-card");
          b.type = "button";
          b.dataset.id = String(c.id);
          b.appendChild(face(f, c.code));
        }
        b.dataset.code = c.code;
        b.dataset.group = c.group;
        b.dataset.token = view.token;
        b.classList.toggle("legal", !!c.legal);
        b.classList.toggle("illegal", !c.legal);
        b.classList.toggle("greyed", !c.legal && view.mode === "play");
        b.classList.toggle("picked", !!c.picked);
        b.classList.toggle("from-nest", !!c.from_nest);
        b.setAttribute("aria-disabled", c.legal ? "false" : "true");
        b.setAttribute("aria-pressed", view.mode === "discard" ? String(!!c.picked) : "false");
        const title = c.label;
        b.setAttribute("aria-label", title);
        b.title = title;
        b._card = c;
        return b;
      });
      const focused = hand.contains(document.activeElement) ? document.activeElement.dataset.id : null;
      const same = buttons.length === hand.children.length && buttons.every((b, i) => hand.children[i] === b);
      if (!same) hand.replaceChildren(...buttons); // the same cards in the same order keep their elements in place
      if (focused && document.activeElement !== hand.querySelector(`[data-id="${focused}"]`)) {
        const again = hand.querySelector(`[data-id="${focused}"]`); // a keyboard player keeps their place
        if (again) again.focus({ preventScroll: true });
      }
      root.dataset.mode = view.mode;
      layoutHand();
    }

    function drawTrickCards(cards, view) {
      const f = faces();
      POSITIONS.forEach((p) => slot(p).replaceChildren());
      cards.forEach((c) => {
        const card = face(f, c.code, "rook-tv-played");
        card.dataset.seat = c.seat;
        card.dataset.code = c.code;
        card.title = c.seat + ": " + c.name;
        if (c.last) card.classList.add("last");
        if (view.trick.winner && c.seat === view.trick.winner && cards === view.trick.cards) card.classList.add("winner");
        slot(posOf(view, c.seat)).appendChild(card);
      });
    }

    function drawStatic(view) {
      const f = faces();
      for (const p of ["top", "left", "right", "bottom"]) drawSeat(seatBox(p), view, view.positions[p], f);
      drawNest(q(".rook-tv-nest"), view, f);
      drawLast(q(".rook-tv-last"), view, f);
      q(".rook-tv-trick-caption").textContent = view.labels.trick || "";
      root.dataset.phase = view.phase;
      root.dataset.token = view.token; // the decision on show (a test or the load benchmark waits for it to change)
      drawHand(view);
    }

    // Where a card played by `seat` comes from: the learner's card from its place in the hand, others' from
    // their seat.
    function origin(view, card) {
      if (card.seat === view.positions.bottom) {
        const b = hand.querySelector(`[data-id="${card.id}"]`);
        if (b) return b.getBoundingClientRect();
      }
      return seatBox(posOf(view, card.seat)).getBoundingClientRect();
    }

    function fly(node, from, ms) {
      const to = node.getBoundingClientRect();
      if (!to.width) return Promise.resolve();
      const dx = from.left + from.width / 2 - (to.left + to.width / 2);
      const dy = from.top + from.height / 2 - (to.top + to.height / 2);
      return node.animate([
        { transform: `translate(${dx}px, ${dy}px) scale(0.8)`, opacity: 0.6 },
        { transform: "none", opacity: 1 },
      ], { duration: ms, easing: "ease-out" }).finished.catch(() => {});
    }

    function collect(nodes, to, ms) {
      return Promise.all(nodes.map((node) => {
        const r = node.getBoundingClientRect();
        const dx = to.left + to.width / 2 - (r.left + r.width / 2);
        const dy = to.top + to.height / 2 - (r.top + r.height / 2);
        return node.animate([
          { transform: "none", opacity: 1 },
          { transform: `translate(${dx}px, ${dy}px) scale(0.4)`, opacity: 0 },
        ], { duration: ms, easing: "ease-in", fill: "forwards" }).finished.catch(() => {});
      }));
    }

    async function show(view) {
      const prev = shown;
      const pace = Number(model.get("pace")) || 0;
      const still = reducedMotion() || pace <= 0 || !prev || queue.length > 2;
      const flyMs = Math.round(Math.min(450, Math.max(160, pace * 500)));
      const holdMs = Math.round(Math.min(1500, Math.max(500, pace * 1600)));
      const before = new Set(((prev && prev.trick.cards) || []).map((c) => c.id));
      const done = view.last_trick && (!prev || !prev.last_trick || prev.last_trick.number !== view.last_trick.number)
        && view.last_trick.number === view.trick.number && prev && prev.phase === "play";
      const starts = new Map();
      const incoming = (done ? view.last_trick.cards : []).concat(view.trick.cards).filter((c) => !before.has(c.id));
      if (!still) incoming.forEach((c) => starts.set(c.id, origin(view, c)));
      shown = view;
      drawStatic(view);
      const flyIn = async (cards) => {
        if (still) return;
        await Promise.all(cards.filter((c) => starts.has(c.id)).map((c) => {
          const node = root.querySelector(`.rook-tv-played[data-code="${c.code}"]`);
          return node ? fly(node, starts.get(c.id), flyMs) : null;
        }));
      };
      if (done && !still) {
        drawTrickCards(view.last_trick.cards, view);
        await flyIn(view.last_trick.cards);
        const win = root.querySelector(`.rook-tv-played[data-seat="${view.last_trick.winner}"]`);
        if (win) win.classList.add("winner");
        await sleep(holdMs);
        const nodes = Array.from(root.querySelectorAll(".rook-tv-played"));
        await collect(nodes, seatBox(posOf(view, view.last_trick.winner)).getBoundingClientRect(), 320);
      }
      drawTrickCards(view.trick.cards, view);
      await flyIn(view.trick.cards);
    }

    function focusFirst() {
      const target = hand.querySelector(".rook-tv-card.legal") || null;
      if (target) target.focus({ preventScroll: false });
      return !!target;
    }

    async function pump() {
      if (busy) return;
      busy = true;
      try {
        while (queue.length) {
          const next = queue.shift();
          try { await show(next); } catch (e) { console.warn("rook table:", e); shown = next; }
        }
        if (wantFocus) { wantFocus = false; focusFirst(); }
      } finally {
        busy = false;
      }
    }

    function enqueue() {
      const view = model.get("view");
      if (!view || !view.hand) return;
      queue.push(view);
      pump();
    }

    hand.addEventListener("click", (ev) => {
      const b = ev.target.closest(".rook-tv-card");
      if (!b || !shown) return;
      const c = b._card;
      if (!c) return;
      if (!c.legal) { // said here at once, on a touch screen too (a tooltip never shows there); nothing is sent
        sayReason(c.label);
        b.classList.remove("shake");
        void b.offsetWidth; // restart the animation
        b.classList.add("shake");
        return;
      }
      sayReason("");
      if (shown.mode === "discard") b.classList.toggle("picked");
      model.send({ kind: "tap", id: c.id, token: b.dataset.token });
    });

    hand.addEventListener("keydown", (ev) => {
      const buttons = Array.from(hand.children);
      const i = buttons.indexOf(document.activeElement);
      if (i < 0) return;
      let j = null;
      if (ev.key === "ArrowRight" || ev.key === "ArrowDown") j = Math.min(buttons.length - 1, i + 1);
      else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") j = Math.max(0, i - 1);
      else if (ev.key === "Home") j = 0;
      else if (ev.key === "End") j = buttons.length - 1;
      if (j !== null) { ev.preventDefault(); buttons[j].focus(); }
    });

    model.on("change:view", enqueue);
    model.on("change:faces", () => { hand.replaceChildren(); if (shown) drawStatic(shown); });
    model.on("msg:custom", (msg) => {
      if (!msg || msg.kind !== "focus") return;
      // the latest view's cards are drawn at once (only its motion may still run): focus them now
      if (queue.length === 0) focusFirst(); else wantFocus = true;
    });
    let ro = null;
    if (typeof ResizeObserver === "function") {
      ro = new ResizeObserver(() => { if (shown) layoutHand(); });
      ro.observe(root);
    }
    enqueue();
    // A table still undrawn a second later (seen with 20 pages opening at once on a loaded machine: the felt drawn,
    // no seat or card, so the learner could not play) reads the model again, once a second for a minute.
    let tries = 0;
    const redraw = setInterval(() => {
      if (root.dataset.token || ++tries > 60) clearInterval(redraw);
      else if (!busy) enqueue();
    }, 1000);
    return () => { if (ro) ro.disconnect(); clearTimeout(reasonTimer); clearInterval(redraw); };
  },
};
