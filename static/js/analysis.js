/**
 * The replay's analysis (GET /api/games/{id}/analysis): marks in the move list, the better
 * push and walk drawn on the board at the position the player faced, and a summary per
 * player. The replay never waits for it: the page draws the game first and adds the marks
 * when they come (a game that just ended may still be analysed).
 */

import { request } from "./api.js";
import { h } from "./dom.js";
import { addTranslations, cellName, slotWords, t } from "./i18n.js";
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
    "analysis.risks": "{n} duels risked needlessly",
    "analysis.risks.one": "{n} duel risked needlessly",
    "analysis.risk_text": "This take risked a duel ({pct}% chance); the same value at {cell} was safe.",
    "analysis.missed_title": "Could have reached the goal this turn: show the position",
    "analysis.gift_title": "This push put the next player's goal within their reach",
    "analysis.turns": "{n} turns",
    "analysis.turns.one": "{n} turn",
    "analysis.played_for": "{n} turns played by the computer",
    "analysis.played_for.one": "{n} turn played by the computer",
    "analysis.missed_count": "{n} missed",
    "analysis.gifts": "{n} gifts",
    "analysis.gifts.one": "{n} gift",
    "analysis.accuracy": "accuracy {pct}%",
    "analysis.basis": "Each turn is judged from what its player could see then.",
    "analysis.accuracy_basis": "Accuracy is the share of a player's turns that missed nothing the board offered them; the other marks are told, not counted.",
    "analysis.gift_basis": "Gifts are judged in hindsight: they use the next player's target, which the giver could not see.",
    "analysis.team_basis": "Every combination of the spells the player still held is searched (push, rotate or switch, and the move spells); a face-down tile counts as the wall it was to the player.",
    "analysis.unused_coin": "coin not taken",
    "analysis.unused_coin_title": "The matching card was in hand: a coin (5 points) was left",
    "analysis.unused_coin_text": "{name} could play the {card} card for a coin: {points} more points.",
    "analysis.unused_coins": "{n} coins not taken",
    "analysis.unused_coins.one": "{n} coin not taken",
    "analysis.unused_double": "double turn unused",
    "analysis.unused_double_title": "A double turn would have taken a token: show the position",
    "analysis.unused_double_text": "A double turn (card {card}) would have let {name} take the {value}: {push}, then walk to {cell}.",
    "analysis.unused_doubles": "{n} double turns unused",
    "analysis.unused_doubles.one": "{n} double turn unused",
    "analysis.show_spells": "Show the board after these spells",
    "analysis.step.rotate": "turn the tile at {cell}",
    "analysis.step.switch": "swap {a} and {b}",
    "analysis.step.walk": "walk to {cell}",
    "analysis.step.walk_spell": "walk to {cell} with {spell}",
    "analysis.next.target": "Next turn, {name} could reach their target: {push}, then walk to {cell}.",
    "analysis.next.home": "Next turn, {name} could get home: {push}, then walk to {cell}.",
    "analysis.next.token": "Next turn, {name} could take the {value}: {push}, then walk to {cell}.",
    "analysis.next.treasure": "Next turn, {name} could collect a treasure: {steps}.",
    "analysis.push": "push into {slot}",
    "analysis.push_turned": "push into {slot}, turned {k}× clockwise",
    "analysis.cards": "Biggest take available: {could}; taken: {got}.",
    "analysis.cards_better": "Laid elsewhere, the {motif} card would have let {name} take {n}.",
    "analysis.missed_cards_title": "A bigger take was possible this turn: show the turn",
    "analysis.gift_text": "This push put {name}'s target within their reach; {push} would not have.",
    "analysis.gift_text_home": "This push put {name}'s way home within their reach; {push} would not have.",
  },
  fr: {
    "analysis.title": "Analyse",
    "analysis.pending": "Analyse de la partie…",
    "analysis.show": "Voir le plateau après cette poussée",
    "analysis.back": "Revenir à la partie",
    "analysis.unavailable": "Pas d’analyse pour cette partie.",
    "analysis.missed": "manqué",
    "analysis.gift": "cadeau",
    "analysis.risk": "duel risqué",
    "analysis.risk_title": "Cette prise risquait un duel alors que la même valeur était sûre ailleurs",
    "analysis.risks": "{n} duels risqués sans nécessité",
    "analysis.risks.one": "{n} duel risqué sans nécessité",
    "analysis.risk_text": "Cette prise risquait un duel ({pct}\u00a0% de chances) ; la même valeur en {cell} était sûre.",
    "analysis.missed_title": "Le but était atteignable à ce tour : voir la position",
    "analysis.gift_title": "Cette poussée a mis le but du joueur suivant à sa portée",
    "analysis.turns": "{n} tours",
    "analysis.turns.one": "{n} tour",
    "analysis.played_for": "{n} tours joués par l’ordinateur",
    "analysis.played_for.one": "{n} tour joué par l’ordinateur",
    "analysis.missed_count": "{n} manqués",
    "analysis.missed_count.one": "{n} manqué",
    "analysis.gifts": "{n} cadeaux",
    "analysis.gifts.one": "{n} cadeau",
    "analysis.accuracy": "précision {pct}\u00a0%",
    "analysis.basis": "Chaque tour est jugé d’après ce que son joueur pouvait voir alors.",
    "analysis.accuracy_basis": "La précision est la part des tours d’un joueur où il n’a rien manqué de ce que le plateau lui offrait ; les autres marques sont signalées, pas comptées.",
    "analysis.gift_basis": "Les cadeaux sont jugés après coup : ils utilisent l’objectif du joueur suivant, que le donateur ne pouvait pas voir.",
    "analysis.team_basis": "Toutes les combinaisons des sorts encore disponibles sont explorées (Poussée, Rotation ou Permutation, et les sorts de déplacement) ; une plaque retournée compte comme le mur qu’elle était pour le joueur.",
    "analysis.unused_coin": "pièce non prise",
    "analysis.unused_coin_title": "La carte assortie était en main : une pièce (5 points) a été laissée",
    "analysis.unused_coin_text": "{name} pouvait jouer la carte {card} pour une pièce : {points} points de plus.",
    "analysis.unused_coins": "{n} pièces non prises",
    "analysis.unused_coins.one": "{n} pièce non prise",
    "analysis.unused_double": "double tour inutilisé",
    "analysis.unused_double_title": "Un double tour aurait pris un trésor : voir la position",
    "analysis.unused_double_text": "Un double tour (carte {card}) aurait permis à {name} de prendre le {value} : {push}, puis aller en {cell}.",
    "analysis.unused_doubles": "{n} doubles tours inutilisés",
    "analysis.unused_doubles.one": "{n} double tour inutilisé",
    "analysis.show_spells": "Voir le plateau après ces sorts",
    "analysis.step.rotate": "tourner la plaque en {cell}",
    "analysis.step.switch": "permuter {a} et {b}",
    "analysis.step.walk": "aller en {cell}",
    "analysis.step.walk_spell": "aller en {cell} avec {spell}",
    "analysis.next.target": "Au tour suivant, {name} pouvait atteindre son objectif : {push}, puis aller en {cell}.",
    "analysis.next.home": "Au tour suivant, {name} pouvait rentrer : {push}, puis aller en {cell}.",
    "analysis.next.token": "Au tour suivant, {name} pouvait prendre le {value} : {push}, puis aller en {cell}.",
    "analysis.next.treasure": "Au tour suivant, {name} pouvait ramasser un trésor : {steps}.",
    "analysis.push": "pousser dans {slot}",
    "analysis.push_turned": "pousser dans {slot}, tournée {k}× dans le sens horaire",
    "analysis.cards": "Plus grande prise possible : {could} ; prise : {got}.",
    "analysis.cards_better": "Une autre pose ({motif}) aurait permis à {name} d’en prendre {n}.",
    "analysis.missed_cards_title": "Une plus grande prise était possible à ce tour : voir le tour",
    "analysis.gift_text": "Cette poussée a mis l’objectif de {name} à sa portée ; {push} ne l’aurait pas fait.",
    "analysis.gift_text_home": "Cette poussée a mis le retour de {name} à sa portée ; {push} ne l’aurait pas fait.",
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
    "analysis.risks": "{n} Duelle unnötig riskiert",
    "analysis.risks.one": "{n} Duell unnötig riskiert",
    "analysis.risk_text": "Dieser Fang riskierte ein Duell ({pct}\u00a0% Chance); derselbe Wert auf {cell} war sicher.",
    "analysis.missed_title": "Das Ziel war in diesem Zug erreichbar: Stellung zeigen",
    "analysis.gift_title": "Dieses Schieben brachte das Ziel des nächsten Spielers in seine Reichweite",
    "analysis.turns": "{n} Züge",
    "analysis.turns.one": "{n} Zug",
    "analysis.played_for": "{n} Züge vom Computer gespielt",
    "analysis.played_for.one": "{n} Zug vom Computer gespielt",
    "analysis.missed_count": "{n} verpasst",
    "analysis.gifts": "{n} Geschenke",
    "analysis.gifts.one": "{n} Geschenk",
    "analysis.accuracy": "Genauigkeit {pct}\u00a0%",
    "analysis.basis": "Jeder Zug wird danach beurteilt, was sein Spieler damals sehen konnte.",
    "analysis.accuracy_basis": "Die Genauigkeit ist der Anteil der Züge eines Spielers, in denen er nichts verpasst hat, was das Brett ihm bot; die anderen Markierungen werden genannt, nicht gezählt.",
    "analysis.gift_basis": "Geschenke werden im Nachhinein beurteilt: Sie nutzen das Ziel des nächsten Spielers, das der Schenkende nicht sehen konnte.",
    "analysis.team_basis": "Durchsucht wird jede Kombination der Zauber, die der Spieler noch hatte (Schieben, Drehen oder Tauschen und die Bewegungszauber); ein umgedrehtes Plättchen zählt als die Wand, die es für den Spieler war.",
    "analysis.unused_coin": "Münze verschenkt",
    "analysis.unused_coin_title": "Die passende Karte war auf der Hand: eine Münze (5 Punkte) blieb liegen",
    "analysis.unused_coin_text": "{name} konnte die Karte {card} für eine Münze spielen: {points} Punkte mehr.",
    "analysis.unused_coins": "{n} Münzen verschenkt",
    "analysis.unused_coins.one": "{n} Münze verschenkt",
    "analysis.unused_double": "Doppelzug ungenutzt",
    "analysis.unused_double_title": "Ein Doppelzug hätte einen Schatz genommen: Stellung zeigen",
    "analysis.unused_double_text": "Ein Doppelzug (Karte {card}) hätte {name} die {value} nehmen lassen: {push}, dann nach {cell} gehen.",
    "analysis.unused_doubles": "{n} Doppelzüge ungenutzt",
    "analysis.unused_doubles.one": "{n} Doppelzug ungenutzt",
    "analysis.show_spells": "Brett nach diesen Zaubern zeigen",
    "analysis.step.rotate": "das Plättchen auf {cell} drehen",
    "analysis.step.switch": "{a} und {b} tauschen",
    "analysis.step.walk": "nach {cell} gehen",
    "analysis.step.walk_spell": "mit {spell} nach {cell} gehen",
    "analysis.next.target": "Im nächsten Zug war das Ziel für {name} erreichbar: {push}, dann nach {cell} gehen.",
    "analysis.next.home": "Im nächsten Zug konnte {name} nach Hause zurückkehren: {push}, dann nach {cell} gehen.",
    "analysis.next.token": "Im nächsten Zug konnte {name} die {value} nehmen: {push}, dann nach {cell} gehen.",
    "analysis.next.treasure": "Im nächsten Zug konnte {name} einen Schatz sammeln: {steps}.",
    "analysis.push": "in {slot} schieben",
    "analysis.push_turned": "in {slot} schieben, {k}× im Uhrzeigersinn gedreht",
    "analysis.cards": "Größtmöglicher Fang: {could}; genommen: {got}.",
    "analysis.cards_better": "Anders angelegt ({motif}) hätte {name} {n} nehmen können.",
    "analysis.missed_cards_title": "In diesem Zug war ein größerer Fang möglich: Zug zeigen",
    "analysis.gift_text": "Dieses Schieben machte {name} das Ziel erreichbar; {push} hätte das nicht getan.",
    "analysis.gift_text_home": "Dieses Schieben machte {name} den Heimweg erreichbar; {push} hätte das nicht getan.",
  },
});

