/**
 * Moves and events in words, in the page's language: the room's move log, the replay's
 * move list and its "what move N did" panel, and the notation legend of the rules pages.
 *
 * The compact notation (`W4+1`, `h0@0,-5+1`, `take:1,-1`) stays the record's language;
 * players read a sentence ("pushed row 4 from the left, turned once"), with the notation
 * beside it as a small label. Words come from the notation; a move's events (live moves,
 * replays, and the history a room sends after a reload, which keeps the kinds listed in
 * `LOG_EVENTS` and the card game's `placed`/`discarded`) add what it found or took. A notation this module
 * does not know (a newer action) is shown as it is, never hidden.
 */

import { pageWords } from "./daedalus.js";
import { h } from "./dom.js";
import { addTranslations, aMotif, cellName, formatList, slotWords, t } from "./i18n.js";

const tr = t;

/** `t` for an event of the line's own mover: its nameless sentence where there is one. */
function selfWords(key, params) {
  const own = key.replace(/^ev\./, "ev.self.");
  return own !== key && SELF_WORDS.has(own.slice("ev.self.".length)) ? tr(own, params) : tr(key, params);
}

/** `t` for an event of the reader's own seat (`ctx.you`): said to them ("you found…"). */
function youWords(key, params) {
  const own = key.replace(/^ev\./, "ev.you.");
  return own !== key && YOU_WORDS.has(own.slice("ev.you.".length)) ? tr(own, params) : tr(key, params);
}

const SELF_WORDS = new Set(["found", "took_value", "took_cards", "no_take", "collected", "lost_value", "duel_roll", "duel_won", "final_won", "final_lost", "won"]);
const YOU_WORDS = new Set(["found", "took_value", "took_cards", "collected", "lost_value", "duel_won", "final_won", "final_lost", "won"]);
import { eventName, treasureName } from "./tiles.js";

