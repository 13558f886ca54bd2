/**
 * What every game UI does with the socket, whatever the game: send one action at a time,
 * unlock on a refusal, ask for the legal list again when it is missing; and who the viewer
 * is in the view shown (`this.view`). Each variant's UI extends this and supplies
 * `render()` and its own `legal` handling.
 */

import { formatList, lang, t } from "./i18n.js";

/** How long an action may go unanswered before the page says it is on its way: a round trip
 * on a good connection is well under it, so the word never flickers there. */
const SENDING_AFTER_MS = 400;

export class GameUI {
  /** The viewer's own player entry in the view shown, or null for a spectator. */
  me() {
    const v = this.view;
    if (!v || v.you === null || v.you === undefined) return null;
    return v.players.find((p) => p.seat === v.you) || null;
  }

  /**
   * The result's headline: "You won!" on the one winner's own page (not on a device that
   * several players share, where "you" is nobody in particular), else the winners by name,
   * which a page told its own player in the third person.
   */
  winnerWords(names) {
    if (this.wonByViewer()) return t("game.you_won");
    return t(names.length > 1 ? "game.winner.many" : "game.winner", { names: formatList(names) });
  }

  /** Whether the page's own player won alone (told "You won!"; a shared device names). */
  wonByViewer() {
    const v = this.view;
    const own = v.you !== null && v.you !== undefined && !this.ctx.sharedDevice;
    return own && v.result.winners.length === 1 && v.result.winners[0] === v.you;
  }

  /** Why the game ended, after its winner: in the viewer's own words after "You won!"
   * ("— you found all your treasures", not "— found all their treasures"). */
  reasonWords(reason) {
    const key = `game.reason.${reason}`;
    const yours = `${key}.you`;
    return this.wonByViewer() && t(yours) !== yours ? t(yours) : t(key);
  }

  /**
   * Whether the result banner `el` (a live region) needs drawing again: only when what it
   * says changed. Rebuilt at every redraw, it was read out again and again at the end
   * (four times, and twice more at each "play again" accepted). `sig` is everything the
   * banner's words depend on; a hidden or emptied banner is drawn again.
   */
  resultChanged(el, sig) {
    const said = lang() + "|" + sig;
    if (!el.hidden && el.childNodes.length && el.dataset.said === said) return false;
    el.dataset.said = said;
    return true;
  }

  /** The result banner hidden (no result), and forgotten. */
  hideResult(el) {
    el.hidden = true;
    el.replaceChildren();
    delete el.dataset.said;
  }

  /** The computer plays this seat for its away person: the page only watches. */
  standsIn() {
    const v = this.view;
    return !!(v && v.you !== null && v.you !== undefined && this.ctx && this.ctx.standsIn && this.ctx.standsIn(v.you));
  }

  /** Whether the game waits for the viewer (any phase of the viewer's turn). */
  isMyTurn() {
    const v = this.view;
    return !!(v && v.status === "playing" && v.turn && v.you !== null && v.turn.seat === v.you && !this.standsIn());
  }

  /**
   * The legal actions for the state just set: carried by the state itself (the hello
   * asked for them, docs/protocol.md), so the state is drawn once with its controls ready
   * and a move's animation is not cut short by a second drawing; else asked for.
   * Returns whether they came with the state (the caller then calls `legalReady`).
   */
  legalFrom(msg) {
    if (!this.isMyTurn()) return false;
    if (Array.isArray(msg.legal)) return this.acceptLegal(msg.seq, msg.legal);
    this.ctx.requestLegal();
    return false;
  }

  /** A `legal` answer; ignored unless it is for the state shown. */
  setLegal(msg) {
    if (!this.acceptLegal(msg.seq, msg.actions)) return;
    this.render({});
    this.legalReady();
  }

  /** Keep the legal actions of `seq` if it is the state shown; whether they were kept. */
  acceptLegal(seq, actions) {
    if (!this.view || seq !== this.view.seq) return false;
    this.legal = actions || [];
    return true;
  }

