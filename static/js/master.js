/**
 * Master Labyrinth's part of the room page. It reuses the classic UI for the sliding board
 * (arrows, spare, moves) and adds the lair and the dragon with its facing, the guardians,
 * the value tokens, one's own hand (cards usable now highlighted), every player's coins and
 * treasures, the dice of the last action, the decision prompts (coin, re-roll, challenge,
 * double turn), the final duel and the score table. The server alone decides: prompts are
 * built from the `legal` list only.
 */

import { ClassicUI } from "./classic.js";
import { BOARD_SIZE } from "./board.js";
import { colorDot, h } from "./dom.js";
import { cellName, formatList, t } from "./i18n.js";
import { diceWords } from "./movelog.js";
import { shownName } from "./table.js";
import { svg } from "./tiles.js";

const C = 100;
const M = (BOARD_SIZE - 7 * C) / 2;
const DIE_PIPS = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};
const FACING_ANGLE = { N: 0, E: 90, S: 180, W: 270 };

function cellXY([r, c]) {
  return [M + c * C + C / 2, M + r * C + C / 2];
}

/** A duel-die face as a small SVG. */
function dieFace(value, cls = "") {
  const s = svg("svg", { class: "die " + cls, viewBox: "-20 -20 40 40", width: 34, height: 34, role: "img", "aria-label": String(value) });
  s.append(svg("rect", { x: -18, y: -18, width: 36, height: 36, rx: 7, class: "die-body" }));
  for (const [x, y] of DIE_PIPS[value] || []) s.append(svg("circle", { cx: x * 9, cy: y * 9, r: 3.6, class: "die-pip" }));
  return s;
}

/** The dragon die's face: a guardian, or arrows with the way the dragon now faces. */
function dragonFace(face, facing) {
  const box = h("span", { class: "dragon-face", "data-face": face });
  if (face === "white" || face === "black") box.append(h("span", { class: `guardian-chip ${face}` }), " ", t(`master.guardian.${face}`));
  else {
    // "1 × ↻" read out as "1 times" and a symbol: the arrows in words for a screen reader
    box.append(h("span", { "aria-hidden": "true" }, t("master.arrows", { n: face, dir: t(`dir.${facing}`) })),
      h("span", { class: "visually-hidden" }, t("a11y.master.arrows", { n: face, dir: t(`dir.${facing}`) })));
  }
  return box;
}

export class MasterUI extends ClassicUI {
  constructor(els, ctx) {
    super(els, ctx);
    /** @type {object[]} the events of the last action, for the dice strip */
    this.lastEvents = [];
    /** @type {object|null} the dragon die's `threat` event while it is news (see setState) */
    this.threat = null;
    /** @type {object|null} the view whose question the page last brought into sight */
    this.asked = null;
    // The hand lives in the controls card, beside the spare tile (the page's hand panel
    // shares the controls' grid area).
    if (els.hand) els.hand.hidden = true;
    this.handBox = h("div", { class: "master-hand", "data-testid": "master-hand" });
    els.controls.append(this.handBox);
  }

  isMyTurn() {
    const v = this.view;
    return !!(v && v.status === "playing" && v.turn && v.you !== null && v.you !== undefined && v.turn.actor === v.you && !this.standsIn());
  }

  setState(msg, consecutive) {
    this.lastEvents = (msg.last && msg.last.events) || [];
    // The corridors a die threatened stay drawn through the duel it started (the re-roll
    // questions), so whoever is asked sees why; the next action of any other kind ends it.
    const threat = this.lastEvents.find((ev) => ev.type === "threat");
    const dueling = msg.view && msg.view.turn && msg.view.turn.phase === "reroll";
    if (threat) this.threat = threat;
    else if (!dueling || !consecutive) this.threat = null;
    super.setState(msg, consecutive);
  }

