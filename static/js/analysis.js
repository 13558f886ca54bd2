/**
 * The replay's analysis (GET /api/games/{id}/analysis): marks in the move list, the better
 * push and walk drawn on the board at the position the player faced, and a summary per
 * player. The replay never waits for it: the page draws the game first and adds the marks
 * when they come (a game that just ended may still be analysed).
 */

import { request } from "./api.js";
import { h } from "./dom.js";
import { addTranslations, cellName, slotName, t } from "./i18n.js";
import { svg } from "./tiles.js";

// The board's geometry (board.js): cell size and margin in SVG units.
const C = 100;
const M = 72;
const SIZE = 7 * C + 2 * M;

addTranslations({
  en: {
    "analysis.title": "Analysis",
    "analysis.show": "Show the board after this push",
    "analysis.back": "Back to the game",
    "analysis.pending": "Analysing the game…",
    "analysis.unavailable": "No analysis for this game.",
    "analysis.missed": "missed",
    "analysis.gift": "gift",
    "analysis.risk": "duel risked",
    "analysis.risk_title": "This take risked a duel when the same value was safe elsewhere",
    "analysis.risks": "{n} duels risked",
    "analysis.risks.one": "{n} duel risked",
    "analysis.risk_text": "This take risked a duel ({pct} % chance); the same value at {cell} was safe.",
    "analysis.missed_title": "Could have reached the goal this turn: show the position",
    "analysis.gift_title": "This push let the next player reach their target",
    "analysis.turns": "{n} turns",
    "analysis.turns.one": "{n} turn",
    "analysis.missed_count": "{n} missed",
    "analysis.gifts": "{n} gifts",
    "analysis.gifts.one": "{n} gift",
    "analysis.accuracy": "accuracy {pct} %",
    "analysis.basis": "Each turn is judged from what its player could see then. Gifts are judged in hindsight: they use the next player's target, which the giver could not see.",
    "analysis.team_basis": "Only the push spell is searched: an unmarked turn may still have missed a chance through another spell.",
    "analysis.next.target": "Next turn, {name} could reach their target: {push}, then walk to {cell}.",
    "analysis.next.home": "Next turn, {name} could get home: {push}, then walk to {cell}.",
    "analysis.next.token": "Next turn, {name} could take the {value}: {push}, then walk to {cell}.",
    "analysis.next.treasure": "Next turn, {name} could collect a treasure: {push}walk to {cell}.",
    "analysis.push": "push at {slot}",
    "analysis.push_turned": "push at {slot} turned {k}× clockwise",
    "analysis.cards": "Biggest take available: {could}; taken: {got}.",
    "analysis.gift_text": "This push let {name} reach their target; {push} would not have.",
  },
  fr: {
    "analysis.title": "Analyse",
    "analysis.pending": "Analyse de la partie…",
    "analysis.show": "Voir le plateau après cette poussée",
    "analysis.back": "Revenir à la partie",
    "analysis.unavailable": "Pas d'analyse pour cette partie.",
    "analysis.missed": "manqué",
    "analysis.gift": "cadeau",
    "analysis.risk": "duel risqué",
    "analysis.risk_title": "Cette prise risquait un duel alors que la même valeur était sûre ailleurs",
    "analysis.risks": "{n} duels risqués",
    "analysis.risks.one": "{n} duel risqué",
    "analysis.risk_text": "Cette prise risquait un duel ({pct} % de chances) ; la même valeur en {cell} était sûre.",
    "analysis.missed_title": "Le but était atteignable à ce tour : voir la position",
    "analysis.gift_title": "Cette poussée a permis au joueur suivant d'atteindre son objectif",
    "analysis.turns": "{n} tours",
    "analysis.turns.one": "{n} tour",
    "analysis.missed_count": "{n} manqués",
    "analysis.missed_count.one": "{n} manqué",
    "analysis.gifts": "{n} cadeaux",
    "analysis.gifts.one": "{n} cadeau",
    "analysis.accuracy": "précision {pct} %",
    "analysis.basis": "Chaque tour est jugé d'après ce que son joueur pouvait voir alors. Les cadeaux sont jugés après coup : ils utilisent l'objectif du joueur suivant, que le donateur ne pouvait pas voir.",
    "analysis.team_basis": "Seul le sort de poussée est exploré : un tour non marqué a pu manquer une occasion par un autre sort.",
    "analysis.next.target": "Au tour suivant, {name} pouvait atteindre son objectif : {push}, puis aller en {cell}.",
    "analysis.next.home": "Au tour suivant, {name} pouvait rentrer : {push}, puis aller en {cell}.",
    "analysis.next.token": "Au tour suivant, {name} pouvait prendre le {value} : {push}, puis aller en {cell}.",
    "analysis.next.treasure": "Au tour suivant, {name} pouvait ramasser un trésor : {push}aller en {cell}.",
    "analysis.push": "pousser en {slot}",
    "analysis.push_turned": "pousser en {slot} tournée {k}× dans le sens horaire",
    "analysis.cards": "Plus grande prise possible : {could} ; prise : {got}.",
    "analysis.gift_text": "Cette poussée a permis à {name} d'atteindre son objectif ; {push} ne l'aurait pas permis.",
  },
  de: {
    "analysis.title": "Analyse",
    "analysis.pending": "Die Partie wird analysiert …",
    "analysis.show": "Brett nach diesem Schieben zeigen",
    "analysis.back": "Zurück zur Partie",
    "analysis.unavailable": "Keine Analyse für diese Partie.",
    "analysis.missed": "verpasst",
    "analysis.gift": "Geschenk",
    "analysis.risk": "Duell riskiert",
    "analysis.risk_title": "Dieser Fang riskierte ein Duell, obwohl derselbe Wert anderswo sicher war",
    "analysis.risks": "{n} Duelle riskiert",
    "analysis.risks.one": "{n} Duell riskiert",
    "analysis.risk_text": "Dieser Fang riskierte ein Duell ({pct} % Chance); derselbe Wert auf {cell} war sicher.",
    "analysis.missed_title": "Das Ziel war in diesem Zug erreichbar: Stellung zeigen",
    "analysis.gift_title": "Dieses Schieben ließ den nächsten Spieler sein Ziel erreichen",
    "analysis.turns": "{n} Züge",
    "analysis.turns.one": "{n} Zug",
    "analysis.missed_count": "{n} verpasst",
    "analysis.gifts": "{n} Geschenke",
    "analysis.gifts.one": "{n} Geschenk",
    "analysis.accuracy": "Genauigkeit {pct} %",
    "analysis.basis": "Jeder Zug wird danach beurteilt, was sein Spieler damals sehen konnte. Geschenke werden im Nachhinein beurteilt: Sie nutzen das Ziel des nächsten Spielers, das der Schenkende nicht sehen konnte.",
    "analysis.team_basis": "Nur der Schiebe-Zauber wird durchsucht: Ein unmarkierter Zug kann eine Chance durch einen anderen Zauber verpasst haben.",
    "analysis.next.target": "Im nächsten Zug konnte {name} sein Ziel erreichen: {push}, dann nach {cell} gehen.",
    "analysis.next.home": "Im nächsten Zug konnte {name} nach Hause: {push}, dann nach {cell} gehen.",
    "analysis.next.token": "Im nächsten Zug konnte {name} die {value} nehmen: {push}, dann nach {cell} gehen.",
    "analysis.next.treasure": "Im nächsten Zug konnte {name} einen Schatz sammeln: {push}nach {cell} gehen.",
    "analysis.push": "bei {slot} schieben",
    "analysis.push_turned": "bei {slot} schieben, {k}× im Uhrzeigersinn gedreht",
    "analysis.cards": "Größtmöglicher Fang: {could}; genommen: {got}.",
    "analysis.gift_text": "Dieses Schieben ließ {name} sein Ziel erreichen; {push} hätte es nicht.",
  },
});

