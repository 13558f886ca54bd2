/**
 * Pictures for the rules pages, drawn by the board's own code (tiles.js `drawTile`, the
 * board's pawn and home styles): the three tile shapes, a fixed tile with its treasure, a
 * home corner with its pawn, and a push in two steps (before, after), so what a page shows
 * is exactly what the game draws.
 */

import { h } from "./dom.js";
import { addTranslations, t } from "./i18n.js";
import { drawTile, svg } from "./tiles.js";

addTranslations({
  en: {
    "pics.title": "The pieces",
    "pics.straight": "Straight",
    "pics.corner": "Corner",
    "pics.junction": "Junction",
    "pics.fixed": "Fixed tile with a treasure",
    "pics.home": "A home corner and its pawn",
    "pics.event": "A tile with a revealed event",
    "pics.push": "A push",
    "pics.push.before": "Before: the spare goes in at the arrow.",
    "pics.push.after": "After: the line moved one step; the tile pushed out is the new spare.",
  },
  fr: {
    "pics.title": "Le matériel",
    "pics.straight": "Ligne droite",
    "pics.corner": "Virage",
    "pics.junction": "Carrefour en T",
    "pics.fixed": "Plaque fixe avec un trésor",
    "pics.home": "Un coin de départ et son pion",
    "pics.event": "Une plaque avec un événement révélé",
    "pics.push": "Une poussée",
    "pics.push.before": "Avant : la plaque supplémentaire entre à la flèche.",
    "pics.push.after": "Après : la rangée a avancé d’un cran ; la plaque expulsée devient la plaque supplémentaire.",
  },
  de: {
    "pics.title": "Das Material",
    "pics.straight": "Gerade",
    "pics.corner": "Kurve",
    "pics.junction": "Abzweigung",
    "pics.fixed": "Feste Karte mit Schatz",
    "pics.home": "Eine Startecke mit Spielfigur",
    "pics.event": "Eine Karte mit aufgedecktem Ereignis",
    "pics.push": "Ein Einschub",
    "pics.push.before": "Vorher: die Extrakarte wird am Pfeil eingeschoben.",
    "pics.push.after": "Nachher: die Reihe ist einen Schritt weiter; die herausgeschobene Karte ist die neue Extrakarte.",
    "team:pics.push.before": "Vorher: das freie Plättchen wird am Pfeil eingeschoben.",
    "team:pics.push.after": "Nachher: die Reihe ist einen Schritt weiter; das herausgeschobene Plättchen ist das neue freie Plättchen.",
  },
});

function tilePicture(tile, opts = {}, pawn = null) {
  const pic = svg("svg", { viewBox: "-4 -4 108 108", width: 84, height: 84, role: "img", "aria-hidden": "true" });
  pic.append(drawTile(tile, opts));
  if (pawn) {
    const g = svg("g", { class: `pawn pawn-${pawn}`, transform: "translate(50 50)" });
    g.append(svg("circle", { class: "pawn-body", r: 15 }), svg("circle", { class: "pawn-shine", cx: -5, cy: -5, r: 4.5 }));
    pic.append(g);
  }
  return pic;
}

function figure(pic, caption, name) {
  return h("figure", { class: "rules-figure", "data-picture": name }, pic, h("figcaption", {}, caption));
}

/** A line of tiles (and the spare beside it, with its arrow), as one picture. */
function linePicture(tiles, spare, arrowAt) {
  const n = tiles.length;
  const pic = svg("svg", { viewBox: `-4 -4 ${(n + 1.6) * 100 + 8} 108`, class: "rules-line", role: "img", "aria-hidden": "true" });
  const bed = svg("rect", { class: "board-bed", x: 156, y: -4, width: n * 100 + 8, height: 108, rx: 10 });
  pic.append(bed);
  const spareTile = drawTile(spare);
  spareTile.setAttribute("transform", "translate(0 0)");
  pic.append(spareTile);
  tiles.forEach((tile, i) => {
    const g = drawTile(tile);
    g.setAttribute("transform", `translate(${160 + i * 100} 0)`);
    pic.append(g);
  });
  if (arrowAt !== null) {
    const arrow = svg("g", { class: "arrow active", transform: `translate(${arrowAt} 50) rotate(-90)` });
    arrow.append(svg("path", { class: "arrow-shape", d: "M -20 -16 L 20 -16 L 0 16 Z" }));
    pic.append(arrow);
  }
  return pic;
}

/** Fill `section` with the pictures. */
export function renderPictures(section) {
  const line = [
    { open: "EW", treasure: null, fixed: false },
    { open: "ES", treasure: "owl", fixed: false },
    { open: "ESW", treasure: null, fixed: false },
    { open: "NEW", treasure: "bat", fixed: false },
    { open: "EW", treasure: null, fixed: false },
    { open: "SW", treasure: null, fixed: false },
    { open: "NW", treasure: "moth", fixed: false },
  ];
  const spare = { open: "NE", treasure: "ghost", fixed: false };
  const after = [spare, ...line.slice(0, -1)];
  const out = line[line.length - 1];
  section.replaceChildren(
    h("h2", {}, t("pics.title")),
    h("div", { class: "rules-figures" },
      figure(tilePicture({ open: "NS", treasure: null, fixed: false }), t("pics.straight"), "straight"),
      figure(tilePicture({ open: "ES", treasure: null, fixed: false }), t("pics.corner"), "corner"),
      figure(tilePicture({ open: "ESW", treasure: null, fixed: false }), t("pics.junction"), "junction"),
      figure(tilePicture({ open: "ESW", treasure: "crown", fixed: true }), t("pics.fixed"), "fixed"),
      figure(tilePicture({ open: "ES", treasure: null, fixed: true }, { home: "red" }, "red"), t("pics.home"), "home"),
      section.dataset.variant === "classic"
        ? figure(tilePicture({ open: "NES", treasure: "dragon", fixed: false, event: "swap" }), t("pics.event"), "event")
        : null),
    h("h3", {}, t("pics.push")),
    figure(linePicture(line, spare, 130), t("pics.push.before"), "push-before"),
    figure(linePicture(after, out, null), t("pics.push.after"), "push-after"),
  );
}
