/**
 * The classic game's part of the room page: board, spare tile, turn and target, event
 * panel, players and the result banner. It renders the server's view, asks for the
 * legal actions on its own turn and sends the action the player picks.
 */

import { BoardView } from "./board.js";
import { colorDot, h } from "./dom.js";
import { GameUI } from "./game-ui.js";
import { lettersOn } from "./letter-keys.js";
import { connMark } from "./presence.js";
import { cellName, sidesWords, slotWords, t } from "./i18n.js";
import { shownName } from "./table.js";
import { drawTile, eventIcon, eventName, svg, treasureIcon, treasureName } from "./tiles.js";

/**
 * @typedef {object} GameContext
 * @property {(action: object) => boolean} sendAction send an action for the current seq
 * @property {() => void} requestLegal ask for the legal actions of the current seq
 * @property {(text: string) => void} showError a refused or impossible action
 * @property {(text: string, fromMove?: boolean) => void} showNews something that just happened (about the move being told, or not)
 * @property {(text: string) => void} [say] words for a screen reader only (the spare turned)
 * @property {(seat: number) => boolean|"away"|"computer-away"|"computer-left"|null} isConnected
 *   the seat's connection, if known ("away": gone longer than the room waits for a player;
 *   "computer-away", "computer-left": the computer plays the seat for its player)
 * @property {(on: boolean) => void} [sending] an action sent is still unanswered after a blink
 */

export class ClassicUI extends GameUI {
  /**
   * @param {Record<string, HTMLElement>} els the page's game elements
   * @param {GameContext} ctx
   */
  constructor(els, ctx) {
    super();
    this.els = els;
    this.ctx = ctx;
    /** @type {object|null} */
    this.view = null;
    /** @type {object[]|null} legal actions for `view.seq` (null until they arrive) */
    this.legal = null;
    this.spareRot = 0;
    this.pending = false;
    this.pendingTimer = null;
    this.board = new BoardView(els.board, {
      onArrow: (side, index) => this.push(side, index),
      onArm: (side, index) => {
        this.armed = t("game.tap_again", { slot: slotWords(side, index) });
        this.ctx.showNews(this.armed);
      },
      onCell: (to) => this.act({ type: "move", to }),
      onPawn: (seat) => this.act({ type: "swap", with: seat }),
    });
    els.rotateCw.addEventListener("click", () => this.rotate(1));
    els.rotateCcw.addEventListener("click", () => this.rotate(-1));
    els.stay.addEventListener("click", () => {
      const me = this.me();
      if (me) this.act({ type: "move", to: me.pos });
    });
    document.addEventListener("keydown", (ev) => this.onKey(ev));
  }

  /**
   * A new `state` message.
   * @param {object} msg the state message
   * @param {boolean} consecutive it directly follows the state shown before
   */
  setState(msg, consecutive) {
    const prev = this.view;
    const view = msg.view;
    this.view = view;
    this.legal = null;
    this.clearPending();

    const last = msg.last;
    let animatePush = null;
    let animateMove = null;
    if (consecutive && prev && last && last.action) {
      if (last.action.type === "push" && view.board.last_push) animatePush = view.board.last_push;
      if (last.action.type === "move") {
        const before = prev.players.find((p) => p.seat === last.seat);
        if (before) animateMove = { seat: last.seat, from: before.pos };
      }
    }
    const spareChanged = !prev || !sameTile(prev.board.spare, view.board.spare);
    if (spareChanged || (last && last.action && last.action.type === "push")) this.spareRot = 0;
    if (consecutive && last) this.tellMove(last, view);

    const carried = this.legalFrom(msg);
    this.render({ animatePush, animateMove });
    if (carried) this.legalReady();
  }

  push(side, index) {
    // "tap again to push" is done with once the push goes
    if (this.armed && this.ctx.dropNews) this.ctx.dropNews(this.armed);
    this.armed = null;
    this.act({ type: "push", side, index, rotation: this.spareRot });
  }

  rotate(step) {
    this.spareRot = (this.spareRot + step + 4) % 4;
    this.renderSpare();
    // Turned: said, since the picture's name changing is not (a screen reader heard
    // nothing and picked a rotation by guess).
    if (this.ctx.say) this.ctx.say(this.spareWords());
  }

