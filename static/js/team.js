/**
 * Labyrinth Team Edition's part of the room page. It reuses the classic UI for the sliding
 * board (arrows, spare, moves) and adds: face-down tiles drawn as rubble, the Daedalus card
 * just turned and what it did, the spells as buttons lit when usable (from the `legal`
 * list only), the orientation choice for a tile turned face up, every player's treasure
 * board and spells, portal progress, pages left in the book, and the win or loss banner.
 */

import { ClassicUI } from "./classic.js";
import { BOARD_SIZE } from "./board.js";
import { connMark } from "./presence.js";
import { colorDot, h } from "./dom.js";
import { cellName, formatList, sidesWords, slotWords, t } from "./i18n.js";
import { cardWords, SYMBOL_GLYPHS } from "./daedalus.js";
import { shownName } from "./table.js";
import { drawTile, svg, treasureIcon, treasureName } from "./tiles.js";

const C = 100;
const M = (BOARD_SIZE - 7 * C) / 2;
const CELL = (r, c) => "abcdefg"[c] + (r + 1);

/** The spells that are actions of their own (the others ride on a move): what a turn
 * may still do once its move is spent (app/rules/team.py's BOARD_SPELLS). */
const BOARD_SPELLS = ["push", "rotate", "switch"];

/** A face-down tile as the board drawer understands it: a closed tile. */
const BACK = { open: "", treasure: null, fixed: false };

function asDrawable(tile) {
  return tile.face_down && !("open" in tile) ? { ...BACK, face_down: true } : tile;
}

/** The rubble drawn over a face-down tile (its back). */
function rubble() {
  const g = svg("g", { class: "team-rubble", "aria-hidden": "true" });
  g.append(svg("rect", { x: 2, y: 2, width: 96, height: 96, rx: 6, class: "rubble-bed" }));
  for (const [x, y, r] of [[28, 30, 13], [62, 26, 10], [46, 56, 16], [76, 62, 11], [24, 74, 9], [66, 84, 7]]) {
    g.append(svg("circle", { cx: x, cy: y, r, class: "rubble-stone" }));
  }
  return g;
}

function symbolMark(name) {
  const g = svg("g", { class: "team-symbol" });
  g.append(svg("title", {}, t(`team.symbol.${name}`)));
  g.append(svg("circle", { cx: 50, cy: 50, r: 17, class: "symbol-bg" }));
  // The glyph is a picture (its title names it): read out, it was a stray "Ξ ☾ ☄".
  g.append(svg("text", { x: 50, y: 51, "text-anchor": "middle", "dominant-baseline": "middle", "aria-hidden": "true" }, SYMBOL_GLYPHS[name] || "?"));
  return g;
}

/** The spells that are spent by a move (to a cell the plain move cannot reach). */
const MOVE_SPELLS = new Set(["traverse", "teleport", "escape"]);

export class TeamUI extends ClassicUI {
  constructor(els, ctx) {
    super(els, ctx);
    /** "rotate" or "switch" while the player picks cells for that spell */
    this.mode = null;
    /** the first cell of a switch, or the cell being rotated: [r, c] */
    this.picked = null;
    if (els.hand) els.hand.hidden = true;
    this.spellBox = h("div", { class: "team-spells", "data-testid": "team-spells" });
    // The spells and End turn come before the keys' help: on a 768 px screen End turn,
    // which every turn ends with, was below the fold under a paragraph for keyboards.
    els.controls.insertBefore(this.spellBox, els.controls.querySelector(".keys-help"));
    // The spare's German name ("das freie Plättchen") is the page's own entry
    // (`team:game.spare` in i18n.js), as in every text that names it.
    // A greyed arrow did nothing when clicked, and said nothing of why: one that would
    // push a face-down tile out (or undo Daedalus's push) now says so, briefly.
    els.board.addEventListener("click", (ev) => {
      const arrow = ev.target.closest ? ev.target.closest(".arrow[data-blocked]") : null;
      if (arrow && this.ctx.showError) this.ctx.showError(arrow.dataset.why);
    });
  }

