/**
 * Pass-and-play's shield: a full-screen, opaque "Pass the device to Bob" with an "I am
 * Bob" button. While it is up, the page's game parts (`.game-only`: board, target, hand,
 * players, move list, seat tools) are taken out of the document, not merely covered, so
 * that nothing of the previous seat's view can be read from the page; the next seat's
 * view is drawn only after the tap (local-seats.js hands it over then).
 */

import { colorDot, h } from "./dom.js";
import { onLanguageChange, t } from "./i18n.js";
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
  show({ seat, name, color }) {
    this.seat = seat;
    this.name = name;
    this.color = color;
    this.opening = false;
    this.passes += 1;
    this.el.dataset.passes = String(this.passes);
    this.takeOut();
    this.render();
    this.el.hidden = false;
    this.page.inert = true;
    document.body.classList.add("passing");
    const button = this.el.querySelector("button");
    if (button) button.focus();
  }

  /** The next seat's view is on its way: put the game parts back for it. */
  hide() {
    for (const { part, mark } of this.out) mark.replaceWith(part);
    this.out = [];
    this.el.hidden = true;
    this.el.replaceChildren();
    this.page.inert = false;
    document.body.classList.remove("passing");
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
    this.el.replaceChildren(h("div", { class: "pass-box" },
      this.color ? colorDot(this.color, "big pass-dot") : null,
      h("h2", { id: "pass-title", "data-testid": "pass-title" }, t("pass.title", { name })),
      h("p", { class: "pass-help" }, t("pass.help", { name })),
      h("button", {
        type: "button", class: "primary big", "data-testid": "pass-ready", disabled: this.opening,
        on: { click: () => this.tap() },
      }, this.opening ? t("pass.opening") : t("pass.ready", { name }))));
  }

  tap() {
    if (this.opening) return;
    this.opening = true;
    this.render();
    this.onTap();
  }
}