function pushWords(push) {
  if (!push) return "";
  const slot = slotName(push.side, push.index);
  return push.rotation ? t("analysis.push_turned", { slot, k: push.rotation }) : t("analysis.push", { slot });
}

/** Where the arrow of a slot starts and ends (outside the board, pointing in). */
function arrowLine(side, index) {
  const mid = M + index * C + C / 2;
  switch (side) {
    case "N": return [mid, 6, mid, M + 18];
    case "S": return [mid, SIZE - 6, mid, SIZE - M - 18];
    case "W": return [6, mid, M + 18, mid];
    default: return [SIZE - 6, mid, SIZE - M - 18, mid];
  }
}

function centre([r, c]) {
  return [M + c * C + C / 2, M + r * C + C / 2];
}

export class ReplayAnalysis {
  /**
   * @param {string} gameId
   * @param {{summary: HTMLElement, names: () => string[], variant: string,
   *          redraw: () => void}} opts  `redraw` shows the current step again
   */
  constructor(gameId, opts) {
    this.gameId = gameId;
    this.opts = opts;
    /** @type {object|null} the analysis body */
    this.data = null;
    /** turns by the step that shows the position their player faced (seq - 1) */
    this.before = new Map();
    /** turns by their first action's seq */
    this.bySeq = new Map();
    /** the step whose better push is shown on the board instead of the game, or null */
    this.previewAt = null;
  }

