// The table page's settings, kept in this browser (localStorage): confirm each move before it
// is sent, a sound and a notification when it becomes your turn (both off by default; the
// notification only while the tab is hidden). The tab's title says when it is your turn.
"use strict";

(() => {
  const KEYS = { confirm: "kingdomkit:confirm-moves", sound: "kingdomkit:turn-sound", notify: "kingdomkit:turn-notify" };
  let wasMine = null; // was it your turn at the last view (null: no view yet)
  let audio = null;

  function on(name) {
    return localStorage.getItem(KEYS[name]) === "yes";
  }

  function set(name, value) {
    localStorage.setItem(KEYS[name], value ? "yes" : "no");
  }

  /** A game's name as it is printed (the view's `names`, from the game). */
  function gameName(view) {
    if (!view) return "kingdomkit";
    return (view.names && view.names.game) || view.game[0].toUpperCase() + view.game.slice(1);
  }

  /** A short two-note chime, made here (no sound file to fetch). */
  function chime() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const now = audio.currentTime;
      [660, 880].forEach((pitch, i) => {
        const tone = audio.createOscillator();
        const gain = audio.createGain();
        tone.frequency.value = pitch;
        gain.gain.setValueAtTime(0.0001, now + i * 0.16);
        gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.16 + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.16 + 0.3);
        tone.connect(gain).connect(audio.destination);
        tone.start(now + i * 0.16);
        tone.stop(now + i * 0.16 + 0.32);
      });
    } catch (e) { /* no sound here: the title still says it */ }
  }

  function notify(view) {
    if (!("Notification" in window) || Notification.permission !== "granted" || !document.hidden) return;
    try {
      const note = new Notification(`Your turn — ${gameName(view)}`, { body: "It is your turn to play.", tag: "kingdomkit-turn" });
      note.onclick = () => { window.focus(); note.close(); };
    } catch (e) { /* some browsers only notify from a service worker */ }
  }

  /** Say in the tab's title whether it is your turn; chime and notify (if chosen) when it
   * becomes your turn. */
  function turn(view, mine) {
    const name = gameName(view);
    document.title = mine ? `▶ Your turn — ${name}` : `${name} — kingdomkit`;
    if (mine && wasMine === false) {
      if (on("sound")) chime();
      if (on("notify")) notify(view);
    }
    wasMine = mine;
  }

  function notifyNote(text) {
    const note = $("set-notify-note");
    note.hidden = !text;
    note.textContent = text || "";
  }

  function init() {
    const confirm = $("set-confirm"), sound = $("set-sound"), notifying = $("set-notify");
    confirm.checked = on("confirm");
    sound.checked = on("sound");
    notifying.checked = on("notify") && "Notification" in window && Notification.permission === "granted";
    confirm.addEventListener("change", () => set("confirm", confirm.checked));
    sound.addEventListener("change", () => {
      set("sound", sound.checked);
      if (sound.checked) chime(); // what it sounds like (and the browser allows it after a click)
    });
    notifying.addEventListener("change", async () => {
      set("notify", notifying.checked);
      notifyNote("");
      if (!notifying.checked) return;
      if (!("Notification" in window)) { notifying.checked = false; set("notify", false); notifyNote("This browser cannot show notifications."); return; }
      const answer = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
      if (answer !== "granted") {
        notifying.checked = false;
        set("notify", false);
        notifyNote("Notifications are blocked for this site: allow them in the browser's site settings.");
      }
    });
  }

  KKP.signals = { init, turn, confirming: () => on("confirm"), gameName };
})();
