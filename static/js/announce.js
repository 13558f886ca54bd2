/**
 * What a screen reader hears of a game: one polite live region, written only with news.
 *
 * The turn line is drawn again at every redraw (its children replaced), and a live region
 * reads a replaced text again even when it says the same: a screen reader heard each turn
 * twice. And the other players' moves were said only in the move list, which is no live
 * region: "Bob is inserting the spare tile" was all one heard of Bob's turn. So the turn
 * line is watched, not live itself, and the announcer says its text when it changed,
 * after the move that changed it ("Bob pushed row 3 from the left, moved to c4 — Your
 * turn: …").
 */

/** @param {string} text */
function squeeze(text) {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * The turn line in words, one piece per part: its parts (whose turn, the moves left, an
 * event's chip) sit side by side with no space between, and its text ran them together
 * ("Your turnMoves 0/1"). A picture's title inside a part is left out: the part says it.
 * @param {HTMLElement} status
 */
export function statusWords(status) {
  const parts = [];
  for (const child of status.children) {
    // a part marked `data-quiet` is said elsewhere when it changes (Master's stage)
    if (child.getAttribute("aria-hidden") === "true" || child.hasAttribute("data-quiet") || child.namespaceURI === "http://www.w3.org/2000/svg") continue;
    const copy = /** @type {HTMLElement} */ (child.cloneNode(true));
    for (const drop of copy.querySelectorAll("svg, [aria-hidden=true]")) drop.remove();
    const words = squeeze(copy.textContent || "");
    if (words) parts.push(words);
  }
  // Each part a sentence: "Your turn. Moves 0/1", "… or Stay. Phase 1".
  return parts.map((part, i) => (i < parts.length - 1 && !/[.!?:…]$/.test(part) ? part + "." : part)).join(" ");
}

export class Announcer {
  /**
   * @param {HTMLElement} region the live region (visually hidden, `aria-live="polite"`)
   * @param {HTMLElement} status the turn line it reads when its words change
   * @param {HTMLElement|null} panel the event panel, whose prompts it reads when they change
   */
  constructor(region, status, panel = null) {
    this.region = region;
    this.status = status;
    this.panel = panel;
    /** the panel's prompt as last said ("" once it is gone, so the same prompt is said again later) */
    this.prompted = "";
    /** @type {string[]} moves to say before the turn line */
    this.moves = [];
    /** @type {string[]} news of the move being told, said unless the move is */
    this.moveNews = [];
    /** @type {string[]} anything else to say (news, the spare tile's paths) */
    this.notes = [];
    this.said = "";
    this.pending = false;
    const watch = new MutationObserver(() => this.queue());
    watch.observe(status, { childList: true, subtree: true, characterData: true });
    // The event panel is drawn again at each redraw and is no live region (it was read
    // whole each time): only what it asks of the player, marked `data-announce`, is said,
    // when it changed ("You rolled 2: …").
    if (panel) watch.observe(panel, { childList: true, subtree: true, characterData: true });
  }

  /** Something only a screen reader needs told (the spare tile turned, in words). */
  say(text) {
    const words = squeeze(text);
    if (!words) return;
    this.notes.push(words);
    this.queue();
  }

  /**
   * A news line shown on the page (which is no live region: it is said here, once).
   * One about the move being told (`fromMove`: "Bob found the bat") is left out when that
   * move is said, whose words hold it already: a Daedalus card was heard three times.
   */
  news(text, fromMove = false) {
    if (!fromMove) return this.say(text);
    const words = squeeze(text);
    if (!words) return;
    this.moveNews.push(words);
    this.queue();
  }

  /** Another player's move, in words (said with the turn line it led to). */
  move(text) {
    const words = squeeze(text);
    if (!words) return;
    this.moves.push(words);
    this.queue();
  }

  queue() {
    if (this.pending) return;
    this.pending = true;
    // Once the redraw that is under way is done: its several changes are one news.
    queueMicrotask(() => this.flush());
  }

  flush() {
    this.pending = false;
    const parts = [...this.moves, ...(this.moves.length ? [] : this.moveNews), ...this.notes];
    this.moves = [];
    this.moveNews = [];
    this.notes = [];
    const status = statusWords(this.status);
    if (status && status !== this.said) {
      this.said = status;
      parts.push(status);
    }
    const asked = this.panel && !this.panel.hidden
      ? [...this.panel.querySelectorAll("[data-announce]")].map((el) => squeeze(el.textContent || "")).filter(Boolean).join(" ")
      : "";
    if (asked !== this.prompted) {
      this.prompted = asked;
      if (asked) parts.push(asked);
    }
    if (parts.length) this.region.textContent = parts.join(" — ");
  }
}