  /**
   * Clicks on board cells: a move, or a cell for the spell being aimed. A move that
   * spends a spell (traverse, teleport, escape) is only lit, and only made, while that
   * spell is aimed: a tap on the board never spends one unasked.
   */
  act(action) {
    if (action.type === "move" && !("spell" in action)) {
      const key = action.to.join(",");
      const spending = MOVE_SPELLS.has(this.mode);
      if (this.mode && !spending) return this.pickCell(action.to);
      const found = (this.legal || []).find((a) => a.type === "move" && a.to.join(",") === key && !!a.spell === spending);
      if (spending && !found) return undefined;
      this.mode = null;
      this.picked = null;
      return super.act(found || { ...action, spell: false });
    }
    this.mode = null;
    this.picked = null;
    return super.act(action);
  }

  /**
   * Escape puts an aimed spell down (a keyboard player had no way back but Tab round to
   * its button again) and gives the focus back to that button.
   */
  onKey(ev) {
    if (ev.key === "Escape" && this.mode && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      const spell = this.mode;
      ev.preventDefault();
      this.mode = null;
      this.picked = null;
      this.render({});
      const button = this.spellBox.querySelector(`[data-testid="spell-${spell}"]`);
      if (button) button.focus({ preventScroll: true });
      return;
    }
    super.onKey(ev);
  }

  /** The focus to the first board control whose key starts with `prefix` (a keyboard player's next step). */
  toTargets(prefix) {
    const target = this.els.board.querySelector(`[data-key^="${prefix}"][tabindex]`);
    if (target) target.focus({ preventScroll: true });
  }

  pickCell(cell) {
    if (this.mode === "switch" && this.picked) {
      const a = this.picked;
      this.mode = null;
      this.picked = null;
      return super.act({ type: "switch", cells: [a, cell] });
    }
    this.picked = cell;
    this.render({});
  }

  setState(msg, consecutive) {
    this.mode = null;
    this.picked = null;
    super.setState(msg, consecutive);
  }

  choices() {
    const out = { slots: new Set(), reachable: new Map(), swappable: new Set(), picks: [], stay: false, aim: null };
    if (!this.isMyTurn() || this.pending || this.legal === null) return out;
    if (this.mode === "rotate") out.aim = "team.aim_rotate";
    if (this.mode === "switch") out.aim = this.picked ? "team.aim_switch_with" : "team.aim_switch";
    const me = this.me();
    for (const a of this.legal) {
      if (this.mode === "rotate") {
        if (a.type === "rotate" && !this.picked) out.reachable.set(a.at.join(","), { type: "move", to: a.at });
      } else if (this.mode === "switch") {
        if (a.type !== "switch") continue;
        if (!this.picked) out.reachable.set(a.cells[0].join(","), { type: "move", to: a.cells[0] });
        else if (a.cells[0].join(",") === this.picked.join(",")) out.reachable.set(a.cells[1].join(","), { type: "move", to: a.cells[1] });
      } else if (a.type === "push") out.slots.add(a.side + a.index);
      else if (a.type === "move") {
        // the spell's moves while it is aimed, the plain ones otherwise
        if (!!a.spell !== MOVE_SPELLS.has(this.mode)) continue;
        out.reachable.set(a.to.join(","), a);
        if (me && a.to[0] === me.pos[0] && a.to[1] === me.pos[1] && !a.spell) out.stay = true;
      }
    }
    return out;
  }

  announce(last, view) {
    const name = (seat) => shownName((view.players.find((x) => x.seat === seat) || { name: "?" }).name);
    for (const ev of last.events || []) {
      if (ev.type === "collected") {
        this.moveNewsLine(this.newsAbout("team.news.collected", ev.seat, { name: name(ev.seat), treasure: treasureName(ev.treasure), n: ev.portal }));
      } else if (ev.type === "daedalus") {
        this.moveNewsLine(cardWords(ev.card, ev.effect));
      }
    }
  }

  /**
   * A lit cell's face-down back and its symbol, in words (the pictures reach no screen
   * reader through the cell's button). Drawn from the view the board is drawn from, whose
   * face-down tiles hold nothing of their face.
   */
  cellWhat(r, c) {
    const tile = this.view.board.tiles[r][c];
    const what = [];
    if (tile.face_down) what.push(t("a11y.team.cell_face_down"));
    if (tile.symbol) what.push(t("a11y.team.cell_symbol", { symbol: t(`team.symbol.${tile.symbol}`) }));
    return what;
  }

