// The lobby's account box (docs/web.md, "Accounts"): optional; a guest plays by link as before.
//
// Signed out: sign in, or make an account, each refused value shown beside its field. Signed in: the
// seats this browser holds are bound to the account (their links then work only where it is signed
// in), the account's data to download, a new password, deletion, sign out. The session is an HttpOnly
// cookie no script reads; changes carry the CSRF token the server gives with it.

import { api, seats } from "./api.js";
import { el, clear, $, toast } from "./ui.js";
import { blockedPlayers } from "./blocks.js";

const state = { account: null, csrf: null, onChange: () => {}, reset: null };

/** Ask who is signed in and wire the top bar's button; ``onChange`` runs after a sign-in or out. */
export async function initAccount(onChange) {
  state.onChange = onChange;
  const button = $("#account-button");
  button.addEventListener("click", () => show($("#account-box").hidden));
  try {
    remember(await api.account());
  } catch {
    /* the server unreachable: the lobby says so; the button stays "Sign in" */
  }
  window.addEventListener("hashchange", takeResetLink);
  if (takeResetLink()) return;
  // Opened while the answer was on its way (a slow server), the box shows the forms, perhaps half
  // filled in: drawn again only if the answer changed it (signed in), never under a typing hand.
  if ($("#account-box").hidden || state.account) render();
}

/** /#reset=TOKEN: the e-mail's link to choose a new password (a fragment: never sent to a server),
 * taken out of the address bar at once. */
function takeResetLink() {
  const reset = /reset=([\w-]+)/.exec(location.hash);
  if (!reset) return false;
  state.reset = reset[1];
  history.replaceState(null, "", location.pathname + location.search);
  show(true);
  return true;
}

function remember(answer) {
  state.account = answer.account || null;
  state.csrf = answer.csrf || null;
  const button = $("#account-button");
  button.textContent = state.account ? state.account.name : "Sign in";
  button.title = state.account ? "Your account" : "Sign in or make an account (optional)";
}

function show(open) {
  const box = $("#account-box");
  box.hidden = !open;
  $("#account-button").setAttribute("aria-expanded", String(open));
  if (open) {
    render();
    reveal();
    const first = box.querySelector("input");
    if (first) first.focus({ preventScroll: true });
  }
}

/** The box's top in sight (below the top bar: its scroll-margin), after it was drawn anew. */
function reveal() {
  $("#account-box").scrollIntoView({ block: "start", behavior: "smooth" });
}

const sentence = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function render() {
  const box = $("#account-box");
  clear(box);
  const close = el("button", { type: "button", class: "btn btn-small btn-ghost account-close", text: "Close", "aria-label": "Close the account box" });
  close.addEventListener("click", () => show(false));
  box.append(el("div", { class: "account-head" }, el("h2", { id: "account-title", text: "Your account" }), close));
  if (state.reset) renderReset(box);
  else if (state.account) renderSignedIn(box);
  else renderSignedOut(box);
}

function renderReset(box) {
  const form = accountForm(
    "reset",
    "Choose a new password",
    [field("reset", "new_password", "New password", { type: "password", autocomplete: "new-password", required: true, maxlength: "256" }, "8 to 256 characters; your other sessions are signed out")],
    "Set the password",
    async (values) => {
      const answer = await api.finishReset(state.reset, values.new_password);
      state.reset = null;
      await signedIn(answer, "Your password is changed");
    },
  );
  const back = el("button", { type: "button", class: "btn btn-small btn-ghost", text: "Sign in or ask for another link" });
  back.addEventListener("click", () => {
    state.reset = null;
    render();
  });
  box.append(form, back);
}

// -- signed out: sign in, or make an account ----------------------------------------------------------
function field(form, name, label, attrs, hint = "") {
  const id = `${form}-${name}`;
  const input = el("input", { id, name, "aria-describedby": `${id}-error`, ...attrs });
  return el(
    "label",
    { class: "field", for: id },
    el("span", { text: label }),
    input,
    hint ? el("span", { class: "desc", text: hint }) : null,
    el("span", { class: "field-error", id: `${id}-error`, "aria-live": "polite" }),
  );
}

