/**
 * Live thumbnails in the lobby: each live game's board, small, as a spectator sees it
 * (`GET /api/rooms/{code}/view`, the view any spectator is sent), redrawn every few
 * seconds while the lobby is in front, so a visitor sees at once what is being played.
 * Drawn with the board's own tile code; a sliding game shows its 7x7 maze and pawns, the
 * card game its layout.
 */

import { request } from "./api.js";
import { drawTile, svg } from "./tiles.js";

const COLORS = { red: "#d63b3b", yellow: "#e9b71c", green: "#2e9d4f", blue: "#2f6fd6", purple: "#8a4fc8", orange: "#e8771c" };

/** A sliding game's maze (classic, master, team) as one small SVG. */
function mazePicture(view) {
  const pic = svg("svg", { viewBox: "-6 -6 712 712", class: "thumb-board", role: "img", "aria-hidden": "true" });
  pic.append(svg("rect", { class: "board-bed", x: -6, y: -6, width: 712, height: 712, rx: 16 }));
  view.board.tiles.forEach((row, r) => row.forEach((tile, c) => {
    let g;
    if (tile.face_down) {
      g = svg("g", {});
      g.append(svg("rect", { class: "thumb-face-down", x: 2, y: 2, width: 96, height: 96, rx: 6 }));
    } else g = drawTile({ ...tile, treasure: null, event: null });
    g.setAttribute("transform", `translate(${c * 100} ${r * 100})`);
    pic.append(g);
  }));
  for (const p of view.players || []) {
    const [r, c] = p.pos;
    pic.append(svg("circle", {
      cx: c * 100 + 50, cy: r * 100 + 50, r: 24, fill: COLORS[p.color] || "#888", stroke: "#141414", "stroke-width": 5,
    }));
  }
  return pic;
}

/** The card game's layout, fitted to the thumbnail. */
function layoutPicture(view) {
  const cards = view.layout || [];
  const xs = cards.map((c) => c.pos[0]);
  const ys = cards.map((c) => c.pos[1]);
  const x0 = Math.min(0, ...xs);
  const y0 = Math.min(0, ...ys);
  const w = Math.max(2, Math.max(...xs, 1) - x0 + 1);
  const hgt = Math.max(2, Math.max(...ys, 1) - y0 + 1);
  const size = Math.max(w, hgt) * 100;
  const pic = svg("svg", { viewBox: `-6 -6 ${size + 12} ${size + 12}`, class: "thumb-board", role: "img", "aria-hidden": "true" });
  pic.append(svg("rect", { class: "cards-bed", x: -6, y: -6, width: size + 12, height: size + 12, rx: 16 }));
  for (const card of cards) {
    const g = drawTile({ open: card.open, treasure: null, fixed: false });
    g.setAttribute("transform", `translate(${(card.pos[0] - x0) * 100} ${(card.pos[1] - y0) * 100})`);
    pic.append(g);
  }
  return pic;
}

/** Draw (or redraw) the thumbnail of every `[data-thumb]` element under `root`. */
export async function fillThumbs(root) {
  const slots = [...root.querySelectorAll("[data-thumb]")];
  await Promise.allSettled(slots.map(async (slot) => {
    const answer = await request("GET", `/api/rooms/${encodeURIComponent(slot.dataset.thumb)}/view`);
    if (!slot.isConnected || !answer || !answer.view) return;
    if (slot.dataset.seq === String(answer.seq)) return;
    const view = answer.view;
    slot.replaceChildren(view.board ? mazePicture(view) : layoutPicture(view));
    slot.dataset.seq = String(answer.seq);
  }));
}
