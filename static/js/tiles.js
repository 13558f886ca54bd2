/**
 * Treasure and event glyphs (an inline SVG sprite), and drawing one maze tile.
 *
 * The glyphs are plain SVG drawn here, so they look the same on every device (no emoji
 * font needed). Each lives in a `<symbol id="t-NAME">` / `<symbol id="e-NAME">` of a
 * hidden sprite added once to the document; anything may `<use>` them.
 */

import { t } from "./i18n.js";

export const SVG_NS = "http://www.w3.org/2000/svg";

/** The 24 treasures: 12 objects on fixed tiles, then 12 creatures on movable tiles. */
export const TREASURES = [
  "book", "gold", "map", "skull", "ring", "sword", "crown", "keys", "chest", "emerald",
  "candlestick", "helmet", "bat", "dragon", "genie", "ghost", "troll", "sorceress",
  "lizard", "moth", "owl", "scarab", "rat", "spider",
];

export const EVENTS = ["extra_push", "double_turn", "swap", "peek", "exchange", "wall"];

const TREASURE_ART = {
  book: `<rect x="-28" y="-38" width="58" height="76" rx="5" fill="#8b2f2f" stroke="#3b1010" stroke-width="4"/>
    <rect x="-28" y="-38" width="12" height="76" fill="#5e1d1d"/>
    <path d="M25 -34 V34" stroke="#f5ecd0" stroke-width="5"/>
    <rect x="-8" y="-22" width="26" height="9" fill="#f3d37a"/>
    <rect x="-8" y="-6" width="26" height="4" fill="#f3d37a"/>`,
  gold: `<path d="M-30 36 C-44 14 -30 -10 -12 -16 L-20 -30 C-8 -38 8 -38 20 -30 L12 -16 C30 -10 44 14 30 36 Z" fill="#b7862c" stroke="#5c3f0c" stroke-width="4"/>
    <path d="M-14 -18 H14" stroke="#5c3f0c" stroke-width="5"/>
    <circle cx="0" cy="14" r="13" fill="#f7cf3d" stroke="#8a6500" stroke-width="3"/>
    <path d="M0 6 V22" stroke="#8a6500" stroke-width="3"/>`,
  map: `<path d="M-40 -26 L-13 -36 L13 -26 L40 -36 L40 26 L13 36 L-13 26 L-40 36 Z" fill="#f0dca0" stroke="#7a5a2a" stroke-width="3.5"/>
    <path d="M-13 -36 V26 M13 -26 V36" stroke="#b89a5a" stroke-width="2"/>
    <path d="M-30 22 Q-14 -4 4 10 T22 -12" fill="none" stroke="#7a5a2a" stroke-width="3.5" stroke-dasharray="5 4"/>
    <path d="M16 -24 L30 -10 M30 -24 L16 -10" stroke="#c0262d" stroke-width="6" stroke-linecap="round"/>`,
  skull: `<path d="M0 -38 C-26 -38 -35 -20 -35 -4 C-35 10 -27 16 -20 18 V33 H20 V18 C27 16 35 10 35 -4 C35 -20 26 -38 0 -38 Z" fill="#f4f1e8" stroke="#3c3c3c" stroke-width="4"/>
    <circle cx="-13" cy="-4" r="9" fill="#222"/><circle cx="13" cy="-4" r="9" fill="#222"/>
    <path d="M0 7 L-6 17 H6 Z" fill="#222"/>
    <path d="M-10 23 V33 M0 23 V33 M10 23 V33" stroke="#3c3c3c" stroke-width="3"/>`,
  ring: `<circle cx="0" cy="10" r="24" fill="none" stroke="#d4a017" stroke-width="10"/>
    <circle cx="0" cy="10" r="24" fill="none" stroke="#8a6500" stroke-width="2"/>
    <path d="M0 -40 L15 -24 L0 -10 L-15 -24 Z" fill="#7fd6f5" stroke="#2a6f8a" stroke-width="3"/>`,
  sword: `<path d="M0 -44 L8 -32 L8 12 L-8 12 L-8 -32 Z" fill="#d5dbe0" stroke="#4b5560" stroke-width="3"/>
    <path d="M0 -36 V10" stroke="#9aa5ae" stroke-width="2"/>
    <rect x="-22" y="12" width="44" height="8" rx="3" fill="#c9a227" stroke="#6b4c00" stroke-width="2"/>
    <rect x="-4.5" y="20" width="9" height="15" fill="#6b3e1e"/>
    <circle cx="0" cy="39" r="6" fill="#c9a227" stroke="#6b4c00" stroke-width="2"/>`,
  crown: `<path d="M-37 22 L-42 -24 L-19 0 L0 -34 L19 0 L42 -24 L37 22 Z" fill="#f2c230" stroke="#8a6500" stroke-width="3.5" stroke-linejoin="round"/>
    <rect x="-37" y="22" width="74" height="12" rx="2" fill="#d9a514" stroke="#8a6500" stroke-width="3.5"/>
    <circle cx="0" cy="6" r="7" fill="#c0262d"/><circle cx="-22" cy="10" r="5" fill="#2f6fd6"/><circle cx="22" cy="10" r="5" fill="#2f6fd6"/>`,
  keys: `<circle cx="-18" cy="-18" r="15" fill="none" stroke="#c9a227" stroke-width="8"/>
    <path d="M-7 -7 L32 32" stroke="#c9a227" stroke-width="8" stroke-linecap="round"/>
    <path d="M18 18 L9 27 M27 27 L18 36" stroke="#c9a227" stroke-width="7" stroke-linecap="round"/>
    <circle cx="-18" cy="-18" r="15" fill="none" stroke="#7a5a00" stroke-width="1.5"/>`,
  chest: `<path d="M-40 -4 Q-40 -34 0 -34 Q40 -34 40 -4 Z" fill="#a7642e" stroke="#4a2a10" stroke-width="3.5"/>
    <rect x="-40" y="-4" width="80" height="40" fill="#8a4f22" stroke="#4a2a10" stroke-width="3.5"/>
    <rect x="-40" y="-7" width="80" height="7" fill="#d4a017"/>
    <rect x="-8" y="-6" width="16" height="18" rx="2" fill="#d4a017" stroke="#4a2a10" stroke-width="2"/>
    <path d="M-26 -30 V36 M26 -30 V36" stroke="#d4a017" stroke-width="4"/>`,
  emerald: `<path d="M-20 -34 H20 L38 -12 L0 40 L-38 -12 Z" fill="#2fbf71" stroke="#0d5c33" stroke-width="3.5" stroke-linejoin="round"/>
    <path d="M-38 -12 H38 M-20 -34 L-10 -12 L0 40 L10 -12 L20 -34" fill="none" stroke="#0d5c33" stroke-width="2"/>
    <path d="M-14 -28 L-20 -16" stroke="#c8ffe0" stroke-width="4" stroke-linecap="round"/>`,
  candlestick: `<path d="M0 -46 C9 -34 7 -25 0 -23 C-7 -25 -9 -34 0 -46 Z" fill="#ffb400" stroke="#b36b00" stroke-width="2"/>
    <rect x="-8" y="-20" width="16" height="34" fill="#fff6d8" stroke="#8d8d8d" stroke-width="2.5"/>
    <path d="M-24 14 H24 L15 23 H5 V32 H19 V40 H-19 V32 H-5 V23 H-15 Z" fill="#c9a227" stroke="#6b4c00" stroke-width="2.5" stroke-linejoin="round"/>`,
  helmet: `<path d="M-32 30 V0 C-32 -28 -16 -38 0 -38 C16 -38 32 -28 32 0 V30 Z" fill="#aab5c0" stroke="#3f4953" stroke-width="3.5"/>
    <rect x="-26" y="-2" width="52" height="8" rx="2" fill="#2b2f33"/>
    <path d="M0 -38 V-2 M0 6 V30" stroke="#3f4953" stroke-width="3"/>
    <path d="M2 -38 C8 -48 24 -48 30 -38" stroke="#c0262d" stroke-width="7" fill="none" stroke-linecap="round"/>`,
  bat: `<path d="M0 -6 C-8 -22 -26 -26 -44 -18 C-36 -12 -36 -2 -38 8 C-30 2 -22 4 -17 12 C-13 4 -7 6 0 14 C7 6 13 4 17 12 C22 4 30 2 38 8 C36 -2 36 -12 44 -18 C26 -26 8 -22 0 -6 Z" fill="#3a2f4a" stroke="#15101c" stroke-width="2.5" stroke-linejoin="round"/>
    <path d="M-7 -8 L-6 -22 L-1 -13 H1 L6 -22 L7 -8 Z" fill="#3a2f4a" stroke="#15101c" stroke-width="2"/>
    <circle cx="-3" cy="-7" r="1.8" fill="#ffd400"/><circle cx="3" cy="-7" r="1.8" fill="#ffd400"/>`,
  dragon: `<path d="M-38 32 C-34 0 -16 -22 10 -22 L18 -38 L24 -22 C32 -18 40 -10 42 -2 L30 2 L38 12 L22 12 C14 22 -2 28 -14 40 Z" fill="#c0392b" stroke="#5a1410" stroke-width="3.5" stroke-linejoin="round"/>
    <path d="M-20 -2 L-36 -26 L-14 -14 Z" fill="#e0674f" stroke="#5a1410" stroke-width="2.5" stroke-linejoin="round"/>
    <circle cx="17" cy="-10" r="4.5" fill="#ffd400" stroke="#5a1410" stroke-width="1.5"/>
    <path d="M-10 16 L-4 24 M-20 20 L-14 28" stroke="#f6c3b8" stroke-width="3" stroke-linecap="round"/>`,
  genie: `<path d="M-38 18 C-32 34 18 34 24 18 L42 4 L30 6 L24 10 C16 2 -22 2 -28 12 Z" fill="#d4a017" stroke="#6b4c00" stroke-width="3" stroke-linejoin="round"/>
    <path d="M-6 8 C-24 -6 12 -14 -2 -24 C-12 -30 2 -38 10 -34" fill="none" stroke="#7b5cd6" stroke-width="7" stroke-linecap="round"/>
    <circle cx="12" cy="-36" r="8" fill="#7b5cd6"/>
    <path d="M-12 34 H12" stroke="#6b4c00" stroke-width="4"/>`,
  ghost: `<path d="M-28 38 V-6 C-28 -26 -14 -38 0 -38 C14 -38 28 -26 28 -6 V38 L18 30 L9 38 L0 30 L-9 38 L-18 30 Z" fill="#f7f7ff" stroke="#6f6f8f" stroke-width="3.5" stroke-linejoin="round"/>
    <ellipse cx="-10" cy="-10" rx="5" ry="7.5" fill="#222"/><ellipse cx="10" cy="-10" rx="5" ry="7.5" fill="#222"/>
    <ellipse cx="0" cy="10" rx="6" ry="7" fill="#222"/>`,
  troll: `<path d="M-30 -8 L-44 -18 L-30 4 Z M30 -8 L44 -18 L30 4 Z" fill="#6fa84a" stroke="#2f4f1d" stroke-width="2.5" stroke-linejoin="round"/>
    <path d="M-30 -6 C-30 -32 30 -32 30 -6 C30 20 18 38 0 38 C-18 38 -30 20 -30 -6 Z" fill="#6fa84a" stroke="#2f4f1d" stroke-width="3.5"/>
    <path d="M-8 -28 L-4 -40 L0 -28 L4 -42 L8 -28" fill="#6b3e1e" stroke="#3a1f0a" stroke-width="2"/>
    <circle cx="-11" cy="-10" r="5.5" fill="#fff"/><circle cx="11" cy="-10" r="5.5" fill="#fff"/>
    <circle cx="-11" cy="-9" r="2.6" fill="#111"/><circle cx="11" cy="-9" r="2.6" fill="#111"/>
    <ellipse cx="0" cy="5" rx="8" ry="10" fill="#5a8f3a" stroke="#2f4f1d" stroke-width="2"/>
    <path d="M-13 22 Q0 16 13 22" stroke="#2f4f1d" stroke-width="3" fill="none"/>
    <path d="M-10 21 L-8 15 L-6 20 M10 21 L8 15 L6 20" fill="#fff" stroke="#fff" stroke-width="1.5"/>`,
  sorceress: `<path d="M-42 26 Q0 12 42 26 Q0 38 -42 26 Z" fill="#5b2c83" stroke="#2a1040" stroke-width="3"/>
    <path d="M-22 22 L4 -40 L12 -32 L8 -30 L22 22 Z" fill="#6d35a0" stroke="#2a1040" stroke-width="3" stroke-linejoin="round"/>
    <path d="M-21 15 Q0 10 21 15 L22 22 Q0 17 -22 22 Z" fill="#d4a017"/>
    <path d="M0 -12 L3 -5 L10 -4 L5 1 L6 8 L0 4 L-6 8 L-5 1 L-10 -4 L-3 -5 Z" fill="#ffd400"/>`,
  lizard: `<path d="M-7 -16 L-24 -26 M7 -16 L24 -26 M-7 10 L-24 20 M7 10 L24 18" stroke="#1b5e34" stroke-width="6" stroke-linecap="round"/>
    <path d="M0 -42 C7 -42 9 -32 7 -24 C11 -12 11 8 5 18 C3 28 11 34 22 38 C8 42 -5 36 -5 22 C-11 10 -11 -12 -7 -24 C-9 -32 -7 -42 0 -42 Z" fill="#3fae6a" stroke="#1b5e34" stroke-width="3" stroke-linejoin="round"/>
    <circle cx="-3" cy="-34" r="1.8" fill="#111"/><circle cx="3" cy="-34" r="1.8" fill="#111"/>
    <path d="M0 -16 V10" stroke="#8fd9a8" stroke-width="3" stroke-dasharray="3 3"/>`,
  moth: `<ellipse cx="-18" cy="-12" rx="20" ry="14" transform="rotate(-20 -18 -12)" fill="#b59a7a" stroke="#5a4630" stroke-width="3"/>
    <ellipse cx="18" cy="-12" rx="20" ry="14" transform="rotate(20 18 -12)" fill="#b59a7a" stroke="#5a4630" stroke-width="3"/>
    <ellipse cx="-14" cy="14" rx="13" ry="11" fill="#9c8062" stroke="#5a4630" stroke-width="3"/>
    <ellipse cx="14" cy="14" rx="13" ry="11" fill="#9c8062" stroke="#5a4630" stroke-width="3"/>
    <circle cx="-20" cy="-12" r="5" fill="#5a4630"/><circle cx="20" cy="-12" r="5" fill="#5a4630"/>
    <ellipse cx="0" cy="0" rx="5.5" ry="24" fill="#5a4630"/>
    <path d="M-2 -22 Q-8 -36 -17 -38 M2 -22 Q8 -36 17 -38" stroke="#5a4630" stroke-width="2.5" fill="none"/>`,
  owl: `<path d="M-26 38 C-36 10 -31 -20 -25 -36 L-12 -25 C-4 -29 4 -29 12 -25 L25 -36 C31 -20 36 10 26 38 Z" fill="#9b6b3f" stroke="#4a2f15" stroke-width="3.5" stroke-linejoin="round"/>
    <ellipse cx="0" cy="20" rx="15" ry="13" fill="#d8b48a"/>
    <circle cx="-11" cy="-9" r="10" fill="#fff" stroke="#4a2f15" stroke-width="2"/><circle cx="11" cy="-9" r="10" fill="#fff" stroke="#4a2f15" stroke-width="2"/>
    <circle cx="-11" cy="-9" r="4.5" fill="#111"/><circle cx="11" cy="-9" r="4.5" fill="#111"/>
    <path d="M-4 1 H4 L0 10 Z" fill="#f0a020"/>`,
  scarab: `<path d="M-20 -8 L-36 -18 M-22 6 L-40 6 M-20 20 L-36 32 M20 -8 L36 -18 M22 6 L40 6 M20 20 L36 32 M-6 -32 L-12 -42 M6 -32 L12 -42" stroke="#0c3d3d" stroke-width="4.5" stroke-linecap="round"/>
    <ellipse cx="0" cy="8" rx="23" ry="29" fill="#1f8a8a" stroke="#0c3d3d" stroke-width="3.5"/>
    <ellipse cx="0" cy="-26" rx="13" ry="9" fill="#156363" stroke="#0c3d3d" stroke-width="3"/>
    <path d="M0 -18 V36" stroke="#0c3d3d" stroke-width="3"/>
    <path d="M-12 -4 Q-16 10 -10 24" stroke="#6fd4d4" stroke-width="3" fill="none"/>`,
  rat: `<path d="M-30 18 C-44 16 -46 32 -34 36" stroke="#c78f8f" stroke-width="4.5" fill="none" stroke-linecap="round"/>
    <path d="M-32 20 C-32 -6 -8 -18 12 -14 C22 -12 32 -4 42 10 L30 14 C20 24 -10 28 -32 20 Z" fill="#8e8e8e" stroke="#3d3d3d" stroke-width="3.5" stroke-linejoin="round"/>
    <circle cx="12" cy="-13" r="8" fill="#d8abab" stroke="#3d3d3d" stroke-width="2.5"/>
    <circle cx="27" cy="1" r="3.2" fill="#111"/><circle cx="42" cy="10" r="3" fill="#d86f6f"/>
    <path d="M-20 22 L-22 30 M4 22 L4 30" stroke="#3d3d3d" stroke-width="3.5" stroke-linecap="round"/>`,
  spider: `<path d="M-8 -6 L-26 -26 L-36 -12 M-8 0 L-30 -8 L-42 4 M-8 6 L-28 12 L-36 28 M-6 12 L-18 28 L-22 42 M8 -6 L26 -26 L36 -12 M8 0 L30 -8 L42 4 M8 6 L28 12 L36 28 M6 12 L18 28 L22 42" stroke="#1a1a1a" stroke-width="4" fill="none" stroke-linejoin="round" stroke-linecap="round"/>
    <circle cx="0" cy="12" r="15" fill="#2a2a2a" stroke="#000" stroke-width="2"/>
    <circle cx="0" cy="-10" r="10" fill="#3a3a3a" stroke="#000" stroke-width="2"/>
    <circle cx="-4" cy="-12" r="2.2" fill="#e03030"/><circle cx="4" cy="-12" r="2.2" fill="#e03030"/>
    <path d="M0 4 L5 12 L0 20 L-5 12 Z" fill="#e03030"/>`,
};

