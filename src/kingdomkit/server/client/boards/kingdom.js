// What Kingdomino and Queendomino share: a kingdom drawn as a grid of terrains around its
// castle, the lines of dominoes with the kings on them, and placing a domino by pointing
// (pick the square for square 1, turn it, place it).
"use strict";

(() => {
  const { svg, html, use, crowns, text, control, button } = KK;
  const U = 40; // one square, in drawing units
  const DIRECTIONS = ["1,0", "0,1", "-1,0", "0,-1"]; // square 2 right, down, left, up: clockwise

  /** The box as the drawers need it: dominoes by id, terrain names, the kingdom's frame. */
  function model(parts) {
    const geo = parts.geometry;
    const byId = new Map(parts.dominoes.map((d) => [d.id, d]));
    return {
      geo,
      terrains: parts.terrains,
      domino: (id) => byId.get(id) || { id, label: String(id), squares: [[-1, 0], [-1, 0]] },
      xy: (cell) => [(cell % geo.width) - geo.reach, Math.floor(cell / geo.width) - geo.reach],
    };
  }

  function same(a, b) {
    return a[0] === b[0] && a[1] === b[1];
  }

  /** One square of terrain with its crowns, its top-left corner at (px, py). */
  function square(m, face, px, py, size = U) {
    const [name, count] = Array.isArray(face) ? [m.terrains[face[0]], face[1]] : [face.terrain, face.crowns];
    return svg("g", { class: "kk-square" },
      svg("rect", { x: px + 1, y: py + 1, width: size - 2, height: size - 2, rx: 3, fill: KK.terrainFill(name) }),
      count ? crowns(count, px + 3, py + 3, Math.min(12, (size - 6) / 3)) : null);
  }

  /** A domino's two squares at the cells (x, y) of `cells`, with its outline. */
  function dominoAt(m, squares, cells, attrs = {}) {
    const group = svg("g", { class: "kk-domino", ...attrs });
    const [[x1, y1], [x2, y2]] = cells;
    const frame = {
      x: Math.min(x1, x2) * U + 0.75, y: Math.min(y1, y2) * U + 0.75,
      width: (Math.abs(x2 - x1) + 1) * U - 1.5, height: (Math.abs(y2 - y1) + 1) * U - 1.5, rx: 4,
    };
    group.append(svg("rect", { class: "kk-domino-base", ...frame }));
    cells.forEach(([x, y], i) => group.append(square(m, squares[i], x * U, y * U)));
    group.append(svg("rect", { class: "kk-domino-edge", ...frame }));
    return group;
  }

  /** A kingdom, drawn in a fixed frame: every square it could ever reach (the castle in the
   * middle, size - 1 squares each way), so the castle never moves and the squares never
   * shrink while it grows; empty squares are outlined only where the kingdom may still grow.
   *
   * realm: a view model kingdom {pieces, frame} (boards that read the model), or the old
   * {placed: [[domino id, cell1, cell2]], knights?: [cell], buildings?: [[index, cell]]}
   * opts: colour, label, player, building(index) -> {name, crowns, towers, text}, recent: cells
   * of the domino just placed, hot: [{x, y, key, label, onClick, selected, badge}], ghost:
   * {cells, squares, label, onClick}, onBackground. */
  function kingdomSvg(m, realm, opts = {}) {
    const size = m.geo ? m.geo.size : realm.frame.size;
    const reach = size - 1;
    const filled = new Set(["0,0"]);
    const dominoes = realm.pieces
      ? realm.pieces.map((p) => ({ id: p.domino, label: p.label, squares: p.squares, cells: p.squares.map((q) => [q.x, q.y]) }))
      : realm.placed.map(([id, c1, c2]) => ({ id, label: m.domino(id).label, squares: m.domino(id).squares, cells: [m.xy(c1), m.xy(c2)] }));
    dominoes.forEach((d) => d.cells.forEach((c) => filled.add(c.join())));
    const xs = [...filled].map((k) => Number(k.split(",")[0]));
    const ys = [...filled].map((k) => Number(k.split(",")[1]));
    // Where the kingdom may still grow: the size x size frames that hold it.
    const lo = [Math.max(...xs) - reach, Math.max(...ys) - reach];
    const hi = [Math.min(...xs) + reach, Math.min(...ys) + reach];
    const pad = 6;
    const left = -reach * U - pad;
    const extent = (2 * reach + 1) * U + 2 * pad;
    const root = svg("svg", {
      class: "kk-kingdom", viewBox: `${left} ${left} ${extent} ${extent}`, role: "group",
      "aria-label": opts.label || "a kingdom", onclick: opts.onBackground,
    });
    root.append(svg("rect", { x: left, y: left, width: extent, height: extent, rx: 10, class: "kk-kingdom-bg" }));
    const slots = svg("g", { class: "kk-slots" });
    for (let y = lo[1]; y <= hi[1]; y++) {
      for (let x = lo[0]; x <= hi[0]; x++) {
        if (!filled.has(`${x},${y}`)) slots.append(svg("rect", { x: x * U + 1.5, y: y * U + 1.5, width: U - 3, height: U - 3, rx: 3 }));
      }
    }
    root.append(slots);
    for (const { id, label, squares, cells } of dominoes) {
      root.append(dominoAt(m, squares, cells, { title: `domino ${label}`, "data-piece": `${opts.player === undefined ? "" : opts.player}:${id}` }));
    }
    root.append(svg("g", { class: "kk-castle", title: "the castle" },
      svg("rect", { x: 1, y: 1, width: U - 2, height: U - 2, rx: 4, fill: "#ddd5c2", stroke: "#6b5f45", "stroke-width": 1.2 }),
      use("castle", 3, 2, U - 6, U - 6, opts.colour)));
    if (opts.recent) {
      const [[x1, y1], [x2, y2]] = opts.recent;
      root.append(svg("rect", {
        class: "kk-recent", x: Math.min(x1, x2) * U - 1.5, y: Math.min(y1, y2) * U - 1.5,
        width: (Math.abs(x2 - x1) + 1) * U + 3, height: (Math.abs(y2 - y1) + 1) * U + 3, rx: 6,
      }));
    }
    for (const [index, cell] of realm.buildings || []) {
      const [x, y] = m.xy(cell);
      const info = opts.building ? opts.building(index) : { name: `building ${index}`, crowns: 0, towers: 0, text: "" };
      root.append(svg("g", { class: "kk-building", title: `${info.name}${info.text ? ": " + info.text : ""}` },
        svg("rect", { x: x * U + 5, y: y * U + 5, width: U - 10, height: U - 10, rx: 5, fill: "#fff8e8", stroke: "#5b3a1a", "stroke-width": 1.2 }),
        use("building", x * U + 9, y * U + (info.crowns ? 13 : 9), 22, 22),
        info.crowns ? crowns(info.crowns, x * U + 20 - info.crowns * 5.5, y * U + 3, 11) : null,
        info.towers ? use("tower", x * U + 26, y * U + 19, 10, 14) : null));
    }
    for (const cell of realm.knights || []) {
      const [x, y] = m.xy(cell);
      root.append(use("knight", x * U + U - 17, y * U + U - 19, 15, 17, opts.colour, { class: "kk-knight" }));
    }
    if (opts.suggest) {
      const [[x1, y1], [x2, y2]] = opts.suggest;
      root.append(svg("rect", {
        class: "kk-suggest", x: Math.min(x1, x2) * U - 2.5, y: Math.min(y1, y2) * U - 2.5,
        width: (Math.abs(x2 - x1) + 1) * U + 5, height: (Math.abs(y2 - y1) + 1) * U + 5, rx: 7,
      }, svg("title", { text: "the analyst's best placement" })));
    }
    for (const spot of opts.hot || []) {
      const group = svg("g", { class: `kk-target${spot.selected ? " kk-selected" : ""}${spot.hinted ? " kk-hinted" : ""}` },
        svg("rect", { x: spot.x * U + 3, y: spot.y * U + 3, width: U - 6, height: U - 6, rx: 5 }),
        spot.preview ? dominoAt(m, spot.preview.squares, spot.preview.cells, { class: "kk-domino kk-preview" }) : null,
        spot.icon ? use(spot.icon, spot.x * U + U - 17, spot.y * U + U - 19, 15, 17, opts.colour, { class: "kk-target-icon" }) : null,
        spot.badge ? text(spot.x * U + U / 2 - (spot.icon ? 4 : 0), spot.y * U + U / 2 - (spot.icon ? 3 : 0), spot.badge, { class: "kk-badge" }) : null);
      group.dataset.x = spot.x;
      group.dataset.y = spot.y;
      root.append(control(group, spot.label, spot.onClick, spot.key));
    }
    if (opts.ghost) {
      const ghost = opts.ghost;
      const group = dominoAt(m, ghost.squares, ghost.cells, { class: "kk-domino kk-ghost" });
      group.dataset.x = ghost.cells[0][0];
      group.dataset.y = ghost.cells[0][1];
      root.append(control(group, ghost.label, ghost.onClick, "ghost"));
    }
    root.addEventListener("keydown", arrows);
    return root;
  }

  /** A king: the player's colour, their seat number on it. */
  function king(player, x, y, seatLabel, colour, attrs = {}) {
    return svg("g", { class: "kk-king", title: seatLabel, ...attrs },
      use("king", x, y, 26, 32.5, colour),
      text(x + 13, y + 24.5, player + 1, { class: "kk-king-number" }));
  }

  /** Lay the lines across (each line a row, the kingdoms below them), or side by side as
   * columns (a phone)? Across wherever the board is wider than a phone (the page redraws
   * the board when the window is resized). */
  const wide = window.matchMedia("(min-width: 40.01rem)");
  function across() {
    return wide.matches;
  }

  /** The lines of dominoes: the one being placed (with its kings) and the new one.
   *
   * opts: placing: [{id, player, done, current, inKingdom}], line: [{id, player, claim}]
   * (claim: a legal action claiming it), colour(player), seatLabel(player), act(id),
   * across: each line a row, two rows always (the kingdoms below never move). */
  function linesSvg(m, opts) {
    const row = 48, head = 26, columnWidth = 148, gap = 18, title = 74, step = columnWidth + 12;
    const columns = [];
    if (opts.placing.length) columns.push(["placing", opts.placingTitle || "Placing"]);
    if (opts.line.length) columns.push(["line", opts.lineTitle || "New line"]);
    const count = Math.max(opts.placing.length, opts.line.length, 1);
    const width = opts.across
      ? title + count * step - 12
      : Math.max(1, columns.length) * columnWidth + (columns.length - 1) * gap;
    const height = opts.across ? 2 * row - 4 : head + count * row;
    const root = svg("svg", {
      class: `kk-lines${opts.across ? " kk-lines-across" : ""}`, viewBox: `-4 -2 ${width + 8} ${height + 4}`, role: "group",
      "aria-label": "the lines of dominoes", style: `max-width: ${Math.round((width + 8) * 1.15)}px`,
    });
    columns.forEach(([kind, caption], c) => {
      if (opts.across) root.append(text(0, c * row + 27, caption, { class: "kk-caption", "text-anchor": "start" }));
      else root.append(text(c * (columnWidth + gap) + 2, 11, caption, { class: "kk-caption", "text-anchor": "start" }));
      const items = kind === "placing" ? opts.placing : opts.line;
      items.forEach((item, i) => {
        const [x0, y0] = opts.across ? [title + i * step, c * row + 2] : [c * (columnWidth + gap), head + i * row];
        const d = item.squares ? { label: item.label, squares: item.squares } : m.domino(item.id);
        const group = svg("g", { "data-line": `${kind}:${item.id}`, class: "kk-line-item" + (item.current ? " kk-current" : "") + (item.done ? " kk-done" : "") });
        if (item.current) group.append(svg("rect", { class: "kk-current-bg", x: x0 - 3, y: y0 - 3, width: columnWidth + 6, height: U + 6, rx: 8 }));
        group.append(svg("rect", { class: "kk-number", x: x0, y: y0 + 8, width: 30, height: 24, rx: 6 }),
          text(x0 + 15, y0 + 20, d.label, { class: "kk-number-text" }));
        const dominoGroup = svg("g", { transform: `translate(${x0 + 34} ${y0})`, opacity: item.inKingdom ? 0.35 : 1 },
          dominoAt(m, d.squares, [[0, 0], [1, 0]]));
        group.append(dominoGroup);
        if (item.player !== null && item.player >= 0 && !item.done) {
          group.append(king(item.player, x0 + 120, y0 + 3, opts.seatLabel(item.player), opts.colour(item.player), { "data-king": String(item.id) }));
        }
        if (item.claim) {
          const hinted = opts.hint !== undefined && opts.hint !== null && opts.hint === item.claim.id;
          if (hinted) group.classList.add("kk-hinted");
          group.append(svg("rect", { class: "kk-claim", x: x0 + 32, y: y0 - 2, width: U * 2 + 4, height: U + 4, rx: 6 }));
          if (hinted) group.append(text(x0 + 32 + U * 2 + 2, y0 + 2, "★", { class: "kk-hint-star" }));
          control(group, `claim domino ${d.label}${hinted ? " (the analyst's best)" : ""}`, () => opts.act(item.claim.id), `claim:${item.id}`);
        } else {
          group.append(svg("title", { text: `domino ${d.label}` + (item.player >= 0 && item.player !== null ? `, ${opts.seatLabel(item.player)}` : "") }));
        }
        root.append(group);
      });
    });
    return root;
  }

  /** The legal placements of `squares` (the domino to place), by the cell square 1 takes:
   * a domino with two like squares is offered from either end. */
  function placements(legal, squares) {
    const anchors = new Map();
    let discard = null;
    const add = (a, b, action) => {
      const key = a.join();
      if (!anchors.has(key)) anchors.set(key, []);
      const list = anchors.get(key);
      if (!list.some((o) => same(o.b, b))) list.push({ id: action.id, a, b, label: action.label });
    };
    const faces = squares.map((q) => (Array.isArray(q) ? q.join() : `${q.terrain},${q.crowns}`));
    const symmetric = faces[0] === faces[1];
    for (const action of legal) {
      const move = action.move;
      if (move.kind === "discard") discard = action;
      if (move.kind !== "place") continue;
      const [a, b] = move.squares.map((q) => [q.x, q.y]);
      add(a, b, action);
      if (symmetric) add(b, a, action);
    }
    for (const list of anchors.values()) {
      list.sort((p, q) => DIRECTIONS.indexOf(`${p.b[0] - p.a[0]},${p.b[1] - p.a[1]}`) - DIRECTIONS.indexOf(`${q.b[0] - q.a[0]},${q.b[1] - q.a[1]}`));
    }
    return { anchors, discard };
  }

  /** Placing a domino by pointing: which squares light up, the ghost of the chosen
   * placement, the tools (turn, place, cancel, discard) and the keys (R, Enter, Escape). */
  function placer(ctx, dominoId, m) {
    const d = typeof dominoId === "object" ? dominoId : m.domino(dominoId);
    const keyboard = usingKeys();
    const tap = coarse() ? "tap" : "click";
    const { anchors, discard } = placements(ctx.view.legal, d.squares);
    const ui = ctx.ui;
    if (ui.sel && !anchors.has(ui.sel.anchor)) ui.sel = null;
    const options = ui.sel ? anchors.get(ui.sel.anchor) : null;
    const chosen = options ? options[ui.sel.index % options.length] : null;
    const play = () => { if (chosen) ctx.act(chosen.id); };
    const select = (key) => {
      if (ui.sel && ui.sel.anchor === key) play();
      else { ui.sel = { anchor: key, index: 0 }; ctx.redraw(); }
    };
    const rotate = () => {
      if (options && options.length > 1) { ui.sel.index = (ui.sel.index + 1) % options.length; ctx.redraw(); }
    };
    const cancel = () => { if (ui.sel) { ui.sel = null; ctx.redraw(); } };
    // The analyst's best placement (a hint), if it is one of these.
    let suggest = null, hintedAnchor = null;
    for (const [key, list] of anchors) {
      const found = list.find((o) => o.id === ctx.hint);
      if (found && !suggest) { suggest = [found.a, found.b]; hintedAnchor = key; }
    }
    const hot = [...anchors.keys()].map((key) => {
      const [x, y] = key.split(",").map(Number);
      return {
        x, y, key: `a:${key}`, selected: ui.sel && ui.sel.anchor === key, onClick: () => select(key), hinted: key === hintedAnchor,
        badge: key === hintedAnchor && !chosen ? "★" : null,
        preview: chosen ? null : { cells: [anchors.get(key)[0].a, anchors.get(key)[0].b], squares: d.squares },
        label: `domino ${d.label}: its first square ${where(x, y)}` + (ui.sel && ui.sel.anchor === key ? " (selected: press again to place)" : ""),
      };
    });
    const ghost = chosen && {
      cells: [chosen.a, chosen.b],
      squares: d.squares,
      label: `place domino ${d.label} ${where(...chosen.a)} and ${where(...chosen.b)}`,
      onClick: play,
    };
    const tools = [];
    let prompt;
    if (chosen) {
      prompt = keyboard
        ? `Domino ${d.label}: ${options.length > 1 ? "turn it (R), " : ""}place it (Enter), or cancel (Esc).`
        : `Domino ${d.label}: ${options.length > 1 ? "turn it, " : ""}place it (${tap} it again), or cancel.`;
      const turn = button(keyboard ? "⟳ Turn (R)" : "⟳ Turn", rotate, { "aria-keyshortcuts": "R", "data-key": "tool:turn" });
      turn.disabled = options.length < 2;
      tools.push(turn, button(keyboard ? "✓ Place (Enter)" : "✓ Place", play, { "aria-keyshortcuts": "Enter", class: "kk-tool kk-primary", "data-key": "tool:place" }),
        button(keyboard ? "Cancel (Esc)" : "Cancel", cancel, { class: "kk-tool secondary", "aria-keyshortcuts": "Escape", "data-key": "tool:cancel" }));
    } else if (anchors.size) {
      prompt = keyboard
        ? `Place domino ${d.label}: choose a highlighted square for its first square (arrow keys, Enter).`
        : `Place domino ${d.label}: ${tap} a highlighted square for its first square.`;
    } else if (discard) {
      prompt = `Domino ${d.label} fits nowhere in your kingdom: it must be discarded.`;
    }
    if (discard) tools.push(button(`Discard domino ${d.label}`, () => ctx.act(discard.id), { class: "kk-tool kk-danger" }));
    const keys = (event) => {
      const k = event.key;
      if ((k === "r" || k === "R") && chosen) { rotate(); return true; }
      if (k === "Enter" && chosen) { play(); return true; }
      if (k === "Escape" && ui.sel) { cancel(); return true; }
      return false;
    };
    if (suggest && !chosen) prompt += " ★ marks the analyst's best placement.";
    if (discard && discard.id === ctx.hint) prompt += " (The analyst would discard it.)";
    return { hot, ghost, tools, prompt, keys, cancel, active: anchors.size > 0, suggest: chosen ? null : suggest };
  }

  /** A player card: a header (colour, name, details) over the drawing of their kingdom. */
  function card({ colour, title, details = [], toAct = false, mine = false, drawing }) {
    return html("section", { class: `kk-card${toAct ? " kk-to-act" : ""}${mine ? " kk-mine" : ""}` },
      html("header", { class: "kk-card-head" },
        html("strong", { class: "kk-card-title" }, html("span", { class: "kk-chip", style: `background:${colour}` }), " ", title),
        toAct ? html("span", { class: "kk-turn-tag", text: "to play" }) : null,
        html("span", { class: "kk-details" }, ...details)),
      drawing);
  }

  /** Seats in the order to show them: yours first, then the others round the table. */
  function seatOrder(count, you) {
    const start = you === null || you === undefined ? 0 : you;
    return Array.from({ length: count }, (_, i) => (start + i) % count);
  }

  /** Words for a square relative to the castle ("2 right, 1 up of the castle"). */
  function where(x, y) {
    const parts = [];
    if (x) parts.push(`${Math.abs(x)} ${x > 0 ? "right" : "left"}`);
    if (y) parts.push(`${Math.abs(y)} ${y > 0 ? "down" : "up"}`);
    return parts.length ? `${parts.join(", ")} of the castle` : "on the castle";
  }

  /** Is the keyboard in use? The last input was a key, or (before any) a fine pointer. */
  let lastInput = null;
  let onKeys = null; // the board's redraw: its prompt names keys once a key is pressed
  document.addEventListener("keydown", (event) => {
    if (event.key === "Shift" || lastInput === "key") return;
    const was = usingKeys();
    lastInput = "key";
    // Now, not in a timer: a page in the background has its timers held back for up to a
    // second. The focus is kept across the redraw, so the key's own work (Tab) follows.
    if (!was && onKeys) onKeys();
  }, true);
  document.addEventListener("pointerdown", (event) => { lastInput = event.pointerType === "mouse" ? "mouse" : "touch"; }, true);
  function coarse() {
    return lastInput === "touch" || (lastInput === null && window.matchMedia("(pointer: coarse)").matches);
  }
  /** The function that redraws the board when the keyboard comes into use. */
  function whenKeys(redraw) {
    onKeys = redraw;
  }
  function usingKeys() {
    return lastInput === "key" || (lastInput === null && !coarse());
  }

  /** Arrow keys move the focus across a kingdom's squares in space order: to the nearest
   * control in that direction (closest along it first, then least off to the side). */
  const STEPS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
  function arrows(event) {
    const step = STEPS[event.key];
    const from = event.target.closest && event.target.closest("[data-x]");
    if (!step || !from || event.ctrlKey || event.metaKey || event.altKey) return;
    const [x0, y0] = [Number(from.dataset.x), Number(from.dataset.y)];
    let best = null, bestCost = Infinity;
    for (const node of event.currentTarget.querySelectorAll(".kk-hot[data-x]")) {
      if (node === from) continue;
      const dx = Number(node.dataset.x) - x0, dy = Number(node.dataset.y) - y0;
      const along = dx * step[0] + dy * step[1];
      if (along <= 0) continue;
      const aside = Math.abs(dx * step[1]) + Math.abs(dy * step[0]);
      const cost = along + 2 * aside;
      if (cost < bestCost) { best = node; bestCost = cost; }
    }
    event.preventDefault();
    event.stopPropagation();
    if (best) best.focus();
  }


  /** Opponents' moves animated, from one view model to the next: the domino slides from the
   * line into its kingdom, then the king moves to the domino it claimed. Each step is short
   * (DURATION), steps queue one after another across versions (a bot's placement, then its
   * claim), any click or key ends them all at once, and nothing is ever blocked: the board is
   * drawn in its final state and only its look moves (Web Animations on the SVG). */
  const DURATION = 350;
  const motion = { key: null, before: null, queue: [], running: [] };
  const still = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function skipMotion() {
    motion.queue = [];
    for (const a of motion.running) { try { a.finish(); } catch (e) { /* gone */ } }
    motion.running = [];
  }
  document.addEventListener("pointerdown", skipMotion, true);
  document.addEventListener("keydown", skipMotion, true);

  /** The moves between two models: [{kind: "slide" | "king", player, domino}], in play order. */
  function changes(before, after) {
    const steps = [];
    after.kingdoms.forEach((k, p) => {
      const had = new Set(before.kingdoms[p] ? before.kingdoms[p].pieces.map((x) => x.domino) : []);
      for (const piece of k.pieces) if (!had.has(piece.domino)) steps.push({ kind: "slide", player: p, domino: piece.domino });
    });
    const free = new Set(before.lines.new.filter((i) => i.king === null).map((i) => i.domino));
    const claims = [...after.lines.new, ...after.lines.placing]
      .filter((i) => i.king !== null && free.has(i.domino))
      .map((i) => ({ kind: "king", player: i.king, domino: i.domino }));
    const order = [];
    for (const slide of steps) {
      order.push(slide);
      const i = claims.findIndex((c) => c.player === slide.player);
      if (i >= 0) order.push(...claims.splice(i, 1));
    }
    return [...order, ...claims];
  }

  function centre(node) {
    const r = node.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2, r.width];
  }

  /** Animate `node` (an SVG group) from where `from` is on screen (or, without it, falling in). */
  function glide(node, from, start) {
    const now = performance.now();
    const [tx, ty, tw] = centre(node);
    const ctm = node.ownerSVGElement && node.ownerSVGElement.getScreenCTM();
    const scale = ctm && ctm.a ? ctm.a : 1;
    node.style.cssText += ";transform-box: fill-box; transform-origin: center;";
    let frames;
    if (from && tw) {
      const [fx, fy, fw] = from;
      const k = fw ? Math.max(0.5, Math.min(2, fw / tw)) : 1;
      frames = [{ transform: `translate(${(fx - tx) / scale}px, ${(fy - ty) / scale}px) scale(${k})` }, { transform: "none" }];
    } else {
      frames = [{ transform: `translate(0px, ${-U}px)`, opacity: 0 }, { transform: "none", opacity: 1 }];
    }
    const animation = node.animate(frames, { duration: DURATION, delay: start - now, easing: "ease-out", fill: "backwards" });
    motion.running.push(animation);
    animation.finished.then(() => { motion.running = motion.running.filter((a) => a !== animation); }, () => {});
  }

  /** After a board is drawn in `root` from `model`: queue the opponents' moves since the last
   * model of this table (not `you`'s own) and play what is queued on the new drawing. */
  function animate(root, model, { table, you }) {
    const now = performance.now();
    if (motion.key !== table || !motion.before) {
      motion.key = table;
      motion.before = model;
      motion.queue = [];
      return;
    }
    const before = motion.before;
    motion.before = model;
    motion.queue = motion.queue.filter((step) => step.start + DURATION > now);
    if (still()) { motion.queue = []; return; }
    const fresh = before === model ? [] : changes(before, model).filter((step) => step.player !== you);
    if (fresh.length > 8) return; // a jump (a replay moved far, a reconnection): no film
    let next = motion.queue.length ? motion.queue[motion.queue.length - 1].start + DURATION : now;
    for (const step of fresh) {
      const kept = motion.queue.find((q) => q.kind === step.kind && q.domino === step.domino);
      if (kept) continue;
      motion.queue.push({ ...step, start: next });
      next += DURATION;
    }
    for (const step of motion.queue) {
      const line = (kind) => root.querySelector(`[data-line="${kind}:${step.domino}"]`);
      if (step.kind === "slide") {
        const node = root.querySelector(`[data-piece="${step.player}:${step.domino}"]`);
        const source = line("placing");
        const box = source && source.querySelector(".kk-domino");
        if (node) glide(node, box ? centre(box) : null, step.start);
      } else {
        const node = root.querySelector(`[data-king="${step.domino}"]`);
        // The king comes from the domino its owner just placed, if the line still shows it.
        const slide = motion.queue.find((q) => q.kind === "slide" && q.player === step.player && q.start < step.start);
        const source = slide && root.querySelector(`[data-line="placing:${slide.domino}"]`);
        let from = null;
        if (source) { const r = source.getBoundingClientRect(); from = [r.right - 16, r.top + r.height / 2, 0]; }
        if (node) glide(node, from, step.start);
      }
    }
  }

  KK.kd = { U, model, across, where, animate, skipMotion, changes, usingKeys, coarse, whenKeys, square, dominoAt, kingdomSvg, linesSvg, placements, placer, card, seatOrder, king };
})();