  /**
   * The treasures the viewer may take now and where they lie face up (a face-down tile's
   * treasure is nobody's to know), and the face-down tiles (no push may take one out).
   * Said from the view the board is drawn from (see render).
   */
  pieceLines() {
    const v = this.view;
    const lines = [];
    const wanted = this.wantedWords();
    if (wanted) lines.push(t("a11y.team.wanted", { list: wanted }));
    const down = [];
    v.board.tiles.forEach((row, r) => row.forEach((tile, c) => {
      if (tile.face_down && !("open" in tile && tile.open)) down.push(cellName([r, c]));
    }));
    if (down.length && v.status === "playing") lines.push(t("a11y.team.face_down", { cells: down.join(", ") }));
    return lines;
  }

  /** "ring on c3, bat, not in sight": the viewer's treasures to take now, or "". */
  wantedWords() {
    const me = this.me();
    if (!me || this.view.status !== "playing" || !me.collectable || !me.collectable.length) return "";
    const tiles = this.view.board.tiles;
    return formatList(me.collectable.map((treasure) => {
      for (let r = 0; r < tiles.length; r++) {
        for (let c = 0; c < tiles[r].length; c++) {
          const tile = tiles[r][c];
          if (!tile.face_down && tile.treasure === treasure) return t("a11y.team.at", { treasure: treasureName(treasure), cell: cellName([r, c]) });
        }
      }
      return t("a11y.team.unseen", { treasure: treasureName(treasure) });
    }));
  }

  render(anim = {}) {
    const v = this.view;
    if (!v) return;
    // The board drawer knows classic tiles: give it closed tiles for the backs, then lay
    // the rubble and the symbols over them.
    const shown = {
      ...v,
      board: { ...v.board, tiles: v.board.tiles.map((row) => row.map(asDrawable)), last_push: null },
      // No single target (and no "go home"): the treasure boards are highlighted below.
      players: v.players.map((p) => ({ ...p, target: undefined, found: [], remaining: p.board.length })),
    };
    const real = this.view;
    this.view = shown;
    super.render({ ...anim, animatePush: null });
    this.view = real;
    this.decorateBoard();
    this.explainArrows();
    this.renderSpells();
    this.els.board.dataset.phase = v.turn ? v.turn.phase : "over";
  }

  decorateBoard() {
    const v = this.view;
    for (let r = 0; r < 7; r++) {
      for (let c = 0; c < 7; c++) {
        const tile = v.board.tiles[r][c];
        const cell = this.els.board.querySelector(`[data-cell="${r},${c}"]`);
        if (!cell) continue;
        if (tile.face_down) {
          cell.append(rubble());
          cell.dataset.faceDown = "true";
          // A finished game's view shows each tile's face (its openings, whatever it
          // carries): the back goes see-through over every one, a plain corridor too.
          if (tile.open !== undefined) cell.classList.add("revealed-back");
        }
        if (tile.symbol) cell.append(symbolMark(tile.symbol));
        if (v.turn && v.turn.orient_at && v.turn.orient_at[0] === r && v.turn.orient_at[1] === c) cell.classList.add("orienting");
        if (this.picked && this.picked[0] === r && this.picked[1] === c) cell.classList.add("picked");
      }
    }
    // Highlight the treasures the viewer may collect now: in expert only the left card of
    // the board (the rules engine says which, `collectable`), or the others' once the
    // viewer's board and the deck are empty.
    const me = this.me();
    const wanted = new Set(me ? me.collectable : []);
    for (const el of this.els.board.querySelectorAll("[data-cell]")) {
      const [r, c] = el.dataset.cell.split(",").map(Number);
      const tile = v.board.tiles[r][c];
      const inner = el.firstChild;
      if (inner && inner.classList) inner.classList.toggle("is-target", !!(tile.treasure && !tile.face_down && wanted.has(tile.treasure)));
    }
  }

