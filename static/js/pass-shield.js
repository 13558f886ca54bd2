/**
 * Pass-and-play's shield: a full-screen, opaque "Pass the device to Bob" with an "I am
 * Bob" button. While it is up, the page's game parts (`.game-only`: board, target, hand,
 * players, move list, seat tools) are taken out of the document, not merely covered, so
 * that nothing of the previous seat's view can be read from the page; the next seat's
 * view is drawn only after the tap (local-seats.js hands it over then).
 *
 * The shield is the page's one control while it is up: everything else in the document
 * (the header's links and language menu too, hidden under it) is inert, so that Tab
 * cannot wander under an opaque screen. The tap keeps the focus on its button, and the
 * game takes it back from there (the board, whence the next step's control), so that a
 * keyboard player does not Tab through the header again at every hand-over.
 */

import { formatSeconds, serverNow } from "./clock.js";
import { colorDot, h } from "./dom.js";
import { onLanguageChange, t } from "./i18n.js";
import { usingKeyboard } from "./keyboard-focus.js";
import "./local-i18n.js";

export class PassShield {
  /**
   * @param {HTMLElement} page the room page (its `.game-only` parts are hidden)
   * @param {() => void} onTap the named player is holding the device
   */
  constructor(page, onTap) {
    this.page = page;
    this.onTap = onTap;
    /** @type {{part: Element, mark: Comment}[]} parts taken out, and where they go back */
    this.out = [];
    this.seat = null;
    this.name = "";
    this.color = null;
    this.opening = false;
    /** the named player's turn clock (a state's `clock`), and whose turn ran out before */
    this.clock = null;
    this.ranOut = null;
    this.ticker = null;
    /** @type {Element[]} the document's parts made inert while the shield is up */
    this.stilled = [];
    /** how many times the shield went up (a page's record, read by the browser tests) */
    this.passes = 0;
    this.el = h("div", {
      id: "pass-shield", class: "pass-shield", "data-testid": "pass-shield", role: "dialog",
      "aria-modal": "true", "aria-labelledby": "pass-title", hidden: true,
    });
    document.body.append(this.el);
    onLanguageChange(() => this.render());
  }

  get up() {
    return !this.el.hidden;
  }

  /** Hide the game and ask for the device to go to `name` (seat `seat`). */
  show({ seat, name, color, clock = null, ranOut = null }) {
    this.seat = seat;
    this.name = name;
    this.color = color;
    this.clock = clock && clock.deadline ? clock : null;
    this.ranOut = ranOut;
    this.opening = false;
    this.passes += 1;
    this.el.dataset.passes = String(this.passes);
    this.takeOut();
    this.render();
    this.el.hidden = false;
    this.page.inert = true;
    for (const part of document.body.children) {
      if (part !== this.el && !part.inert) {
        part.inert = true;
        this.stilled.push(part);
      }
    }
    document.body.classList.add("passing");
    const button = this.el.querySelector("button");
    if (button) button.focus();
    // The turn's time runs behind the shield: its player sees how much is left.
    clearInterval(this.ticker);
    this.ticker = this.clock ? setInterval(() => this.tick(), 500) : null;
  }

  /** Seconds left of the named player's turn, by the server's clock. */
  left() {
    return this.clock ? (Date.parse(this.clock.deadline) - serverNow()) / 1000 : null;
  }

  tick() {
    const line = this.el.querySelector("[data-testid=pass-clock]");
    const left = this.left();
    if (!line || left === null) return;
    line.textContent = t("pass.time_left", { time: formatSeconds(left) });
    line.classList.toggle("low", left <= 10);
  }

  /** The next seat's view is on its way: put the game parts back for it. */
  hide() {
    const held = this.el.contains(document.activeElement);
    for (const { part, mark } of this.out) mark.replaceWith(part);
    this.out = [];
    for (const part of this.stilled) part.inert = false;
    this.stilled = [];
    this.el.hidden = true;
    this.el.replaceChildren();
    clearInterval(this.ticker);
    this.ticker = null;
    this.page.inert = false;
    document.body.classList.remove("passing");
    // The focus was on the shield's button, pressed from the keyboard: it goes to the
    // board, where the game's focus keeper moves it on to the next step's control once the
    // view is drawn (a pointer's tap leaves no focus ring on the board).
    const board = held && usingKeyboard() ? this.page.querySelector("#board") : null;
    if (board) {
      if (!board.hasAttribute("tabindex")) board.setAttribute("tabindex", "-1");
      board.focus({ preventScroll: true });
    }
  }

  takeOut() {
    if (this.out.length) return;
    for (const part of this.page.querySelectorAll(".game-only")) {
      const mark = document.createComment("pass-and-play: hidden until the next player taps");
      part.replaceWith(mark);
      this.out.push({ part, mark });
    }
  }

  render() {
    if (this.seat === null) return;
    const name = this.name;
    this.el.dataset.seat = String(this.seat);
    const left = this.left();
    this.el.replaceChildren(h("div", { class: "pass-box" },
      this.ranOut ? h("p", { class: "pass-ran-out", "data-testid": "pass-ran-out" }, t("pass.ran_out", { name: this.ranOut })) : null,
      this.color ? colorDot(this.color, "big pass-dot") : null,
      h("h2", { id: "pass-title", "data-testid": "pass-title" }, t("pass.title", { name })),
      h("p", { class: "pass-help" }, t("pass.help", { name })),
      left === null ? null : h("p", {
        class: "pass-clock" + (left <= 10 ? " low" : ""), "data-testid": "pass-clock",
      }, t("pass.time_left", { time: formatSeconds(left) })),
      h("button", {
        type: "button", class: "primary big", "data-testid": "pass-ready",
        "aria-disabled": this.opening ? "true" : null,
        on: { click: () => this.tap() },
      }, this.opening ? t("pass.opening") : t("pass.ready", { name }))));
  }

  tap() {
    if (this.opening) return;
    this.opening = true;
    // Changed in place, not drawn again: a new button would drop the focus to the top.
    const button = this.el.querySelector("button");
    if (button) {
      button.setAttribute("aria-disabled", "true");
      button.textContent = t("pass.opening");
    } else {
      this.render();
    }
    this.onTap();
  }
}
