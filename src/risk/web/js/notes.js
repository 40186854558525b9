// Server notes in the log (docs/web.md, "Server notes"): "The clock ran out for Ann: ...", "Bob
// handed the seat to the quick bot.", "Cy resigned." Each note comes with the place in the log where
// it was written (`log_at`: before log entry number log_at). Kept apart from the rest of the log, so a
// chat panel can show the notes instead.

import { el } from "./ui.js";

/** Put each note not shown yet into the log list, before the entry it precedes (or at the end). */
export function placeNotes(notes, box) {
  for (const note of notes || []) {
    if (box.querySelector(`li[data-note="${Number(note.seq)}"]`)) continue;
    const item = el(
      "li",
      { class: "log-entry log-note", dataset: { kind: "note", note: Number(note.seq) } },
      el("span", { class: "log-dot note", "aria-hidden": "true", text: "i" }),
      el("span", { class: "log-text", text: note.text }),
    );
    const before = box.querySelector(`li[data-index="${Number(note.log_at)}"]`);
    if (before) box.insertBefore(item, before);
    else if (Number(note.log_at) < firstIndex(box)) continue; // trimmed from the top of a long log
    else box.append(item);
  }
}

function firstIndex(box) {
  const first = box.querySelector("li[data-index]");
  return first ? Number(first.dataset.index) : 0;
}