const TEXT = {
  en: {
    "log.push": "pushed {slot}",
    "log.turned.1": "turned once",
    "log.turned.2": "turned twice",
    "log.turned.3": "turned three times",
    "log.move": "moved to {cell}",
    "log.stay": "stayed at {cell}",
    "log.move_spell": "moved to {cell} with a spell",
    "log.swap": "swapped places with {name}",
    "log.pick": "picked the {treasure}",
    "log.pick_hidden": "picked a card",
    "log.rotate": "rotated the tile at {cell}",
    "log.switch": "switched {a} and {b}",
    "log.orient": "laid the tile turned face up",
    "log.end": "ended the turn",
    "log.coin": "played the matching card for a coin",
    "log.no_coin": "kept the cards",
    "log.reroll": "played card {card} to roll again",
    "log.accept": "accepted the roll",
    "log.challenge": "challenged the dragon",
    "log.decline": "did not challenge the dragon",
    "log.decline_bonus": "declined the bonus turn",
    "log.open": "opened the pile",
    "log.daedalus": "turned the first page of the Book of Daedalus",
    "ev.opened": "{name} opened the pile",
    "ev.declined": "{name} declined the bonus turn",
    "log.double_turn": "played card {card} for a double turn",
    "log.end_turn": "ended the turn",
    "log.place": "placed a card",
    "log.place_motif": "placed {a_motif}",
    "log.take": "took {n} cards",
    "log.take.one": "took {n} card",
    "log.take_none": "took nothing",
    "log.take_motif": "took {n} × {motif}",
    "log.discard": "discarded a card",
    "log.discard_motif": "discarded {a_motif}",
    "ev.found": "{name} found the {treasure}",
    "ev.event": "event revealed: {event}",
    "ev.swapped": "{name} swapped places with {other}",
    "ev.picked": "{name} picked a card",
    "ev.moved": "{name} moved from {from} to {to}",
    "ev.stayed": "{name} stayed at {to}",
    "ev.moved_wall": "{name} moved from {from} to {to} through a wall",
    "ev.pushed": "the tile went into {slot}",
    "ev.carried": "{names} rode along to {cell}",
    "ev.target": "{name}'s next treasure: {treasure}",
    "ev.target_home": "{name} must now go home",
    "ev.turn": "{name}'s turn",
    "ev.turn_bonus": "{name} plays a bonus turn",
    "ev.won": "{name} wins the game",
    "ev.winners": "game over, winner: {names}",
    "ev.took_value": "{name} took treasure {value}",
    "ev.second_phase": "second phase: treasures 7-12 enter the maze",
    "ev.coin": "{name} played card {card} for a coin",
    "ev.dragon_arrows": "dragon die: {n} turns, the dragon now faces {dir}",
    "ev.dragon_arrows.one": "dragon die: {n} turn, the dragon now faces {dir}",
    "ev.dragon_guardian": "dragon die: the {guardian}",
    "ev.threat": "threatened: {names}",
    "ev.threat_none": "nobody is threatened",
    "ev.duel_roll": "{name} rolled {roll}",
    "ev.duel_won": "{name} won the duel",
    "ev.reroll": "{name} played card {card} to roll again",
    "ev.lost_value": "{name} lost treasure {value}",
    "ev.challenge": "{name} challenges the dragon",
    "ev.final_roll": "{name} rolled {roll} (final duel, roll {n})",
    "ev.final_won": "{name} beat the dragon ({total})",
    "ev.final_lost": "{name} failed against the dragon ({total})",
    "ev.double_turn": "{name} played card {card} for a double turn",
    "ev.rotated": "{name} rotated the tile at {cell}",
    "ev.switched": "{name} switched {a} and {b}",
    "ev.moved_spell": "{name} moved from {from} to {to} ({spell})",
    "ev.turned_up": "the tile at {cell} is turned face up",
    "ev.oriented": "{name} laid the tile at {cell}",
    "ev.collected": "{name} collected the {treasure} ({n}/24)",
    "ev.team_won": "the team wins",
    "ev.team_lost": "the team loses",
    // the loss comes at the next turn's start, not from the move on the line
    "ev.team_lost_daedalus": "then the Book of Daedalus had no page left to turn: the team loses",
    "ev.ended": "{name} ended the turn",
    "ev.placed": "{name} placed {a_motif}",
    "ev.can_take": "{n} cards may be taken",
    "ev.can_take.one": "{n} card may be taken",
    "ev.took_cards": "{name} took {n} × {motif}",
    // (version 2) joined to cards of its motif, none of which could go
    "ev.no_take": "{name} took nothing: without the card of that motif, the others would no longer all touch by an edge",
    "ev.no_take.other": "{name} took nothing: without the cards of that motif, the others would no longer all touch by an edge",
    "ev.self.no_take": "took nothing: without the card of that motif, the others would no longer all touch by an edge",
    "ev.self.no_take.other": "took nothing: without the cards of that motif, the others would no longer all touch by an edge",
    "ev.self.found": "found the {treasure}",
    "ev.self.took_value": "took treasure {value}",
    "ev.self.took_cards": "took {n} × {motif}",
    "ev.self.collected": "collected the {treasure} ({n}/24)",
    "ev.self.lost_value": "lost treasure {value}",
    "ev.self.duel_roll": "rolled {roll} in the duel",
    "ev.self.duel_won": "won the duel",
    "ev.self.final_won": "beat the dragon ({total})",
    "ev.self.final_lost": "failed against the dragon ({total})",
    "ev.self.won": "wins the game",
    // said to the reader of a summary, of their own seat ("while you were away")
    "ev.you.found": "you found the {treasure}",
    "ev.you.took_value": "you took treasure {value}",
    "ev.you.took_cards": "you took {n} × {motif}",
    "ev.you.collected": "you collected the {treasure} ({n}/24)",
    "ev.you.lost_value": "you lost treasure {value}",
    "ev.you.duel_won": "you won the duel",
    "ev.you.final_won": "you beat the dragon ({total})",
    "ev.you.final_lost": "you failed against the dragon ({total})",
    "ev.you.won": "you win the game",
    "ev.discarded": "{name} discarded {a_motif}",
    "ev.drew": "{name} drew {n} cards",
    "ev.drew.one": "{name} drew {n} card",
    "legend.title": "Move notation",
    "legend.intro": "Each move in the log is written in words, with its short notation beside it. Columns are a–g from left to right, rows 1–7 from top to bottom; a slot is the side (N, E, S, W) with its column or row.",
    "legend.notation": "Notation",
    "legend.meaning": "Meaning",
  },
  fr: {
    "log.push": "a poussé dans {slot}",
    "log.turned.1": "plaque tournée une fois",
    "log.turned.2": "plaque tournée deux fois",
    "log.turned.3": "plaque tournée trois fois",
    // the card game lays cards, not tiles
    "cards:log.turned.1": "carte tournée une fois",
    "cards:log.turned.2": "carte tournée deux fois",
    "cards:log.turned.3": "carte tournée trois fois",
    "log.move": "a rejoint {cell}",
    "log.stay": "n’a pas bougé ({cell})",
    "log.move_spell": "a rejoint {cell} grâce à un sort",
    "log.swap": "a échangé sa place avec {name}",
    "log.pick": "a choisi : {treasure}",
    "log.pick_hidden": "a choisi une carte",
    "log.rotate": "a tourné la plaque en {cell}",
    "log.switch": "a permuté {a} et {b}",
    "log.orient": "a posé la plaque retournée",
    "log.end": "a fini son tour",
    "log.coin": "a joué la carte du trésor pour une pièce",
    "log.no_coin": "a gardé ses cartes",
    "log.reroll": "a joué la carte {card} pour relancer",
    "log.accept": "a accepté le jet",
    "log.challenge": "a défié le dragon",
    "log.decline": "n’a pas défié le dragon",
    "log.decline_bonus": "a renoncé au tour bonus",
    "log.open": "a ouvert la pile",
    "log.daedalus": "a tourné la première page du grimoire de Dédalus",
    "ev.opened": "{name} a ouvert la pile",
    "ev.declined": "{name} a renoncé au tour bonus",
    "log.double_turn": "a joué la carte {card} pour un double tour",
    "log.end_turn": "a fini son tour",
    "log.place": "a posé une carte",
    "log.place_motif": "a posé : {motif}",
    "log.take": "a pris {n} cartes",
    "log.take.one": "a pris {n} carte",
    "log.take_none": "n’a rien pris",
    "log.take_motif": "a pris {n} × {motif}",
    "log.discard": "a défaussé une carte",
    "log.discard_motif": "a défaussé : {motif}",
    "ev.found": "{name} a trouvé : {treasure}",
    "ev.event": "événement révélé : {event}",
    "ev.swapped": "{name} a échangé sa place avec {other}",
    "ev.picked": "{name} a choisi une carte",
    "ev.moved": "{name} a rejoint {to} depuis {from}",
    "ev.stayed": "{name} n’a pas bougé ({to})",
    "ev.moved_wall": "{name} a rejoint {to} depuis {from} à travers un mur",
    "ev.pushed": "la plaque est entrée dans {slot}",
    "ev.carried": "{names} emporté(s) en {cell}",
    "ev.target": "prochain trésor pour {name} : {treasure}",
    "ev.target_home": "{name} doit maintenant rentrer",
    "ev.turn": "à {name} de jouer",
    "ev.turn_bonus": "{name} joue un tour bonus",
    "ev.won": "{name} gagne la partie",
    "ev.winners": "fin de partie, gagnant : {names}",
    "ev.took_value": "{name} a pris le trésor {value}",
    "ev.second_phase": "seconde phase : les trésors 7 à 12 entrent dans le labyrinthe",
    "ev.coin": "{name} a joué la carte {card} pour une pièce",
    "ev.dragon_arrows": "dé du dragon : {n} quarts de tour, le dragon regarde vers {dir}",
    "ev.dragon_arrows.one": "dé du dragon : {n} quart de tour, le dragon regarde vers {dir}",
    "ev.dragon_guardian": "dé du dragon : {guardian}",
    "ev.threat": "menacés : {names}",
    "ev.threat.one": "menacé : {names}",
    "ev.threat_none": "personne n’est menacé",
    "ev.duel_roll": "{name} a fait {roll}",
    "ev.duel_won": "{name} a gagné le duel",
    "ev.reroll": "{name} a joué la carte {card} pour relancer",
    "ev.lost_value": "{name} a perdu le trésor {value}",
    "ev.challenge": "{name} défie le dragon",
    "ev.final_roll": "{name} a fait {roll} (duel final, jet {n})",
    "ev.final_won": "{name} a vaincu le dragon ({total})",
    "ev.final_lost": "{name} a échoué face au dragon ({total})",
    "ev.double_turn": "{name} a joué la carte {card} pour un double tour",
    "ev.rotated": "{name} a tourné la plaque en {cell}",
    "ev.switched": "{name} a permuté {a} et {b}",
    "ev.moved_spell": "{name} a rejoint {to} depuis {from} ({spell})",
    "ev.turned_up": "la plaque en {cell} est retournée face visible",
    "ev.oriented": "{name} a posé la plaque en {cell}",
    "ev.collected": "{name} a récupéré : {treasure} ({n}/24)",
    "ev.team_won": "l’équipe gagne",
    "ev.team_lost": "l’équipe perd",
    "ev.team_lost_daedalus": "puis le grimoire de Dédalus n’avait plus de page à tourner : l’équipe perd",
    "ev.ended": "{name} a fini son tour",
    "ev.placed": "{name} a posé : {motif}",
    "ev.can_take": "{n} cartes peuvent être prises",
    "ev.can_take.one": "{n} carte peut être prise",
    "ev.took_cards": "{name} a pris {n} × {motif}",
    "ev.no_take": "{name} n’a rien pris : sans la carte de ce motif, les autres ne se toucheraient plus toutes par un côté",
    "ev.no_take.other": "{name} n’a rien pris : sans les cartes de ce motif, les autres ne se toucheraient plus toutes par un côté",
    "ev.self.no_take": "n’a rien pris : sans la carte de ce motif, les autres ne se toucheraient plus toutes par un côté",
    "ev.self.no_take.other": "n’a rien pris : sans les cartes de ce motif, les autres ne se toucheraient plus toutes par un côté",
    "ev.self.found": "a trouvé : {treasure}",
    "ev.self.took_value": "a pris le trésor {value}",
    "ev.self.took_cards": "a pris {n} × {motif}",
    "ev.self.collected": "a récupéré : {treasure} ({n}/24)",
    "ev.self.lost_value": "a perdu le trésor {value}",
    "ev.self.duel_roll": "a fait {roll} au duel",
    "ev.self.duel_won": "a gagné le duel",
    "ev.self.final_won": "a vaincu le dragon ({total})",
    "ev.self.final_lost": "a échoué face au dragon ({total})",
    "ev.self.won": "gagne la partie",
    "ev.you.found": "vous avez trouvé : {treasure}",
    "ev.you.took_value": "vous avez pris le trésor {value}",
    "ev.you.took_cards": "vous avez pris {n} × {motif}",
    "ev.you.collected": "vous avez récupéré : {treasure} ({n}/24)",
    "ev.you.lost_value": "vous avez perdu le trésor {value}",
    "ev.you.duel_won": "vous avez gagné le duel",
    "ev.you.final_won": "vous avez vaincu le dragon ({total})",
    "ev.you.final_lost": "vous avez échoué face au dragon ({total})",
    "ev.you.won": "vous gagnez la partie",
    "ev.discarded": "{name} a défaussé : {motif}",
    "ev.drew": "{name} a pioché {n} cartes",
    "ev.drew.one": "{name} a pioché {n} carte",
    "legend.title": "Notation des coups",
    "legend.intro": "Chaque coup du journal est écrit en toutes lettres, avec sa notation courte à côté. Les colonnes vont de a à g de gauche à droite, les rangées de 1 à 7 de haut en bas ; une entrée est le côté (N, E, S, W) suivi de sa colonne ou de sa rangée.",
    "legend.notation": "Notation",
    "legend.meaning": "Signification",
  },
  de: {
    "log.push": "schob in {slot} ein",
    "log.turned.1": "einmal gedreht",
    "log.turned.2": "zweimal gedreht",
    "log.turned.3": "dreimal gedreht",
    "log.move": "zog nach {cell}",
    "log.stay": "blieb auf {cell}",
    "log.move_spell": "zog mit einem Zauber nach {cell}",
    "log.swap": "tauschte den Platz mit {name}",
    "log.pick": "wählte: {treasure}",
    "log.pick_hidden": "wählte eine Karte",
    "log.rotate": "drehte das Plättchen auf {cell}",
    "log.switch": "tauschte {a} und {b}",
    "log.orient": "legte das aufgedeckte Plättchen aus",
    "log.end": "beendete den Zug",
    "log.coin": "spielte die passende Karte für eine Münze",
    "log.no_coin": "behielt die Karten",
    "log.reroll": "spielte Karte {card}, um neu zu würfeln",
    "log.accept": "nahm den Wurf an",
    "log.challenge": "forderte den Drachen heraus",
    "log.decline": "forderte den Drachen nicht heraus",
    "log.decline_bonus": "verzichtete auf den Bonuszug",
    "log.open": "öffnete den Stapel",
    "log.daedalus": "schlug die erste Seite des Buchs von Daedalus auf",
    "ev.opened": "{name} öffnete den Stapel",
    "ev.declined": "{name} verzichtete auf den Bonuszug",
    "log.double_turn": "spielte Karte {card} für einen Doppelzug",
    "log.end_turn": "beendete den Zug",
    "log.place": "legte eine Karte an",
    "log.place_motif": "legte an: {motif}",
    "log.take": "nahm {n} Karten",
    "log.take.one": "nahm {n} Karte",
    "log.take_none": "nahm nichts",
    "log.take_motif": "nahm {n} × {motif}",
    "log.discard": "warf eine Karte ab",
    "log.discard_motif": "warf ab: {motif}",
    "ev.found": "{name} fand: {treasure}",
    "ev.event": "Ereignis aufgedeckt: {event}",
    "ev.swapped": "{name} tauschte den Platz mit {other}",
    "ev.picked": "{name} wählte eine Karte",
    "ev.moved": "{name} zog von {from} nach {to}",
    "ev.stayed": "{name} blieb auf {to}",
    "ev.moved_wall": "{name} zog von {from} durch eine Wand nach {to}",
    "ev.pushed": "die Karte wurde in {slot} eingeschoben",
    // the Team Edition's German rules say Plättchen where the classic game says Karte
    "team:ev.pushed": "das Plättchen wurde in {slot} eingeschoben",
    "ev.carried": "{names} mitgeschoben nach {cell}",
    "ev.target": "nächster Schatz von {name}: {treasure}",
    "ev.target_home": "{name} muss jetzt nach Hause",
    "ev.turn": "{name} ist am Zug",
    "ev.turn_bonus": "{name} spielt einen Bonuszug",
    "ev.won": "{name} gewinnt das Spiel",
    "ev.winners": "Spielende, Sieg: {names}",
    "ev.took_value": "{name} nahm Schatz {value}",
    "ev.second_phase": "zweite Phase: die Schätze 7-12 kommen ins Labyrinth",
    "ev.coin": "{name} spielte Karte {card} für eine Münze",
    "ev.dragon_arrows": "Drachenwürfel: {n} Drehungen, der Drache blickt nach {dir}",
    "ev.dragon_arrows.one": "Drachenwürfel: {n} Drehung, der Drache blickt nach {dir}",
    "ev.dragon_guardian": "Drachenwürfel: {guardian}",
    "ev.threat": "bedroht: {names}",
    "ev.threat_none": "niemand ist bedroht",
    "ev.duel_roll": "{name} würfelte {roll}",
    "ev.duel_won": "{name} gewann das Duell",
    "ev.reroll": "{name} spielte Karte {card}, um neu zu würfeln",
    "ev.lost_value": "{name} verlor Schatz {value}",
    "ev.challenge": "{name} fordert den Drachen heraus",
    "ev.final_roll": "{name} würfelte {roll} (Schlussduell, Wurf {n})",
    "ev.final_won": "{name} besiegte den Drachen ({total})",
    "ev.final_lost": "{name} scheiterte am Drachen ({total})",
    "ev.double_turn": "{name} spielte Karte {card} für einen Doppelzug",
    "ev.rotated": "{name} drehte das Plättchen auf {cell}",
    "ev.switched": "{name} tauschte {a} und {b}",
    "ev.moved_spell": "{name} zog von {from} nach {to} ({spell})",
    "ev.turned_up": "das Plättchen auf {cell} ist aufgedeckt",
    "ev.oriented": "{name} legte das Plättchen auf {cell} aus",
    "ev.collected": "{name} sammelte ein: {treasure} ({n}/24)",
    "ev.team_won": "das Team gewinnt",
    "ev.team_lost": "das Team verliert",
    "ev.team_lost_daedalus": "dann hatte das Buch von Daedalus keine Seite mehr zum Umblättern: das Team verliert",
    "ev.ended": "{name} beendete den Zug",
    "ev.placed": "{name} legte an: {motif}",
    "ev.can_take": "{n} Karten können genommen werden",
    "ev.can_take.one": "{n} Karte kann genommen werden",
    "ev.took_cards": "{name} nahm {n} × {motif}",
    "ev.no_take": "{name} nahm nichts: ohne die Karte dieses Motivs hingen die übrigen nicht mehr alle über eine Kante zusammen",
    "ev.no_take.other": "{name} nahm nichts: ohne die Karten dieses Motivs hingen die übrigen nicht mehr alle über eine Kante zusammen",
    "ev.self.no_take": "nahm nichts: ohne die Karte dieses Motivs hingen die übrigen nicht mehr alle über eine Kante zusammen",
    "ev.self.no_take.other": "nahm nichts: ohne die Karten dieses Motivs hingen die übrigen nicht mehr alle über eine Kante zusammen",
    "ev.self.found": "fand: {treasure}",
    "ev.self.took_value": "nahm Schatz {value}",
    "ev.self.took_cards": "nahm {n} × {motif}",
    "ev.self.collected": "sammelte ein: {treasure} ({n}/24)",
    "ev.self.lost_value": "verlor Schatz {value}",
    "ev.self.duel_roll": "würfelte {roll} im Duell",
    "ev.self.duel_won": "gewann das Duell",
    "ev.self.final_won": "besiegte den Drachen ({total})",
    "ev.self.final_lost": "scheiterte am Drachen ({total})",
    "ev.self.won": "gewinnt das Spiel",
    "ev.you.found": "du fandst: {treasure}",
    "ev.you.took_value": "du nahmst Schatz {value}",
    "ev.you.took_cards": "du nahmst {n} × {motif}",
    "ev.you.collected": "du sammeltest ein: {treasure} ({n}/24)",
    "ev.you.lost_value": "du verlorst Schatz {value}",
    "ev.you.duel_won": "du gewannst das Duell",
    "ev.you.final_won": "du besiegtest den Drachen ({total})",
    "ev.you.final_lost": "du scheitertest am Drachen ({total})",
    "ev.you.won": "du gewinnst das Spiel",
    "ev.discarded": "{name} warf ab: {motif}",
    "ev.drew": "{name} zog {n} Karten",
    "ev.drew.one": "{name} zog {n} Karte",
    "legend.title": "Zugnotation",
    "legend.intro": "Jeder Zug im Protokoll steht in Worten da, mit seiner Kurznotation daneben. Spalten a–g von links nach rechts, Reihen 1–7 von oben nach unten; ein Einschub ist die Seite (N, E, S, W) mit ihrer Spalte oder Reihe.",
    "legend.notation": "Notation",
    "legend.meaning": "Bedeutung",
  },
};
addTranslations(TEXT);

