// Hints (tables created with hints on): on your turn, the analyst searches your position (the
// same search as the post-game review's, about a second) and gives each legal move its expected
// final score in the game's unit (`view.score_unit`); the best ones are listed (tap one to play
// it) and the best is marked on the board when its drawer can.
"use strict";

(() => {
  const SHOWN = 5;
  let tableId = null;
  let advice = null; // {version, moves} of the last answer
  let asking = null; // the version a request is out for
  let onChange = () => {};
  let play = () => {};

  function best(version) {
    return advice && advice.version === version && advice.moves.length ? advice.moves[0].id : null;
  }

  async function ask(view) {
    const version = view.version;
    if (asking === version) return;
    asking = version;
    showError("");
    update(view);
    try {
      const moves = await api("GET", `/api/tables/${tableId}/hint`);
      if (asking === version) advice = { version, moves };
    } catch (e) {
      if (asking === version) showError(e.message);
    } finally {
      if (asking === version) asking = null;
      onChange();
    }
  }

  /** Show the hint box for `view`; `mine`: it is your turn and you play it yourself. */
  function update(view, mine) {
    const box = $("hint-box");
    const on = Boolean(view.hints) && (mine === undefined ? !box.hidden : mine);
    box.hidden = !on;
    if (!on) return;
    const button = $("hint-button");
    const thinking = asking === view.version;
    button.disabled = thinking;
    button.textContent = thinking ? "The analyst is thinking…" : "Hint: what would the analyst play?";
    button.setAttribute("aria-busy", String(thinking));
    button.onclick = () => ask(view);
    const list = $("hint-list");
    if (!advice || advice.version !== view.version) { list.replaceChildren(); list.hidden = true; return; }
    const top = advice.moves[0] ? advice.moves[0].points : 0;
    const unit = view.score_unit || "points";
    list.hidden = false;
    list.replaceChildren(...[
      el("p", { class: "kk-note", text: `Expected final ${unit} for you after each move (the analyst's estimate, best first); tap one to play it.` }),
      el("ol", {}, ...advice.moves.slice(0, SHOWN).map((move, i) => el("li", {},
        el("button", { type: "button", class: `hint-move${i === 0 ? " best" : ""}`, "data-action": move.id, onclick: () => play(move.id),
          "aria-label": `${move.label}: about ${move.points} ${unit}${i ? `, ${(top - move.points).toFixed(1)} less than the best` : ", the best"}` },
        el("span", { class: "hint-label", text: move.label }),
        el("span", { class: "hint-points", text: `${move.points.toFixed(1)}${i ? (top - move.points < 0.05 ? " (as good)" : ` (−${(top - move.points).toFixed(1)})`) : " ★"}` }))))),
      advice.moves.length > SHOWN ? el("p", { class: "kk-note", text: `${advice.moves.length - SHOWN} more moves are worth less.` }) : null,
    ].filter(Boolean));
  }

  function init(id, hooks) {
    tableId = id;
    onChange = hooks.onChange;
    play = hooks.play;
  }

  KKP.hints = { init, update, best };
})();
