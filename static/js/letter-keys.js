/**
 * Single-key shortcuts (R turns the tile or the card, 1 and 2 choose a card, F fits the
 * card game's view) can be turned off, on this device (WCAG 2.1.4): they act wherever the
 * focus is, so a speech-input user saying a word, or a stray key, turned the spare tile
 * unasked. Keys that act only where the focus is (the arrows, Enter, Escape) stay.
 */

const KEY = "labyrinth:letter-keys";

/** The page's own choice when storage refused it (a private window's quota), else null. */
let memory = null;

/** Whether the single-key shortcuts act (on unless turned off on this device). */
export function lettersOn() {
  if (memory !== null) return memory;
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return true;
  }
}

/** Turn the single-key shortcuts on or off, for this device's pages from now on. */
export function setLetters(on) {
  try {
    if (on) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, "off");
    memory = null;
  } catch {
    memory = on;
  }
}