/** Example notations of each game, for the rules pages' legend. */
export const LEGEND = {
  classic: ["Nb", "W4+1", "c3", "swap:2", "pick:crown", "pick", "open", "decline"],
  master: ["Nb", "W4+1", "c3", "coin", "no_coin", "reroll:3", "accept", "challenge", "decline", "double_turn:9", "end_turn"],
  team: ["daedalus", "Nb", "W4+1", "c3", "c3*", "rotate:c2=NES", "switch:b2-b3", "orient:ES", "end"],
  cards: ["h0@2,-1+1", "take:0,-1/3,1", "take:-", "discard:h1"],
};

/** A cell from the notation's `c3` (column letter, row number). */
const CELL_RE = /^([a-g])([1-7])$/;
const PUSH_RE = /^([NS][a-g]|[EW][1-7])(?:\+([1-3]))?$/;

function turned(k) {
  return k ? t(`log.turned.${k}`) : "";
}

function motifName(name) {
  return t("motif." + name);
}

/** A motif for a sentence: bare (`motif`) and with its article where there is one (`a_motif`). */
function motifParams(name) {
  return { motif: motifName(name), a_motif: aMotif(name) };
}

/**
 * A move's notation in words (no name: the log shows it beside), or null when the
 * notation is not one this module knows.
 * @param {string} notation
 * @param {{variant?: string, names?: (seat: number) => string, events?: object[]}} [ctx]
 *   `variant`: the game, where one notation means different things (`decline`)
 */