  /**
   * A decision with a single possible answer (a roll to accept with no 1-6 card in hand,
   * a turn to end with no 7-12 card) is not asked: that answer is sent at once, so the
   * log still records it as an explicit action. Those hands' halves are public anyway.
   * Not the coin question: it is asked of whoever holds any card of the token's half so
   * that it tells nobody which values they hold (master.md), and an answer sent at once
   * when the card is not there would tell the others exactly that.
   */
  legalReady() {
    const legal = this.legal;
    if (!this.isMyTurn() || this.pending || !legal || legal.length !== 1) return;
    const only = legal[0];
    if (only.type !== "push" && only.type !== "move" && only.type !== "no_coin") this.act(only);
  }

  /** The decisions on offer, from `legal` only. */
  decisions() {
    return (this.legal || []).filter((a) => a.type !== "push" && a.type !== "move");
  }

  announce(last, view) {
    const name = (seat) => shownName((view.players.find((p) => p.seat === seat) || { name: "?" }).name);
    for (const ev of last.events || []) {
      if (ev.type === "took") this.moveNewsLine(this.newsAbout("master.news.took", ev.seat, { name: name(ev.seat), value: ev.value }));
      else if (ev.type === "lost") this.moveNewsLine(this.newsAbout("master.news.lost", ev.seat, { name: name(ev.seat), value: ev.value }));
      else if (ev.type === "second_phase") this.moveNewsLine(t("master.news.second"));
      else if (ev.type === "final_duel") this.moveNewsLine(this.newsAbout(ev.won ? "master.news.final_won" : "master.news.final_lost", ev.seat, { name: name(ev.seat), total: ev.total }));
    }
    // What the dice did after this page's own move: the others hear it in the move's
    // words (room.js `sayMove`), but the mover would only see the dice panel, which is no
    // live region. On a shared device the view is the next person's by now: the move was
    // still this device's (and its dice no one else's words say).
    const own = this.ctx.ownsSeat ? this.ctx.ownsSeat(last.seat) : last.seat === view.you;
    if (own && !last.by && this.ctx.say) {
      const words = diceWords(last.events, { names: name });
      if (words) this.ctx.say(words);
    }
  }

  render(anim = {}) {
    super.render(anim);
    if (!this.view) return;
    this.drawPieces();
    this.renderHand();
    this.els.board.dataset.variant = "master";
  }

  /**
   * A lit cell's tokens, guardians and danger in words: the pictures' titles reach no
   * screen reader through the cell's button, and where to go is chosen by them.
   */
  cellWhat(r, c) {
    const v = this.view;
    const at = (pos) => pos && pos[0] === r && pos[1] === c;
    const what = [];
    for (const tok of v.tokens) {
      if (at(tok.pos)) what.push(t(tok.value === v.lowest ? "master.cell_token_next" : "master.token", { value: tok.value }));
    }
    for (const [name, pos] of Object.entries(v.guardians)) if (at(pos)) what.push(t(`master.guardian.${name}`));
    if (v.stage === "final" && at(v.dragon.front)) what.push(t("master.cell_front"));
    else if (this.threat && this.threat.cells.some(at)) what.push(t("master.cell_threatened"));
    return what;
  }

