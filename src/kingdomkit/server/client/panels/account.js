// Accounts, in the header: sign up, sign in, change the password, sign out. A guest plays under a name kept in a
// cookie; an account keeps its seats and has a rating per game. Signing in or out reloads the
// page, so that every panel shows the seats of who you are now.
"use strict";

(() => {
  let mode = "in"; // "in": sign in, "up": make an account, "password": change the password
  const TITLES = {
    in: ["Sign in", "Sign in", "Sign in with your account's name and password."],
    up: ["Create an account", "Create the account", "An account keeps your seats and a rating per game. Choose a name nobody has and a password of 8 characters or more that is not a common one; the seats you took as a guest become the account's."],
    password: ["Change your password", "Change the password", "Type your password now, then the new one (8 characters or more, not a common one). You stay signed in here; everywhere else you are signed out."],
  };

  /** A refusal, in the page's error box and in the form (which may cover the box). */
  function refuse(message) {
    showError(message);
    $("account-error").textContent = message || "";
    $("account-error").hidden = !message;
  }

  function open(which) {
    mode = which;
    const form = $("account-form");
    form.hidden = false;
    const [title, submit, note] = TITLES[which];
    $("account-title").textContent = title;
    $("account-submit").textContent = submit;
    $("account-note").textContent = note;
    $("account-password").setAttribute("autocomplete", which === "up" ? "new-password" : "current-password");
    $("account-password-label").textContent = which === "password" ? "Current password" : "Password";
    $("account-name-label").hidden = which === "password";
    $("account-password").closest("label").hidden = false;
    $("account-submit").hidden = false;
    $("account-cancel").textContent = "Cancel";
    $("account-new-label").hidden = which !== "password";
    if (which === "password") { $("account-password").focus(); return; }
    if (!$("account-name").value) $("account-name").value = $("me-name").value;
    $("account-name").focus();
  }

  function close() {
    refuse("");
    $("account-form").hidden = true;
    $("account-password").value = "";
    $("account-new").value = "";
  }

  async function changePassword() {
    const current = $("account-password").value;
    const fresh = $("account-new").value;
    if (!current) { refuse("Type your password now."); $("account-password").focus(); return; }
    if (fresh.length < 8) { refuse("A new password has at least 8 characters."); $("account-new").focus(); return; }
    $("account-submit").disabled = true;
    try {
      const done = await api("POST", "/api/password", { current, new: fresh });
      const others = done.sessions_ended;
      refuse("");
      $("account-password").value = "";
      $("account-new").value = "";
      $("account-submit").hidden = true;
      $("account-cancel").textContent = "Close";
      $("account-password").closest("label").hidden = true;
      $("account-new-label").hidden = true;
      $("account-note").textContent = `Your password is changed.${others ? ` ${others} other session${others === 1 ? " was" : "s were"} signed out.` : ""}`;
    } catch (e) {
      refuse(e.status === 403 && /current/.test(e.message) ? "Your current password is not that one." : e.message);
      $("account-password").select();
    } finally {
      $("account-submit").disabled = false;
    }
  }

  async function submit(event) {
    event.preventDefault();
    if (mode === "password") { await changePassword(); return; }
    const name = $("account-name").value.trim();
    const password = $("account-password").value;
    if (!name) { refuse("Type the account's name."); $("account-name").focus(); return; }
    if (mode === "up" && password.length < 8) { refuse("A password has at least 8 characters."); $("account-password").focus(); return; }
    if (!password) { refuse("Type the password."); $("account-password").focus(); return; }
    $("account-submit").disabled = true;
    try {
      await api("POST", mode === "up" ? "/api/accounts" : "/api/login", { name, password });
      refuse("");
      location.reload();
    } catch (e) {
      const words = e.status === 409 ? `${e.message} Choose another name, or sign in if it is yours.`
        : e.status === 401 ? "Unknown name or wrong password." : e.message;
      refuse(words);
      $("account-password").select();
    } finally {
      $("account-submit").disabled = false;
    }
  }

  async function signOut() {
    try { await api("POST", "/api/logout"); location.reload(); } catch (e) { showError(e.message); }
  }

  /** Show who you are (`me` from GET /api/me) and wire the buttons. */
  function init(me) {
    const account = Boolean(me.account);
    $("account-state").textContent = account ? "account" : "guest";
    $("account-state").className = `badge ${account ? "badge-account" : "badge-guest"}`;
    $("account-state").title = account ? "you are signed in: your games count for the ratings" : "you play as a guest";
    $("sign-in").hidden = account;
    $("sign-up").hidden = account;
    $("sign-out").hidden = !account;
    $("change-password").hidden = !account;
    $("me-name").readOnly = account;
    $("me-name").title = account ? "the name of your account" : "the name others see";
    $("sign-in").addEventListener("click", () => open("in"));
    $("sign-up").addEventListener("click", () => open("up"));
    $("sign-out").addEventListener("click", signOut);
    $("change-password").addEventListener("click", () => open("password"));
    $("account-cancel").addEventListener("click", close);
    $("account-form").addEventListener("submit", submit);
    $("account-form").addEventListener("keydown", (event) => { if (event.key === "Escape") close(); });
  }

  KKP.account = { init };
})();
