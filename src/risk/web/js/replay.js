// "Watch a record" (/replay): a record file, chosen or dropped, is sent to POST /api/replay, and the
// summary it answers is shown like a finished game's (summary.js draws it).

import { ApiError } from "./api.js";
import { $ } from "./ui.js";

export const MAX_RECORD = 1 << 20; // bytes, as the server's limit (src/risk/server/api/after.py)

/** JSON from the server, or an ApiError with the server's code and message (docs/web.md). */
export async function fetchJson(path, init = {}) {
  let response;
  try {
    response = await fetch(path, { cache: "no-store", ...init, headers: { Accept: "application/json", ...(init.headers || {}) } });
  } catch {
    throw new ApiError("network", "The server cannot be reached: check your connection and try again.");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = data && data.error;
    throw new ApiError(error ? error.code : "http", error ? error.message : `The server answered ${response.status}.`, response.status);
  }
  return data;
}

/** The summary of a record file, or an ApiError saying what is wrong with it. */
export function replayRecord(file) {
  return fetchJson("/api/replay", { method: "POST", headers: { "Content-Type": "text/plain" }, body: file });
}

/** Wire the file input and the drop zone; onSummary(summary, file) is called with each good record. */
export function setupUpload(onSummary) {
  const box = $("#upload");
  const input = $("#record-file");
  const zone = $("#dropzone");
  const problem = $("#upload-error");
  box.hidden = false;

  const say = (text) => {
    problem.textContent = text;
    problem.className = text ? "message message-error" : "message";
  };

  async function send(file) {
    say("");
    $("#upload-name").textContent = `${file.name} · ${Math.max(1, Math.round(file.size / 1024))} KB`;
    if (file.size > MAX_RECORD) {
      say(`This file is ${Math.round(file.size / 1024)} KB: a record is at most ${MAX_RECORD / 1024} KB.`);
      return;
    }
    zone.classList.add("busy");
    try {
      onSummary(await replayRecord(file), file);
    } catch (error) {
      const text = String(error.message || "");
      say(text ? `${text[0].toUpperCase()}${text.slice(1)}` : "The record could not be read.");
    } finally {
      zone.classList.remove("busy");
      input.value = ""; // the same file may be chosen again after a fix
    }
  }

  input.addEventListener("change", () => {
    if (input.files && input.files[0]) send(input.files[0]);
  });
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (file) send(file);
  });
}