  /**
   * The arrows the push spell may not take, while it may take others: the one that would
   * push a face-down tile out of the maze (never allowed) says so in its label, and
   * Daedalus's reverse its own rule; a click on either says why in a short message.
   */
  explainArrows() {
    const v = this.view;
    const pushing = this.isMyTurn() && !this.pending && (this.legal || []).some((a) => a.type === "push");
    for (const g of this.els.board.querySelectorAll(".arrow[data-key^='arrow-']")) {
      const [, side, at] = g.dataset.key.split("-");
      const index = Number(at);
      const slot = slotWords(side, index);
      const out = side === "N" ? [6, index] : side === "S" ? [0, index] : side === "W" ? [index, 6] : [index, 0];
      const tile = v.board.tiles[out[0]][out[1]];
      let label = null;
      let why = null;
      if (pushing && g.dataset.active !== "true") {
        if (g.classList.contains("forbidden")) {
          why = t("team.arrow_daedalus_why");
        } else if (tile && tile.face_down) {
          label = t("team.arrow_face_down", { slot, cell: cellName(out) });
          why = t("team.arrow_face_down_why", { cell: cellName(out) });
        }
      }
      const title = g.querySelector("title");
      if (label) {
        g.setAttribute("aria-label", label);
        if (title) title.textContent = label;
        g.classList.add("blocked");
      } else if (g.dataset.blocked && !g.classList.contains("forbidden")) {
        // the board keeps an arrow whose own state did not change: its plain words again
        const plain = t("game.arrow", { slot });
        if (g.dataset.active !== "true") g.setAttribute("aria-label", plain);
        if (title) title.textContent = plain;
        g.classList.remove("blocked");
      }
      if (why) {
        g.dataset.blocked = "true";
        g.dataset.why = why;
      } else {
        delete g.dataset.blocked;
        delete g.dataset.why;
      }
    }
  }

  renderSpare() {
    const v = this.view;
    if (!v) return;
    super.renderSpare();
    if (v.board.spare.symbol) this.els.spare.append(symbolMark(v.board.spare.symbol));
    // Laying a tile turned up is done with its own buttons: turning the spare then would
    // read as the way to do it.
    if (v.turn && v.turn.phase === "orient" && this.isMyTurn()) {
      this.els.rotateCw.disabled = true;
      this.els.rotateCcw.disabled = true;
    }
  }

  /** The status line: whose turn, moves left, spells used. */
  renderStatus() {
    const v = this.view;
    const el = this.els.turn;
    el.replaceChildren();
    el.dataset.seq = String(v.seq);
    this.els.seq.dataset.seq = String(v.seq);
    this.els.seq.textContent = t("game.move_no", { n: v.seq });
    if (v.status !== "playing" || !v.turn) {
      el.dataset.phase = "over";
      el.append(h("strong", {}, t("game.over")));
      return;
    }
    const p = v.players.find((x) => x.seat === v.turn.seat);
    // Several people at one device, with no shield between them (nothing is secret in
    // this game): "Your turn" named nobody, so the line says whose it is.
    const shared = !!this.ctx.sharedDevice;
    el.dataset.seat = String(v.turn.seat);
    el.dataset.phase = v.turn.phase;
    el.append(colorDot(p.color, "big"));
    if (v.turn.phase === "daedalus") {
      // the game's first step: the first Daedalus card, turned in front of everyone
      el.append(this.isMyTurn() ? h("strong", {}, t("team.first_card")) : h("span", {}, t("team.turn.other_first_card", { name: shownName(p.name) })));
      return;
    }
    if (v.turn.phase === "orient") {
      // a step onto a face-down tile turned it up: it is laid before anything else, and
      // the choices are under the board, off a phone's screen, so the line says so
      const cell = cellName(v.turn.orient_at);
      el.append(this.isMyTurn()
        ? h("strong", {}, t(shared ? "team.turn.orient_named" : "team.turn.orient", { cell, name: shownName(p.name) }))
        : h("span", {}, t("team.turn.other_orient", { name: shownName(p.name), cell })));
    } else if (this.isMyTurn()) {
      const hint = this.turnHint();
      el.append(h("strong", {}, t(shared ? "team.turn.yours_named" : "team.turn.yours", { name: shownName(p.name) }),
        hint ? h("span", { class: "turn-hint", "data-testid": "turn-hint" }, t(hint)) : null));
    } else {
      el.append(h("span", {}, t("team.turn.other", { name: shownName(p.name) })));
    }
    el.append(h("span", { class: "event-chip" }, t("team.moves", { n: v.turn.moves, m: v.turn.moves_allowed })));
    if (v.turn.collected) el.append(h("span", { class: "event-chip" }, t("team.bonus")));
  }

