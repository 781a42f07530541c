// The replay viewer of a finished table: step through its decisions (first, previous, next,
// last, a slider, the arrow keys, Home and End), each frame drawn by the game's board drawer
// from GET /api/tables/{id}/replay/{step}, with the decision about to be made between frames.
"use strict";

(() => {
  let tableId = null;
  let steps = 0;
  let step = 0;
  let frames = new Map(); // step -> frame
  let pending = new Map(); // step -> Promise of the frame
  let hooks = { draw: () => {}, live: () => null, seatName: (i) => `seat ${i + 1}`, note: () => null };
  let active = false; // is the bar shown (a finished table)?
  let all = null; // Promise of every decision [{seat, text}], for the review

  function load(at) {
    if (frames.has(at)) return Promise.resolve(frames.get(at));
    if (!pending.has(at)) {
      pending.set(at, api("GET", `/api/tables/${tableId}/replay/${at}`).then((frame) => {
        frames.set(at, frame);
        pending.delete(at);
        return frame;
      }, (error) => { pending.delete(at); throw error; }));
    }
    return pending.get(at);
  }

  /** The view to draw: the frame of the current step as a spectator's view, or null at the
   * end (the live view is the last frame). */
  function frame() {
    if (!active || step >= steps) return null;
    const f = frames.get(step);
    if (!f) return null;
    const live = hooks.live();
    return { ...f, options: live.options, legal: [], you: null, version: `replay-${step}`, status: "replay", decisions: step, replay: true };
  }

  function label(entry) {
    return entry ? KKP.log.text(entry) : ""; // the game's sentence, with who made it
  }

  function bar() {
    $("replay-slider").max = String(steps);
    $("replay-slider").value = String(step);
    $("replay-slider").setAttribute("aria-valuetext", `decision ${step} of ${steps}`);
    $("replay-step").textContent = step >= steps ? `the end (${steps} decisions)` : `decision ${step + 1} of ${steps}`;
    $("replay-first").disabled = $("replay-prev").disabled = step <= 0;
    $("replay-next").disabled = $("replay-last").disabled = step >= steps;
    const f = frames.get(step);
    const move = $("replay-move");
    move.replaceChildren();
    if (step >= steps) {
      const touch = window.matchMedia("(pointer: coarse)").matches; // no keys to mention
      move.append(el("span", { class: "muted", text: touch ? "The game is over. The buttons above step back through it." : "The game is over. ← steps back through it, Home goes to the start." }));
      return;
    }
    if (!f) { move.append(el("span", { class: "muted", text: "loading…" })); return; }
    if (f.next) move.append(el("span", { class: "replay-label", text: "Next: " }), el("strong", { text: label(f.next) }));
    const note = hooks.note(step);
    if (note) move.append(" ", note);
  }

  async function go(target) {
    const to = Math.max(0, Math.min(steps, Math.round(target)));
    step = to;
    bar();
    if (to >= steps) { hooks.draw(); return; }
    try {
      await load(to);
      if (step !== to) return; // moved on meanwhile
      bar();
      hooks.draw();
      if (to + 1 < steps) load(to + 1).catch(() => {}); // the next frame, ready for →
    } catch (e) {
      showError(e.message);
    }
  }

  function keys(event) {
    if (!active || typingIn(event.target) || event.ctrlKey || event.metaKey || event.altKey) return false;
    if (event.target && event.target.id === "replay-slider") return false; // it moves itself
    const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
    if (event.key in moves) { go(step + moves[event.key]); return true; }
    if (event.key === "Home") { go(0); return true; }
    if (event.key === "End") { go(steps); return true; }
    return false;
  }

  /** Show the bar for a finished table of `count` decisions (at its end). */
  function activate(count) {
    if (active && count === steps) return;
    active = true;
    steps = count;
    step = count;
    $("replay-bar").hidden = false;
    bar();
  }

  /** Every decision of the game in order ({seat, text, notation, by}), from the table's log. */
  function decisions() {
    if (!all) {
      all = KKP.log.all(steps);
      all.catch(() => { all = null; });
    }
    return all;
  }

  function init(id, given) {
    tableId = id;
    hooks = { ...hooks, ...given };
    frames = new Map();
    pending = new Map();
    $("replay-first").addEventListener("click", () => go(0));
    $("replay-prev").addEventListener("click", () => go(step - 1));
    $("replay-next").addEventListener("click", () => go(step + 1));
    $("replay-last").addEventListener("click", () => go(steps));
    $("replay-slider").addEventListener("input", () => go(Number($("replay-slider").value)));
  }

  KKP.replay = { init, activate, frame, go, keys, decisions, refresh: () => active && bar(), get step() { return step; }, get active() { return active; } };
})();
