/**
 * Building HTML safely: every string child becomes a text node, so names and chat
 * messages are always shown as the characters they are.
 */

/**
 * Create an HTML element.
 * @param {string} tag
 * @param {Record<string, any>} [attrs] `class`, `dataset` (object), `on` (event map),
 *   `hidden`/`disabled` (booleans) and plain attributes
 * @param {...(Node|string|number|null|undefined|false)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "on") for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (k === "hidden" || k === "disabled") el[k] = Boolean(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/** `document.getElementById`, throwing if the page lacks the element. */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el;
}

/** A coloured dot for a player colour. */
export function colorDot(color, extraClass = "") {
  return h("span", { class: `dot dot-${color} ${extraClass}`.trim(), "aria-hidden": "true" });
}

const flashTimers = new WeakMap();

/** Show `text` in `el` for `ms` milliseconds; a new text replaces it and starts over. */
export function flash(el, text, ms) {
  el.textContent = text;
  el.hidden = false;
  clearTimeout(flashTimers.get(el));
  flashTimers.set(el, setTimeout(() => {
    el.hidden = true;
  }, ms));
}

/** Hide what `flash` shows in `el` now (a news line that no longer applies). */
export function unflash(el) {
  clearTimeout(flashTimers.get(el));
  el.hidden = true;
  el.textContent = "";
}

/** The longest name the server takes, in characters (code points), as it counts them. */
export const NAME_MAX = 32;

/**
 * Keep a name field to `NAME_MAX` characters as the server counts them. An input's own
 * `maxlength` counts UTF-16 units: an emoji is two or more, so a name of emoji stopped
 * at 16 while the rule and the field's counter allow 32. The field's `maxlength` is only
 * a backstop (an astral character is two units), and the value is cut to 32 here, on
 * the input, before any other listener reads it.
 * @param {HTMLInputElement} input
 * @returns {HTMLInputElement}
 */
export function limitName(input) {
  input.maxLength = 2 * NAME_MAX;
  input.addEventListener("input", () => fitName(input));
  return input;
}

/** Cut the field's value to `NAME_MAX` characters (never inside a surrogate pair); the value. */
export function fitName(input) {
  const chars = [...input.value];
  if (chars.length > NAME_MAX) input.value = chars.slice(0, NAME_MAX).join("");
  return input.value;
}
