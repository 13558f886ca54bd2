/**
 * The table around a game, shared by the lobby and the room: options in words, seat
 * labels (computer players by level), the host's key, and the calls of the host and of
 * "play again" (docs/protocol.md, extensions).
 */

import { request } from "./api.js";
import { t } from "./i18n.js";
import { optionWords } from "./options.js";
import "./table-i18n.js";

export const LEVELS = ["easy", "medium", "hard"];

/** A room's options in words, on one line (options.js says each). */
export function optionsText(variant, options) {
  const words = variant ? optionWords(variant, options) : [];
  return words.length ? words.map((w) => w.text).join(" · ") : t("option.none");
}

// The names the server gives computer seats (`app/rooms/table.py`, `computer_name`).
const COMPUTER_NAME = /^Computer(?: (\d+))? \((easy|medium|hard)\)$/;

/**
 * A player's name as the page shows it: the name the server gave a computer seat
 * ("Computer (hard)", "Computer 2 (easy)") in the page's language, any other as it is.
 * Games store the names seats had, so views, records and replays carry the English one.
 */
export function shownName(name) {
  const m = COMPUTER_NAME.exec(name || "");
  if (!m) return name;
  const level = t(`level.${m[2]}`);
  return m[1] ? t("seat.computer.n", { n: m[1], level }) : t("seat.computer", { level });
}

/** The name a seat shows: computer seats by level, in the page's language. */
export function seatName(seat) {
  if (!seat) return "";
  if (seat.kind === "bot" && seat.computer && !COMPUTER_NAME.test(seat.name || "")) {
    return t("seat.computer", { level: t(`level.${seat.computer.level}`) });
  }
  return shownName(seat.name);
}

/** localStorage key of a room's host token. */
function hostKey(code) {
  return `labyrinth:host:${code}`;
}

export function loadHostToken(code) {
  try {
    return localStorage.getItem(hostKey(code));
  } catch {
    return null;
  }
}

export function saveHostToken(code, token) {
  try {
    if (token) localStorage.setItem(hostKey(code), token);
    else localStorage.removeItem(hostKey(code));
  } catch {
    /* not remembered: the host controls last as long as the page */
  }
}

const room = (code) => `/api/rooms/${encodeURIComponent(code)}`;

export const tableApi = {
  /** Create a room; `extra`: {name, computers, listed, start}. */
  create: (variant, options, extra = {}) => request("POST", "/api/rooms", { body: { variant, options, ...extra } }),
  openTables: (limit = 20) => request("GET", `/api/rooms?limit=${limit}`),
  join: (code, name, hostToken) => request("POST", `${room(code)}/join`, { body: { name }, token: hostToken }),
  update: (code, hostToken, body) => request("PATCH", room(code), { body, token: hostToken }),
  addComputer: (code, hostToken, level) => request("POST", `${room(code)}/computers`, { body: { level }, token: hostToken }),
  removeSeat: (code, seat, token) => request("DELETE", `${room(code)}/seats/${seat}`, { token }),
  rematch: (code, token) => request("POST", `${room(code)}/rematch`, { token }),
};