  /** The spare tile in words, as it lies now: "Spare tile: bat, paths to the top and right". */
  spareWords() {
    const spare = this.view.board.spare;
    const turned = [...spare.open].map((side) => "NESW"[("NESW".indexOf(side) + this.spareRot) % 4]);
    const sides = sidesWords(turned);
    const name = spare.treasure ? t("game.spare") + ": " + treasureName(spare.treasure) : t("game.spare");
    return t("game.spare_paths", { name, sides });
  }

  onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (ev.target && ev.target.isContentEditable)) return;
    if (!this.view || this.view.status !== "playing" || !lettersOn()) return;
    if (ev.key === "r" || ev.key === "R") {
      ev.preventDefault();
      this.rotate(ev.shiftKey ? -1 : 1);
    }
  }

  /** What this game puts on a cell beyond treasures and pawns, in words for its lit-cell name: nothing here. */
  cellWhat(_r, _c) {
    return [];
  }

  /** What the player may do now, from the legal list (or the view while it is on its way). */
  choices() {
    const out = {
      slots: new Set(), reachable: new Map(), swappable: new Set(), picks: [], stay: false,
      openPile: false, decline: false,
    };
    const v = this.view;
    if (!this.isMyTurn() || this.pending) return out;
    const me = this.me();
    if (this.legal === null) {
      // Before the answer comes: the push phase's arrows are known from the view.
      if (v.turn.phase === "push") {
        for (const side of "NESW") for (const index of [1, 3, 5]) out.slots.add(side + index);
      }
      return out;
    }
    for (const a of this.legal) {
      if (a.type === "push") out.slots.add(a.side + a.index);
      else if (a.type === "move") {
        out.reachable.set(a.to.join(","), a);
        if (me && a.to[0] === me.pos[0] && a.to[1] === me.pos[1]) out.stay = true;
      } else if (a.type === "swap") out.swappable.add(a.with);
      else if (a.type === "pick") out.picks.push(a.treasure);
      else if (a.type === "open_pile") out.openPile = true;
      else if (a.type === "decline") out.decline = true;
    }
    return out;
  }

  /** Tell what the last action did: treasures found, events revealed, swaps. */
  announce(last, view) {
    const name = (seat) => {
      const p = view.players.find((x) => x.seat === seat);
      return p ? shownName(p.name) : "?";
    };
    for (const ev of last.events || []) {
      if (ev.type === "found") {
        this.moveNewsLine(this.newsAbout("news.found", ev.seat, { name: name(ev.seat), treasure: treasureName(ev.treasure) }));
      } else if (ev.type === "event") {
        this.moveNewsLine(t("event.revealed", { name: eventName(ev.name) }));
      } else if (ev.type === "swapped") {
        this.moveNewsLine(this.newsAbout("news.swapped", ev.seat, { name: name(ev.seat), other: name(ev.with) }));
      } else if (ev.type === "opened") {
        this.moveNewsLine(this.newsAbout("news.opened", ev.seat, { name: name(ev.seat) }));
      } else if (ev.type === "declined") {
        this.moveNewsLine(this.newsAbout("news.declined", ev.seat, { name: name(ev.seat) }));
      }
    }
  }

  render(anim = {}) {
    const v = this.view;
    if (!v) return;
    const choices = this.choices();
    const me = this.me();
    const target = me && v.status === "playing" ? me.target : null;
    this.board.render(v, {
      activeSlots: choices.slots,
      reachable: choices.reachable,
      swappable: choices.swappable,
      aim: choices.aim || null,
      cellWhat: (r, c) => this.cellWhat(r, c),
      target,
      goHome: !!(me && v.status === "playing" && me.target === null),
      animatePush: anim.animatePush || null,
      animateMove: anim.animateMove || null,
    });
    this.renderStatus();
    this.renderTarget();
    this.renderEvent(choices);
    this.renderSpare();
    this.renderPlayers();
    this.renderResult();
    this.describeBoard();
    const stay = this.els.stay;
    stay.disabled = !choices.stay;
    // Only while the viewer may stay: a faded button for everyone waiting says nothing.
    stay.hidden = !me || !choices.stay;
    stay.dataset.active = choices.stay ? "true" : "false";
    this.els.controls.classList.toggle("my-turn", this.isMyTurn());
    this.els.board.dataset.phase = v.turn ? v.turn.phase : "over";
    this.els.board.dataset.myTurn = this.isMyTurn() ? "true" : "false";
    this.els.board.dataset.legal = this.legal === null ? "pending" : "ready";
  }

  renderStatus() {
    const v = this.view;
    const el = this.els.turn;
    el.replaceChildren();
    el.dataset.seq = String(v.seq);
    if (v.status !== "playing" || !v.turn) {
      el.dataset.seat = "";
      el.dataset.phase = "over";
      el.append(h("strong", {}, t("game.over")));
    } else {
      const p = v.players.find((x) => x.seat === v.turn.seat);
      el.dataset.seat = String(v.turn.seat);
      el.dataset.phase = v.turn.phase;
      el.append(colorDot(p.color, "big"));
      if (this.isMyTurn()) {
        el.append(h("strong", {}, t(v.turn.phase === "push" ? "game.turn.your_push" : "game.turn.your_move")));
      } else {
        el.append(h("span", {}, t(v.turn.phase === "push" ? "game.turn.other_push" : "game.turn.other_move", { name: shownName(p.name) })));
      }
      // The turn's event, in a word (the event panel has the details and choices).
      const ev = v.turn.event;
      if (ev) {
        el.append(h("span", { class: "event-chip" + (ev.used ? " used" : ""), "data-testid": "event-chip" },
          eventIcon(ev.name, 22), eventName(ev.name)));
      } else if (v.turn.bonus) {
        el.append(h("span", { class: "event-chip", "data-testid": "bonus" }, eventIcon("double_turn", 22), t("game.bonus")));
      }
    }
    this.els.seq.dataset.seq = String(v.seq);
    this.els.seq.textContent = t("game.move_no", { n: v.seq });
  }

  renderTarget() {
    const v = this.view;
    const box = this.els.target;
    box.replaceChildren();
    const me = this.me();
    if (!me) {
      box.hidden = false;
      box.append(h("span", { class: "muted" }, t(this.ctx.sharedDevice ? "game.target.shared" : "game.target.spectator")));
      box.dataset.target = "";
      return;
    }
    if (v.status !== "playing") {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.append(h("span", { class: "label" }, t("game.target")));
    if (me.target) {
      box.dataset.target = me.target;
      box.append(treasureIcon(me.target, 40), h("strong", {}, treasureName(me.target)));
      // where it is, for a screen reader (the picture on the board tells the others)
      const where = this.whereTreasure(me.target);
      if (where) box.append(h("span", { class: "visually-hidden", "data-testid": "target-where" }, ", " + where));
    } else {
      box.dataset.target = "home";
      box.append(colorDot(me.color, "big"), h("strong", {}, t("game.target.home")),
        h("span", { class: "visually-hidden", "data-testid": "target-where" }, ", " + t("a11y.home_at", { cell: cellName(me.home) })));
    }
  }

  /** Where a treasure lies in the view shown, in words ("on e5", "on the spare tile"), or null. */
  whereTreasure(treasure) {
    const board = this.view.board;
    for (let r = 0; r < board.tiles.length; r++) {
      for (let c = 0; c < board.tiles[r].length; c++) {
        if (board.tiles[r][c].treasure === treasure) return t("a11y.on_cell", { cell: cellName([r, c]) });
      }
    }
    return board.spare && board.spare.treasure === treasure ? t("a11y.on_spare") : null;
  }

  /** A player's pawn's cell, said after their name in the players' list (hidden: the board shows it). */
  pawnWhere(p) {
    return p.pos ? h("span", { class: "visually-hidden", "data-testid": `pawn-where-${p.seat}` }, ", " + t("a11y.player_at", { cell: cellName(p.pos) })) : null;
  }

  /**
   * The board in words (see BoardView.describe): each pawn's cell, the viewer's target
   * and where it lies (only what this view holds: a seat's own target), the variant's
   * pieces (`pieceLines`), the spare tile's paths.
   */
  boardLines() {
    const v = this.view;
    const lines = [];
    for (const p of v.players) {
      if (!p.pos) continue;
      const cell = cellName(p.pos);
      lines.push(p.seat === v.you ? t("a11y.pawn_you", { cell }) : t("a11y.pawn", { name: shownName(p.name), cell }));
    }
    const me = this.me();
    if (me && v.status === "playing" && "target" in me) {
      if (me.target) {
        const where = this.whereTreasure(me.target);
        if (where) lines.push(t("a11y.target_line", { treasure: treasureName(me.target), where }));
      } else if (me.target === null && me.home) lines.push(t("a11y.home_line", { cell: cellName(me.home) }));
    }
    lines.push(...this.pieceLines());
    if (v.board.spare) lines.push(this.spareWords() + ".");
    return lines;
  }

  /** A variant's own pieces on the board, in words: none here. */
  pieceLines() {
    return [];
  }

  describeBoard() {
    if (this.view) this.board.describe(this.boardLines());
  }

  /** What the turn's event lets its player do: said to them, or of them to the others
   * (a page that told everyone "you may open your pile" read as an offer to each). */
  eventWords(ev, turn) {
    if (this.isMyTurn()) return t(`event.${ev.name}.desc`);
    const actor = this.view.players.find((p) => p.seat === turn.seat);
    return t(`event.${ev.name}.desc_other`, { name: shownName(actor ? actor.name : "?") });
  }

  renderEvent(choices) {
    const v = this.view;
    const panel = this.els.event;
    panel.replaceChildren();
    const turn = v.status === "playing" ? v.turn : null;
    const ev = turn && turn.event;
    // A bonus turn is a proposal: while it may be declined, its player is told so here.
    if (turn && !ev && turn.bonus && choices.decline) {
      panel.hidden = false;
      panel.dataset.event = "double_turn";
      panel.dataset.used = "false";
      panel.append(
        h("div", { class: "event-head" },
          eventIcon("double_turn", 40),
          h("div", {},
            h("div", { class: "event-kicker" }, t("event.title")),
            h("strong", { class: "event-name" }, t("game.bonus_turn")),
            h("div", { class: "event-desc" }, t("game.bonus_help")))),
        h("div", { class: "choice-row" }, h("button", {
          type: "button", class: "choice", "data-testid": "decline-bonus",
          on: { click: () => this.act({ type: "decline" }) },
        }, t("game.decline_bonus"))),
      );
      this.bringIntoView(panel);
      return;
    }
    // Otherwise a bonus turn without an event is said once, by the status line's chip.
    if (!turn || !ev) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    panel.dataset.event = ev.name;
    panel.dataset.used = ev.used ? "true" : "false";
    panel.append(
      h("div", { class: "event-head" },
        eventIcon(ev.name, 40),
        h("div", {},
          h("div", { class: "event-kicker" }, t("event.title"), " — ", h("span", { class: ev.used ? "used" : "unused" }, t(ev.used ? "event.used" : "event.unused"))),
          h("strong", { class: "event-name" }, eventName(ev.name)),
          h("div", { class: "event-desc" }, this.eventWords(ev, turn)))),
    );
    if (choices.swappable.size) {
      panel.append(h("p", { class: "help", "data-announce": "" }, t("game.swap_help")));
      const row = h("div", { class: "choice-row" });
      for (const p of v.players) {
        if (!choices.swappable.has(p.seat)) continue;
        row.append(h("button", {
          type: "button", class: "choice", "data-testid": `swap-${p.seat}`,
          on: { click: () => this.act({ type: "swap", with: p.seat }) },
        }, colorDot(p.color), " ", t("game.swap_with", { name: shownName(p.name) })));
      }
      panel.append(row);
    }
    // Exchange: the pile stays hidden until its player chooses to open it (and so to
    // have it reshuffled); moving on instead changes nothing.
    if (choices.openPile) {
      panel.append(h("p", { class: "help", "data-announce": "" }, t("game.open_pile_help")));
      panel.append(h("div", { class: "choice-row" }, h("button", {
        type: "button", class: "choice", "data-testid": "open-pile",
        on: { click: () => this.act({ type: "open_pile" }) },
      }, eventIcon("exchange", 22), " ", t("game.open_pile"))));
    }
    // Peek and exchange: the cards the event shows (own view only), each a button while
    // the server lists it as a legal pick.
    const me = this.me();
    const shown = me ? (ev.name === "peek" ? me.peek : ev.name === "exchange" ? me.pile : null) : null;
    if (shown && shown.length && !ev.used) {
      const allowed = new Set(choices.picks);
      panel.append(h("p", { class: "help", "data-announce": "" }, t(`game.pick_help.${ev.name}`)));
      const row = h("div", { class: "choice-row" });
      // A whole pile is shown as icons (names in their tooltips); two cards with names.
      const compact = shown.length > 3;
      for (const name of shown) {
        row.append(h("button", {
          type: "button", class: "choice pick" + (compact ? " icon-only" : ""), "data-testid": `pick-${name}`,
          disabled: !allowed.has(name), title: treasureName(name), "aria-label": treasureName(name),
          on: { click: () => this.act({ type: "pick", treasure: name }) },
        }, treasureIcon(name, compact ? 34 : 30), compact ? null : treasureName(name)));
      }
      panel.append(row);
    }
    // On a phone the panel follows the spare tile: a question in it is brought into sight.
    if (panel.querySelector(".choice:not(:disabled)")) this.bringIntoView(panel);
  }

  renderSpare() {
    const v = this.view;
    if (!v) return;
    const el = this.els.spare;
    el.replaceChildren();
    el.setAttribute("viewBox", "-4 -4 108 108");
    const tile = drawTile(v.board.spare, { rotation: this.spareRot });
    const me = this.me();
    if (me && v.status === "playing" && me.target && v.board.spare.treasure === me.target) tile.classList.add("is-target");
    el.append(tile);
    el.dataset.rotation = String(this.spareRot);
    el.dataset.open = v.board.spare.open;
    const label = this.spareWords();
    el.setAttribute("aria-label", label);
    el.append(svg("title", {}, label));
    const canRotate = v.status === "playing" && !!me;
    this.els.rotateCw.disabled = !canRotate;
    this.els.rotateCcw.disabled = !canRotate;
  }

  renderPlayers() {
    const v = this.view;
    const list = this.els.players;
    list.replaceChildren();
    for (const p of v.players) {
      const connected = this.ctx.isConnected(p.seat);
      const isTurn = v.turn && v.turn.seat === p.seat && v.status === "playing";
      const winner = v.result && v.result.winners.includes(p.seat);
      const found = h("span", { class: "found-list" });
      for (const name of p.found) found.append(treasureIcon(name, 22));
      list.append(h("li", {
        class: "player" + (isTurn ? " turn" : "") + (winner ? " winner" : ""),
        "data-testid": `player-${p.seat}`,
      },
      h("div", { class: "player-line" },
        colorDot(p.color, "big"),
        h("span", { class: "player-name" }, shownName(p.name)),
        p.seat === v.you ? h("span", { class: "muted" }, " ", t("game.you")) : null,
        this.pawnWhere(p),
        winner ? h("span", { class: "trophy", "aria-hidden": "true" }, " ★") : null,
        connected === null ? null : connMark(connected)),
      h("div", { class: "player-stats" },
        h("span", { class: "count" }, t("game.found_count", { found: p.found.length, n: p.remaining })),
        found)));
    }
  }

  renderResult() {
    const v = this.view;
    const el = this.els.result;
    if (v.status !== "finished" || !v.result) {
      this.hideResult(el);
      return;
    }
    const names = v.result.winners.map((s) => {
      const p = v.players.find((x) => x.seat === s);
      return p ? shownName(p.name) : "?";
    });
    if (!this.resultChanged(el, JSON.stringify([v.result, names, v.you, !!this.ctx.sharedDevice]))) return;
    el.hidden = false;
    el.replaceChildren();
    el.append(
      h("div", { class: "result-title" }, "★ ", t("game.over"), " ★"),
      h("div", { class: "result-text" },
        h("strong", {}, this.winnerWords(names)),
        v.result.reason ? " — " + this.reasonWords(v.result.reason) : ""),
    );
  }
}

function sameTile(a, b) {
  return !!a && !!b && a.open === b.open && a.treasure === b.treasure && (a.event || null) === (b.event || null);
}