export function moveWords(notation, ctx = {}) {
  const text = String(notation || "");
  const names = ctx.names || ((s) => `#${s}`);
  const events = ctx.events || [];
  let m = PUSH_RE.exec(text);
  if (m) return [t("log.push", { slot: slotWords(m[1]) }), turned(Number(m[2] || 0))].filter(Boolean).join(", ");
  if (CELL_RE.test(text)) return t(events.some(isStay) ? "log.stay" : "log.move", { cell: text });
  if (text.endsWith("*") && CELL_RE.test(text.slice(0, -1))) return t("log.move_spell", { cell: text.slice(0, -1) });
  if ((m = /^swap:(\d+)$/.exec(text))) return t("log.swap", { name: names(Number(m[1])) });
  if (text === "pick") return t("log.pick_hidden");
  if ((m = /^pick:([a-z_]+)$/.exec(text))) return t("log.pick", { treasure: treasureName(m[1]) });
  if ((m = /^rotate:([a-g][1-7])=([NESW]+)$/.exec(text))) return t("log.rotate", { cell: m[1] });
  if ((m = /^switch:([a-g][1-7])-([a-g][1-7])$/.exec(text))) return t("log.switch", { a: m[1], b: m[2] });
  if (/^orient:[NESW]+$/.test(text)) return t("log.orient");
  if (text === "end") return t("log.end");
  if (text === "open") return t("log.open");
  if (text === "daedalus") return t("log.daedalus");
  if (text === "decline" && ctx.variant === "classic") return t("log.decline_bonus");
  if (["coin", "no_coin", "accept", "challenge", "decline", "end_turn"].includes(text)) return t(`log.${text}`);
  if ((m = /^(reroll|double_turn):(\d+)$/.exec(text))) return t(`log.${m[1]}`, { card: m[2] });
  if ((m = /^h[01]@-?\d+,-?\d+(?:\+([1-3]))?$/.exec(text))) {
    const placed = events.find((e) => e.type === "placed" && e.card);
    const what = placed ? t("log.place_motif", motifParams(placed.card.motif)) : t("log.place");
    return [what, turned(Number(m[1] || 0))].filter(Boolean).join(", ");
  }
  if (text === "take:-") return t("log.take_none");
  if ((m = /^take:(.+)$/.exec(text))) {
    const took = events.find((e) => e.type === "took" && Array.isArray(e.cards) && e.cards.length);
    if (took) return t("log.take_motif", { n: took.cards.length, motif: motifName(took.cards[0].motif) });
    return t("log.take", { n: m[1].split("/").length });
  }
  if (/^discard:h[01]$/.test(text)) {
    const gone = events.find((e) => e.type === "discarded" && e.card);
    return gone ? t("log.discard_motif", motifParams(gone.card.motif)) : t("log.discard");
  }
  return null;
}