function pushWords(push) {
  if (!push) return "";
  const slot = slotWords(push.side, push.index);
  return push.rotation ? t("analysis.push_turned", { slot, k: push.rotation }) : t("analysis.push", { slot });
}

/** A team line in words: its spells in order, then the move (with its spell, if any). */
function stepWords(mark) {
  const steps = (mark.spells || []).map((spell) => {
    if (spell.type === "push") return pushWords(spell);
    if (spell.type === "rotate") return t("analysis.step.rotate", { cell: cellName(spell.at) });
    return t("analysis.step.switch", { a: cellName(spell.cells[0]), b: cellName(spell.cells[1]) });
  });
  const cell = cellName(goalOf(mark));
  steps.push(mark.modifier
    ? t("analysis.step.walk_spell", { cell, spell: t(`spell.${mark.modifier}`) })
    : t("analysis.step.walk", { cell }));
  return steps.join(", ");
}

/** The cell a better line ends on. */
function goalOf(mark) {
  return mark.to || mark.path[mark.path.length - 1];
}

/** The kinds of mark told at the moment of a choice inside a turn (master), with the
 * step showing the position when it was made. */
const CHOICES = ["unused_coin", "unused_double"];

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
    /** marks of choices made inside a turn (unused coin or double turn), by the step
     * showing the position when the choice was made (the choice's seq - 1) */
    this.choices = new Map();
    /** the step whose better push is shown on the board instead of the game, or null */
    this.previewAt = null;
  }

  /** The missed mark of the turn that began from step `at`'s position, if any. */
  missedAt(at) {
    const turn = this.before.get(at);
    return (turn && turn.marks.find((m) => m.kind === "missed" && m.path)) || null;
  }

  /** The better line to draw at step `at`: a missed turn's, or an unused double turn's. */
  lineAt(at) {
    return this.missedAt(at) || (this.choices.get(at) || []).find((m) => m.kind === "unused_double") || null;
  }

  /** The position to draw at step `at` instead of the game's (a better push), or null. */
  frameFor(at) {
    if (this.previewAt !== at) this.previewAt = null;
    const mark = this.previewAt === null ? null : this.lineAt(at);
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
      for (const mark of turn.marks) {
        if (!CHOICES.includes(mark.kind)) continue;
        const at = mark.seq - 1;
        this.choices.set(at, [...(this.choices.get(at) || []), { ...mark, seat: turn.seat }]);
      }
    }
    return true;
  }

  /** Badges on the move list entries (`entries[k]` shows step k) of marked turns. */
  markEntries(entries, goTo) {
    if (!this.data) return;
    for (const entry of entries) {
      for (const old of entry.querySelectorAll(".analysis-badge")) old.remove();
    }
    for (const turn of this.data.turns) {
      for (const mark of turn.marks) {
        if (CHOICES.includes(mark.kind)) {
          // on the choice's own entry; the position shown is the one it was made from
          const entry = entries[mark.seq];
          if (!entry) continue;
          entry.append(h("button", {
            type: "button",
            class: `analysis-badge mark-${mark.kind.replace("_", "-")}`,
            "data-testid": `analysis-${mark.kind}`,
            "data-seq": String(mark.seq),
            title: t(`analysis.${mark.kind}_title`),
            on: { click: () => goTo(mark.seq - 1) },
          }, t(`analysis.${mark.kind}`)));
          continue;
        }
        const entry = entries[turn.seq];
        if (!entry) continue;
        const kind = ["gift", "risk"].includes(mark.kind) ? mark.kind : "missed";
        // A card game's turn is told after its placement (the figures and the better
        // card), not at the position before it: that step showed the previous turn's.
        const before = kind === "missed" && this.data.variant !== "cards";
        const cardsMissed = kind === "missed" && !before;
        const badge = h("button", {
          type: "button",
          class: `analysis-badge mark-${kind}`,
          "data-testid": `analysis-${kind}`,
          "data-seq": String(turn.seq),
          title: t(cardsMissed ? "analysis.missed_cards_title" : `analysis.${kind}_title`),
          on: { click: () => goTo(before ? turn.seq - 1 : turn.seq) },
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
      if (this.data.variant === "master") {
        const marks = p.marks || {};
        parts.push(t("analysis.risks", { n: marks.risk || 0 }));
        if (marks.unused_coin) parts.push(t("analysis.unused_coins", { n: marks.unused_coin }));
        if (marks.unused_double) parts.push(t("analysis.unused_doubles", { n: marks.unused_double }));
      }
      if (p.accuracy !== null) parts.push(t("analysis.accuracy", { pct: Math.round(p.accuracy * 100) }));
      // Turns the computer played for a player who was away or had left: not theirs to
      // judge (all of them: nothing else to say).
      if (p.played_for && !p.turns) parts.splice(0, parts.length);
      if (p.played_for) parts.push(t("analysis.played_for", { n: p.played_for }));
      list.append(h("li", { "data-seat": String(p.seat) }, h("strong", {}, names[p.seat] ?? `#${p.seat}`), " ", parts.join(" · ")));
    }
    const told = [t("analysis.basis"), t("analysis.accuracy_basis")];
    if (this.data.variant === "classic") told.push(t("analysis.gift_basis"));
    const basis = [h("p", { class: "help" }, told.join(" "))];
    if (this.data.variant === "team") basis.push(h("p", { class: "help" }, t("analysis.team_basis")));
    this.opts.summary.replaceChildren(h("h2", {}, t("analysis.title")), list, ...basis);
  }

  /** Draw, on the board `root` showing step `at`, the better choice of the turn that
   * began from this position, if it missed its goal. Call after every board render: the
   * board removes what it did not draw. */
  drawOn(root, at) {
    const mark = this.lineAt(at);
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
    this.drawSpells(g, mark, walk);
    if (walk && mark.path.length > 1) {
      const points = mark.path.map((cell) => centre(cell).join(",")).join(" ");
      g.append(svg("polyline", { class: "analysis-path", "data-testid": "analysis-path", points }));
    }
    if (walk && (mark.path.length > 1 || mark.to)) {
      const [ex, ey] = centre(goalOf(mark));
      g.append(svg("circle", { class: "analysis-goal", "data-testid": "analysis-goal", cx: ex, cy: ey, r: 16 }));
    }
    root.append(g);
  }

  /** The team spells of a line other than the push: a turned tile ringed, a switch drawn
   * as a double arrow. Their cells are those of the board before the line's push (the
   * game's own board) or after it (the preview), so each is drawn on the board it names. */
  drawSpells(g, mark, preview) {
    const spells = mark.spells || [];
    const pushAt = spells.findIndex((s) => s.type === "push");
    spells.forEach((spell, k) => {
      if (spell.type === "push") return;
      if (pushAt >= 0 && (k > pushAt) !== preview) return;
      if (spell.type === "rotate") {
        const [x, y] = centre(spell.at);
        g.append(
          svg("circle", { class: "analysis-spell", "data-testid": "analysis-spell", cx: x, cy: y, r: 40 }),
          svg("text", { class: "analysis-turns", x: x + 30, y: y - 30, "text-anchor": "middle", "dominant-baseline": "middle" }, "↻"),
        );
      } else if (spell.type === "switch") {
        const [[x1, y1], [x2, y2]] = spell.cells.map(centre);
        g.append(svg("line", { class: "analysis-spell", "data-testid": "analysis-spell", x1, y1, x2, y2 }));
        for (const [x, y] of [[x1, y1], [x2, y2]]) g.append(svg("circle", { class: "analysis-spell-end", cx: x, cy: y, r: 10 }));
      }
    });
  }

  /** A sentence on what this step's position offered, or the turn's own verdict. */
  describe(at) {
    if (!this.data) return null;
    const names = this.opts.names();
    const lines = [];
    const next = this.before.get(at);
    const missed = this.missedAt(at);
    if (missed) {
      lines.push(t(`analysis.next.${missed.goal}`, {
        name: names[next.seat] ?? `#${next.seat}`,
        push: pushWords(missed.best),
        steps: missed.goal === "treasure" ? stepWords(missed) : "",
        cell: cellName(goalOf(missed)),
        value: missed.value ?? "",
      }));
    }
    const choices = this.choices.get(at) || [];
    for (const mark of choices) {
      const name = names[mark.seat] ?? `#${mark.seat}`;
      if (mark.kind === "unused_coin") {
        lines.push(t("analysis.unused_coin_text", { name, card: mark.card, points: mark.points }));
      } else {
        lines.push(t("analysis.unused_double_text", {
          name, card: mark.card, value: mark.value, push: pushWords(mark.best), cell: cellName(goalOf(mark)),
        }));
      }
    }
    const line = this.lineAt(at);
    const own = this.bySeq.get(at);
    if (own && own.could !== undefined) {
      lines.push(t("analysis.cards", { could: own.could, got: own.got }));
      const better = own.marks.find((m) => m.kind === "missed" && m.motif);
      if (better) {
        lines.push(t("analysis.cards_better", { motif: t(`motif.${better.motif}`), name: names[own.seat] ?? `#${own.seat}`, n: own.could }));
      }
    }
    const gift = own && own.marks.find((m) => m.kind === "gift");
    if (gift) {
      // within reach: the next player may still not have taken it (their own turn then
      // carries its "missed" mark); a goal of home is not a target
      const key = gift.goal === "home" ? "analysis.gift_text_home" : "analysis.gift_text";
      lines.push(t(key, { name: names[gift.to] ?? `#${gift.to}`, push: pushWords(gift.instead) }));
    }
    const risk = own && own.marks.find((m) => m.kind === "risk");
    if (risk) lines.push(t("analysis.risk_text", { pct: Math.round(risk.chance * 100), cell: cellName(risk.safe) }));
    if (!lines.length) return null;
    const box = h("div", { class: "analysis-note", "data-testid": "analysis-note" }, ...lines.map((line) => h("p", {}, line)));
    if (line && line.frame) {
      const showing = this.previewAt === at;
      const spells = (line.spells || []).some((s) => s.type !== "push");
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
      }, t(showing ? "analysis.back" : spells ? "analysis.show_spells" : "analysis.show")));
    }
    return box;
  }
}