  /** The lair, the dragon, its front cell, guardians and tokens, under the pawns. */
  drawPieces() {
    const v = this.view;
    const root = this.els.board;
    const layer = svg("g", { class: "master-pieces", "pointer-events": "none" });
    const [fx, fy] = cellXY(v.dragon.front);
    if (v.stage === "final") layer.append(svg("rect", { class: "dragon-front", x: fx - C / 2 + 3, y: fy - C / 2 + 3, width: C - 6, height: C - 6, rx: 12 }));
    if (this.threat && this.threat.cells.length) {
      const breath = svg("g", { class: "threat-cells", "data-testid": "threat-cells", "data-source": this.threat.source });
      for (const cell of this.threat.cells) {
        const [x, y] = cellXY(cell);
        breath.append(svg("rect", { class: "threat-cell", x: x - C / 2 + 6, y: y - C / 2 + 6, width: C - 12, height: C - 12, rx: 10 }));
      }
      breath.append(svg("title", {}, t("master.threat_cells")));
      layer.append(breath);
    }
    const [lx, ly] = cellXY(v.lair);
    const lair = svg("g", { class: "lair", transform: `translate(${lx} ${ly})`, "data-testid": "lair", "data-facing": v.dragon.facing });
    lair.append(svg("rect", { class: "lair-base", x: -44, y: -44, width: 88, height: 88, rx: 18 }));
    const dragon = svg("g", { class: "dragon", transform: `rotate(${FACING_ANGLE[v.dragon.facing]})` });
    dragon.append(svg("path", { class: "dragon-body", d: "M 0 -40 L 22 -6 L 14 26 L 0 16 L -14 26 L -22 -6 Z" }));
    dragon.append(svg("circle", { class: "dragon-eye", cx: -7, cy: -16, r: 3.2 }));
    dragon.append(svg("circle", { class: "dragon-eye", cx: 7, cy: -16, r: 3.2 }));
    lair.append(dragon, svg("title", {}, t("master.dragon_facing", { dir: t(`dir.${v.dragon.facing}`) })));
    layer.append(lair);
    for (const tok of v.tokens) {
      const [x, y] = cellXY(tok.pos);
      const g = svg("g", {
        class: "token" + (tok.value === v.lowest ? " lowest" : "") + (tok.value > 6 ? " high" : ""),
        transform: `translate(${x} ${y + 22})`, "data-testid": `token-${tok.pos[0]}-${tok.pos[1]}`, "data-value": String(tok.value),
      });
      // Named in words; the digit alone read "1 4 2 3…" out of any context.
      g.append(svg("title", {}, t("master.token", { value: tok.value })), svg("circle", { r: 17 }),
        svg("text", { "text-anchor": "middle", "dominant-baseline": "central", "aria-hidden": "true" }, String(tok.value)));
      layer.append(g);
    }
    for (const [name, pos] of Object.entries(v.guardians)) {
      const [x, y] = cellXY(pos);
      // On the lair the shield keeps to a corner (one each): over the cell's top it hid
      // the dragon's head, whose facing says who is threatened.
      const onLair = pos[0] === v.lair[0] && pos[1] === v.lair[1];
      const at = onLair ? `translate(${x + (name === "white" ? -36 : 36)} ${y - 40}) scale(.55)` : `translate(${x} ${y - 26})`;
      const g = svg("g", { class: `guardian ${name}`, transform: at, "data-testid": `guardian-${name}`, "data-on-lair": onLair ? "true" : "false" });
      g.append(svg("path", { d: "M -13 -13 L 13 -13 L 13 2 Q 0 18 0 18 Q 0 18 -13 2 Z" }), svg("title", {}, t(`master.guardian.${name}`)));
      layer.append(g);
    }
    const pawns = root.querySelector("g.pawns");
    root.insertBefore(layer, pawns);
  }

  /** The next treasure, the dragon, the guardians and the treasures on the board, in words. */
  pieceLines() {
    const v = this.view;
    const lines = [];
    const tok = v.tokens.find((x) => x.value === v.lowest);
    if (v.stage !== "final" && tok) lines.push(t("a11y.master.next", { value: tok.value, where: t("a11y.on_cell", { cell: cellName(tok.pos) }) }));
    lines.push(t("a11y.master.dragon", { cell: cellName(v.lair), dir: t(`dir.${v.dragon.facing}`) }));
    if (v.stage === "final") lines.push(t("a11y.master.front", { cell: cellName(v.dragon.front) }));
    for (const [name, pos] of Object.entries(v.guardians)) lines.push(t(`a11y.master.guardian.${name}`, { cell: cellName(pos) }));
    const tokens = [...v.tokens].sort((a, b) => a.value - b.value);
    if (tokens.length) lines.push(t("a11y.master.tokens", { list: tokens.map((x) => t("a11y.master.token_at", { value: x.value, cell: cellName(x.pos) })).join(", ") }));
    return lines;
  }