const EVENT_ART = {
  extra_push: `<path d="M0 -32 V32 M-32 0 H32" stroke="#6b3a00" stroke-width="15" stroke-linecap="round"/>`,
  double_turn: `<path d="M-14 -30 A30 30 0 1 1 -30 6" fill="none" stroke="#6b3a00" stroke-width="11" stroke-linecap="round"/>
    <path d="M-40 -4 L-30 16 L-18 0 Z" fill="#6b3a00"/>
    <path d="M-8 -8 H8 M0 -16 V0 M-8 10 H8" stroke="#6b3a00" stroke-width="7" stroke-linecap="round"/>`,
  swap: `<path d="M-32 -14 H24 M12 -28 L28 -14 L12 0 M32 14 H-24 M-12 0 L-28 14 L-12 28" fill="none" stroke="#6b3a00" stroke-width="10" stroke-linecap="round" stroke-linejoin="round"/>`,
  peek: `<path d="M-40 0 Q0 -34 40 0 Q0 34 -40 0 Z" fill="#fff" stroke="#6b3a00" stroke-width="8"/>
    <circle cx="0" cy="0" r="13" fill="#6b3a00"/>`,
  exchange: `<rect x="-30" y="-34" width="36" height="50" rx="5" fill="#fff" stroke="#6b3a00" stroke-width="7" transform="rotate(-14 -12 -9)"/>
    <rect x="-6" y="-16" width="36" height="50" rx="5" fill="#f2c230" stroke="#6b3a00" stroke-width="7" transform="rotate(12 12 9)"/>`,
  wall: `<path d="M-36 -26 H36 V26 H-36 Z M-36 0 H36 M-12 -26 V0 M14 -26 V0 M0 0 V26 M-24 0 V26 M24 0 V26" fill="#c8603a" stroke="#6b3a00" stroke-width="6" stroke-linejoin="round"/>`,
};