  /** The missed mark of the turn that began from step `at`'s position, if any. */
  missedAt(at) {
    const turn = this.before.get(at);
    return (turn && turn.marks.find((m) => m.kind === "missed" && m.path)) || null;
  }

  /** The position to draw at step `at` instead of the game's (a better push), or null. */
  frameFor(at) {
    if (this.previewAt !== at) this.previewAt = null;
    const mark = this.previewAt === null ? null : this.missedAt(at);
    return mark ? mark.frame : null;
  }

  /** Decorate step `at`: the board (after it was drawn: it removes what it did not
   * draw) and the note under it. */
  show(root, note, at) {
    this.drawOn(root, at);
    note.replaceChildren();
    const text = this.describe(at);
    if (text) note.append(text);
  }

  /** Fetch the analysis; resolves to whether there is one. */
  async load() {
    this.opts.summary.hidden = false;
    this.opts.summary.replaceChildren(h("h2", {}, t("analysis.title")), h("p", { class: "muted" }, t("analysis.pending")));
    try {
      this.data = await request("GET", `/api/games/${encodeURIComponent(this.gameId)}/analysis`);
    } catch {
      this.data = null;
      this.opts.summary.replaceChildren(h("h2", {}, t("analysis.title")), h("p", { class: "muted" }, t("analysis.unavailable")));
      return false;
    }
    for (const turn of this.data.turns) {
      this.bySeq.set(turn.seq, turn);
      this.before.set(turn.seq - 1, turn);
    }
    return true;
  }

  /** Badges on the move list entries (`entries[k]` shows step k) of marked turns. */
  markEntries(entries, goTo) {
    if (!this.data) return;
    for (const turn of this.data.turns) {
      const entry = entries[turn.seq];
      if (!entry) continue;
      for (const old of entry.querySelectorAll(".analysis-badge")) old.remove();
      for (const mark of turn.marks) {
        const kind = ["gift", "risk"].includes(mark.kind) ? mark.kind : "missed";
        const badge = h("button", {
          type: "button",
          class: `analysis-badge mark-${kind}`,
          "data-testid": `analysis-${kind}`,
          "data-seq": String(turn.seq),
          title: t(`analysis.${kind}_title`),
          on: { click: () => goTo(kind === "missed" ? turn.seq - 1 : turn.seq) },
        }, t(`analysis.${kind}`));
        entry.append(badge);
      }
    }
  }

  /** The per-player summary, in the page's language. */
  renderSummary() {
    if (!this.data) return;
    const names = this.opts.names();
    const list = h("ul", { class: "analysis-summary", "data-testid": "analysis-summary" });
    for (const p of this.data.players) {
      const parts = [t("analysis.turns", { n: p.turns }), t("analysis.missed_count", { n: p.missed })];
      if (this.data.variant === "classic") parts.push(t("analysis.gifts", { n: p.gifts }));
      if (this.data.variant === "master") parts.push(t("analysis.risks", { n: (p.marks && p.marks.risk) || 0 }));
      if (p.accuracy !== null) parts.push(t("analysis.accuracy", { pct: Math.round(p.accuracy * 100) }));
      list.append(h("li", { "data-seat": String(p.seat) }, h("strong", {}, names[p.seat] ?? `#${p.seat}`), " ", parts.join(" · ")));
    }
    const basis = [h("p", { class: "help" }, t("analysis.basis"))];
    if (this.data.variant === "team") basis.push(h("p", { class: "help" }, t("analysis.team_basis")));
    this.opts.summary.replaceChildren(h("h2", {}, t("analysis.title")), list, ...basis);
  }