  renderStatus() {
    super.renderStatus();
    const v = this.view;
    if (v.status !== "playing" || !v.turn) return;
    const el = this.els.turn;
    const actor = v.players.find((p) => p.seat === v.turn.actor);
    const phase = v.turn.phase;
    if (phase !== "push" && phase !== "move") {
      // The coin's question is no question without the token's card in one's hand: the
      // line says so, as the panel does ("keep my cards" is the one answer).
      const me = this.me();
      const none = phase === "coin" && me && me.hand && !me.hand.includes(v.turn.taken);
      el.replaceChildren(colorDot(actor.color, "big"),
        this.isMyTurn() ? h("strong", {}, t(none ? "master.phase.coin_none" : `master.phase.${phase}`)) : h("span", {}, t("master.phase.other", { name: shownName(actor.name), what: t(`master.phase.${phase}`) })));
    }
    // The bonus turn is its player's: not shown beside another's question (a duel's).
    if (v.turn.bonus && v.turn.actor === v.turn.seat && !el.querySelector("[data-testid=bonus]")) el.append(h("span", { class: "event-chip", "data-testid": "bonus" }, t("game.bonus")));
  }

  /** The target box shows what to take next (or the dragon in the final). */
  renderTarget() {
    const v = this.view;
    const box = this.els.target;
    box.replaceChildren();
    box.hidden = v.status !== "playing";
    if (box.hidden) return;
    if (v.stage === "final") {
      box.append(h("strong", {}, t("master.target.final")),
        h("span", { class: "visually-hidden", "data-testid": "target-where" }, ": " + cellName(v.dragon.front)));
    } else {
      box.append(h("span", { class: "label" }, t("master.target.lowest")), h("strong", { class: "token-chip" }, String(v.lowest)));
      // where it lies, for a screen reader (the board shows the others)
      const tok = v.tokens.find((x) => x.value === v.lowest);
      if (tok) box.append(h("span", { class: "visually-hidden", "data-testid": "target-where" }, ", " + t("a11y.on_cell", { cell: cellName(tok.pos) })));
    }
    // The stage goes with what is to take (its treasures), not on the turn's line, whose
    // height it changed (a row of its own on a phone, the board moving at each turn).
    box.append(h("span", { class: "stage-chip", "data-testid": "stage" }, t(`master.stage.${v.stage}`)));
  }

  /** The dice of the last action and the decision prompt. */
  renderEvent() {
    const v = this.view;
    const panel = this.els.event;
    panel.replaceChildren();
    const dice = h("div", { class: "dice-strip", "data-testid": "dice" });
    const duelOver = this.lastEvents.some((ev) => ev.type === "final_duel");
    for (const ev of this.lastEvents) {
      const who = shownName((v.players.find((p) => p.seat === ev.seat) || {}).name || "");
      // The duel's end shows its three dice together (below): its last roll is one of them.
      if (ev.type === "final_roll" && duelOver) continue;
      if (ev.type === "final_duel" && Array.isArray(ev.rolls)) {
        const rolls = h("div", { class: "final-rolls", "data-testid": "final-rolls" }, h("span", { class: "label" }, t("master.final_duel")));
        for (const r of ev.rolls) rolls.append(dieFace(r));
        dice.append(rolls);
      }
      if (ev.type === "dragon_die") dice.append(h("div", { class: "roll" }, h("span", { class: "label" }, t("master.dragon_die")), dragonFace(ev.face, ev.facing)));
      else if (ev.type === "threat") dice.append(h("div", { class: "roll", "data-testid": "threat" }, this.threatWords(ev)));
      else if (ev.type === "duel_roll") dice.append(h("div", { class: "roll" }, h("span", { class: "label" }, t("master.duel_roll", { name: who })), dieFace(ev.roll, ev.roll >= 4 ? "good" : "bad")));
      else if (ev.type === "final_roll") dice.append(h("div", { class: "roll" }, h("span", { class: "label" }, t("master.final_roll", { name: who, n: ev.index + 1 })), dieFace(ev.roll)));
      else if (ev.type === "lost") dice.append(h("div", { class: "roll bad" }, t("master.news.lost", { name: who, value: ev.value })));
      else if (ev.type === "duel_won") dice.append(h("div", { class: "roll good", "data-testid": "duel-won" }, t("master.news.duel_won", { name: who })));
      else if (ev.type === "final_duel") dice.append(h("div", { class: "roll " + (ev.won ? "good" : "bad") }, t(ev.won ? "master.news.final_won" : "master.news.final_lost", { name: who, total: ev.total })));
    }
    const turn = v.status === "playing" ? v.turn : null;
    if (turn && turn.phase === "final") {
      const rolls = h("div", { class: "final-rolls", "data-testid": "final-rolls" }, h("span", { class: "label" }, t("master.final_duel")));
      for (const r of turn.final || []) rolls.append(dieFace(r));
      if (turn.roll) rolls.append(dieFace(turn.roll, "pending"));
      dice.append(rolls);
    }
    if (dice.childElementCount) panel.append(dice);
    const decisions = this.isMyTurn() && !this.pending ? this.decisions() : [];
    if (decisions.length) {
      panel.append(h("p", { class: "help", "data-testid": "decision-prompt", "data-announce": "" }, this.prompt(turn, decisions)));
      const row = h("div", { class: "choice-row", "data-testid": "decisions" });
      // Ending the turn comes first: one tap, not past a button per double-turn card (six
      // on a phone's screen), and none of those cards is pressed on the player.
      const ordered = [...decisions.filter((a) => a.type === "end_turn"), ...decisions.filter((a) => a.type !== "end_turn")];
      const plain = new Set(["accept", "no_coin", "decline", "end_turn", "double_turn"]);
      for (const a of ordered) {
        const label = a.card ? t(`master.do.${a.type}`, { card: a.card }) : t(`master.do.${a.type}`, { value: turn.taken ?? "" });
        row.append(h("button", {
          type: "button", class: "choice" + (plain.has(a.type) ? "" : " primary"),
          "data-testid": `do-${a.type}${a.card ? "-" + a.card : ""}`, on: { click: () => this.act(a) },
        }, label));
      }
      panel.append(row);
    }
    panel.hidden = panel.childElementCount === 0;
    if (decisions.length) this.bringIntoView(panel);
  }

