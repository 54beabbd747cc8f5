// Card pictures to tap (widgets/card_picker.py; an anywidget ES module shipped inside the package: no CDN).
// Each card is a <button> holding its picture (SVG drawn by rookcore.svg, sent in the `cards` trait). A tap sends
// {kind: "tap", id, deal} to the kernel, which owns the picks (the `picked` trait); the button is marked at once so
// the learner sees the tap even before the kernel answers. No rule logic here.

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function makeButton(card, key) {
  const b = el("button", "rook-cp-card");
  b.type = "button";
  b.dataset.key = key;
  b.dataset.id = String(card.id);
  b.dataset.code = card.code;
  const face = el("span", "rook-cp-face");
  face.innerHTML = card.svg || "";
  const svg = face.querySelector("svg");
  if (svg) svg.setAttribute("aria-hidden", "true"); // the button's aria-label names the card
  b.appendChild(face);
  const badge = el("span", "rook-cp-badge", "✓");
  badge.setAttribute("aria-hidden", "true");
  b.appendChild(badge);
  if (card.caption) b.appendChild(el("span", "rook-cp-caption", card.caption));
  return b;
}

function mark(b, on) {
  b.classList.toggle("picked", on);
  b.setAttribute("aria-pressed", String(on));
}

export default {
  render({ model, el: host }) {
    const root = el("div", "rook-cp");
    const row = el("div", "rook-cp-row");
    row.setAttribute("role", "group");
    root.appendChild(row);
    host.appendChild(root);

    function draw() {
      const cards = model.get("cards") || [];
      const picked = new Set(model.get("picked") || []);
      const deal = model.get("deal");
      root.style.setProperty("--cp-w", (model.get("width") || 64) + "px");
      row.setAttribute("aria-label", model.get("label") || "cards");
      const old = new Map(Array.from(row.children).map((b) => [b.dataset.key, b]));
      const buttons = cards.map((c) => {
        const key = deal + ":" + c.id;
        const b = old.get(key) || makeButton(c, key);
        b.dataset.deal = String(deal);
        b.setAttribute("aria-label", c.label);
        b.title = c.label;
        mark(b, picked.has(c.id));
        return b;
      });
      const same = buttons.length === row.children.length && buttons.every((b, i) => row.children[i] === b);
      if (!same) row.replaceChildren(...buttons); // only when the cards changed: a focused card keeps its focus
    }

    row.addEventListener("click", (ev) => {
      const b = ev.target.closest(".rook-cp-card");
      if (!b || !row.contains(b)) return;
      const on = !b.classList.contains("picked");
      if (on && !model.get("multiple")) row.querySelectorAll(".rook-cp-card.picked").forEach((o) => mark(o, false));
      mark(b, on);
      model.send({ kind: "tap", id: Number(b.dataset.id), deal: Number(b.dataset.deal) });
    });

    row.addEventListener("keydown", (ev) => {
      const buttons = Array.from(row.children);
      const i = buttons.indexOf(document.activeElement);
      if (i < 0) return;
      let j = null;
      if (ev.key === "ArrowRight" || ev.key === "ArrowDown") j = Math.min(buttons.length - 1, i + 1);
      else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") j = Math.max(0, i - 1);
      else if (ev.key === "Home") j = 0;
      else if (ev.key === "End") j = buttons.length - 1;
      if (j !== null) { ev.preventDefault(); buttons[j].focus(); }
    });

    const events = ["change:cards", "change:picked", "change:deal", "change:label", "change:width"];
    events.forEach((e) => model.on(e, draw));
    draw();
    return () => events.forEach((e) => model.off(e, draw));
  },
};