let spriteReady = false;

/** Add the glyph sprite to the document (once). */
export function ensureSprite() {
  if (spriteReady) return;
  spriteReady = true;
  const parts = [];
  for (const [name, art] of Object.entries(TREASURE_ART)) {
    parts.push(`<symbol id="t-${name}" viewBox="-50 -50 100 100">${art}</symbol>`);
  }
  for (const [name, art] of Object.entries(EVENT_ART)) {
    parts.push(`<symbol id="e-${name}" viewBox="-50 -50 100 100">${art}</symbol>`);
  }
  const holder = document.createElement("div");
  holder.hidden = true;
  // Static, trusted markup from this module only (never user data).
  holder.innerHTML = `<svg xmlns="${SVG_NS}" width="0" height="0" aria-hidden="true">${parts.join("")}</svg>`;
  document.body.prepend(holder.firstElementChild);
}

/**
 * Create an SVG element with attributes.
 * @param {string} tag
 * @param {Record<string, string|number>} [attrs]
 * @param {...(Node|string)} children strings become text nodes
 */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) el.setAttribute(k, String(v));
  }
  for (const c of children) el.append(c);
  return el;
}

/** Localised name of a treasure. */
export function treasureName(name) {
  return t("treasure." + name);
}

/** Localised name of an event. */
export function eventName(name) {
  return t("event." + name);
}