  /** Who the die threatened: the duellists, or the nearest who have nothing to lose. */
  threatWords(ev) {
    const names = (seats) => formatList(seats.map((s) => shownName(this.view.players[s].name)));
    if (ev.duellists.length) return t("master.threat", { names: names(ev.duellists) });
    if (ev.nearest && ev.nearest.length) return t("master.threat_safe", { names: names(ev.nearest) });
    return t("master.threat_none");
  }

  /** The question of the decision on offer, with what it is worth. */
  prompt(turn, decisions) {
    if (turn.phase === "coin" && !decisions.some((a) => a.type === "coin")) {
      return t("master.prompt.coin_none", { value: turn.taken ?? "" });
    }
    const kept = turn.final || [];
    const total = kept.reduce((sum, r) => sum + r, 0) + (turn.roll || 0);
    return t(`master.prompt.${turn.phase}`, { value: turn.taken ?? "", roll: turn.roll ?? "", n: kept.length + 1, total });
  }

  /** One's own hand; the cards usable right now highlighted. */
  renderHand() {
    const v = this.view;
    const panel = this.handBox;
    panel.replaceChildren();
    const me = this.me();
    if (!me || !me.hand) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    const usable = new Set();
    for (const a of this.isMyTurn() ? this.decisions() : []) {
      if (a.card) usable.add(a.card);
      if (a.type === "coin") usable.add(v.turn.taken);
    }
    // A list of named cards: its marks read out as "2 ⟳ 7 ×2" (audit 13).
    const row = h("div", { class: "hand-row", role: "list", "aria-label": t("master.hand") });
    for (const card of me.hand) {
      const title = t(card > 6 ? "master.card.double" : "master.card.reroll");
      row.append(h("span", {
        class: "master-card" + (card > 6 ? " high" : " low") + (usable.has(card) ? " usable" : ""), role: "listitem",
        "data-testid": `card-${card}`,
      // (the tooltip on the marks: on the item it named it "1-6: …", not by its value)
      }, h("strong", { "aria-hidden": "true", title }, String(card)), h("small", { "aria-hidden": "true", title }, card > 6 ? "×2" : "⟳"),
      h("span", { class: "visually-hidden" }, t(card > 6 ? "a11y.master.card_high" : "a11y.master.card_low", { card }))));
    }
    panel.append(h("h2", {}, t("master.hand")), row);
    if (this.els.hand) this.els.hand.hidden = true;
    if (!me.hand.length) panel.append(h("p", { class: "muted" }, t("master.hand.empty")));
    // What the marks mean, said on the page: a title is never shown on a touch screen.
    const kinds = [];
    if (me.hand.some((c) => c <= 6)) kinds.push(["⟳", t("master.card.reroll")]);
    if (me.hand.some((c) => c > 6)) kinds.push(["×2", t("master.card.double")]);
    if (kinds.length) {
      panel.append(h("p", { class: "help master-hand-key", "data-testid": "master-hand-key" },
        ...kinds.flatMap(([mark, words], i) => [i ? " · " : "", h("strong", { "aria-hidden": "true" }, mark), " ", words])));
    }
  }