/** A move that ended where it began (the pawn stayed put, which the notation does not say). */
function isStay(ev) {
  return ev.type === "moved" && Array.isArray(ev.from) && Array.isArray(ev.to) && ev.from[0] === ev.to[0] && ev.from[1] === ev.to[1];
}

/** A notation of words only (`end_turn`, `coin`, `reroll:3`, `pick:crown`, `take:-`). */
const WORDS_ONLY = /^[a-z_]+(?::(?:[a-z_]+|\d+|-))?$/;

/**
 * Whether a move's notation says more than its words: where on the board or in the hand
 * (`W4+1`, `c3`, `h0@2,-1`, `rotate:c2=NES`). A list shows the label beside the words
 * only then; `end_turn` beside "ended the turn" reads as code, not as a record.
 * @param {string} notation
 */
export function notationPlaces(notation) {
  const text = String(notation || "");
  return text !== "" && (CELL_RE.test(text) || !WORDS_ONLY.test(text));
}

/** Events worth a word in a log line beside the move (finds, takes, losses, results). */
const LOG_EVENTS = new Set(["daedalus", "found", "event", "took", "no_take", "collected", "lost", "dragon_die", "threat", "duel_roll", "duel_won", "final_duel", "won", "second_phase"]);

/**
 * Master's dice worth a word: the dragon die, a duel roll, and a threat that made someone
 * duel (a dragon that threatens nobody is the usual case; the die's face says it).
 */