  /**
   * What is left of the player's turn, in words after "Your turn": "Your turn" alone left
   * a first game's player looking for what to do (a push? a move first?). Spells and the
   * move come in any order; once both are spent the turn ends by itself. Null then.
   * (A phone's line keeps one row and hides it: its End turn needs the room.)
   */
  turnHint() {
    const turn = this.view.turn;
    const mover = this.view.players.find((x) => x.seat === turn.seat);
    const spells = !!mover && mover.spells.some((s) => BOARD_SPELLS.includes(s) && !turn.used.includes(s));
    const moves = turn.moves < turn.moves_allowed;
    if (spells && moves) return "team.turn.hint_both";
    if (moves) return "team.turn.hint_move";
    return spells ? "team.turn.hint_spells" : null;
  }

  /** The target box: the viewer's treasure board, portal progress and pages left. */
  renderTarget() {
    const v = this.view;
    const box = this.els.target;
    box.replaceChildren();
    box.hidden = false;
    box.classList.add("team-target");
    box.append(
      h("div", { class: "team-progress", "data-testid": "team-portal" },
        h("span", { class: "label" }, t("team.portal")),
        h("progress", { max: "24", value: String(v.portal), "aria-label": t("team.portal") }),
        h("strong", {}, `${v.portal} / 24`)),
      h("div", { class: "team-counts" },
        h("span", { "data-testid": "team-pages" }, t("team.pages", { n: v.daedalus.left })), " · ",
        h("span", {}, t("team.deck", { n: v.treasure_deck }))),
    );
    // Where one's treasures to take lie, for a screen reader (the board shows the others).
    const wanted = this.wantedWords();
    if (wanted) box.append(h("span", { class: "visually-hidden", "data-testid": "target-where" }, t("a11y.team.wanted", { list: wanted })));
  }

  /** The Daedalus panel: the card just turned, prominently, and what it did. */
  renderEvent() {
    const v = this.view;
    const panel = this.els.event;
    panel.replaceChildren();
    const d = v.daedalus;
    if (d && !d.card && v.status === "playing" && v.turn && v.turn.phase === "daedalus") {
      // The book is still shut: the board is all face up, and the first turn opens it.
      const canTurn = this.isMyTurn() && !this.pending && (this.legal || []).some((a) => a.type === "daedalus");
      panel.hidden = false;
      panel.dataset.event = "daedalus";
      panel.append(
        h("div", { class: "event-head team-daedalus", "data-testid": "daedalus-shut" },
          h("div", { class: "daedalus-page", "aria-hidden": "true" }, "?"),
          h("div", {},
            h("div", { class: "event-kicker" }, t("team.daedalus")),
            h("div", { class: "event-desc" }, t("team.first_card_help")))),
      );
      if (this.isMyTurn()) {
        panel.append(h("div", { class: "choice-row" }, h("button", {
          type: "button", class: "choice primary", "data-testid": "turn-first-card", disabled: !canTurn,
          on: { click: () => this.act({ type: "daedalus" }) },
        }, t("team.first_card"))));
      }
      return;
    }
    if (!d || !d.card) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    panel.dataset.event = "daedalus";
    const effect = d.effect || {};
    const names = (seats) => seats.map((s) => shownName((v.players.find((p) => p.seat === s) || { name: "?" }).name)).join(", ");
    const lines = [];
    if (effect.kind === "flip") lines.push(t("team.effect.flip", { n: effect.cells.length, cells: effect.cells.map(([r, c]) => CELL(r, c)).join(", ") || "—" }));
    if (effect.kind === "teleport") {
      lines.push(effect.seats.length ? t("team.effect.teleport", { names: names(effect.seats) }) : t("team.effect.teleport_none"));
    }
    if (effect.kind === "push") lines.push(t("team.effect.push"));
    if (effect.sent_home && effect.sent_home.length) lines.push(t("team.effect.home", { names: names(effect.sent_home) }));
    panel.append(
      h("div", { class: "event-head team-daedalus", "data-testid": "daedalus-card", "data-kind": d.card.kind },
        h("div", { class: "daedalus-page", "aria-hidden": "true" }, d.card.kind === "push" ? "⇥" : d.card.kind === "flip" ? "⟲" : "✦"),
        h("div", {},
          h("div", { class: "event-kicker" }, t("team.daedalus")),
          h("strong", { class: "event-name" }, cardWords(d.card, d.effect)),
          ...lines.map((line) => h("div", { class: "event-desc" }, line)))),
    );
  }

