// Kingdoms' board: the 5 x 6 spaces with their tiles and castles, the supply, and each
// player's gold, castles in hand, starting tile and the tile they hold. It reads only the
// declared view model (view.model, games/kingdoms/view_model.schema.json) and each legal
// move's model (action.move).
// Your turn, by pointing: choose a piece (a castle of some rank, your starting tile; or tap
// the supply to draw), then tap a highlighted empty space. Keys: 1-4 a castle's rank,
// S the starting tile, D draw, Escape drops the choice; arrow keys move across the spaces,
// Enter places the chosen piece on the space in focus.
// Opponents' moves are animated (a castle or tile slides onto its space, a drawn tile turns
// face up), one after the other, ended by any click or key, never with reduced motion.
"use strict";

(() => {
  const MODEL_VERSION = 1; // games/kingdoms/view.py VERSION
  const { svg, html, use, text, control, button } = KK;
  const CELL = 84, GUTTER = 24;
  const SLIDE_MS = 360;
  const STYLE = {
    resource: { fill: "#e6f4d4", edge: "#5c940d", ink: "#2b8a3e" },
    hazard: { fill: "#ffe3e3", edge: "#c92a2a", ink: "#c92a2a" },
    mountain: { fill: "#dee2e6", edge: "#495057", ink: "#343a40" },
    dragon: { fill: "#7a1c2e", edge: "#3d0a14", ink: "#fff" },
    gold_mine: { fill: "#ffe066", edge: "#c77700", ink: "#5c3b00" },
    wizard: { fill: "#e5dbff", edge: "#5f3dc4", ink: "#3b1f99" },
  };
  const SPECIAL = { mountain: ["mountain", "splits the line"], dragon: ["flame", "no resources"], gold_mine: ["nugget", "doubles"], wizard: ["wizard", "+1 rank near"] };

  const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
  const where = (space, columns) => `row ${Math.floor(space / columns) + 1}, column ${(space % columns) + 1}`;

  /** A tile's face in a size x size square at (x, y). */
  function tileFace(tile, x, y, size) {
    const style = STYLE[tile.kind] || STYLE.mountain;
    const k = size / CELL;
    const group = svg("g", { class: "kk-tile" },
      svg("rect", { x: x + 3 * k, y: y + 3 * k, width: size - 6 * k, height: size - 6 * k, rx: 8 * k, fill: style.fill, stroke: style.edge, "stroke-width": 2.5 * k }));
    const special = SPECIAL[tile.kind];
    if (special) {
      group.append(use(special[0], x + size * 0.27, y + size * 0.14, size * 0.46, size * 0.42, style.ink));
      const name = tile.name || tile.title;
      group.append(text(x + size / 2, y + size * 0.71, name, { class: "kk-tile-name", fill: style.ink, "font-size": 13 * k * Math.min(1, 10 / name.length) }));
      group.append(text(x + size / 2, y + size * 0.86, special[1], { class: "kk-tile-note", fill: style.ink, "font-size": 10.5 * k }));
    } else {
      group.append(text(x + size / 2, y + size * 0.43, signed(tile.value), { class: "kk-tile-value", fill: style.ink, "font-size": 32 * k }));
      if (tile.name) group.append(text(x + size / 2, y + size * 0.78, tile.name, { class: "kk-tile-name", fill: style.ink, "font-size": 12.5 * k * Math.min(1, 10 / tile.name.length) }));
    }
    return group;
  }

  /** A tile face down (another player's secret). */
  function tileBack(x, y, size, note = "?") {
    const k = size / CELL;
    return svg("g", { class: "kk-tile kk-tile-back" },
      svg("rect", { x: x + 3 * k, y: y + 3 * k, width: size - 6 * k, height: size - 6 * k, rx: 8 * k }),
      text(x + size / 2, y + size / 2, note, { class: "kk-tile-value", fill: "#f3ead3", "font-size": 26 * k }));
  }

  /** A castle of `player` with its printed rank (and its strength beside wizards). */
  function castleFace(player, rank, x, y, size, strength = rank) {
    const k = size / CELL;
    const colour = KK.playerColour(player);
    return svg("g", { class: "kk-castle-piece" },
      svg("rect", { x: x + 3 * k, y: y + 3 * k, width: size - 6 * k, height: size - 6 * k, rx: 8 * k, fill: colour, stroke: "#1d2330", "stroke-width": 1.5 * k }),
      use("castle", x + size * 0.2, y + size * 0.12, size * 0.6, size * 0.6, "#fff"),
      svg("circle", { cx: x + size / 2, cy: y + size * 0.8, r: 11 * k, fill: "#fff", stroke: "#1d2330", "stroke-width": 1.2 * k }),
      text(x + size / 2, y + size * 0.8 + 0.5 * k, rank, { class: "kk-rank", fill: colour, "font-size": 16 * k }),
      strength > rank ? text(x + size * 0.84, y + size * 0.2, `+${strength - rank}`, { class: "kk-rank-bonus", "font-size": 14 * k }) : null);
  }

  function pieceFace(piece, x, y, size) {
    return piece.kind === "castle" ? castleFace(piece.player, piece.rank, x, y, size, piece.strength) : tileFace(piece, x, y, size);
  }

  function pieceWords(piece, seatLabel) {
    if (!piece) return "empty";
    if (piece.kind === "castle") {
      const bonus = piece.strength > piece.rank ? ` (rank ${piece.strength} beside the wizard)` : "";
      return `${seatLabel(piece.player)}'s castle, rank ${piece.rank}${bonus}`;
    }
    return piece.title;
  }

  /** The board's 30 squares as an SVG: `square(space, x, y)` may return a group to use
   * instead of the plain piece (the live board makes them controls). */
  function boardSvg(model, { label, scoredLines = null, mark = null, seatLabel, square = null }) {
    const rows = model.rows, columns = model.columns;
    const width = GUTTER + columns * CELL, height = GUTTER + rows * CELL;
    const board = svg("svg", { class: "kk-kingdoms-board", viewBox: `0 0 ${width + 4} ${height + 4}`, role: "group", "aria-label": label });
    board.append(svg("rect", { x: GUTTER - 4, y: GUTTER - 4, width: columns * CELL + 8, height: rows * CELL + 8, rx: 12, class: "kk-board-bg" }));
    for (let c = 0; c < columns; c++) {
      const scored = scoredLines && scoredLines.columns[c];
      board.append(text(GUTTER + c * CELL + CELL / 2, GUTTER / 2 - 1, c + 1, { class: "kk-axis" + (scored ? " kk-scored" : "") }));
    }
    for (let r = 0; r < rows; r++) {
      const scored = scoredLines && scoredLines.rows[r];
      board.append(text(GUTTER / 2 - 1, GUTTER + r * CELL + CELL / 2, r + 1, { class: "kk-axis" + (scored ? " kk-scored" : "") }));
    }
    model.board.forEach((piece, space) => {
      const x = GUTTER + (space % columns) * CELL, y = GUTTER + Math.floor(space / columns) * CELL;
      let group = square ? square(space, x, y) : null;
      if (!group) {
        group = svg("g", { class: "kk-square", title: `${pieceWords(piece, seatLabel)} (${where(space, columns)})` });
        group.append(piece ? pieceFace(piece, x, y, CELL) : svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, class: "kk-space-rect" }));
      }
      if (space === mark) group.append(svg("rect", { x: x + 1.5, y: y + 1.5, width: CELL - 3, height: CELL - 3, rx: 10, class: "kk-just-placed" }));
      board.append(group);
    });
    return board;
  }

  // -- animations: opponents' moves, queued, skippable ------------------------------------
  const motion = { table: null, version: null, until: 0, running: [] };
  const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function skipAll() {
    for (const animation of motion.running) { try { animation.finish(); } catch (e) { /* gone */ } }
    motion.running = [];
    motion.until = 0;
  }
  document.addEventListener("pointerdown", skipAll, true);
  document.addEventListener("keydown", skipAll, true);

  /** Slide `node` (inside an SVG) from the screen point `from` to where it stands, after the
   * animations already queued; `flip` turns it face up on the way. */
  function slide(node, from, flip) {
    const owner = node.ownerSVGElement;
    if (!owner || !from || typeof node.animate !== "function") return;
    const box = node.getBoundingClientRect(), frame = owner.getBoundingClientRect();
    const scale = owner.viewBox.baseVal.width / Math.max(1, frame.width);
    const dx = (from.x - (box.left + box.width / 2)) * scale, dy = (from.y - (box.top + box.height / 2)) * scale;
    node.style.cssText = "transform-box: fill-box; transform-origin: center";
    const square = node.closest("[data-key]");
    if (square && square.parentNode === owner) owner.append(square); // drawn over the other spaces
    const now = performance.now();
    const delay = Math.max(0, motion.until - now);
    motion.until = now + delay + SLIDE_MS;
    const start = `translate(${dx}px, ${dy}px)${flip ? " scaleX(0.08)" : ""}`;
    const frames = flip
      ? [{ transform: start }, { transform: `translate(${dx * 0.6}px, ${dy * 0.6}px) scaleX(1)`, offset: 0.4 }, { transform: "none" }]
      : [{ transform: start }, { transform: "none" }];
    const animation = node.animate(frames, { duration: SLIDE_MS, delay, easing: "ease-out", fill: "backwards" });
    motion.running.push(animation);
    animation.finished.then(() => { motion.running = motion.running.filter((a) => a !== animation); }, () => {});
  }

  const centre = (node) => {
    if (!node) return null;
    const box = node.getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  };

  /** Animate what the latest decision did, if it is new and someone else's. */
  function animate(root, view, model) {
    const fresh = motion.table === view.table && motion.version !== null && view.version > motion.version;
    const changed = motion.version !== view.version || motion.table !== view.table;
    motion.table = view.table;
    motion.version = view.version;
    const last = model.last;
    if (!changed || !fresh || !last || last.player === view.you || view.replay || reduced()) return;
    const hand = root.querySelector(`[data-hand="${last.player}"]`);
    const supply = root.querySelector("[data-supply]");
    if (last.kind === "draw") {
      slide(root.querySelector(`[data-held="${last.player}"]`), centre(supply), false);
      return;
    }
    if (last.space === undefined || last.scored_epoch) return;
    // The piece moves; its space (and the "just placed" mark) stay where they are.
    const square = `[data-key="space:${last.space}"]`;
    const target = root.querySelector(`${square} > .kk-castle-piece, ${square} > .kk-tile`);
    if (last.kind === "castle") slide(target, centre(hand), false);
    else if (last.kind === "starting_tile") slide(target, centre(hand), true);
    else slide(target, centre(supply), !model.variants.no_luck);
  }

  // -- the board ---------------------------------------------------------------------------
  const cursor = { table: null, space: null }; // the space the arrow keys stand on

  function render(ctx) {
    const { view, ui } = ctx;
    const model = view.model;
    if (!model || model.version !== MODEL_VERSION) throw new Error(`Kingdoms view model ${model && model.version}, not ${MODEL_VERSION}`);
    const columns = model.columns, rows = model.rows;
    const seatLabel = (p) => ctx.seatName(p);
    const mine = view.legal.length > 0;
    const me = mine ? view.to_act : null;
    const noLuck = model.variants.no_luck;
    const playing = model.phase === "play" || model.phase === "place";

    // The legal moves by piece: for each, the spaces it may go to.
    const pieces = new Map(); // "castle:r" | "start" | "held" -> Map(space -> action)
    let drawAction = null, passAction = null;
    const takes = new Map(); // no_luck: tile type -> action
    for (const action of view.legal) {
      const move = action.move;
      let piece = null;
      if (move.kind === "castle") piece = `castle:${move.rank}`;
      else if (move.kind === "starting_tile") piece = "start";
      else if (move.kind === "tile") piece = "held";
      else if (move.kind === "draw") drawAction = action;
      else if (move.kind === "take") takes.set(move.tile.type, action);
      else if (move.kind === "pass") passAction = action;
      if (piece) {
        if (!pieces.has(piece)) pieces.set(piece, new Map());
        pieces.get(piece).set(move.space, action);
      }
    }
    if (ui.piece && !pieces.has(ui.piece)) delete ui.piece;
    if (!ui.piece && pieces.size === 1 && pieces.has("held")) ui.piece = "held";
    const choose = (piece) => { ui.piece = ui.piece === piece ? undefined : piece; ctx.redraw(); };
    const chosen = ui.piece ? pieces.get(ui.piece) : null;
    const myStart = me !== null ? model.players[me].starting_tile : null;
    const heldTile = model.held && model.held.tile ? model.held.tile : null;
    const pieceName = (piece) => {
      if (!piece) return "";
      if (piece.startsWith("castle:")) return `a rank-${piece.slice(7)} castle`;
      const tile = piece === "start" ? myStart : heldTile;
      return `${piece === "start" ? "your starting tile" : "the tile you drew"} (${tile ? tile.title : "?"})`;
    };

    // Words and buttons (a mouse clicks, a finger taps).
    const tap = KK.kd.coarse() ? "tap" : "click";
    if (mine) {
      if (chosen) ctx.prompt(`Place ${pieceName(ui.piece)}: ${tap} a highlighted empty space.`);
      else if (model.phase === "play") {
        const can = [];
        if ([...pieces.keys()].some((p) => p.startsWith("castle:"))) can.push("a castle");
        if (pieces.has("start")) can.push("your starting tile");
        const supplyWords = drawAction || takes.size ? `, or ${tap} the supply to ${noLuck ? "take a tile" : "draw a tile"}` : "";
        ctx.prompt(can.length ? `Your turn: choose ${can.join(" or ")} below${supplyWords}.` : passAction ? "Your turn: you cannot play; pass." : `Your turn${supplyWords}.`);
      }
      // On a phone the hand lies below the board: its pieces are offered above it too.
      for (const piece of [...pieces.keys()].filter((p) => p !== "held").sort()) {
        const name = piece === "start" ? "Starting tile" : `Castle ${piece.slice(7)}`;
        ctx.tools.append(button(name, () => choose(piece), { class: `kk-tool kk-phone-only${ui.piece === piece ? "" : " secondary"}`, "aria-pressed": String(ui.piece === piece) }));
      }
      if (ui.piece && ui.piece !== "held") ctx.tools.append(button("Cancel", () => choose(ui.piece), { class: "kk-tool secondary" }));
      if (drawAction) ctx.tools.append(button("Draw a tile", () => ctx.act(drawAction.id), { class: "kk-tool" }));
      if (passAction) ctx.tools.append(button("Pass", () => ctx.act(passAction.id), { class: "kk-tool secondary" }));
    } else if (view.to_act !== null && playing && model.turn !== null) {
      ctx.prompt(model.phase === "place" ? `${seatLabel(model.turn)} is placing the tile they drew.` : `${seatLabel(model.turn)} is playing.`);
    }

    // The board: every square reachable with the arrow keys; the free ones a chosen piece may
    // go to are controls.
    if (cursor.table !== view.table) { cursor.table = view.table; cursor.space = null; }
    if (chosen && (cursor.space === null || !chosen.has(cursor.space))) cursor.space = chosen.keys().next().value;
    if (cursor.space === null) cursor.space = 0;
    const mark = model.last && model.last.space !== undefined && !model.last.scored_epoch ? model.last.space : null;
    const squares = [];
    const square = (space, x, y) => {
      const piece = model.board[space];
      const action = !piece && chosen ? chosen.get(space) : null;
      const group = svg("g", { class: "kk-square kk-sq", tabindex: space === cursor.space ? 0 : -1, "data-key": `space:${space}` });
      group.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, class: "kk-space-rect" }));
      if (piece) group.append(pieceFace(piece, x, y, CELL));
      group.append(svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 10, class: "kk-focus-ring" }));
      const place = `${where(space, columns)}`;
      if (action) {
        group.classList.add("kk-space-hot", "kk-hot");
        if (action.id === ctx.hint) group.classList.add("kk-hinted");
        const preview = svg("g", { class: "kk-preview" });
        if (ui.piece.startsWith("castle:")) preview.append(castleFace(me, Number(ui.piece.slice(7)), x, y, CELL));
        else {
          const tile = ui.piece === "start" ? myStart : heldTile;
          if (tile) preview.append(tileFace(tile, x, y, CELL));
        }
        group.insertBefore(preview, group.lastChild);
        const label = `place ${pieceName(ui.piece)} at ${place}`;
        group.setAttribute("role", "button");
        group.setAttribute("aria-label", label);
        group.prepend(svg("title", { text: label }));
        group.addEventListener("click", (event) => { event.stopPropagation(); ctx.act(action.id); });
      } else {
        const words = `${pieceWords(piece, seatLabel)}, ${place}`;
        group.setAttribute("aria-label", words);
        group.prepend(svg("title", { text: words }));
      }
      group.addEventListener("keydown", (event) => {
        if ((event.key === "Enter" || event.key === " ") && action) {
          event.preventDefault();
          event.stopPropagation();
          ctx.act(action.id);
        }
      });
      group.addEventListener("focus", () => {
        cursor.space = space;
        for (const other of squares) other.setAttribute("tabindex", other === group ? 0 : -1);
      });
      squares.push(group);
      return group;
    };
    const board = boardSvg(model, { label: "the board", scoredLines: model.scored, mark, seatLabel, square });
    const moveCursor = (event) => {
      const steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -columns, ArrowDown: columns };
      if (!(event.key in steps) || !board.contains(document.activeElement)) return false;
      const from = cursor.space;
      let to = from + steps[event.key];
      if (event.key === "ArrowLeft" && from % columns === 0) to = from - 1; // to the row above's end
      if (event.key === "ArrowRight" && from % columns === columns - 1) to = from + 1;
      if (to < 0 || to >= rows * columns) return true;
      squares[to].focus();
      return true;
    };
    const epochsOf = model.epochs_in_game ? ` of ${model.epochs_in_game}` : "";
    const boardPanel = html("div", { class: "kk-panel kk-board-panel" },
      html("div", { class: "kk-panel-head" }, html("h4", { text: `Epoch ${model.epoch}${epochsOf}` }),
        model.phase === "over" ? html("span", { class: "kk-stat", text: "the game is over" }) : null,
        model.last && model.last.scored_epoch && model.phase !== "over" ? html("span", { class: "kk-stat", text: `epoch ${model.last.scored_epoch} scored: the board is cleared` }) : null),
      board);

    ui.keys = (event) => {
      if (moveCursor(event)) return true;
      if (!mine) return false;
      const k = event.key.toLowerCase();
      if (/^[1-4]$/.test(k) && pieces.has(`castle:${k}`)) { choose(`castle:${k}`); return true; }
      if (k === "s" && pieces.has("start")) { choose("start"); return true; }
      if (k === "d" && drawAction) { ctx.act(drawAction.id); return true; }
      if (k === "escape" && ui.piece && ui.piece !== "held") { choose(ui.piece); return true; }
      return false;
    };

    // The supply: face down (draw) or, with No Luck, face up (take a tile).
    const supplyPanel = html("div", { class: "kk-panel kk-supply-panel" });
    const count = model.supply.count;
    if (noLuck) {
      supplyPanel.append(html("h4", { text: `Supply: ${count} tile${count === 1 ? "" : "s"}, face up` }));
      const size = 58, per = 6;
      const kinds = model.supply.face_up;
      const strip = svg("svg", { class: "kk-supply", "data-supply": "", viewBox: `0 0 ${per * (size + 4)} ${Math.max(1, Math.ceil(kinds.length / per)) * (size + 18)}`, role: "group", "aria-label": "the supply" });
      kinds.forEach(({ tile, count: n }, i) => {
        const x = (i % per) * (size + 4), y = Math.floor(i / per) * (size + 18);
        const group = svg("g", { class: "kk-piece" }, tileFace(tile, x, y, size), text(x + size / 2, y + size + 8, `×${n}`, { class: "kk-count" }));
        const action = takes.get(tile.type);
        if (action && action.id === ctx.hint) group.classList.add("kk-hinted");
        if (action) {
          group.append(svg("rect", { x: x + 1, y: y + 1, width: size - 2, height: size - 2, rx: 7, class: "kk-piece-ring" }));
          control(group, `take ${tile.title}`, () => ctx.act(action.id), `take:${tile.type}`);
        }
        strip.append(group);
      });
      supplyPanel.append(strip);
    } else {
      const size = 64;
      const pile = svg("svg", { class: "kk-supply kk-pile", viewBox: `0 0 ${size + 150} ${size + 8}`, role: "group", "aria-label": "the supply" });
      const group = svg("g", { class: "kk-piece", "data-supply": "" },
        count > 1 ? tileBack(6, 6, size, "") : null,
        count > 0 ? tileBack(2, 2, size, "?") : null,
        text(size + 16, size / 2 + 2, `${count} tile${count === 1 ? "" : "s"} face down`, { class: "kk-caption", "text-anchor": "start" }));
      if (drawAction) {
        if (drawAction.id === ctx.hint) group.classList.add("kk-hinted");
        group.append(svg("rect", { x: 1, y: 1, width: size + 6, height: size + 6, rx: 9, class: "kk-piece-ring" }));
        control(group, "draw a tile from the supply", () => ctx.act(drawAction.id), "draw");
      }
      pile.append(group);
      supplyPanel.append(html("h4", { text: "Supply" }), pile);
    }

    // The players: gold, castles in hand, starting tile, the tile held.
    const cards = html("div", { class: "kk-hands" });
    for (const p of KK.kd.seatOrder(model.players.length, view.you)) {
      const size = 56, gap = 6;
      const player = model.players[p];
      const slots = [];
      for (let rank = 1; rank <= player.castles.length; rank++) slots.push({ kind: "castle", rank, count: player.castles[rank - 1] });
      if (player.has_starting_tile) slots.push({ kind: "start", tile: player.starting_tile || null });
      if (model.held && model.held.player === p) slots.push({ kind: "held", tile: model.held.tile || null });
      const strip = svg("svg", { class: "kk-hand", "data-hand": p, viewBox: `0 0 ${slots.length * (size + gap)} ${size + 20}`, role: "group", "aria-label": `${seatLabel(p)}'s pieces` });
      slots.forEach((slot, i) => {
        const x = i * (size + gap);
        const group = svg("g", { class: "kk-piece" });
        let piece = null, label = "";
        if (slot.kind === "castle") {
          group.append(svg("g", { opacity: slot.count ? 1 : 0.25 }, castleFace(p, slot.rank, x, 0, size)),
            text(x + size / 2, size + 10, `×${slot.count}`, { class: "kk-count" }));
          piece = `castle:${slot.rank}`;
          label = `a rank-${slot.rank} castle (${slot.count} left)`;
        } else {
          group.append(slot.tile ? tileFace(slot.tile, x, 0, size) : tileBack(x, 0, size),
            text(x + size / 2, size + 10, slot.kind === "start" ? "start" : "drawn", { class: "kk-count" }));
          if (slot.kind === "held") group.setAttribute("data-held", p);
          piece = slot.kind;
          const whose = p === view.you ? "your" : `${seatLabel(p)}'s`;
          label = `${slot.kind === "start" ? `${whose} starting tile` : `the tile ${p === view.you ? "you" : seatLabel(p)} drew`}${slot.tile ? ` (${slot.tile.title})` : ", face down"}`;
        }
        if (p === me && pieces.has(piece)) {
          const selected = ui.piece === piece;
          if ([...pieces.get(piece).values()].some((a) => a.id === ctx.hint)) {
            group.classList.add("kk-hinted");
            group.append(text(x + size - 8, 10, "★", { class: "kk-hint-star" }));
          }
          group.append(svg("rect", { x: x + 1, y: 1, width: size - 2, height: size - 2, rx: 7, class: "kk-piece-ring" + (selected ? " kk-selected" : "") }));
          control(group, `choose ${label}${selected ? " (chosen)" : ""}`, () => choose(piece), `piece:${piece}`);
        } else {
          group.prepend(svg("title", { text: label }));
        }
        strip.append(group);
      });
      const details = [html("span", { class: "kk-stat", title: "gold" }, KK.icon("coin", null, 16), ` ${player.gold} gold`)];
      cards.append(KK.kd.card({
        colour: KK.playerColour(p), title: `Seat ${p + 1}: ${seatLabel(p)}`, details, drawing: strip,
        toAct: model.turn === p && playing, mine: p === view.you,
      }));
    }
    const sheet = KKP.epochs ? KKP.epochs.update(view, { seatLabel, boardSvg, redraw: ctx.redraw }) : null;
    ctx.root.append(sheet || "", html("div", { class: "kk-table kk-kingdoms" }, boardPanel,
      html("div", { class: "kk-side" }, supplyPanel, cards)));
    animate(ctx.root, view, model);
  }

  /** Kingdoms' score sheets, epoch by epoch and line by line, read from the game's record
   * (its `score` and `epoch_end` events): an element filled once the record arrives. */
  function sheets(view, names) {
    const { num } = KKP.scorepad;
    const holder = el("div", { class: "pad-sheets", text: "Loading the score sheets…" });
    fetch(`/api/tables/${view.table}/record`, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`the server answered ${response.status}`))))
      .then((record) => {
        holder.replaceChildren();
        let lines = [];
        for (const event of record.events) {
          if (event.type === "score") lines.push(event);
          if (event.type !== "epoch_end") continue;
          const signed = (g) => (g > 0 ? `+${g}` : `${g}`);
          holder.append(el("table", { class: "pad pad-wide" },
            el("thead", {}, el("tr", {}, el("th", { text: `Epoch ${event.epoch}` }), ...names.map((n) => el("th", { class: "num", text: n })))),
            el("tbody", {}, ...lines.map((line) => el("tr", {}, el("th", { scope: "row", text: line.line }), ...line.gold.map((g) => num(signed(g)))))),
            el("tfoot", {}, el("tr", { class: "total" }, el("th", { scope: "row", text: "Gold after the epoch" }), ...event.gold.map((g) => num(g))))));
          lines = [];
        }
      })
      .catch((error) => { holder.textContent = `The score sheets could not be read: ${error.message}.`; });
    return holder;
  }

  /** The end of the game (scorepad.js): how gold was earned, and every epoch's sheet. */
  function summary(view, names) {
    return [el("p", { class: "pad-note", text: `Gold after ${plural(view.result.epochs, "epoch")}: at the end of each epoch, every castle earns its rank times the tiles of its row and column.` }),
      sheets(view, names)];
  }

  KK.boards.kingdoms = { render, summary, colour: (view, seat) => KK.playerColour(seat) };
})();