  /**
   * Tell a move that came (`announce(last, view)`, the variant's own). A move that ends
   * the game takes an earlier move's news down first: the result speaks then, and a last
   * move with no news of its own would stand under that news ("Ann took 1 × dragon" under
   * GAME OVER, when the last move took nothing). During the game an earlier move's news
   * stays its time: a turn of several actions (a take, then "no coin") would sweep it away
   * before anyone read it.
   */
  tellMove(last, view) {
    const shown = view || this.view;
    if (shown && shown.status === "finished" && this.moveNews) {
      if (this.ctx.dropNews) this.ctx.dropNews(this.moveNews);
      this.moveNews = null;
    }
    this.announce(last, view);
  }

  /**
   * A news line's words about what `seat` did: "You found the helmet!" on that seat's own
   * page (the key's `.you` form), "Ann found the helmet!" on the others' and a spectator's.
   * A shared device's view is the next person's by the time a move is told, so the mover
   * is named there, as at a table.
   */
  newsAbout(key, seat, params) {
    // A shared device names the mover: its view is the next person's by then, or at the
    // game's end still the last mover's ("You beat the dragon" under "Bernd wins").
    const own = this.view && !this.ctx.sharedDevice && seat !== null && seat !== undefined && seat === this.view.you;
    return t(own ? `${key}.you` : key, params);
  }

  /**
   * On a phone the question comes after the board, its buttons below the screen's edge
   * (Master's "Duel lost: re-roll?", the Team Edition's ways to lay a tile turned up, at
   * the top, nothing to press in sight): the page goes down to it, once per question (per
   * state: not again when the player scrolls back up).
   */
  bringIntoView(panel) {
    if (this.asked === this.view) return;
    this.asked = this.view;
    if (!window.matchMedia || !window.matchMedia("(max-width: 759px)").matches) return;
    requestAnimationFrame(() => {
      if (panel.hidden || panel.getBoundingClientRect().bottom <= window.innerHeight) return;
      const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      panel.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
    });
  }

  /** A news line about the move being told (remembered: the game's last move takes it down). */
  moveNewsLine(text) {
    this.moveNews = text;
    this.ctx.showNews(text, true);
  }

  /** Called once the legal actions are known and drawn (a variant may act on them). */
  legalReady() {}

  /**
   * How the replay's revealed panel draws one of a player's secret fields, when this
   * game draws it better than as text (cards: the hand's cards); null: as text.
   */
  secretValue(_key, _value) {
    return null;
  }

  /** Ask for the legal actions again if they are still missing. */
  retryLegal() {
    if (this.isMyTurn() && this.legal === null) this.ctx.requestLegal();
  }

  /** A refused action: unlock the controls. */
  refused() {
    this.clearPending();
    this.render({});
  }

  clearPending() {
    this.pending = false;
    clearTimeout(this.pendingTimer);
    this.showSending(false);
  }

  /** The page's "Sending…": the clicked arrow went dark, and on a slow network nothing else
   * said that the click was taken (a second click is ignored meanwhile). */
  showSending(on) {
    clearTimeout(this.sendingTimer);
    if (this.ctx && this.ctx.sending) this.ctx.sending(on);
  }

  /** Send an action once; further clicks wait for the answer (or 5 s, if none comes). */
  act(action) {
    if (this.pending || !this.isMyTurn()) return;
    if (!this.ctx.sendAction(action)) {
      // Nothing went out (the connection is down): say why nothing happens.
      if (this.ctx.notSent) this.ctx.notSent();
      return;
    }
    this.pending = true;
    clearTimeout(this.pendingTimer);
    this.pendingTimer = setTimeout(() => {
      this.clearPending();
      this.render({});
    }, 5000);
    // an answer within a blink needs no word; one that takes longer is waited for in sight
    clearTimeout(this.sendingTimer);
    this.sendingTimer = setTimeout(() => {
      if (this.pending) this.showSending(true);
    }, SENDING_AFTER_MS);
    this.render({});
  }
}