/**
 * A `<use>` of a glyph, centred on (cx, cy), `size` wide, with a tooltip.
 * @param {"t"|"e"} kind treasure or event
 */
export function glyphUse(kind, name, cx, cy, size, title) {
  const g = svg("g", { class: `glyph glyph-${kind}` });
  if (title) g.append(svg("title", {}, title));
  g.append(svg("use", { href: `#${kind}-${name}`, x: cx - size / 2, y: cy - size / 2, width: size, height: size }));
  return g;
}

/**
 * A small standalone `<svg>` icon of a treasure, for HTML panels, labelled for
 * assistive technology and with a tooltip.
 */
export function treasureIcon(name, size = 28) {
  const label = treasureName(name);
  const el = svg("svg", {
    class: "treasure-icon", viewBox: "-50 -50 100 100", width: size, height: size, role: "img",
    "aria-label": label, "data-treasure": name,
  });
  el.append(svg("title", {}, label));
  el.append(svg("use", { href: `#t-${name}`, x: -46, y: -46, width: 92, height: 92 }));
  return el;
}

/** A small standalone `<svg>` icon of an event. */
export function eventIcon(name, size = 24) {
  const label = eventName(name);
  const el = svg("svg", { class: "event-icon", viewBox: "-50 -50 100 100", width: size, height: size, role: "img", "aria-label": label });
  el.append(svg("title", {}, label));
  el.append(svg("circle", { r: 48, class: "event-badge-bg" }));
  el.append(svg("use", { href: `#e-${name}`, x: -36, y: -36, width: 72, height: 72 }));
  return el;
}

