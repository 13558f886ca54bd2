/**
 * The Book of Daedalus in words (Team Edition): the card just turned, as the Team page's
 * panel and news say it, and the page it turned in the move log, which a player who was
 * looking elsewhere (or away) reads afterwards. One place, so that both say the same card
 * the same way, and the log, which imports no game page, can say it at all.
 */

import { addTranslations, cellName, formatList, slotWords, t } from "./i18n.js";
import { treasureName } from "./tiles.js";

/** The eight symbols of the Team Edition's plain tiles (the others are treasures), by
 * the glyph the board draws each with. */
export const SYMBOL_GLYPHS = { sun: "☀", moon: "☾", star: "★", comet: "☄", rune: "Ψ", eye: "◉", hourglass: "Ξ", compass: "✥" };

addTranslations({
  en: {
    "daedalus.past.push": "Daedalus pushed a tile face down into {slot}",
    "daedalus.past.flip": "Daedalus turned the {a} and the {b} face down",
    "daedalus.past.flip_none": "Daedalus named the {a} and the {b}, face down already",
    "daedalus.past.teleport_none": "Daedalus named the {a} and {b} pawns, not in play",
    "daedalus.past.teleport_seats": "Daedalus sent {names} to the {to} corner ({cell})",
    "daedalus.home": "{words}; sent home: {names}",
    "daedalus.left": "{n} pages left",
    "daedalus.left.one": "{n} page left",
    "daedalus.did": "{card}, at {cells}",
    "daedalus.next_turn": "next turn: {words}",
  },
  fr: {
    "daedalus.past.push": "Dédalus a poussé une plaque face cachée dans {slot}",
    "daedalus.past.flip": "Dédalus a retourné face cachée : {a} et {b}",
    "daedalus.past.flip_none": "Dédalus a nommé {a} et {b}, déjà face cachée",
    "daedalus.past.teleport_none": "Dédalus a nommé les pions {a} et {b}, absents du jeu",
    "daedalus.past.teleport_seats": "Dédalus a envoyé {names} au coin {to} ({cell})",
    "daedalus.home": "{words} ; renvoyés au départ : {names}",
    "daedalus.left": "{n} pages restantes",
    "daedalus.left.one": "{n} page restante",
    "daedalus.did": "{card}, en {cells}",
    "daedalus.next_turn": "tour suivant : {words}",
  },
  de: {
    "daedalus.past.push": "Daedalus schob ein Plättchen verdeckt in {slot} ein",
    "daedalus.past.flip": "Daedalus drehte {a} und {b} auf die Rückseite",
    "daedalus.past.flip_none": "Daedalus nannte {a} und {b}, schon verdeckt",
    "daedalus.past.teleport_none": "Daedalus nannte die Figuren {a} und {b}, nicht im Spiel",
    "daedalus.past.teleport_seats": "Daedalus schickte {names} zum Startfeld von {to} ({cell})",
    "daedalus.home": "{words}; zurück zum Start: {names}",
    "daedalus.left": "noch {n} Seiten",
    "daedalus.left.one": "noch {n} Seite",
    "daedalus.did": "{card}, auf {cells}",
    "daedalus.next_turn": "nächster Zug: {words}",
  },
});

/** A tile a flip card names: one of the symbols, or a treasure. */
export function thingName(name) {
  return name in SYMBOL_GLYPHS ? t(`team.symbol.${name}`) : treasureName(name);
}

/** A colour's name as an adjective ("the red pawn", "le coin vert"). */
function colorName(color) {
  return t(`team.color.${color}`);
}

/**
 * What a card says as it is turned (`team.card.*`). A teleport card names colours, some
 * maybe not in play: the corner's cell, from what the card did, says where that is.
 */
export function cardWords(card, effect) {
  if (!card) return "";
  if (card.kind === "push") return t("team.card.push", { slot: slotWords(card.slot) });
  if (card.kind === "flip") return t("team.card.flip", { a: thingName(card.tiles[0]), b: thingName(card.tiles[1]) });
  const cell = effect && Array.isArray(effect.to) ? cellName(effect.to) : "?";
  return t("team.card.teleport", { a: colorName(card.pawns[0]), b: colorName(card.pawns[1]), to: colorName(card.to), cell });
}

/**
 * The page the book turned, for the move log: the card as it fell out (the pawns it moved
 * by their players' names, the tiles it turned by their cells), who it sent home, and the
 * pages left.
 */
export function pageWords(ev, names) {
  const { card, effect } = ev;
  const seats = (list) => formatList(list.map(names));
  let words;
  if (card.kind === "teleport" && effect && effect.seats.length) {
    const cell = Array.isArray(effect.to) ? cellName(effect.to) : "?";
    words = t("daedalus.past.teleport_seats", { names: seats(effect.seats), to: colorName(card.to), cell });
  } else if (card.kind === "teleport") {
    words = t("daedalus.past.teleport_none", { a: colorName(card.pawns[0]), b: colorName(card.pawns[1]) });
  } else if (card.kind === "flip" && effect && !effect.cells.length) {
    words = t("daedalus.past.flip_none", { a: thingName(card.tiles[0]), b: thingName(card.tiles[1]) });
  } else if (card.kind === "flip") {
    const turned = t("daedalus.past.flip", { a: thingName(card.tiles[0]), b: thingName(card.tiles[1]) });
    words = effect ? t("daedalus.did", { card: turned, cells: formatList(effect.cells.map(cellName)) }) : turned;
  } else {
    words = t("daedalus.past.push", { slot: slotWords(card.slot) });
  }
  if (effect && effect.sent_home && effect.sent_home.length) words = t("daedalus.home", { words, names: seats(effect.sent_home) });
  return `${words} (${t("daedalus.left", { n: ev.left })})`;
}
