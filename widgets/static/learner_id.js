// The learner id of this browser (an anywidget ES module, shipped inside the package: no CDN).
// It reads the id kept in the browser's own storage (localStorage key "crowsnest-rook.learner": 32 lowercase
// hexadecimal digits), makes a random one when there is none (crypto.randomUUID, else crypto.getRandomValues: the
// former needs a secure context), keeps it, and tells the kernel once: report = {id, stored, query} (stored: the
// browser kept it; false when its storage is blocked; query: the page's location.search, which a kernel of Voila's
// pool that could not read its page's request takes its link from: widgets/learner.py). An id the kernel gives
// back ("learner", after refusing a bad one) is kept in its place. The kernel checks every id again
// (rookcore.learners.parse_learner_id): nothing here is trusted.

const KEY = "crowsnest-rook.learner";
const ID = /^[0-9a-f]{32}$/;

function freshId() {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === "function") return c.randomUUID().replace(/-/g, "");
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  bytes[6] = (bytes[6] & 0x0f) | 0x40; // a version-4 UUID, as randomUUID makes
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function readId() {
  try {
    const id = window.localStorage.getItem(KEY);
    return id && ID.test(id) ? id : null;
  } catch (e) {
    return null; // storage blocked (a privacy setting, a sandboxed frame)
  }
}

function keepId(id) {
  try {
    window.localStorage.setItem(KEY, id);
    return window.localStorage.getItem(KEY) === id;
  } catch (e) {
    return false;
  }
}

export default {
  render({ model, el }) {
    el.classList.add("rook-learner-id");
    el.style.display = "none";
    const given = () => {
      const id = model.get("learner");
      if (id && ID.test(id) && readId() !== id) keepId(id);
    };
    model.on("change:learner", given);
    given();
    if (model.get("report") && model.get("report").id) return () => model.off("change:learner", given);
    let id = readId();
    let stored = id !== null;
    if (!stored) {
      id = freshId();
      stored = keepId(id);
    }
    model.set("report", { id: id, stored: stored, query: window.location.search });
    model.save_changes();
    return () => model.off("change:learner", given);
  },
};