const SIDES = "NESW";

/** Rotate an opening string clockwise by `k` quarter turns: rotateOpen("ES", 1) == "SW". */
export function rotateOpen(open, k) {
  const turns = ((k % 4) + 4) % 4;
  const set = new Set([...open].map((s) => SIDES[(SIDES.indexOf(s) + turns) % 4]));
  return [...SIDES].filter((s) => set.has(s)).join("");
}

const PATH_W = 36;            // corridor width, in a 100-unit tile
const PATH_A = (100 - PATH_W) / 2;
/** The four rivets of a fixed tile, as circles of radius 3 drawn with two arcs each. */
const RIVETS = [[10, 10], [90, 10], [10, 90], [90, 90]]
  .map(([x, y]) => `M${x - 3} ${y}a3 3 0 1 0 6 0a3 3 0 1 0 -6 0z`).join("");

/**
 * Draw one tile in local coordinates 0..100 (translate the result to place it).
 * @param {{open: string, treasure: string|null, fixed: boolean, event?: string|null}} tile
 * @param {{rotation?: number, home?: string|null}} [opts] rotation: extra clockwise quarter
 *   turns (the spare preview); home: colour of the home corner drawn on this cell.
 */
export function drawTile(tile, opts = {}) {
  const open = rotateOpen(tile.open, opts.rotation || 0);
  const g = svg("g", { class: "tile" + (tile.fixed ? " fixed" : "") });
  g.append(svg("rect", { class: "tile-wall", x: 1.5, y: 1.5, width: 97, height: 97, rx: 6 }));
  // The corridor as one path (a centre square and an arm per opening), the rivets as
  // another: a board has 49 tiles, and fewer elements make each frame cheaper to draw.
  const box = (x, y, w, hgt) => `M${x} ${y}h${w}v${hgt}h${-w}z`;
  let d = box(PATH_A, PATH_A, PATH_W, PATH_W);
  if (open.includes("N")) d += box(PATH_A, 0, PATH_W, PATH_A + 1);
  if (open.includes("S")) d += box(PATH_A, 100 - PATH_A - 1, PATH_W, PATH_A + 1);
  if (open.includes("W")) d += box(0, PATH_A, PATH_A + 1, PATH_W);
  if (open.includes("E")) d += box(100 - PATH_A - 1, PATH_A, PATH_A + 1, PATH_W);
  g.append(svg("path", { class: "tile-path" + (opts.home ? ` home home-${opts.home}` : ""), d }));
  if (tile.fixed) g.append(svg("path", { class: "tile-rivet", d: RIVETS }));
  if (opts.home) {
    g.append(svg("rect", { class: `home-mark home-${opts.home}`, x: 8, y: 8, width: 84, height: 84, rx: 10 }));
  }
  if (tile.treasure) {
    g.append(svg("circle", { class: "treasure-bg", cx: 50, cy: 50, r: 21 }));
    g.append(glyphUse("t", tile.treasure, 50, 50, 36, treasureName(tile.treasure)));
  }
  if (tile.event) {
    const badge = svg("g", { class: "event-badge" });
    badge.append(svg("title", {}, t("event.revealed", { name: eventName(tile.event) })));
    badge.append(svg("circle", { class: "event-badge-bg", cx: 84, cy: 16, r: 13 }));
    badge.append(svg("use", { href: `#e-${tile.event}`, x: 74, y: 6, width: 20, height: 20 }));
    g.append(badge);
  }
  return g;
}