function isDice(ev) {
  return ev.type === "dragon_die" || ev.type === "duel_roll" || (ev.type === "threat" && !!(ev.duellists && ev.duellists.length));
}

/** What a move's dice did, in words ("dragon die: … · threatened: Bob · Bob rolled 2"), or "". */
export function diceWords(events, ctx = {}) {
  return (events || []).filter(isDice).map((ev) => eventWords(ev, ctx)).filter(Boolean).join(" · ");
}

/**
 * One log line's words: the move, then what it found or took (from its events, when
 * known). Never empty: an unknown notation is shown as it is.
 */
export function entryWords(notation, ctx = {}) {
  const parts = [moveWords(notation, ctx) || String(notation || "")];
  for (const ev of ctx.events || []) {
    if (!LOG_EVENTS.has(ev.type)) continue;
    if (ev.type === "took" && Array.isArray(ev.cards)) continue;  // the move's words say it
    if (ev.type === "threat" && !isDice(ev)) continue;
    // The line begins with the mover's name: what the mover did goes on without it.
    let words = eventWords(ev, { ...ctx, mover: ctx.seat });
    // The book's page that a turn's end turned belongs to the next turn: said after the
    // end, it read as the ender's doing ("Clara laid the tile · Daedalus sent Ann home").
    if (words && ev.type === "daedalus" && String(notation) !== "daedalus") words = tr("daedalus.next_turn", { words });
    if (words) parts.push(words);
  }
  return parts.join(" · ");
}