  renderPlayers() {
    const v = this.view;
    const list = this.els.players;
    list.replaceChildren();
    for (const p of v.players) {
      const isTurn = v.turn && v.turn.seat === p.seat && v.status === "playing";
      const winner = v.result && v.result.winners.includes(p.seat);
      const chips = h("span", { class: "found-list" });
      for (const value of p.treasures) chips.append(h("span", { class: "token-chip" + (value > 6 ? " high" : "") }, String(value)));
      list.append(h("li", { class: "player" + (isTurn ? " turn" : "") + (winner ? " winner" : ""), "data-testid": `player-${p.seat}` },
        h("div", { class: "player-line" }, colorDot(p.color, "big"), h("span", { class: "player-name" }, shownName(p.name)),
          p.seat === v.you ? h("span", { class: "muted" }, " ", t("game.you")) : null,
          this.pawnWhere(p),
          p.dragon ? h("span", { class: "trophy" }, " ★ ", t("master.col.dragon")) : null),
        h("div", { class: "player-stats" },
          h("span", { class: "count" }, [t("master.stats.coins", { n: p.coins }), t("master.stats.cards", { n: p.hand_count }), t("master.stats.score", { n: p.score })].join(" · ")), chips)));
    }
  }

  /** The end: winners and the score table. */
  renderResult() {
    const v = this.view;
    const el = this.els.result;
    if (v.status !== "finished" || !v.result) {
      this.hideResult(el);
      return;
    }
    const names = v.result.winners.map((s) => shownName(v.players[s].name));
    const sig = JSON.stringify([v.result, names, v.you, !!this.ctx.sharedDevice,
      v.players.map((p) => [p.name, p.color, p.treasures, p.coins, p.dragon, p.score])]);
    if (!this.resultChanged(el, sig)) return;
    el.hidden = false;
    el.replaceChildren();
    const table = h("table", { class: "score-table", "data-testid": "score-table" },
      h("thead", {}, h("tr", {}, ...["master.col.player", "master.col.treasures", "master.col.coins", "master.col.dragon", "master.col.total"].map((k) => h("th", {}, t(k))))));
    const body = h("tbody");
    for (const p of v.players) {
      body.append(h("tr", { class: v.result.winners.includes(p.seat) ? "winner" : "" },
        // the dot kept with the name's first word (a no-break space), not on a line alone
        h("td", {}, colorDot(p.color), "\u00a0", shownName(p.name)),
        h("td", {}, `${p.treasures.reduce((a, b) => a + b, 0)} (${p.treasures.length})`),
        h("td", {}, `${p.coins} × 5`), h("td", {}, p.dragon ? "15" : "—"), h("td", {}, h("strong", {}, String(p.score)))));
    }
    table.append(body);
    el.append(h("div", { class: "result-title" }, "★ ", t("game.over"), " ★"),
      h("div", { class: "result-text" }, h("strong", {}, this.winnerWords(names))),
      // never wider than the banner: on a phone the table tightens, and scrolls in its own
      // box rather than the page should a name still be too long
      h("div", { class: "score-scroll" }, table));
  }
}
