// After a game, under its score pad: each rated player's rating change, a rematch (the same
// seats, options, bots and table rules; each person's seat kept for them) and the way back to
// the lobby. Once a player has proposed the rematch, every page of the old table links to it.
"use strict";

(() => {
  let shown = null; // what is drawn (the table, its rematch, your seat), so clicks are not lost

  function signed(n) {
    return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "±0";
  }

  /** "Ratings: Ann 1512 (+12), Bob 1488 (−12)". */
  function ratings(view, seatName) {
    if (!view.ratings || !view.ratings.length) return null;
    const parts = view.ratings.map((r) => `${seatName(view.seats[r.seat])} ${r.after} (${signed(r.after - r.before)})`);
    return el("p", { class: "rating-changes" }, el("strong", { text: "Ratings: " }), parts.join(", "));
  }

  async function propose(button) {
    button.disabled = true;
    try {
      const made = await api("POST", `/api/tables/${shown.table}/rematch`);
      location.href = `/t/${made.table}`;
    } catch (e) { showError(e.message); button.disabled = false; }
  }

  async function accept(next, button) {
    button.disabled = true;
    try {
      await api("POST", `/api/tables/${next}/join`, {});
      location.href = `/t/${next}`;
    } catch (e) { showError(e.message); button.disabled = false; }
  }

  function offer(view, seatName) {
    const seated = view.you !== null && view.you !== undefined;
    const match = view.rematch;
    if (match) {
      const href = `/t/${match.table}`;
      if (match.by === view.you) return el("p", {}, "You proposed a rematch. ", el("a", { href, class: "button-link", text: "Go to the rematch" }));
      const who = seatName(view.seats[match.by]);
      if (!seated) return el("p", {}, `${who} proposed a rematch. `, el("a", { href, class: "button-link", text: "Watch it" }));
      const join = el("button", { type: "button", class: "rematch-join", text: "Join" });
      join.addEventListener("click", () => accept(match.table, join));
      return el("p", { class: "rematch-offer", role: "status" }, el("strong", { text: `${who} proposes a rematch` }), " — ", join);
    }
    if (!seated) return null;
    const button = el("button", { type: "button", class: "rematch-propose", text: "Rematch", title: "the same seats, variants and table rules" });
    button.addEventListener("click", () => propose(button));
    return button;
  }

  function note(view) {
    const others = view.seats.filter((seat) => seat.kind === "human" && seat.index !== view.you).length;
    return `A rematch has the same seats, bots, variants and table rules${others ? `; the other ${others === 1 ? "player's seat is" : "players' seats are"} kept for them` : ""}.`;
  }

  /** Draw the after-game box in #finish (made on first use) for a finished `view`. */
  function update(view, seatName) {
    let box = $("after-game");
    if (!box) {
      box = el("div", { id: "after-game", class: "after-game" });
      $("finish").append(box);
    }
    const key = JSON.stringify([view.table, view.you, view.rematch, view.ratings]);
    if (shown && shown.key === key) return;
    shown = { key, table: view.table };
    box.replaceChildren(...[
      ratings(view, seatName),
      el("div", { class: "after-game-actions" }, offer(view, seatName), el("a", { href: "/", class: "button-link secondary-link", text: "Back to the lobby" }),
        view.rematch || view.you === null || view.you === undefined ? null : el("small", { class: "muted rematch-note", text: note(view) })),
    ].filter(Boolean));
  }

  /** Is a seat of this rematch kept for you (you opened its page before joining)? */
  function kept(view) {
    return view.kept !== undefined && view.kept !== null && (view.you === null || view.you === undefined);
  }

  /** Take the seat kept for you; the view as your seat sees it (unchanged if refused). */
  async function takeKept(view) {
    try {
      return (await api("POST", `/api/tables/${view.table}/join`, {})).view;
    } catch (e) {
      showError(e.message);
      return view;
    }
  }

  KKP.rematch = { update, kept, takeKept };
})();