function cellOf(value) {
  return Array.isArray(value) && value.length === 2 && value.every(Number.isInteger) ? cellName(value) : String(value);
}

/**
 * One event in words, names and cells (a1-g7) included; null for the events that only
 * repeat the move itself.
 * @param {object} ev
 * @param {{names?: (seat: number) => string, mover?: number, you?: number[]}} [ctx] `mover`:
 *   the seat whose line the words go on (its own events are said without its name);
 *   `you`: the reader's seats, whose events are said to them ("you found the bat")
 */
export function eventWords(ev, ctx = {}) {
  const names = ctx.names || ((s) => `#${s}`);
  const name = typeof ev.seat === "number" ? names(ev.seat) : "";
  // said of the line's own mover (`ctx.mover`): the sentence without the name; of the
  // reader's own seat (`ctx.you`, a summary's): said to them
  const self = typeof ev.seat === "number" && ev.seat === ctx.mover;
  const you = typeof ev.seat === "number" && Array.isArray(ctx.you) && ctx.you.includes(ev.seat);
  const t = self ? selfWords : you ? youWords : tr;
  const list = (seats) => formatList((seats || []).map(names));
  switch (ev.type) {
    case "pushed": return t("ev.pushed", { slot: slotWords(ev.slot || "") });
    case "carried": return ev.seats && ev.seats.length ? t("ev.carried", { names: list(ev.seats), cell: cellOf(ev.to) }) : null;
    case "event": return t("ev.event", { event: eventName(ev.name) });
    case "swapped": return t("ev.swapped", { name, other: names(ev.with) });
    case "picked": return t("ev.picked", { name });
    case "opened": return t("ev.opened", { name });
    case "declined": return t("ev.declined", { name });
    case "moved":
      if (ev.spell) return t("ev.moved_spell", { name, from: cellOf(ev.from), to: cellOf(ev.to), spell: t(`spell.${ev.spell}`) });
      if (isStay(ev)) return t("ev.stayed", { name, to: cellOf(ev.to) });
      return t(ev.wall ? "ev.moved_wall" : "ev.moved", { name, from: cellOf(ev.from), to: cellOf(ev.to) });
    case "found": return t("ev.found", { name, treasure: treasureName(ev.treasure) });
    case "target":
      if (ev.treasure === undefined) return null;
      return ev.treasure ? t("ev.target", { name, treasure: treasureName(ev.treasure) }) : t("ev.target_home", { name });
    case "turn": return t(ev.bonus ? "ev.turn_bonus" : "ev.turn", { name });
    case "won":
      if (Array.isArray(ev.winners)) return t("ev.winners", { names: list(ev.winners) });
      if (name) return t("ev.won", { name });
      return t("ev.team_won");
    case "took":
      if (Array.isArray(ev.cards)) {
        return ev.cards.length ? t("ev.took_cards", { name, n: ev.cards.length, motif: motifName(ev.cards[0].motif) }) : null;
      }
      return t("ev.took_value", { name, value: ev.value });
    case "second_phase": return t("ev.second_phase");
    case "coin": return t("ev.coin", { name, card: ev.card });
    case "dragon_die":
      if (ev.face === "white" || ev.face === "black") return t("ev.dragon_guardian", { guardian: t(`master.guardian.${ev.face}`) });
      return t("ev.dragon_arrows", { n: Number(ev.face), dir: t(`dir.${ev.facing}`) });
    case "threat": return ev.duellists && ev.duellists.length ? t("ev.threat", { names: list(ev.duellists), n: ev.duellists.length }) : t("ev.threat_none");
    case "duel_roll": return t("ev.duel_roll", { name, roll: ev.roll });
    case "duel_won": return t("ev.duel_won", { name });
    case "reroll": return t("ev.reroll", { name, card: ev.card });
    case "lost":
      if (ev.value !== undefined) return t("ev.lost_value", { name, value: ev.value });
      // The Team Edition's loss: the next turn found the book empty (said as the result is).
      return t(ev.reason === "daedalus" ? "ev.team_lost_daedalus" : "ev.team_lost");
    case "challenge": return t("ev.challenge", { name });
    case "final_roll": return t("ev.final_roll", { name, roll: ev.roll, n: ev.index + 1 });
    case "final_duel": {
      // the three dice, not their sum alone: how the duel was won or lost ("6 + 5 + 3 = 14")
      const total = Array.isArray(ev.rolls) && ev.rolls.length ? `${ev.rolls.join(" + ")} = ${ev.total}` : ev.total;
      return t(ev.won ? "ev.final_won" : "ev.final_lost", { name, total });
    }
    case "double_turn": return t("ev.double_turn", { name, card: ev.card });
    case "rotated": return t("ev.rotated", { name, cell: cellOf(ev.at) });
    case "switched": return t("ev.switched", { name, a: cellOf(ev.cells[0]), b: cellOf(ev.cells[1]) });
    case "turned_up": return t("ev.turned_up", { cell: cellOf(ev.at) });
    case "oriented": return t("ev.oriented", { name, cell: cellOf(ev.at) });
    case "collected": return t("ev.collected", { name, treasure: treasureName(ev.treasure), n: ev.portal });
    case "ended": return t("ev.ended", { name });
    case "daedalus": return ev.card ? pageWords(ev, names) : null;
    case "placed": return ev.card ? t("ev.placed", { name, ...motifParams(ev.card.motif) }) : null;
    case "can_take": return t("ev.can_take", { n: (ev.cards || []).length });
    case "no_take": return t("ev.no_take", { name, n: (ev.cards || []).length });
    case "discarded": return ev.card ? t("ev.discarded", { name, ...motifParams(ev.card.motif) }) : null;
    case "drew": return t("ev.drew", { name, n: ev.count });
    case "finished": return t("ev.winners", { names: list(ev.winners) });
    default: return genericWords(ev, names);
  }
}

/** An event this module has no sentence for: its type and values, cells as a1-g7. */
function genericWords(ev, names) {
  const parts = [String(ev.type || "?").replace(/_/g, " ")];
  for (const [key, value] of Object.entries(ev)) {
    if (key === "type" || value === null || value === undefined) continue;
    if (key === "seat" && typeof value === "number") parts.push(names(value));
    else if (Array.isArray(value) && value.length === 2 && value.every(Number.isInteger)) parts.push(cellName(value));
    else if (typeof value !== "object") parts.push(String(value));
  }
  return parts.join(" · ");
}

/**
 * Why the server played a move for its seat (the log's `by`: "computer:timeout"...), as a
 * small label beside the move in the room's move list and the replay's; null for a move
 * its player made, and for a computer seat's own (its name says it is the computer).
 */
export function byBadge(by) {
  if (typeof by !== "string" || !by.startsWith("computer:")) return null;
  const reason = by.slice("computer:".length);
  if (reason === "seat") return null;
  const known = ["timeout", "away", "left"].includes(reason) ? reason : "away";
  return h("span", { class: "log-cause", "data-testid": "log-cause", "data-cause": reason }, t(`cause.${known}`));
}