  /** Draw, on the board `root` showing step `at`, the better choice of the turn that
   * began from this position, if it missed its goal. Call after every board render: the
   * board removes what it did not draw. */
  drawOn(root, at) {
    const mark = this.missedAt(at);
    if (!root || !mark) return;
    // The walk is on the board after the push: drawn when that board is shown (or when no
    // push was needed); on the game's own board, the arrow says where to push.
    const walk = !mark.frame || this.previewAt === at;
    const g = svg("g", { class: "analysis-overlay", "data-testid": "analysis-overlay", "aria-hidden": "true" });
    if (mark.best && mark.best.side) {
      const [x1, y1, x2, y2] = arrowLine(mark.best.side, mark.best.index);
      const dx = x2 - x1, dy = y2 - y1;
      const len = Math.hypot(dx, dy), ux = dx / len, uy = dy / len;
      const head = `${x2},${y2} ${x2 - 22 * ux - 14 * uy},${y2 - 22 * uy + 14 * ux} ${x2 - 22 * ux + 14 * uy},${y2 - 22 * uy - 14 * ux}`;
      g.append(
        svg("line", { class: "analysis-arrow", "data-testid": "analysis-arrow", x1, y1, x2: x2 - 18 * ux, y2: y2 - 18 * uy }),
        svg("polygon", { class: "analysis-arrow-head", points: head }),
      );
      if (mark.best.rotation) {
        const [tx, ty] = [x1 + (x2 - x1) * 0.5 + 30 * Math.abs(uy), y1 + (y2 - y1) * 0.5 + 30 * Math.abs(ux)];
        g.append(svg("text", { class: "analysis-turns", x: tx, y: ty, "text-anchor": "middle", "dominant-baseline": "middle" }, `${mark.best.rotation}↻`));
      }
    }
    if (walk && mark.path.length > 1) {
      const points = mark.path.map((cell) => centre(cell).join(",")).join(" ");
      g.append(svg("polyline", { class: "analysis-path", "data-testid": "analysis-path", points }));
      const [ex, ey] = centre(mark.path[mark.path.length - 1]);
      g.append(svg("circle", { class: "analysis-goal", cx: ex, cy: ey, r: 16 }));
    }
    root.append(g);
  }

  /** A sentence on what this step's position offered, or the turn's own verdict. */
  describe(at) {
    if (!this.data) return null;
    const names = this.opts.names();
    const lines = [];
    const next = this.before.get(at);
    const missed = this.missedAt(at);
    if (missed) {
      const cell = cellName(missed.path[missed.path.length - 1]);
      const push = pushWords(missed.best);
      lines.push(t(`analysis.next.${missed.goal}`, {
        name: names[next.seat] ?? `#${next.seat}`,
        push: missed.goal === "treasure" && push ? `${push}, ` : push,
        cell,
        value: missed.value ?? "",
      }));
    }
    const own = this.bySeq.get(at);
    if (own && own.could !== undefined) lines.push(t("analysis.cards", { could: own.could, got: own.got }));
    const gift = own && own.marks.find((m) => m.kind === "gift");
    if (gift) lines.push(t("analysis.gift_text", { name: names[gift.to] ?? `#${gift.to}`, push: pushWords(gift.instead) }));
    const risk = own && own.marks.find((m) => m.kind === "risk");
    if (risk) lines.push(t("analysis.risk_text", { pct: Math.round(risk.chance * 100), cell: cellName(risk.safe) }));
    if (!lines.length) return null;
    const box = h("div", { class: "analysis-note", "data-testid": "analysis-note" }, ...lines.map((line) => h("p", {}, line)));
    if (missed && missed.frame) {
      const showing = this.previewAt === at;
      box.append(h("button", {
        type: "button",
        class: "analysis-preview",
        "data-testid": "analysis-preview",
        "aria-pressed": String(showing),
        on: {
          click: () => {
            this.previewAt = showing ? null : at;
            this.opts.redraw();
          },
        },
      }, t(showing ? "analysis.back" : "analysis.show")));
    }
    return box;
  }
}
