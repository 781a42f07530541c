// The post-game review: the analyst grades every decision that had a choice by the expected
// score lost against its best move, in the game's unit (points, or gold in Kingdoms): best,
// good (within the analyst's own noise), mistake or blunder, with the thresholds the server
// sends (each game's gradings, its heuristics' `grading`). Asked with POST .../review (202, {ready}), asked again until
// ready (which starts nothing new), then read with GET .../review. Tapping a decision shows it
// in the replay viewer.
"use strict";

(() => {
  const POLL_MS = 1500;
  let tableId = null;
  let seatName = (i) => `seat ${i + 1}`;
  let review = null;
  let byDecision = new Map(); // decision index -> graded decision
  let polling = null;
  let onlyMistakes = false;
  let chosenSeat = "all";

  function status(text, busy = false) {
    const line = $("review-status");
    line.replaceChildren(busy ? el("span", { class: "spinner", "aria-hidden": "true" }) : null, text);
    line.hidden = !text;
  }

  const MAKING = "The analyst is reviewing every decision of the game… (about a second each)";
  const WORDS = { best: "best", good: "good", mistake: "mistake", blunder: "blunder" };

  /** A decision's grade (a review stored before grades were sent has only `blunder`). */
  function gradeOf(d) {
    if (d.grade in WORDS) return d.grade;
    if (d.loss === 0) return "best";
    return d.blunder ? "blunder" : "good";
  }

  /** The class of a grade's row and tag: a loss within the noise is told apart from the best. */
  function tone(d) {
    const grade = gradeOf(d);
    if (grade === "blunder" || grade === "best") return grade === "best" ? "good" : "blunder";
    return grade === "mistake" ? "loss" : "near";
  }

  function unitOf(found) {
    return found.unit || "points";
  }

  async function read() {
    try {
      await show(await api("GET", `/api/tables/${tableId}/review`));
    } catch (e) {
      status("");
      $("review-ask").hidden = false;
      if (e.status !== 404) showError(e.message);
    }
  }

  /** Ask for the review (POST: 202, with whether it is ready); asking again while it is being
   * made starts nothing new, so this is also how the page waits for it without a refusal. */
  async function ask() {
    $("review-ask").disabled = true;
    try {
      const answer = await api("POST", `/api/tables/${tableId}/review`);
      $("review-ask").hidden = true;
      if (answer && answer.ready) { stop(); await read(); return; }
      status(MAKING, true);
      if (!polling) polling = setInterval(ask, POLL_MS);
    } catch (e) {
      stop();
      status("");
      $("review-ask").hidden = false;
      showError(e.message);
    } finally {
      $("review-ask").disabled = false;
    }
  }

  function stop() {
    if (polling) clearInterval(polling);
    polling = null;
  }

  /** Each graded decision's index among the game's decisions (the replay's steps): given by
   * the server as `decision` when it can, else matched in order by seat and move. */
  async function place(found) {
    const graded = found.decisions;
    if (graded.every((d) => Number.isInteger(d.decision))) return graded.map((d) => d.decision);
    const all = await KKP.replay.decisions();
    const places = [];
    let j = 0;
    for (const d of graded) {
      while (j < all.length && !(all[j] && all[j].seat === d.seat && all[j].notation === (d.played_notation || d.played))) j++;
      places.push(j < all.length ? j : null);
      j++;
    }
    return places;
  }

  function summary(found) {
    const unit = unitOf(found);
    return el("ul", { class: "review-summary" }, ...found.players.map((p) => el("li", {},
      el("strong", {}, el("span", { class: "kk-chip", style: `background:${KK.playerColour(p.seat)}` }), ` ${seatName(p.seat)}`),
      el("span", { class: "review-stats" },
        el("span", { title: "decisions with a choice", text: plural(p.decisions, "move") }),
        el("span", { title: "the analyst's best move played", text: `${p.best_moves} best${p.decisions ? ` (${Math.round((100 * p.best_moves) / p.decisions)}%)` : ""}` }),
        el("span", { title: `mean expected ${unit} lost per decision`, text: `${p.mean_loss.toFixed(2)} ${unit} lost per move` }),
        p.mistakes === undefined ? null : el("span", { class: p.mistakes ? "warn" : "", title: `decisions losing more than ${found.mistake} ${unit}`, text: plural(p.mistakes, "mistake") }),
        el("span", { class: p.blunders ? "bad" : "", title: found.blunder === undefined ? "the worst decisions" : `decisions losing more than ${found.blunder} ${unit}`, text: plural(p.blunders, "blunder") })))));
  }

  function list() {
    const box = $("review-list");
    const items = review.decisions.map((d, i) => ({ d, at: review.places[i] }))
      .filter(({ d }) => (!onlyMistakes || ["mistake", "blunder"].includes(gradeOf(d))) && (chosenSeat === "all" || String(d.seat) === chosenSeat));
    const unit = unitOf(review);
    box.replaceChildren(...items.map(({ d, at }) => {
      const same = d.played === d.best || d.loss === 0;
      const grade = gradeOf(d);
      return el("li", { class: `${tone(d)}${at === KKP.replay.step ? " current" : ""}` },
        el("button", { type: "button", class: "review-item", "data-step": at === null ? "" : at, disabled: at === null,
          title: at === null ? "this decision could not be found in the replay" : "show it in the replay",
          onclick: () => jump(at) },
        el("span", { class: "review-where", text: at === null ? "?" : `#${at + 1}` }),
        el("span", { class: "kk-chip", style: `background:${KK.playerColour(d.seat)}` }),
        el("span", { class: "review-moves" },
          el("span", { class: "review-played", text: d.played }),
          same ? el("span", { class: "review-best", text: " ✓ best" }) : el("span", { class: "review-best", text: ` → best: ${d.best}` })),
        el("span", { class: "review-loss", title: `expected ${unit} lost` },
          d.loss > 0 ? `−${d.loss.toFixed(1)} ${unit}` : "0",
          grade === "mistake" || grade === "blunder" ? el("small", { class: "review-grade", text: WORDS[grade] }) : null)));
    }));
    if (!items.length) box.append(el("li", { class: "muted", text: "no decision to show" }));
  }

  function jump(at) {
    if (at === null) return;
    KKP.replay.go(at);
    const board = document.querySelector(".board-area");
    if (board && board.getBoundingClientRect().top < 0) board.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  async function show(found) {
    status("Matching the decisions with the replay…", true);
    const places = await place(found);
    review = { ...found, places };
    byDecision = new Map();
    found.decisions.forEach((d, i) => { if (places[i] !== null) byDecision.set(places[i], d); });
    status("");
    $("review-ask").hidden = true;
    const seats = el("select", { id: "review-seat", "aria-label": "whose decisions" },
      el("option", { value: "all", text: "every player" }),
      ...found.players.map((p) => el("option", { value: String(p.seat), text: seatName(p.seat) })));
    seats.value = chosenSeat;
    seats.addEventListener("change", () => { chosenSeat = seats.value; list(); });
    const mistakes = el("input", { type: "checkbox", id: "review-mistakes" });
    mistakes.checked = onlyMistakes;
    mistakes.addEventListener("change", () => { onlyMistakes = mistakes.checked; list(); });
    $("review-body").replaceChildren(
      summary(found),
      el("p", { class: "kk-note", text: explanation(found) }),
      el("div", { class: "review-filters" }, seats, el("label", { class: "inline" }, mistakes, " only the mistakes")),
      el("ol", { id: "review-list", class: "review-list" }));
    list();
    KKP.replay.refresh();
  }

  /** How the grades are made, in words (the thresholds come with the review). */
  function explanation(found) {
    const unit = unitOf(found);
    const grades = found.mistake === undefined ? ""
      : ` A loss of up to ${found.mistake} ${unit} is within the analyst's own uncertainty (good); more is a mistake, more than ${found.blunder} a blunder.`;
    return `Each decision is graded by the ${unit} it is expected to lose against the analyst's best move, searched as deeply as a hint.${grades} Tap a decision to see it in the replay.`;
  }

  /** The review's words for the decision at replay step `step` (for the replay bar). */
  function note(step) {
    const d = byDecision.get(step);
    if (!d) return null;
    const grade = gradeOf(d);
    if (grade === "best") return el("span", { class: "review-tag good", text: "✓ the analyst's best" });
    const unit = unitOf(review);
    const word = grade === "good" ? "" : `, a ${WORDS[grade]}`;
    return el("span", { class: `review-tag ${tone(d)}`, text: `analyst: ${d.best} (−${d.loss.toFixed(1)} ${unit}${word})` });
  }

  /** Show the review of a finished table: read it when the view says it is ready (or being
   * made), else offer to ask for it. */
  function start(id, name, known) {
    if (tableId === id) return;
    tableId = id;
    seatName = name;
    $("review-panel").hidden = false;
    $("review-ask").addEventListener("click", ask);
    if (known === "ready") read();
    else if (known === "making") ask();
    else $("review-ask").hidden = false;
  }

  /** The replay moved: mark the current decision in the list. */
  function moved() {
    if (!review) return;
    const box = $("review-list");
    if (!box) return;
    box.querySelectorAll("li.current").forEach((li) => li.classList.remove("current"));
    const button = box.querySelector(`button[data-step="${KKP.replay.step}"]`);
    if (button) button.parentElement.classList.add("current");
  }

  KKP.review = { start, note, moved };
})();