  /** Spells as buttons lit when the legal list allows them; end turn; orientations. */
  renderSpells() {
    const v = this.view;
    const box = this.spellBox;
    box.replaceChildren();
    const me = this.me();
    if (!me || v.status !== "playing") return;
    const legal = this.isMyTurn() && !this.pending ? this.legal || [] : [];
    const has = (type, pred = () => true) => legal.some((a) => a.type === type && pred(a));
    // The spells used this turn are the current player's: one's own read as used only on one's turn.
    const mine = this.isMyTurn();
    const used = new Set(v.turn && mine ? v.turn.used : []);
    const orienting = v.turn && v.turn.phase === "orient" && this.isMyTurn();
    // Laying the tile turned face up is no spell: the box says what it holds now.
    box.append(h("h2", { "data-testid": "spells-title" }, t(orienting ? "team.orient_title" : "team.spells")));
    if (orienting) {
      box.append(h("p", { class: "help" }, t("team.orient_help")));
      const row = h("div", { class: "choice-row" });
      const [r, c] = v.turn.orient_at;
      const tile = v.board.tiles[r][c];
      for (const a of legal.filter((x) => x.type === "orient")) {
        const pic = svg("svg", { viewBox: "-4 -4 108 108", width: 44, height: 44 });
        pic.append(drawTile({ ...tile, open: a.open }));
        row.append(h("button", { type: "button", class: "choice", "data-testid": `orient-${a.open}`, "aria-label": t("game.paths", { sides: sidesWords(a.open) }), on: { click: () => this.act(a) } }, pic));
      }
      box.append(row);
      if (row.childElementCount) this.bringIntoView(box);
      return;
    }
    const row = h("div", { class: "choice-row" });
    for (const spell of me.spells) {
      let usable = false;
      let onClick = null;
      if (spell === "push") usable = has("push");
      if (spell === "rotate") {
        usable = has("rotate");
        onClick = () => { this.mode = this.mode === "rotate" ? null : "rotate"; this.picked = null; this.render({}); };
      }
      if (spell === "switch") {
        usable = has("switch");
        onClick = () => { this.mode = this.mode === "switch" ? null : "switch"; this.picked = null; this.render({}); };
      }
      if (MOVE_SPELLS.has(spell)) usable = has("move", (a) => a.spell);
      // Push and the move spells act through the board: a click says how.
      if (!onClick) onClick = () => { this.mode = this.mode === spell ? null : spell; this.picked = null; this.render({}); };
      const chosen = onClick;
      // Chosen from the keyboard (Enter or Space): on to the board, where the spell aims.
      onClick = (ev) => {
        chosen();
        if (ev.detail === 0 && this.mode === spell) this.toTargets(spell === "push" ? "arrow-" : "cell-");
      };
      // Its state in words under its name (phones show no tooltips).
      const state = !mine ? "wait" : used.has(spell) ? "used" : usable ? "ready" : "unavailable";
      const words = state === "unavailable" ? this.whyNot(spell, legal) : `team.spell_state.${state}`;
      row.append(h("button", {
        type: "button", class: `choice spell spell-${state}` + (usable ? " usable" : "") + (used.has(spell) ? " used" : "") + (this.mode === spell ? " aiming" : ""),
        "data-testid": `spell-${spell}`, "data-usable": usable ? "true" : "false", "data-state": state, disabled: !usable,
        "aria-pressed": this.mode === spell ? "true" : "false",
        title: t(`team.spell.${spell}.help`), on: { click: onClick },
      }, h("span", { class: "spell-name" }, t(`spell.${spell}`)), h("small", { class: "spell-state" }, t(words))));
    }
    row.append(h("button", {
      type: "button", class: "choice end-turn", "data-testid": "end-turn", disabled: !has("end"),
      on: { click: () => this.act({ type: "end" }) },
    }, t("team.end_turn")));
    box.append(row);
    if (this.mode === "rotate" && this.picked) {
      const [r, c] = this.picked;
      const tile = v.board.tiles[r][c];
      const opts = legal.filter((a) => a.type === "rotate" && a.at[0] === r && a.at[1] === c);
      const pick = h("div", { class: "choice-row" });
      for (const a of opts) {
        const pic = svg("svg", { viewBox: "-4 -4 108 108", width: 44, height: 44 });
        pic.append(drawTile({ ...tile, open: a.open }));
        pick.append(h("button", { type: "button", class: "choice", "data-testid": `rotate-${a.open}`, "aria-label": t("game.paths", { sides: sidesWords(a.open) }), on: { click: () => this.act(a) } }, pic));
      }
      box.append(h("p", { class: "help" }, t("team.rotate_pick", { cell: CELL(r, c) })), pick);
      // On a phone the ways to turn it are below the screen's edge: brought into sight, as
      // the ways to lay a tile turned up are, once for each tile picked.
      const asking = `${v.seq}:${r},${c}`;
      if (this.rotateAsked !== asking) {
        this.rotateAsked = asking;
        this.asked = null;
        this.bringIntoView(box);
      }
    } else if (this.mode) {
      const key = this.mode === "rotate" || this.mode === "switch" ? `team.${this.mode}_help` : `team.spell.${this.mode}.help`;
      // the switch's second tile: the help says which the first was (it said "two tiles" still)
      const words = this.mode === "switch" && this.picked ? t("team.switch_second", { cell: CELL(...this.picked) }) : t(key);
      box.append(h("p", { class: "help", "data-testid": "spell-help" }, words));
    }
    // How to put the spell down again, for a keyboard (hidden on touch screens, as the
    // spare tile's keys are).
    if (this.mode) box.append(h("p", { class: "help keys-help", "data-testid": "aim-cancel" }, t("team.aim_cancel")));
  }