function accountForm(id, title, fields, submitText, send) {
  const error = el("p", { class: "form-error", id: `${id}-error`, "aria-live": "polite" });
  const submit = el("button", { type: "submit", class: "btn btn-primary", text: submitText });
  const form = el("form", { id, class: "account-form", novalidate: true }, el("h3", { text: title }), ...fields, error, submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    const values = Object.fromEntries(new FormData(form).entries());
    submit.disabled = true;
    try {
      await send(values);
    } catch (err) {
      showError(form, id, err);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

function clearErrors(form) {
  for (const node of form.querySelectorAll(".field-error, .form-error")) node.textContent = "";
  for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
}

function showError(form, id, err) {
  const input = err.field ? form.querySelector(`#${id}-${err.field}`) : null;
  if (input) {
    input.setAttribute("aria-invalid", "true");
    form.querySelector(`#${id}-${err.field}-error`).textContent = sentence(err.message);
    input.focus();
  } else {
    form.querySelector(`#${id}-error`).textContent = sentence(err.message);
  }
}

function renderSignedOut(box) {
  box.append(
    el("p", { class: "muted", text: "Optional: you can play by link as a guest. With an account your games are bound to you: their links work only where you are signed in, so a link that gets out is no use to anyone else." }),
  );
  const signIn = accountForm(
    "sign-in",
    "Sign in",
    [
      field("sign-in", "name", "Name", { type: "text", autocomplete: "username", required: true, maxlength: "200" }),
      field("sign-in", "password", "Password", { type: "password", autocomplete: "current-password", required: true, maxlength: "256" }),
    ],
    "Sign in",
    async (values) => signedIn(await api.signIn({ name: values.name, password: values.password }), "Signed in"),
  );
  const signUp = accountForm(
    "sign-up",
    "Make an account",
    [
      field("sign-up", "name", "Name", { type: "text", autocomplete: "username", required: true, maxlength: "200" }, "3 to 24 letters and digits; shown to other players"),
      field("sign-up", "password", "Password", { type: "password", autocomplete: "new-password", required: true, maxlength: "256" }, "8 to 256 characters"),
      field("sign-up", "email", "E-mail (optional)", { type: "email", autocomplete: "email", maxlength: "300" }, "never shown to anyone: for notifications and a forgotten password"),
    ],
    "Make an account",
    async (values) => signedIn(await api.signUp({ name: values.name, password: values.password, email: values.email || null }), "Welcome"),
  );
  const forgot = accountForm(
    "forgot",
    "A forgotten password",
    [field("forgot", "name", "Your account's name", { type: "text", autocomplete: "username", required: true, maxlength: "200" }, "a link comes by e-mail, if the account has an address")],
    "Send me a link",
    async (values) => {
      const answer = await api.askReset(values.name);
      toast(answer.message, "ok", 10000);
    },
  );
  const forgotten = el("details", { class: "more account-fold" }, el("summary", { text: "Forgot your password?" }), forgot);
  box.append(el("div", { class: "account-forms" }, el("div", { class: "account-column" }, signIn, forgotten), signUp));
}

async function signedIn(answer, greeting) {
  remember(answer);
  const bound = await bindHeld();
  const games = bound === 1 ? "1 game is" : `${bound} games are`;
  toast(`${greeting}, ${state.account.name}.${bound ? ` ${games} now bound to your account.` : ""}`, "ok", 8000);
  render();
  reveal();
  state.onChange();
}

/** Who is signed in here ({account, csrf}), or null. */
export function currentAccount() {
  return state.account ? { account: state.account, csrf: state.csrf } : null;
}

/** Open the account box (to sign in or make an account). */
export function openAccount() {
  show(true);
}

/** After a game is made or joined: its seat bound to the account, when one is signed in. */
export async function bindIfSignedIn() {
  if (state.account) await bindHeld();
}

/** The seats this browser holds, bound to the account: how many were (a seat of another account, a
 * link that does not work: left as they are). */
async function bindHeld() {
  const held = seats.all().filter((s) => s.mine && s.token).map((s) => ({ game: s.game, token: s.token }));
  if (!held.length) return 0;
  try {
    const answer = await api.bindSeats(state.csrf, held.slice(-200));
    return answer.seats.filter((line) => !line.error).length;
  } catch (err) {
    toast(`Your games could not be bound to your account now: ${err.message}`, "error", 8000);
    return 0;
  }
}

// -- signed in ------------------------------------------------------------------------------------
function renderSignedIn(box) {
  const account = state.account;
  const signOut = el("button", { type: "button", class: "btn", id: "sign-out", text: "Sign out" });
  signOut.addEventListener("click", async () => {
    try {
      remember(await api.signOut(state.csrf));
      toast("Signed out.", "ok");
      render();
      reveal();
      state.onChange();
    } catch (err) {
      toast(err.message, "error");
    }
  });
  const download = el("a", { class: "btn", id: "account-export", href: "/api/account/export", download: "risk-account.json", text: "Download my data" });
  const profile = el("a", { class: "btn", id: "account-profile", href: `/players/${encodeURIComponent(account.name)}`, text: "My profile and ratings" });
  box.append(
    el(
      "p",
      {},
      "Signed in as ",
      el("strong", { id: "account-name", text: account.name }),
      account.email ? el("span", { class: "muted", text: ` (${account.email}, never shown to others)` }) : null,
      ".",
    ),
    el("p", { class: "muted", text: "The games this browser holds are bound to your account: their links work where you are signed in." }),
    el("div", { class: "row wrap account-actions" }, profile, download, signOut),
  );
  const newPassword = accountForm(
    "new-password",
    "A new password",
    [
      field("new-password", "password", "Your password now", { type: "password", autocomplete: "current-password", required: true, maxlength: "256" }),
      field("new-password", "new_password", "New password", { type: "password", autocomplete: "new-password", required: true, maxlength: "256" }, "8 to 256 characters; your other sessions are signed out"),
    ],
    "Change the password",
    async (values) => {
      await api.newPassword(state.csrf, { password: values.password, new_password: values.new_password });
      toast("The password is changed; your other sessions are signed out.", "ok", 8000);
      render();
    },
  );
  const remove = accountForm(
    "delete-account",
    "Delete the account",
    [field("delete-account", "password", "Your password", { type: "password", autocomplete: "current-password", required: true, maxlength: "256" }, "your games stay, played by \"deleted player\"")],
    "Delete my account",
    async (values) => {
      remember(await api.deleteAccount(state.csrf, values.password));
      toast("Your account is deleted.", "ok", 8000);
      render();
      reveal();
      state.onChange();
    },
  );
  remove.querySelector("button[type=submit]").className = "btn btn-danger";
  box.append(
    blockedPlayers(state.csrf),
    el("details", { class: "more account-fold" }, el("summary", { text: "Change the password" }), newPassword),
    el("details", { class: "more account-fold" }, el("summary", { text: "Delete the account" }), remove),
  );
}
