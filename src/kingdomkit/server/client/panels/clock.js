// The clock of a table with a time control: the limits, and the seconds left to the person to
// act, counted down here from `view.clock.left` (the server's figure when it sent the view).
// When a person's time runs out, the server has a medium bot play that decision.
"use strict";

(() => {
  let view = null;
  let seatName = (i) => `seat ${i + 1}`;
  let received = 0;
  let timer = null;

  function limits(clock) {
    const parts = [];
    if (clock.move_seconds) parts.push(`${limitText(clock.move_seconds)} per move`);
    if (clock.game_seconds) parts.push(`${limitText(clock.game_seconds)} per player for the game`);
    return parts.join(", ");
  }

  /** A small clock face (no font has to hold a clock symbol). */
  function face(text, attrs = {}) {
    const icon = KK.svg("svg", { class: "clock-icon", width: 15, height: 15, viewBox: "0 0 16 16", "aria-hidden": "true" },
      KK.svg("circle", { cx: 8, cy: 8, r: 6.6, fill: "none", stroke: "currentColor", "stroke-width": 1.8 }),
      KK.svg("path", { d: "M8 4.2V8l2.6 1.8", fill: "none", stroke: "currentColor", "stroke-width": 1.8, "stroke-linecap": "round" }));
    return el("span", { class: "clock-face", ...attrs }, icon, text ? ` ${text}` : "");
  }

  function tick() {
    const box = $("clock");
    const clock = view && view.clock;
    if (!clock) { box.hidden = true; return; }
    box.hidden = false;
    const seat = view.to_act === null ? null : view.seats[view.to_act];
    const timed = view.status === "running" && clock.left !== null && clock.left !== undefined && seat && seat.kind === "human" && !seat.stand_in;
    box.classList.remove("urgent", "out");
    if (!timed) {
      box.replaceChildren(face(""), ` ${limits(clock)}`);
      return;
    }
    const left = clock.left - (performance.now() - received) / 1000;
    const who = view.to_act === view.you ? "you" : seatName(view.to_act);
    if (left <= 0) {
      box.classList.add("out");
      box.replaceChildren(face("0:00"), ` time is up: a bot plays this move for ${who}`);
      return;
    }
    const limit = Math.min(clock.move_seconds || Infinity, clock.game_seconds || Infinity);
    if (left <= Math.min(10, limit / 3)) box.classList.add("urgent");
    box.replaceChildren(face(clockText(left), { role: "timer" }), ` for ${who} to play (${limits(clock)})`);
  }

  /** A new view: restart the countdown from its figure. */
  function update(next, name) {
    view = next;
    seatName = name;
    received = performance.now();
    tick();
    const running = Boolean(view.clock) && view.status === "running";
    if (running && !timer) timer = setInterval(tick, 250);
    if (!running && timer) { clearInterval(timer); timer = null; }
  }

  /** Seconds a seat has used, in words, for the seat list (tables with a clock). */
  function used(view, seat) {
    if (!view.clock || seat.kind !== "human") return null;
    const game = view.clock.game_seconds;
    return game ? `${clockText(seat.time_used)} of ${clockText(game)} used` : `${clockText(seat.time_used)} used`;
  }

  KKP.clock = { update, used };
})();
