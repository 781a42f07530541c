// The table's chat: the last messages (GET /api/tables/{id}/chat), new ones as the table's
// WebSocket brings them, and a line to write one (POST .../chat). Seated players write under
// their seat's name; spectators once they have given a name, marked "watching". Every text is
// shown as text (textContent), never as markup. Muting a person hides their messages for you
// only: the muted authors are kept in this browser (localStorage), by the author key the
// server gives each person.
"use strict";

(() => {
  const MUTED_KEY = "kingdomkit:chat-muted";
  const KEPT = 200; // messages kept on the page
  let tableId = null;
  let messages = [];
  let you = null; // your author key
  let hooks = { colour: () => "transparent" };

  function muted() {
    try { return JSON.parse(localStorage.getItem(MUTED_KEY) || "{}") || {}; } catch (e) { return {}; }
  }

  function setMuted(author, name) {
    const all = muted();
    if (name === null) delete all[author]; else all[author] = name;
    localStorage.setItem(MUTED_KEY, JSON.stringify(all));
    draw();
  }

  function draw() {
    const list = $("chat-list");
    const silenced = muted();
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
    const shown = messages.filter((m) => !(m.author in silenced));
    list.replaceChildren(...shown.map((m) => el("li", { class: `chat-item${m.author === you ? " mine" : ""}`, "data-author": m.author }, ...parts(m))));
    if (atEnd || list.dataset.first !== "no") list.scrollTop = list.scrollHeight;
    list.dataset.first = "no";
    const names = Object.entries(silenced).filter(([author]) => messages.some((m) => m.author === author));
    const note = $("chat-muted");
    note.hidden = !names.length;
    note.replaceChildren(...(names.length ? ["Muted (for you only): ", ...names.flatMap(([author, name], i) => [
      i ? ", " : "", name, " ",
      el("button", { type: "button", class: "chat-unmute", "aria-label": `unmute ${name}`, text: "unmute", onclick: () => setMuted(author, null) }),
    ])] : []));
  }

  function parts(message) {
    const chip = message.seat !== null && message.seat !== undefined
      ? el("span", { class: "kk-chip", style: `background:${hooks.colour(message.seat)}` }) : null;
    const found = [el("span", { class: "chat-name" }, chip, message.name)];
    if (message.spectator) found.push(el("span", { class: "chat-tag", title: "not seated at this table", text: "watching" }));
    found.push(el("span", { class: "chat-text", text: message.text }));
    if (message.author !== you) {
      found.push(el("button", { type: "button", class: "chat-mute", title: `hide ${message.name}'s messages (only for you)`,
        "aria-label": `mute ${message.name}`, text: "mute", onclick: () => setMuted(message.author, message.name) }));
    }
    return found;
  }

  /** Take a message the socket brought (once: a reload may bring it again). */
  function add(message) {
    if (messages.some((m) => m.id === message.id)) return;
    messages.push(message);
    messages = messages.slice(-KEPT);
    draw();
  }

  function allow(mayWrite, limit) {
    $("chat-text").disabled = !mayWrite;
    $("chat-send").disabled = !mayWrite;
    if (limit) $("chat-text").maxLength = limit;
    const note = $("chat-note");
    note.hidden = mayWrite;
    note.textContent = limit === 0 ? "This server has no chat." : "To chat, type your name in “Your name” at the top.";
  }

  /** Load the last messages and whether you may write (again after a reconnection or a new
   * name). */
  async function load() {
    try {
      const chat = await api("GET", `/api/tables/${tableId}/chat`);
      you = chat.you;
      const known = new Set(chat.messages.map((m) => m.id));
      messages = [...chat.messages, ...messages.filter((m) => !known.has(m.id) && m.id > (chat.messages.at(-1) || { id: -1 }).id)];
      allow(chat.may_write, chat.limit);
      draw();
    } catch (e) { /* the table's own error is shown by the page */ }
  }

  async function send(event) {
    event.preventDefault();
    const input = $("chat-text");
    const text = input.value.trim();
    if (!text) return;
    try {
      const said = await api("POST", `/api/tables/${tableId}/chat`, { text });
      input.value = "";
      $("chat-note").hidden = true;
      add(said);
    } catch (e) {
      const note = $("chat-note");
      note.hidden = false;
      note.textContent = e.message;
    }
  }

  function init(id, given) {
    tableId = id;
    hooks = { ...hooks, ...given };
    $("chat-form").addEventListener("submit", send);
    load();
  }

  KKP.chat = { init, add, load, muted };
})();
