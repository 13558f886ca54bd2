/**
 * Keyboard play across re-renders. A game page redraws its controls after every action
 * (the pressed arrow, cell or button is replaced), which drops the focus to the top of
 * the document: a keyboard player would Tab through the header again before every step.
 * A `FocusKeeper` puts the focus back where play goes on: the same control when it is
 * still there, else the first control of the next step (a decision, a lit cell, an
 * active arrow, a place for a card...), else the board, to wait there for the next turn.
 * It acts only for a player using the keyboard (the last input was a key): a mouse or a
 * finger never sees a control light up by itself.
 *
 * `focusNearest` is the arrow keys' move from one control of a board to the nearest one
 * that way, shared by the sliding board and the card game's table.
 */

let keyboard = false;
document.addEventListener("keydown", (ev) => {
  if (!ev.ctrlKey && !ev.metaKey && !ev.altKey) keyboard = true;
}, true);
document.addEventListener("pointerdown", () => {
  keyboard = false;
}, true);

/** Whether the player's last input was a key (not a pointer). */
export function usingKeyboard() {
  return keyboard;
}

/** Arrow key -> screen direction. */
export const DIRECTIONS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

/**
 * Focus the element of `candidates` nearest to `from` in the arrow `key`'s direction (by
 * their boxes on screen: along the way counts once, off to the side twice). Whether one
 * was found.
 * @param {Element} from
 * @param {Iterable<Element>} candidates
 * @param {string} key
 */
export function focusNearest(from, candidates, key) {
  const dir = DIRECTIONS[key];
  if (!dir) return false;
  const box = from.getBoundingClientRect();
  const x0 = box.left + box.width / 2;
  const y0 = box.top + box.height / 2;
  let best = null;
  let bestScore = Infinity;
  for (const el of candidates) {
    if (el === from) continue;
    const b = el.getBoundingClientRect();
    const dx = b.left + b.width / 2 - x0;
    const dy = b.top + b.height / 2 - y0;
    const along = dx * dir[0] + dy * dir[1];
    if (along <= 1) continue;
    const across = Math.abs(dx * dir[1]) + Math.abs(dy * dir[0]);
    const score = along + 2 * across;
    if (score < bestScore) {
      bestScore = score;
      best = el;
    }
  }
  if (best) best.focus();
  return best !== null;
}

/** A control's identity across re-renders. */
function keyOf(el) {
  return el.getAttribute("data-testid") || el.getAttribute("data-key") || el.getAttribute("data-pos");
}

/**
 * One stop for Tab among a board's controls (a roving tabindex): the controls marked
 * `data-rove` are gone through with the arrow keys, and Tab goes past the board in one
 * press (a Team player pressed Tab some thirty times, through every arrow and lit cell,
 * to reach "End turn"; a card game's table has as many lit squares). `roving(root)` once
 * follows the focus; `rove(root)` after each redraw sets the stop: the control that has
 * the focus, else the one that had it last while it is still there, else the first.
 * @param {Element} root
 */
export function roving(root) {
  root.addEventListener("focusin", (ev) => {
    const el = /** @type {Element} */ (ev.target);
    if (el && el.hasAttribute && el.hasAttribute("data-rove")) {
      /** @type {HTMLElement} */ (root).dataset.roveStop = keyOf(el) || "";
      rove(root);
    }
  });
}

/** @param {Element} root */
export function rove(root) {
  const controls = [...root.querySelectorAll("[data-rove]")];
  if (!controls.length) return;
  const active = document.activeElement;
  const last = /** @type {HTMLElement} */ (root).dataset.roveStop;
  const stop = controls.find((el) => el === active) || controls.find((el) => keyOf(el) === last) || controls[0];
  for (const el of controls) {
    const index = el === stop ? "0" : "-1";
    if (el.getAttribute("tabindex") !== index) el.setAttribute("tabindex", index);
  }
}

function visible(el) {
  return !el.closest("[hidden]") && el.getClientRects().length > 0;
}

export class FocusKeeper {
  /**
   * @param {Element} area the part of the page the game's controls live in
   * @param {Element} home where the focus waits when no control is left (made focusable
   *   by script only: `tabindex="-1"`)
   * @param {string[]} next selectors of the next step's controls, the likeliest first
   */
  constructor(area, home, next) {
    this.area = area;
    this.home = home;
    this.next = next;
    this.holding = false;
    this.key = null;
    if (!home.hasAttribute("tabindex")) home.setAttribute("tabindex", "-1");
  }

  /**
   * Take up a focus that was dropped before the game was drawn: a keyboard player who
   * joined or started with Enter had their form or button taken away by the start, and
   * Tabbed through the whole page to reach the board. With the focus nowhere and the last
   * input a key, the first redraw puts it where play goes on.
   */
  adopt() {
    const active = document.activeElement;
    if (usingKeyboard() && (!active || active === document.body)) this.holding = true;
  }

  /** Before a re-render: note the control that has the focus, if it is in the game. */
  save() {
    const active = document.activeElement;
    if (!active || active === document.body) return;
    this.holding = this.area.contains(active);
    this.key = this.holding && active !== this.home ? keyOf(active) : null;
  }

  /** After a re-render: put back a focus the re-render dropped (see the module's text). */
  restore() {
    if (!this.holding || !usingKeyboard()) return;
    const active = document.activeElement;
    if (active && active !== document.body && active !== this.home) {
      if (!this.area.contains(active)) this.holding = false;
      return;
    }
    // A board's controls but one are out of Tab's way (`tabindex="-1"`, a roving tabindex:
    // `rove`) and are no less the next step's.
    const focusable = (el) => (el.getAttribute("tabindex") !== "-1" || el.hasAttribute("data-rove")) && !el.disabled && visible(el);
    let target = null;
    if (this.key && active !== this.home) {
      target = [...this.area.querySelectorAll("[tabindex], button")].find((el) => keyOf(el) === this.key && focusable(el)) || null;
    }
    for (const selector of this.next) {
      if (target) break;
      target = [...this.area.querySelectorAll(selector)].find(focusable) || null;
    }
    if (target) {
      target.focus({ preventScroll: true });
      this.key = keyOf(target);
    } else if (active !== this.home) {
      this.home.focus({ preventScroll: true });
      this.key = null;
    }
  }
}
