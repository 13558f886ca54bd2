/**
 * The turn timer as the page shows it: whose turn runs and how long it has left, ticking
 * every quarter second. The server is the authority (it plays a timed-out turn itself);
 * this only draws the `clock` of the last `state`, corrected by the offset between the
 * server's clock and this device's.
 *
 * Every server time the page learns (`welcome.now`, a clock's `turn_started`) had passed
 * on the server when the message arrived, so each gives a lower bound of the offset; the
 * largest bound seen is the best estimate. Taking `welcome.now` alone counted the
 * message's delivery time as time still to play: a welcome that took a second to arrive
 * showed a 30-second turn with 31 seconds left.
 */

import { h } from "./dom.js";
import { t } from "./i18n.js";

let offset = null;

/** Note a time (ms since the epoch) the server's clock had reached by now. */
export function setServerNow(now) {
  if (typeof now !== "number" || !Number.isFinite(now)) return;
  const bound = now - Date.now();
  if (offset === null || bound > offset) offset = bound;
}

/** The server's time now, as near as this page knows it (ms since the epoch). */
export function serverNow() {
  return Date.now() + (offset ?? 0);
}

/** "m:ss" (or "h:mm:ss") for a number of seconds, never negative. */
export function formatSeconds(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(s / 3600);
  const mins = Math.floor((s % 3600) / 60);
  const secs = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(mins).padStart(2, "0")}:${secs}` : `${mins}:${secs}`;
}

/** A room's timer in words ("30 s a turn", "10 min + 10 s a turn"): one way, in the
 * header before the game and in the clock's bar during it. */
export function clockWords(clock) {
  if (!clock) return "";
  if (clock.kind === "fischer") return t("clock.fischer", { min: Math.round(clock.seconds / 60), inc: clock.increment });
  return t("clock.turn", { time: clock.seconds >= 60 ? `${clock.seconds / 60} min` : `${clock.seconds} s` });
}

/** Whether the page's own player is to play now: the board says so (`data-my-turn`,
 * set by every game's UI; false while the computer stands in for an away player). */
function ownTurn() {
  const board = document.getElementById("board");
  return !!board && board.dataset.myTurn === "true";
}

export class ClockView {
  /**
   * @param {HTMLElement} el where the clock is drawn
   * @param {(seat: number) => string} nameOf a seat's name
   */
  constructor(el, nameOf, isMine = ownTurn) {
    this.el = el;
    this.nameOf = nameOf;
    /** whether the running turn is this page's own player's (warned before it runs out) */
    this.isMine = isMine;
    this.clock = null;
    this.timer = null;
    /** the turn (seat and start) last warned of, so that each turn is warned once */
    this.warned = null;
    /** A polite live region of its own, beside the clock (redrawn four times a second,
     * the clock itself is no live region): the one warning before the time runs out. */
    this.region = h("div", { class: "visually-hidden", "aria-live": "polite", "data-testid": "clock-warning" });
    if (el.parentNode) el.after(this.region);
  }

  /** The `clock` of a state (or null: no timer, or the game is over). */
  update(clock) {
    this.clock = clock || null;
    clearInterval(this.timer);
    this.timer = null;
    this.el.hidden = !this.clock;
    // A new turn: the last warning goes (the same words are then said again when due).
    const turn = this.clock ? `${this.clock.seat}|${this.clock.turn_started}` : null;
    if (this.region.textContent && turn !== this.warned) this.region.textContent = "";
    if (!this.clock) return;
    if (this.clock.turn_started) setServerNow(Date.parse(this.clock.turn_started));
    this.render();
    if (this.clock.deadline) this.timer = setInterval(() => this.render(), 250);
  }

  /** Seconds left in the running turn, by the server's clock. */
  left() {
    if (!this.clock || !this.clock.deadline) return null;
    return (Date.parse(this.clock.deadline) - serverNow()) / 1000;
  }

  render() {
    const clock = this.clock;
    if (!clock) return;
    const left = this.left();
    const parts = [h("span", { class: "clock-kind" }, clockWords(clock))];
    if (clock.kind === "fischer" && Array.isArray(clock.remaining)) {
      clock.remaining.forEach((bank, seat) => {
        const running = seat === clock.seat && left !== null;
        parts.push(h("span", {
          class: "clock-seat" + (running ? " running" : ""),
          "data-testid": `clock-seat-${seat}`,
          title: this.nameOf(seat),
        }, h("span", { class: "clock-name" }, this.nameOf(seat)), " ",
        h("span", { class: "clock-time" }, formatSeconds(running ? left : bank))));
      });
    } else if (clock.seat !== null && left !== null) {
      parts.push(h("span", { class: "clock-seat clock-one running", "data-testid": "clock-left" },
        t("clock.left", { name: this.nameOf(clock.seat), time: formatSeconds(left) })));
    }
    this.el.replaceChildren(...parts);
    this.el.classList.toggle("low", left !== null && left <= 10);
    this.warn(left);
    this.el.dataset.left = left === null ? "" : String(Math.max(0, Math.ceil(left)));
  }

  /**
   * Say once, politely, that the page's own turn is about to run out (audit 3: the first
   * word a screen reader heard was that the computer had played the turn): at 10 s left,
   * or 30 s on a turn of two minutes or more.
   */
  warn(left) {
    const clock = this.clock;
    if (left === null || !clock || clock.seat === null || clock.seat === undefined) return;
    const turn = `${clock.seat}|${clock.turn_started}`;
    if (this.warned === turn || left <= 0) return;
    const budget = (Date.parse(clock.deadline) - Date.parse(clock.turn_started)) / 1000;
    const at = budget >= 120 ? 30 : 10;
    if (left > at || !this.isMine(clock.seat)) return;
    this.warned = turn;
    this.region.textContent = t("a11y.clock_warning", { n: Math.ceil(left) });
  }
}
