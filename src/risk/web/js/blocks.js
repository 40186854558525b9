// "Blocked players", in the lobby's account box (docs/web.md, "Fair play"): the players this account
// blocked (their chat hidden in every game; never seated at one table with you), each with "Unblock",
// and a form to block one by name, its refusal said beside the field.

import { api } from "./api.js";
import { clear, el, toast } from "./ui.js";

const sentence = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** The section, filled once the list comes; ``csrf``: the session's token (changes carry it). */
export function blockedPlayers(csrf) {
  const list = el("ul", { class: "blocked-list", id: "blocked-list" });
  const box = el(
    "details",
    { class: "more account-fold", id: "blocked-players" },
    el("summary", { text: "Blocked players" }),
    el("p", { class: "muted", text: "A player you block: their chat is hidden from you in every game, and neither of you can take a seat where the other sits." }),
    list,
    blockForm(csrf, list),
  );
  load(list, csrf);
  return box;
}

async function load(list, csrf) {
  try {
    draw(list, csrf, (await api.blocks()).blocked);
  } catch (err) {
    clear(list).append(el("li", { class: "form-error", text: err.message }));
  }
}

function draw(list, csrf, blocked) {
  clear(list);
  if (!blocked.length) list.append(el("li", { class: "muted", id: "blocked-none", text: "Nobody." }));
  for (const player of blocked) {
    const error = el("span", { class: "field-error", "aria-live": "polite" });
    const unblock = el("button", { type: "button", class: "btn btn-small btn-ghost", text: "Unblock", "aria-label": `Unblock ${player.name}` });
    unblock.addEventListener("click", async () => {
      unblock.disabled = true;
      try {
        draw(list, csrf, (await api.unblock(csrf, player.name)).blocked);
        toast(`${player.name} is unblocked.`, "ok");
      } catch (err) {
        error.textContent = sentence(err.message);
        unblock.disabled = false;
      }
    });
    list.append(el("li", { class: "blocked-player", dataset: { name: player.name } }, el("strong", { text: player.name }), unblock, error));
  }
}

function blockForm(csrf, list) {
  return nameForm({ id: "block", label: "Block a player by name", button: "Block", empty: "Give the player's account name.", cls: "account-form block-form" }, async (name) => {
    draw(list, csrf, (await api.block(csrf, { name })).blocked);
    toast(`${name} is blocked.`, "ok");
  });
}

/**
 * A one-field form for an account's name (here: block; the host's ban, fairplay.js). ``send(name)``
 * does the work; its refusal is said beside the field, as is an empty name (nothing is sent then).
 */
export function nameForm({ id, label, button, empty, cls }, send) {
  const input = el("input", { id: `${id}-name`, name: "name", type: "text", maxlength: "200", autocomplete: "off", required: true, "aria-describedby": `${id}-name-error` });
  const fieldError = el("span", { class: "field-error", id: `${id}-name-error`, "aria-live": "polite" });
  const submit = el("button", { type: "submit", class: "btn btn-small", text: button });
  // Drawn again (new data came) while a name is being typed or its refusal is shown: both carry over.
  const previous = document.getElementById(`${id}-name`);
  if (previous) {
    input.value = previous.value;
    if (previous.getAttribute("aria-invalid")) input.setAttribute("aria-invalid", "true");
    fieldError.textContent = (document.getElementById(`${id}-name-error`) || {}).textContent || "";
    if (document.activeElement === previous) queueMicrotask(() => input.focus());
  }
  const form = el(
    "form",
    { class: cls, id: `${id}-form`, novalidate: true },
    el("label", { class: "field", for: `${id}-name` }, el("span", { text: label }), input, fieldError),
    submit,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    fieldError.textContent = "";
    input.removeAttribute("aria-invalid");
    const name = input.value.trim();
    if (!name) {
      input.setAttribute("aria-invalid", "true");
      fieldError.textContent = empty;
      input.focus();
      return;
    }
    submit.disabled = true;
    try {
      await send(name);
      input.value = "";
    } catch (err) {
      // The form in the page now (it may have been drawn again while the request was out).
      const shown = document.getElementById(`${id}-name`) || input;
      shown.setAttribute("aria-invalid", "true");
      (document.getElementById(`${id}-name-error`) || fieldError).textContent = sentence(err.message);
      shown.focus();
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
