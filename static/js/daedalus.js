/**
 * The Book of Daedalus in words (Team Edition): the card just turned, as the Team page's
 * panel and news say it, and the page it turned in the move log, which a player who was
 * looking elsewhere (or away) reads afterwards. One place, so that both say the same card
 * the same way, and the log, which imports no game page, can say it at all.
 */

import { addTranslations, cellName, formatList, slotWords, t } from "./i18n.js";
import { treasureName } from "./tiles.js";

/** The eight symbols of the Team Edition's plain tiles (the others are treasures). */
export const SYMBOLS = ["sun", "moon", "star", "comet", "rune", "eye", "hourglass", "compass"];

addTranslations({
  en: {
    "daedalus.past.push": "Daedalus pushed a tile face down into {slot}",
    "daedalus.past.flip": "Daedalus turned the {a} and the {b} face down",
    "daedalus.past.teleport": "Daedalus sent the {a} and {b} pawns to the {to} corner ({cell})",
    "daedalus.past.flip_none": "Daedalus named the {a} and the {b}, face down already",
    "daedalus.past.teleport_none": "Daedalus named the {a} and {b} pawns, not in play",
    "daedalus.past.teleport_seats": "Daedalus sent {names} to the {to} corner ({cell})",
    "daedalus.home": "{words}; sent home: {names}",
    "daedalus.left": "{n} pages left",
    "daedalus.left.one": "{n} page left",
    "daedalus.did": "{card}, at {cells}",
  },
  fr: {
    "daedalus.past.push": "Dédale a poussé une plaque face cachée dans {slot}",
    "daedalus.past.flip": "Dédale a retourné face cachée : {a} et {b}",
    "daedalus.past.teleport": "Dédale a envoyé les pions {a} et {b} au coin {to} ({cell})",
    "daedalus.past.flip_none": "Dédale a nommé {a} et {b}, déjà face cachée",
    "daedalus.past.teleport_none": "Dédale a nommé les pions {a} et {b}, absents du jeu",
    "daedalus.past.teleport_seats": "Dédale a envoyé {names} au coin {to} ({cell})",
    "daedalus.home": "{words} ; renvoyés au départ : {names}",
    "daedalus.left": "{n} pages restantes",
    "daedalus.left.one": "{n} page restante",
    "daedalus.did": "{card}, en {cells}",
  },
  de: {
    "daedalus.past.push": "Daedalus schob ein Plättchen verdeckt in {slot} ein",
    "daedalus.past.flip": "Daedalus drehte verdeckt um: {a} und {b}",
    "daedalus.past.teleport": "Daedalus schickte die Figuren {a} und {b} zum Startfeld von {to} ({cell})",
    "daedalus.past.flip_none": "Daedalus nannte {a} und {b}, schon verdeckt",
    "daedalus.past.teleport_none": "Daedalus nannte die Figuren {a} und {b}, nicht im Spiel",
    "daedalus.past.teleport_seats": "Daedalus schickte {names} zum Startfeld von {to} ({cell})",
    "daedalus.home": "{words}; zurück zum Start: {names}",
    "daedalus.left": "noch {n} Seiten",
    "daedalus.left.one": "noch {n} Seite",
    "daedalus.did": "{card}, auf {cells}",
  },
});

/** A tile a flip card names: one of the symbols, or a treasure. */
export function thingName(name) {
  return SYMBOLS.includes(name) ? t(`team.symbol.${name}`) : treasureName(name);
}

/** A colour's name as an adjective ("the red pawn", "le coin vert"). */
function colorName(color) {
  return t(`team.color.${color}`);
}

/**
 * What a card says, present tense (`team.card.*`), or past tense for the log
 * (`daedalus.past.*`). A teleport card names colours, some maybe not in play: the corner's
 * cell, from what the card did, says where on the board that is.
 */
export function cardWords(card, effect, past = false) {
  if (!card) return "";
  const key = (kind) => (past ? `daedalus.past.${kind}` : `team.card.${kind}`);
  if (card.kind === "push") return t(key("push"), { slot: slotWords(card.slot) });
  if (card.kind === "flip") return t(key("flip"), { a: thingName(card.tiles[0]), b: thingName(card.tiles[1]) });
  const cell = effect && Array.isArray(effect.to) ? cellName(effect.to) : "?";
  return t(key("teleport"), { a: colorName(card.pawns[0]), b: colorName(card.pawns[1]), to: colorName(card.to), cell });
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
  } else {
    words = cardWords(card, effect, true);
    if (card.kind === "flip" && effect) words = t("daedalus.did", { card: words, cells: formatList(effect.cells.map(cellName)) });
  }
  if (effect && effect.sent_home && effect.sent_home.length) words = t("daedalus.home", { words, names: seats(effect.sent_home) });
  return `${words} (${t("daedalus.left", { n: ev.left })})`;
}
