/**
 * Pictures for the card game's rules page, drawn by the room page's own card code
 * (cards.js `drawCard`, `linkMark`, and the board's classes for lit squares, linking paths
 * and take rings), so the page shows exactly what the game draws: the three card shapes,
 * the starting square, a placement that links two identical treasures (before, after),
 * and the booklet's take examples (several cards at once; a card that must stay because
 * taking it would leave another touching by a corner only).
 */

import { h } from "./dom.js";
import { addTranslations, t } from "./i18n.js";
import { drawCard, ensureCardSprite, linkMark, motifName } from "./cards.js";
import { svg } from "./tiles.js";

addTranslations({
  en: {
    "cpics.title": "The cards",
    "cpics.straight": "A straight card ({motif})",
    "cpics.corner": "A corner card ({motif})",
    "cpics.junction": "A junction card ({motif})",
    "cpics.start": "The start",
    "cpics.start.caption": "Four cards, each turned at random, form a 2 × 2 square: the maze grows from there.",
    "cpics.link": "A placement that links",
    "cpics.link.before": "Before: the crown card in hand fits the lit square turned once, and its path would reach the other crown: a green frame and two chain links mark such squares.",
    "cpics.link.after": "After: the two crowns are joined by a path (drawn in yellow); the other crown may be taken.",
    "cpics.take": "Taking",
    "cpics.take.several": "A dagger placed between two daggers it joins: both may be taken, the cards left still touch by their sides.",
    "cpics.take.refused": "The ghost joined to the one just placed cannot be taken: the card below it would be left touching the maze by a corner only.",
  },
  fr: {
    "cpics.title": "Les cartes",
    "cpics.straight": "Une carte droite ({motif})",
    "cpics.corner": "Une carte en angle ({motif})",
    "cpics.junction": "Une carte en T ({motif})",
    "cpics.start": "Le départ",
    "cpics.start.caption": "Quatre cartes, tournées au hasard, forment un carré 2 × 2 : le labyrinthe grandit à partir de là.",
    "cpics.link": "Une pose qui relie",
    "cpics.link.before": "Avant : la carte couronne en main va sur la case éclairée, tournée d’un quart de tour, et son chemin atteindrait l’autre couronne : un cadre vert et deux maillons marquent ces cases.",
    "cpics.link.after": "Après : les deux couronnes sont reliées par un chemin (tracé en jaune) ; l’autre couronne peut être prise.",
    "cpics.take": "Prendre",
    "cpics.take.several": "Un poignard posé entre deux poignards qu’il relie : les deux peuvent être pris, les cartes restantes se touchent toujours par un côté.",
    "cpics.take.refused": "Le fantôme relié à celui qui vient d’être posé ne peut pas être pris : la carte du dessous ne toucherait plus le labyrinthe que par un coin.",
  },
  de: {
    "cpics.title": "Die Karten",
    "cpics.straight": "Eine gerade Karte ({motif})",
    "cpics.corner": "Eine Kurve ({motif})",
    "cpics.junction": "Eine Abzweigung ({motif})",
    "cpics.start": "Der Anfang",
    "cpics.start.caption": "Vier zufällig gedrehte Karten bilden ein Quadrat 2 × 2: von dort wächst das Labyrinth.",
    "cpics.link": "Eine Anlage, die verbindet",
    "cpics.link.before": "Vorher: die Kronenkarte der Hand passt, einmal gedreht, auf das leuchtende Feld, und ihr Weg erreichte die andere Krone: ein grüner Rahmen und zwei Kettenglieder markieren solche Felder.",
    "cpics.link.after": "Nachher: die beiden Kronen sind durch einen Weg verbunden (gelb gezeichnet); die andere Krone darf genommen werden.",
    "cpics.take": "Nehmen",
    "cpics.take.several": "Ein Dolch zwischen zwei Dolchen, die er verbindet: beide dürfen genommen werden, die übrigen Karten berühren sich weiter an einer Seite.",
    "cpics.take.refused": "Das Gespenst, das mit dem eben gelegten verbunden ist, darf nicht genommen werden: die Karte darunter berührte das Labyrinth nur noch an einer Ecke.",
  },
});

const CELL = 100;

/**
 * One picture of cards on the table's green, each at its grid cell. `marks` are drawn on
 * top: { placed: [x, y], take: [[x, y], ...] (chosen), refused: [x, y], cut: [x, y],
 * path: [[x, y], ...], preview: {pos, card}, width: rendered width in px }.
 */