  /**
   * Why a spell of one's own, unused, is not on offer: the rule it meets here, so the
   * player need not guess (the legal list says only that it is not). While that list is
   * not the step's own (in flight, or the first Daedalus card to turn: no `end` in it),
   * the words stay general.
   */
  whyNot(spell, legal) {
    const turn = this.view.turn;
    if (!legal.some((a) => a.type === "end")) return "team.spell_state.unavailable";
    if (MOVE_SPELLS.has(spell) && turn.moves >= turn.moves_allowed) return "team.spell_state.no_move";
    if (spell === "switch") return "team.spell_state.unavailable";
    return `team.spell_state.${spell}`;
  }

  /** Every player's treasure board and spells (boards are public in this game). */
  renderPlayers() {
    const v = this.view;
    const list = this.els.players;
    list.replaceChildren();
    for (const p of v.players) {
      const isTurn = v.turn && v.turn.seat === p.seat && v.status === "playing";
      const cards = h("span", { class: "found-list team-board", "data-testid": `team-board-${p.seat}` });
      // A card that may not be collected yet (expert: the right one) is drawn paler.
      const now = new Set(p.collectable);
      for (const name of p.board) {
        const later = !now.has(name) && v.status === "playing";
        cards.append(h("span", { class: "team-card" + (later ? " later" : ""), "data-later": later ? "true" : null,
          title: later ? t("team.card_later", { treasure: treasureName(name) }) : treasureName(name) }, treasureIcon(name, 26)));
      }
      if (!p.board.length) cards.append(h("span", { class: "muted" }, t("team.board_empty")));
      const connected = this.ctx.isConnected(p.seat);
      list.append(h("li", { class: "player" + (isTurn ? " turn" : ""), "data-testid": `player-${p.seat}` },
        h("div", { class: "player-line" },
          colorDot(p.color, "big"),
          h("span", { class: "player-name" }, shownName(p.name)),
          p.seat === v.you ? h("span", { class: "muted" }, " ", t("game.you")) : null,
          this.pawnWhere(p),
          connected === null ? null : connMark(connected)),
        h("div", { class: "player-stats" },
          cards,
          h("span", { class: "team-spell-list" }, p.spells.map((s) => t(`spell.${s}`)).join(" · ")))));
    }
    // Expert: the boards' paler right cards, said in words under them.
    if (v.options && v.options.mode === "expert" && v.status === "playing") {
      list.append(h("li", { class: "team-rule", "data-testid": "team-expert-rule" }, t("team.expert_order")));
    }
  }

  renderResult() {
    const v = this.view;
    const el = this.els.result;
    if (v.status !== "finished" || !v.result) {
      this.hideResult(el);
      return;
    }
    const won = v.result.winners.length > 0;
    if (!this.resultChanged(el, JSON.stringify([v.result, v.portal]))) return;
    el.hidden = false;
    el.dataset.outcome = won ? "won" : "lost";
    el.replaceChildren(
      h("div", { class: "result-title" }, won ? t("team.won.title") : t("team.lost.title")),
      h("div", { class: "result-text" }, won ? t("team.won") : t("team.lost", { n: v.portal })),
    );
  }
}