function tablePicture(cards, marks = {}) {
  const cells = cards.map((c) => c.pos).concat(marks.preview ? [marks.preview.pos] : []);
  const xs = cells.map((p) => p[0]);
  const ys = cells.map((p) => p[1]);
  const pad = 12;
  const x0 = Math.min(...xs) * CELL - pad;
  const y0 = Math.min(...ys) * CELL - pad;
  const w = (Math.max(...xs) - Math.min(...xs) + 1) * CELL + 2 * pad;
  const hgt = (Math.max(...ys) - Math.min(...ys) + 1) * CELL + 2 * pad;
  const scale = marks.scale || 0.9;
  const pic = svg("svg", {
    class: "rules-cards", viewBox: `${x0} ${y0} ${w} ${hgt}`, width: Math.round(w * scale), height: Math.round(hgt * scale),
    role: "img", "aria-hidden": "true",
  });
  pic.append(svg("rect", { class: "cards-bed", x: x0, y: y0, width: w, height: hgt, rx: 10 }));
  const at = (p) => `translate(${p[0] * CELL} ${p[1] * CELL})`;
  const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
  const taken = marks.take || [];
  for (const c of cards) {
    const chosen = taken.some((p) => same(p, c.pos));
    const refused = same(marks.refused, c.pos);
    const g = svg("g", {
      class: "layout-card" + (chosen ? " takeable chosen" : "") + (refused ? " takeable refused" : ""),
      transform: at(c.pos), "data-motif": c.motif,
    });
    g.append(drawCard(c));
    if (chosen) {
      g.append(svg("rect", { class: "take-ring", x: 4, y: 4, width: 92, height: 92, rx: 8 }));
      g.append(svg("path", { class: "take-check", d: "M64 20 L74 30 L92 8" }));
    }
    if (refused) {
      g.append(svg("rect", { class: "take-ring", x: 4, y: 4, width: 92, height: 92, rx: 8 }));
      g.append(svg("path", { class: "take-cross", d: "M68 10 L90 32 M90 10 L68 32" }));
    }
    if (same(marks.cut, c.pos)) g.append(svg("rect", { class: "cut-off", x: 4, y: 4, width: 92, height: 92, rx: 8 }));
    pic.append(g);
  }
  if (marks.path) {
    const centre = (p) => `${p[0] * CELL + CELL / 2},${p[1] * CELL + CELL / 2}`;
    const paths = svg("g", { class: "take-paths" });
    for (const line of marks.path) paths.append(svg("polyline", { class: "take-path chosen", points: line.map(centre).join(" ") }));
    pic.append(paths);
  }
  if (marks.placed) {
    pic.append(svg("rect", { class: "placed-ring", x: marks.placed[0] * CELL + 3, y: marks.placed[1] * CELL + 3, width: 94, height: 94, rx: 7 }));
  }
  if (marks.preview) {
    const cell = svg("g", { class: "place-cell legal links", transform: at(marks.preview.pos) });
    const preview = drawCard(marks.preview.card, marks.preview.rotation || 0);
    preview.classList.add("preview");
    cell.append(preview, svg("rect", { class: "place-frame", x: 3, y: 3, width: 94, height: 94, rx: 8 }), linkMark());
    pic.append(cell);
  }
  return pic;
}

function figure(pic, caption, name, wide = false) {
  return h("figure", { class: "rules-figure" + (wide ? " wide" : ""), "data-picture": name }, pic, h("figcaption", {}, caption));
}

/** One card alone, with its shape and motif named. */
function cardFigure(card, key, name) {
  return figure(tablePicture([{ ...card, pos: [0, 0] }], { scale: 0.84 }), t(key, { motif: motifName(card.motif) }), name);
}

/** Fill `section` with the card game's pictures. */
export function renderCardPictures(section) {
  ensureCardSprite();
  const start = [
    { pos: [0, 0], open: "ES", motif: "chest" },
    { pos: [1, 0], open: "NSW", motif: "owl" },
    { pos: [0, 1], open: "NS", motif: "key" },
    { pos: [1, 1], open: "EW", motif: "candle" },
  ];
  // The crown in hand (a corner, E-S as dealt) turned once clockwise is S-W: its W meets
  // the owl's E, whose W meets the first crown's E.
  const linkBefore = [
    { pos: [0, 0], open: "ES", motif: "crown" },
    { pos: [1, 0], open: "EW", motif: "owl" },
    { pos: [0, 1], open: "NE", motif: "ghost" },
    { pos: [1, 1], open: "NW", motif: "key" },
  ];
  const crown = { open: "ES", motif: "crown" };
  const linkAfter = linkBefore.concat([{ pos: [2, 0], open: "SW", motif: "crown" }]);
  // The booklet's "both daggers": the placed junction joins a dagger on each side.
  const several = [
    { pos: [0, 0], open: "EW", motif: "dagger" },
    { pos: [1, 0], open: "ESW", motif: "dagger" },
    { pos: [2, 0], open: "SW", motif: "dagger" },
    { pos: [1, 1], open: "NE", motif: "map" },
    { pos: [2, 1], open: "NW", motif: "chest" },
  ];
  // The booklet's refused ghost: without it the candle below touches the ring by a corner.
  const refused = [
    { pos: [0, 0], open: "ES", motif: "ghost" },
    { pos: [1, 0], open: "SW", motif: "owl" },
    { pos: [1, 1], open: "NS", motif: "ring" },
    { pos: [0, 1], open: "NES", motif: "ghost" },
    { pos: [0, 2], open: "NE", motif: "candle" },
  ];
  section.replaceChildren(
    h("h2", {}, t("cpics.title")),
    h("div", { class: "rules-figures" },
      cardFigure({ open: "NS", motif: "ghost" }, "cpics.straight", "straight"),
      cardFigure({ open: "ES", motif: "unicorn" }, "cpics.corner", "corner"),
      cardFigure({ open: "ESW", motif: "dagger" }, "cpics.junction", "junction"),
      figure(tablePicture(start), t("cpics.start.caption"), "start", true)),
    h("h3", {}, t("cpics.link")),
    h("div", { class: "rules-figures" },
      figure(tablePicture(linkBefore, { preview: { pos: [2, 0], card: crown, rotation: 1 } }), t("cpics.link.before"), "link-before", true),
      figure(tablePicture(linkAfter, { placed: [2, 0], path: [[[2, 0], [1, 0], [0, 0]]], take: [[0, 0]] }), t("cpics.link.after"), "link-after", true)),
    h("h3", {}, t("cpics.take")),
    h("div", { class: "rules-figures" },
      figure(tablePicture(several, { placed: [1, 0], path: [[[1, 0], [0, 0]], [[1, 0], [2, 0]]], take: [[0, 0], [2, 0]] }), t("cpics.take.several"), "take-several", true),
      figure(tablePicture(refused, { placed: [0, 0], path: [[[0, 0], [0, 1]]], refused: [0, 1], cut: [0, 2] }), t("cpics.take.refused"), "take-refused", true)),
  );
}
