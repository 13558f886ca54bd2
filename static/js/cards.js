/**
 * The card game's part of the room page (variant `cards`): the growing layout as SVG,
 * fitted to the screen with pan and zoom; the player's hand with rotation; the legal cells
 * of the selected card and rotation; the take phase (linking paths, selectable cards); each
 * player's taken cards; the result. It renders the server's view and sends actions; the
 * `legal` list decides what is offered, the server alone decides what is accepted.
 */

import { connMark } from "./presence.js";
import { colorDot, h } from "./dom.js";
import { GameUI } from "./game-ui.js";
import { lettersOn } from "./letter-keys.js";
import { aMotif, formatList, sidesWords, t } from "./i18n.js";
import { shownName } from "./table.js";
import { DIRECTIONS, focusNearest, rove, roving, usingKeyboard } from "./keyboard-focus.js";
import { drawTile, SVG_NS, svg } from "./tiles.js";

const CELL = 100;
const MIN_SPAN = 3 * CELL; // never zoom in closer than three cards across
const MAX_SPAN = 40 * CELL;

/** Motifs drawn with the classic game's glyphs, and the three drawn here. */
const SHARED_GLYPH = {
  chest: "t-chest", ghost: "t-ghost", crown: "t-crown", owl: "t-owl", dragon: "t-dragon",
  ring: "t-ring", map: "t-map", key: "t-keys", candle: "t-candlestick",
  unicorn: "m-unicorn", dagger: "m-dagger", troubadour: "m-troubadour",
};

const OWN_ART = {
  unicorn: `<path d="M-22 38 C-30 14 -26 -8 -8 -20 L30 -44 L6 -14 C18 -10 30 0 34 12 C36 20 28 24 22 20 L8 12 C4 22 2 30 4 38 Z" fill="#fbf7ff" stroke="#5a4a78" stroke-width="3.5" stroke-linejoin="round"/>
    <path d="M-8 -20 C-20 -22 -30 -10 -32 4 C-34 18 -30 30 -22 38" fill="none" stroke="#c77dd8" stroke-width="7" stroke-linecap="round"/>
    <path d="M12 -26 L30 -44" stroke="#e8b923" stroke-width="5" stroke-linecap="round"/>
    <circle cx="12" cy="-2" r="3.5" fill="#2b2140"/>`,
  dagger: `<path d="M0 -44 L9 -26 L7 10 L-7 10 L-9 -26 Z" fill="#dfe5ea" stroke="#46525c" stroke-width="3"/>
    <path d="M0 -38 V8" stroke="#a3afb8" stroke-width="2"/>
    <path d="M-20 10 Q0 20 20 10 L20 16 Q0 26 -20 16 Z" fill="#8e3b2c" stroke="#3b140d" stroke-width="2"/>
    <rect x="-5" y="20" width="10" height="16" rx="3" fill="#3d2a1a"/>
    <circle cx="0" cy="40" r="6" fill="#c0262d" stroke="#5a0f12" stroke-width="2"/>`,
  troubadour: `<ellipse cx="-8" cy="14" rx="24" ry="28" transform="rotate(-35 -8 14)" fill="#c98b45" stroke="#5b3612" stroke-width="3.5"/>
    <circle cx="-6" cy="12" r="7" fill="#3a220c"/>
    <path d="M6 -4 L34 -36" stroke="#5b3612" stroke-width="8" stroke-linecap="round"/>
    <path d="M30 -42 L42 -30" stroke="#3a220c" stroke-width="7" stroke-linecap="round"/>
    <path d="M-20 30 L28 -30" stroke="#f5ecd0" stroke-width="1.5"/>`,
};

let spriteReady = false;

/** Add the three glyphs the classic sprite lacks (static, trusted markup). */
export function ensureCardSprite() {
  if (spriteReady) return;
  spriteReady = true;
  const parts = Object.entries(OWN_ART).map(([name, art]) => `<symbol id="m-${name}" viewBox="-50 -50 100 100">${art}</symbol>`);
  const holder = document.createElement("div");
  holder.innerHTML = `<svg xmlns="${SVG_NS}" width="0" height="0" aria-hidden="true" style="position:absolute">${parts.join("")}</svg>`;
  document.body.prepend(holder.firstElementChild);
}

/** Localised name of a motif. */
export function motifName(name) {
  return t("motif." + name);
}

/**
 * A free cell's name by a card beside it ("Place the card to the right of the owl card"):
 * its coordinates ("at 0, -1") meant nothing to a player.
 * @param {{pos: number[], motif: string}[]} layout
 */
function placeLabel(layout, x, y, links) {
  const where = besideWords(layout, x, y);
  if (where) return t(links ? "cards.place_beside_links" : "cards.place_beside", { where });
  return t(links ? "cards.place_here_links" : "cards.place_here", { x, y });
}

/** Where an empty cell is, by a card beside it ("to the right of the key card"), or null. */
function besideWords(layout, x, y) {
  const at = new Map(layout.map((c) => [c.pos.join(","), c]));
  // The cell is east of a card on its left, west of one on its right, and so on.
  const beside = [["E", x - 1, y], ["W", x + 1, y], ["S", x, y - 1], ["N", x, y + 1]];
  for (const [side, bx, by] of beside) {
    const card = at.get(`${bx},${by}`);
    if (card) return t(`cards.where.${side}`, { motif: motifName(card.motif) });
  }
  return null;
}

/** A small standalone icon of a motif, for HTML panels. */
function motifIcon(name, size = 22) {
  const label = motifName(name);
  const el = svg("svg", {
    class: "treasure-icon motif-icon", viewBox: "-50 -50 100 100", width: size, height: size,
    role: "img", "aria-label": label, "data-motif": name,
  });
  el.append(svg("title", {}, label));
  el.append(svg("use", { href: `#${SHARED_GLYPH[name]}`, x: -46, y: -46, width: 92, height: 92 }));
  return el;
}

/** Two chain links in a cell's corner: this placement links two identical treasures. */
export function linkMark() {
  const g = svg("g", { class: "link-mark", "aria-hidden": "true", transform: "translate(80 20) rotate(-45)" });
  g.append(svg("rect", { x: -13, y: -5, width: 16, height: 10, rx: 5 }));
  g.append(svg("rect", { x: -3, y: -5, width: 16, height: 10, rx: 5 }));
  return g;
}

/** One card in local coordinates 0..100: the path, then the motif in the middle. */
export function drawCard(card, rotation = 0) {
  const g = drawTile({ open: card.open, treasure: null, fixed: false }, { rotation });
  g.classList.add("card-tile");
  g.append(svg("circle", { class: "treasure-bg", cx: 50, cy: 50, r: 22 }));
  const use = svg("use", { href: `#${SHARED_GLYPH[card.motif]}`, x: 31, y: 31, width: 38, height: 38 });
  const glyph = svg("g", { class: "glyph" }, svg("title", {}, motifName(card.motif)), use);
  g.append(glyph);
  return g;
}

/** A small `<svg>` of one card, for the hand panel. */
function cardIcon(card, rotation, size) {
  const el = svg("svg", { class: "hand-card-svg", viewBox: "-3 -3 106 106", width: size, height: size, "aria-hidden": "true" });
  el.append(drawCard(card, rotation));
  return el;
}

const key = (pos) => `${pos[0]},${pos[1]}`;

/** A card in words as it lies turned `rotation` quarter turns: "owl, paths to the left and bottom". */
export function handCardWords(card, rotation = 0) {
  const turned = [...card.open].map((side) => "NESW"[("NESW".indexOf(side) + rotation) % 4]);
  return t("game.spare_paths", { name: motifName(card.motif), sides: sidesWords(turned) });
}

export class CardsUI extends GameUI {
  /**
   * @param {Record<string, HTMLElement>} els the page's game elements (`hand`: the hand panel)
   * @param {import("./classic.js").GameContext} ctx
   */
  constructor(els, ctx) {
    super();
    ensureCardSprite();
    this.els = els;
    this.ctx = ctx;
    this.view = null;
    this.legal = null;
    this.pending = false;
    this.pendingTimer = null;
    this.selected = 0;
    this.rotation = 0;
    /** @type {Set<string>} cells chosen to take */
    this.takeSel = new Set();
    this.takeDefaulted = false;
    /** @type {string|null} the last placed card's cell */
    this.lastPlaced = null;
    /** the board's view box; `auto` refits it on every state */
    this.cam = { auto: true, x: -CELL, y: -CELL, w: 4 * CELL, h: 4 * CELL };
    this.pointers = new Map();
    this.dragged = false;
    for (const hidden of [els.controls, els.event]) if (hidden) hidden.hidden = true;
    els.hand.hidden = false;
    els.board.classList.add("cards-board");
    // A named group: unnamed, its cards' titles ran together ("chestowldagger…").
    els.board.setAttribute("role", "group");
    els.board.setAttribute("preserveAspectRatio", "xMidYMid meet");
    // Zoom sits on the layout it zooms, as a map's does (built once: a button redrawn under
    // a finger would lose its tap; `renderZoom` only words it).
    this.zoomButtons = [
      iconButton("−", "", () => this.zoom(1.25), "zoom-out"),
      iconButton("⤢", "", () => this.fit(), "zoom-fit"),
      iconButton("+", "", () => this.zoom(0.8), "zoom-in"),
    ];
    this.zoomTools = h("div", { class: "zoom-row board-zoom", "data-testid": "zoom-tools" }, ...this.zoomButtons);
    const wrap = els.board.parentElement || els.hand;
    for (const old of wrap.querySelectorAll(":scope > .board-zoom")) old.remove();
    wrap.append(this.zoomTools);
    this.setupPanZoom();
    document.addEventListener("keydown", (ev) => this.onKey(ev));
    // Arrow keys go from a lit square or a card to take to the nearest one that way.
    els.board.addEventListener("keydown", (ev) => {
      const from = ev.target;
      if (!DIRECTIONS[ev.key] || ev.altKey || ev.ctrlKey || ev.metaKey || !from.getAttribute || !from.hasAttribute("data-pos")) return;
      ev.preventDefault();
      focusNearest(from, els.board.querySelectorAll("[data-rove]"), ev.key);
    });
    // Tab stops once on the table: the arrow keys go through its lit squares and cards.
    roving(els.board);
  }

  setState(msg, consecutive) {
    const prev = this.view;
    this.view = msg.view;
    this.legal = null;
    this.clearPending();
    const last = msg.last;
    const placed = last && (last.events || []).find((e) => e.type === "placed");
    if (placed) this.lastPlaced = key(placed.pos);
    // A jump (a re-sync, a replay stepping back or skipping) must not keep the highlight
    // of a card placed at another step: only the card waiting for its take is known.
    else if (!consecutive) this.lastPlaced = this.view.turn && this.view.turn.placed ? key(this.view.turn.placed) : null;
    if (!prev || !this.isMyTurn() || this.view.turn.phase !== "take") {
      this.takeSel = new Set();
      this.takeDefaulted = false;
    }
    const me = this.me();
    if (me && me.hand && this.selected >= me.hand.length) this.selected = 0;
    if (consecutive && last) this.tellMove(last);
    const carried = this.legalFrom(msg);
    this.render({});
    if (carried) this.legalReady();
  }

  acceptLegal(seq, actions) {
    if (!super.acceptLegal(seq, actions)) return false;
    const first = this.legal[0];
    if (first && first.type === "take" && !this.takeDefaulted) {
      // the largest valid choice comes first: the one-click default
      this.takeSel = new Set(first.cards.map(key));
      this.takeDefaulted = true;
    }
    // When linking is compulsory only some cards may be placed: a selected card with no
    // placement at all would show an empty board, so the first placeable card is selected.
    const placeable = this.legal.filter((a) => a.type === "place").map((a) => a.card);
    if (placeable.length && !placeable.includes(this.selected)) this.selected = placeable[0];
    return true;
  }

  rotate(step) {
    this.rotation = (this.rotation + step + 4) % 4;
    this.render({});
    // Turned: said, as the classic spare tile is (the picture's turn reached no screen reader).
    const me = this.me();
    const card = me && me.hand ? me.hand[this.selected] : null;
    if (card && this.ctx.say) this.ctx.say(handCardWords(card, this.rotation));
  }

  /** Turn the chosen card to the first way (clockwise from now) it may lie at `k`. */
  turnToFit(k) {
    for (let step = 1; step < 4; step++) {
      const r = (this.rotation + step) % 4;
      if ((this.legal || []).some((a) => a.type === "place" && a.card === this.selected && a.rotation === r && key(a.pos) === k)) {
        this.rotation = r;
        this.render({});
        const cell = this.els.board.querySelector(`.place-cell.legal[data-pos="${k}"]`);
        if (cell && usingKeyboard()) cell.focus({ preventScroll: true });
        return;
      }
    }
  }

  select(index) {
    this.selected = index;
    this.render({});
  }

  onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (ev.target && ev.target.isContentEditable)) return;
    if (!this.view || this.view.status !== "playing" || !lettersOn()) return;
    if (ev.key === "r" || ev.key === "R") {
      ev.preventDefault();
      this.rotate(ev.shiftKey ? -1 : 1);
      this.toLitSquare();
    } else if (ev.key === "1" || ev.key === "2") {
      const me = this.me();
      const index = Number(ev.key) - 1;
      if (me && me.hand && index < me.hand.length) {
        this.select(index);
        this.toLitSquare();
      }
    } else if (ev.key === "f" || ev.key === "F") {
      this.fit();
    }
  }

  /**
   * A card chosen or turned from the keyboard: the focus goes to its first lit square
   * (unless it is on one already, which the redraw kept), so Enter places it there and
   * the arrow keys go to the others.
   */
  toLitSquare() {
    if (!usingKeyboard()) return;
    const active = document.activeElement;
    if (active && active.classList && active.classList.contains("place-cell") && active.classList.contains("legal")) return;
    const cell = this.els.board.querySelector(".place-cell.legal");
    if (cell) cell.focus({ preventScroll: true });
    // The card fits nowhere as it is turned: said, rather than nothing happening (the
    // keyboard player was stuck unless they guessed to press R).
    else if (this.fitsNowhere() && this.ctx.say) this.ctx.say(t(`a11y.cards.fits_nowhere${this.turnWay()}`));
  }

  /** Whether the chosen card may be placed, but only turned another way than it is now. */
  fitsNowhere(choices = this.choices()) {
    return this.isMyTurn() && this.view.turn.phase === "place" && this.legal !== null
      && choices.cells.size === 0 && choices.anyRotation.size > 0;
  }

  /** What the legal list offers now. */
  choices() {
    const out = { cells: new Map(), anyRotation: new Set(), discards: [], takes: [] };
    if (!this.isMyTurn() || this.pending || this.legal === null) return out;
    for (const a of this.legal) {
      if (a.type === "place" && a.card === this.selected) {
        out.anyRotation.add(key(a.pos));
        if (a.rotation === this.rotation) out.cells.set(key(a.pos), a);
      } else if (a.type === "discard") out.discards.push(a.card);
      else if (a.type === "take") out.takes.push(a);
    }
    return out;
  }

  announce(last) {
    const name = (seat) => {
      const p = this.view.players.find((x) => x.seat === seat);
      return p ? shownName(p.name) : "?";
    };
    for (const ev of last.events || []) {
      if (ev.type === "took" && ev.cards.length) {
        this.moveNewsLine(this.newsAbout("cards.news.took", ev.seat, { name: name(ev.seat), n: ev.cards.length, motif: motifName(ev.cards[0].motif) }));
      } else if (ev.type === "no_take") {
        this.moveNewsLine(this.newsAbout("cards.news.no_take", ev.seat, { name: name(ev.seat), n: ev.cards.length }));
      } else if (ev.type === "discarded") {
        this.moveNewsLine(this.newsAbout("cards.news.discarded", ev.seat, { name: name(ev.seat), motif: motifName(ev.card.motif), a_motif: aMotif(ev.card.motif) }));
      }
    }
  }

  // ------------------------------------------------------------------ the board

  /** The cells to keep in sight: the layout, and the free cells around it. */
  bounds() {
    const v = this.view;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const c of v.layout) {
      minX = Math.min(minX, c.pos[0]); maxX = Math.max(maxX, c.pos[0]);
      minY = Math.min(minY, c.pos[1]); maxY = Math.max(maxY, c.pos[1]);
    }
    if (!v.layout.length) return { x: 0, y: 0, w: CELL, h: CELL };
    // Room for the free cells around the layout while cards may still be placed there;
    // a finished layout is shown as large as it fits.
    const pad = (v.status === "playing" ? 1.15 : 0.35) * CELL;
    const box = {
      x: minX * CELL - pad, y: minY * CELL - pad,
      w: (maxX - minX + 1) * CELL + 2 * pad, h: (maxY - minY + 1) * CELL + 2 * pad,
    };
    // The zoom tools sit over the board's top right corner, where a free cell of the top
    // row falls: the view keeps a band of their height free above the cells, or a tap
    // meant for that cell zooms instead.
    const band = this.zoomBand(box);
    return { ...box, y: box.y - band, h: box.h + band };
  }

  /**
   * How far up (view-box units) the view must reach so that the top row of free cells
   * (0.15 of a cell below the fitted box's top) starts below the zoom tools. The board
   * draws its box "meet": scaled to fill its width or its height and centred in the other,
   * so a taller box also moves the centring; a few rounds settle it.
   */
  zoomBand(box) {
    const tools = this.zoomTools;
    const rect = this.els.board.getBoundingClientRect();
    if (!tools || !tools.isConnected || !rect.width || !rect.height) return 0;
    const need = tools.getBoundingClientRect().bottom - rect.top + 4;
    let band = 0;
    for (let round = 0; round < 4; round++) {
      const h = box.h + band;
      const scale = Math.min(rect.width / box.w, rect.height / h);
      const cellTop = (rect.height - h * scale) / 2 + (band + 0.15 * CELL) * scale;
      if (cellTop >= need) break;
      band += ((need - cellTop) / scale) * 1.05;
    }
    return band;
  }

  fit() {
    this.cam.auto = true;
    this.render({});
  }

  zoom(factor, cx, cy) {
    const cam = this.cam;
    const w = Math.min(MAX_SPAN, Math.max(MIN_SPAN, cam.w * factor));
    const f = w / cam.w;
    const px = cx ?? cam.x + cam.w / 2;
    const py = cy ?? cam.y + cam.h / 2;
    cam.x = px - (px - cam.x) * f;
    cam.y = py - (py - cam.y) * f;
    cam.w *= f;
    cam.h *= f;
    cam.auto = false;
    this.applyCamera();
  }

  applyCamera() {
    const cam = this.cam;
    if (cam.auto && this.view) Object.assign(cam, this.bounds(), { auto: true });
    this.els.board.setAttribute("viewBox", `${cam.x} ${cam.y} ${cam.w} ${cam.h}`);
    this.els.board.dataset.zoom = cam.auto ? "fit" : "manual";
  }

  /** A point of the board (view-box units) under a screen point. */
  toBoard(clientX, clientY) {
    const svgEl = this.els.board;
    const m = svgEl.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  setupPanZoom() {
    const el = this.els.board;
    el.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      const [x, y] = this.toBoard(ev.clientX, ev.clientY);
      this.zoom(ev.deltaY > 0 ? 1.15 : 1 / 1.15, x, y);
    }, { passive: false });
    el.addEventListener("pointerdown", (ev) => {
      this.pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (this.pointers.size === 1) this.dragged = false;
    });
    el.addEventListener("pointermove", (ev) => {
      const before = this.pointers.get(ev.pointerId);
      if (!before) return;
      const now = { x: ev.clientX, y: ev.clientY };
      if (this.pointers.size === 2) {
        const [a, b] = [...this.pointers.values()];
        const other = a === before ? b : a;
        const d0 = Math.hypot(before.x - other.x, before.y - other.y);
        const d1 = Math.hypot(now.x - other.x, now.y - other.y);
        if (d0 > 0 && d1 > 0) {
          const [cx, cy] = this.toBoard((now.x + other.x) / 2, (now.y + other.y) / 2);
          this.zoom(d0 / d1, cx, cy);
        }
        this.dragged = true;
      } else {
        const [x0, y0] = this.toBoard(before.x, before.y);
        const [x1, y1] = this.toBoard(now.x, now.y);
        if (this.dragged || Math.hypot(now.x - before.x, now.y - before.y) > 6) {
          if (!this.dragged) el.setPointerCapture?.(ev.pointerId);
          this.dragged = true;
          this.cam.x -= x1 - x0;
          this.cam.y -= y1 - y0;
          this.cam.auto = false;
          this.applyCamera();
        } else return; // below the drag threshold: keep the start point
      }
      this.pointers.set(ev.pointerId, now);
    });
    const up = (ev) => this.pointers.delete(ev.pointerId);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
    // a click that ends a drag is not a placement
    el.addEventListener("click", (ev) => {
      if (this.dragged) {
        ev.stopPropagation();
        ev.preventDefault();
        this.dragged = false;
      }
    }, true);
  }

  render() {
    const v = this.view;
    if (!v) return;
    const choices = this.choices();
    this.renderBoard(choices);
    this.renderStatus();
    this.renderPile();
    this.renderHand(choices);
    this.renderPlayers();
    this.renderResult();
    const board = this.els.board;
    board.dataset.phase = v.turn ? v.turn.phase : "over";
    board.dataset.myTurn = this.isMyTurn() ? "true" : "false";
    board.dataset.legal = this.legal === null ? "pending" : "ready";
    board.dataset.cards = String(v.layout.length);
    board.setAttribute("aria-label", t("cards.table"));
  }

  renderBoard(choices) {
    const v = this.view;
    const root = this.els.board;
    root.replaceChildren();
    this.applyCamera();
    const turn = v.status === "playing" ? v.turn : null;
    const taking = turn && turn.phase === "take";
    root.append(svg("rect", { class: "cards-bed", x: this.cam.x - 5000, y: this.cam.y - 5000, width: this.cam.w + 10000, height: this.cam.h + 10000 }));
    const cards = svg("g", { class: "cards-layout" });
    const takeable = new Map();
    if (taking) for (const item of turn.takeable) takeable.set(key(item.pos), item);
    const mine = this.isMyTurn();
    for (const c of v.layout) {
      const k = key(c.pos);
      const g = svg("g", {
        class: "layout-card", transform: `translate(${c.pos[0] * CELL} ${c.pos[1] * CELL})`,
        "data-pos": k, "data-motif": c.motif, "data-open": c.open,
      });
      g.append(drawCard(c));
      if (k === this.lastPlaced) g.append(svg("rect", { class: "last-placed", x: 3, y: 3, width: 94, height: 94, rx: 7 }));
      if (takeable.has(k)) {
        const chosen = this.takeSel.has(k);
        g.classList.add("takeable");
        if (chosen) g.classList.add("chosen");
        g.append(svg("rect", { class: "take-ring", x: 4, y: 4, width: 92, height: 92, rx: 8 }));
        if (chosen) g.append(svg("path", { class: "take-check", d: "M64 20 L74 30 L92 8" }));
        if (mine && !this.pending) {
          g.setAttribute("tabindex", "0");
          g.setAttribute("data-rove", "");
          g.setAttribute("role", "button");
          g.setAttribute("aria-pressed", chosen ? "true" : "false");
          g.setAttribute("aria-label", t("cards.take_toggle", { motif: motifName(c.motif) }));
          activate(g, () => this.toggleTake(k));
        }
      }
      cards.append(g);
    }
    root.append(cards);
    if (taking) root.append(this.drawPaths(turn));
    // legal cells for the selected card and rotation, each with a preview of the card
    const me = this.me();
    const card = me && me.hand ? me.hand[this.selected] : null;
    // Linking is compulsory when possible: then every listed placement links two identical
    // treasures, and the cells say so (a non-linking placement would be refused).
    const links = !!(me && me.must_link && this.isMyTurn());
    const hints = svg("g", { class: "place-hints" + (links ? " must-link" : ""), "data-must-link": links ? "true" : "false" });
    for (const k of choices.anyRotation) {
      const [x, y] = k.split(",").map(Number);
      const action = choices.cells.get(k);
      const cell = svg("g", {
        class: "place-cell" + (action ? " legal" : " other-rotation") + (links ? " links" : ""), transform: `translate(${x * CELL} ${y * CELL})`,
        "data-pos": k,
      });
      if (action && card) {
        const preview = drawCard(card, this.rotation);
        preview.classList.add("preview");
        cell.append(preview);
        cell.setAttribute("tabindex", "0");
        cell.setAttribute("data-rove", "");
        cell.setAttribute("role", "button");
        cell.setAttribute("aria-label", placeLabel(v.layout, x, y, links));
        activate(cell, () => this.act(action));
      } else if (card) {
        // A dashed square takes the card turned another way: a tap turns it to fit there
        // (the square lights up, a second tap places), rather than doing nothing. Out of the
        // keyboard's way: there the arrows go from lit square to lit square, and R turns.
        cell.setAttribute("tabindex", "-1");
        // ... unless no square takes the card as it is turned: then Tab reaches these, whose
        // names say a press turns the card to fit (the table had no Tab stop at all).
        if (!choices.cells.size) cell.setAttribute("data-rove", "");
        cell.setAttribute("role", "button");
        const where = besideWords(v.layout, x, y);
        cell.setAttribute("aria-label", where ? t("cards.turn_to_fit_beside", { where }) : t("cards.turn_to_fit", { x, y }));
        cell.setAttribute("data-testid", `turn-to-fit-${k}`);
        activate(cell, () => this.turnToFit(k));
      }
      cell.append(svg("rect", { class: "place-frame", x: 3, y: 3, width: 94, height: 94, rx: 8 }));
      if (links) cell.append(linkMark());
      hints.append(cell);
    }
    root.append(hints);
    rove(root);
  }

  /** The linking path of each takeable card, from the placed card to it. */
  drawPaths(turn) {
    const g = svg("g", { class: "take-paths" });
    const c = (p) => `${p[0] * CELL + CELL / 2},${p[1] * CELL + CELL / 2}`;
    for (const item of turn.takeable) {
      const chosen = this.takeSel.has(key(item.pos));
      g.append(svg("polyline", { class: "take-path" + (chosen ? " chosen" : ""), points: item.path.map(c).join(" ") }));
    }
    if (turn.placed) {
      g.append(svg("rect", { class: "placed-ring", x: turn.placed[0] * CELL + 3, y: turn.placed[1] * CELL + 3, width: 94, height: 94, rx: 7 }));
    }
    return g;
  }

  toggleTake(k) {
    if (this.takeSel.has(k)) this.takeSel.delete(k);
    else this.takeSel.add(k);
    this.render({});
  }

  /** The legal take matching the selection, or null (it would split the layout). */
  chosenTake(choices) {
    const want = [...this.takeSel].sort().join(";");
    return choices.takes.find((a) => a.cards.map(key).sort().join(";") === want) || null;
  }

  // ------------------------------------------------------------------ panels

  renderStatus() {
    const v = this.view;
    const el = this.els.turn;
    el.replaceChildren();
    el.dataset.seq = String(v.seq);
    if (v.status !== "playing" || !v.turn) {
      el.dataset.phase = "over";
      el.dataset.seat = "";
      el.append(h("strong", {}, t("game.over")));
    } else {
      const p = v.players.find((x) => x.seat === v.turn.seat);
      el.dataset.seat = String(v.turn.seat);
      el.dataset.phase = v.turn.phase;
      el.append(colorDot(p.color, "big"));
      const phase = v.turn.phase === "take" ? "take" : "place";
      if (this.isMyTurn()) el.append(h("strong", {}, t(`cards.turn.your_${phase}`)));
      else el.append(h("span", {}, t(`cards.turn.other_${phase}`, { name: shownName(p.name) })));
    }
    this.els.seq.dataset.seq = String(v.seq);
    this.els.seq.textContent = t("game.move_no", { n: v.seq });
  }

  renderPile() {
    const box = this.els.target;
    box.replaceChildren();
    box.hidden = false;
    box.dataset.target = "";
    box.append(
      h("span", { class: "label" }, t("cards.pile")),
      h("strong", { "data-testid": "pile-count" }, String(this.view.pile)),
    );
    if (this.view.discarded.length) {
      box.append(h("span", { class: "muted" }, " · ", t("cards.discarded", { n: this.view.discarded.length })));
    }
  }

  /** Secrets this UI draws itself where no seat is shown (every hand, under "Every
   * hand"): the replay's panel of secrets does not list them again. */
  get drawnSecrets() {
    return new Set(["hand"]);
  }

  /** A revealed hand, in the replay's panel of secrets, as the cards themselves. */
  secretValue(key, value) {
    if (key !== "hand" || !Array.isArray(value)) return null;
    const out = h("span", { class: "secret-value secret-cards" });
    for (const card of value) {
      out.append(h("span", { class: "revealed-card", title: motifName(card.motif), "data-motif": card.motif },
        cardIcon(card, 0, 32)));
    }
    if (!value.length) out.append(h("span", { class: "muted" }, t("cards.hand_empty")));
    return out;
  }

  renderHand(choices) {
    const v = this.view;
    const panel = this.els.hand;
    panel.replaceChildren();
    panel.hidden = false;
    const me = this.me();
    this.renderZoom();
    if (!me || v.status !== "playing") {
      // A finished game (and every replay frame) shows all hands: draw them, rather than
      // telling the watcher they are secret; a player's own hand, with nothing left to
      // place or turn, is one of them.
      const shown = v.players.filter((p) => Array.isArray(p.hand));
      // The game ends when no hand holds a card: a row per player saying so, between the
      // board and the scores on a phone, said nothing.
      if (v.status === "finished" && shown.length && shown.every((p) => !p.hand.length)) {
        panel.hidden = true;
        return;
      }
      if (!shown.length) panel.append(h("p", { class: "muted" }, t(this.ctx.sharedDevice ? "cards.shared" : "cards.spectator")));
      else panel.append(h("h2", {}, t("cards.hands")));
      for (const p of shown) {
        const row = h("div", { class: "hand-row revealed-hand", "data-testid": `revealed-hand-${p.seat}` },
          colorDot(p.color), h("span", { class: "player-name" }, shownName(p.name)));
        for (const card of p.hand) {
          row.append(h("span", { class: "revealed-card", title: motifName(card.motif), "data-motif": card.motif }, cardIcon(card, 0, 44)));
        }
        if (!p.hand.length) row.append(h("span", { class: "muted" }, t("cards.hand_empty")));
        panel.append(row);
      }
      return;
    }
    panel.append(h("h2", {}, t("cards.hand")));
    const turn = v.status === "playing" ? v.turn : null;
    const mine = this.isMyTurn();
    if (mine && turn.phase === "take") {
      const take = this.chosenTake(choices);
      panel.append(h("p", { class: "help" }, t("cards.take_help")));
      const n = this.takeSel.size;
      panel.append(h("div", { class: "choice-row" },
        h("button", {
          type: "button", class: "primary", "data-testid": "take-button",
          disabled: !take || this.pending,
          on: { click: () => take && this.act(take) },
        }, n ? t("cards.take_n", { n }) : t("cards.take_none"))));
      if (!take && this.legal !== null) panel.append(h("p", { class: "form-error", "data-testid": "take-split" }, t("cards.take_split")));
    }
    const mustLink = mine && turn.phase === "place" && me.must_link;
    const placeable = new Set((this.legal || []).filter((a) => a.type === "place").map((a) => a.card));
    const row = h("div", { class: "hand-row" });
    (me.hand || []).forEach((card, i) => {
      const isSel = i === this.selected && v.status === "playing";
      const linksHere = mustLink && placeable.has(i);
      row.append(h("button", {
        type: "button", class: "hand-card" + (isSel ? " selected" : "") + (linksHere ? " links" : ""), "data-testid": `hand-${i}`,
        "aria-pressed": isSel ? "true" : "false", title: motifName(card.motif),
        // its paths in words, as it is drawn (the chosen one turned): the motif alone said
        // nothing of where the card may go
        "aria-label": handCardWords(card, isSel ? this.rotation : 0),
        on: { click: (ev) => {
          this.select(i);
          if (ev.detail === 0) this.toLitSquare(); // Enter or Space, not a pointer
        } },
      }, cardIcon(card, isSel ? this.rotation : 0, 76), h("span", { class: "hand-label" }, motifName(card.motif))));
    });
    if (!(me.hand || []).length) row.append(h("span", { class: "muted" }, t("cards.hand_empty")));
    panel.append(row);
    // after the cards, so that on a phone the hand stays in the first screen
    if (mustLink) panel.append(h("p", { class: "help must-link-help", "data-testid": "must-link" }, t("cards.must_link")));
    // A card chosen by hand that links nothing lights no square: said, not left silent.
    if (mustLink && this.legal !== null && !placeable.has(this.selected)) {
      panel.append(h("p", { class: "form-error", "data-testid": "cannot-place", role: "status" }, t("cards.cannot_place")));
    } else if (this.fitsNowhere(choices)) {
      // Only dashed squares: the card must be turned first (said when it happens, too).
      panel.append(h("p", { class: "help", "data-testid": "fits-nowhere" }, t(`a11y.cards.fits_nowhere${this.turnWay()}`)));
    }
    const canRotate = v.status === "playing" && (me.hand || []).length > 0;
    panel.append(h("div", { class: "spare-row" },
      iconButton("↺", t("game.rotate_ccw"), () => this.rotate(-1), "rotate-ccw-card", !canRotate),
      iconButton("↻", t("game.rotate_cw"), () => this.rotate(1), "rotate-cw-card", !canRotate)));
    if (mine && turn.phase === "place" && choices.discards.length) {
      panel.append(h("p", { class: "help" }, t("cards.discard_help")));
      const drow = h("div", { class: "choice-row" });
      for (const i of choices.discards) {
        drow.append(h("button", {
          type: "button", class: "choice", "data-testid": `discard-${i}`,
          on: { click: () => this.act({ type: "discard", card: i }) },
        }, t("cards.discard", { motif: motifName(me.hand[i].motif) })));
      }
      panel.append(drow);
    } else if (mine && turn.phase === "place") {
      panel.append(h("p", { class: "help" }, t(`cards.place_help${this.turnWay()}`)));
    }
  }

  /**
   * Which words a help names the card's turning in (the suffix of its key): a phone's
   * gestures and round arrows (`_touch`), the R key, or the buttons when single-key
   * shortcuts are off (`_no_letters`). "Press R" was said on phones, and with R off.
   */
  turnWay() {
    const touch = window.matchMedia && window.matchMedia("(hover: none) and (pointer: coarse)").matches;
    return touch ? "_touch" : lettersOn() ? "" : "_no_letters";
  }

  /** The zoom buttons' names, in the page's language. */
  renderZoom() {
    const labels = [t("cards.zoom_out"), t("cards.fit"), t("cards.zoom_in")];
    this.zoomButtons.forEach((button, i) => {
      button.title = labels[i];
      button.setAttribute("aria-label", labels[i]);
    });
  }

  renderPlayers() {
    const v = this.view;
    const list = this.els.players;
    list.replaceChildren();
    list.classList.add("cards-players");
    for (const p of v.players) {
      const connected = this.ctx.isConnected(p.seat);
      const isTurn = v.turn && v.turn.seat === p.seat && v.status === "playing";
      const winner = v.result && v.result.winners.includes(p.seat);
      const taken = h("span", { class: "found-list taken-list" });
      for (const m of p.taken) taken.append(motifIcon(m, 20));
      list.append(h("li", {
        class: "player" + (isTurn ? " turn" : "") + (winner ? " winner" : ""), "data-testid": `player-${p.seat}`,
      },
      h("div", { class: "player-line" },
        colorDot(p.color, "big"),
        h("span", { class: "player-name" }, shownName(p.name)),
        p.seat === v.you ? h("span", { class: "muted" }, " ", t("game.you")) : null,
        winner ? h("span", { class: "trophy", "aria-hidden": "true" }, " ★") : null,
        connected === null ? null : connMark(connected)),
      // The hand's backs go with the counts: on the name's line, beside the connection's
      // dot, they pushed "Computer (medium)" onto two lines and the dot onto a third.
      h("div", { class: "player-stats" },
        h("span", { class: "count", "data-testid": `taken-${p.seat}` }, t("cards.taken_count", { n: p.taken.length })),
        taken,
        h("span", { class: "hand-count", title: t("cards.hand_count", { n: p.hand_count }) }, "🂠".repeat(p.hand_count)))));
    }
  }

  renderResult() {
    const v = this.view;
    const el = this.els.result;
    if (v.status !== "finished" || !v.result) {
      this.hideResult(el);
      return;
    }
    const names = v.result.winners.map((s) => shownName((v.players.find((x) => x.seat === s) || { name: "?" }).name));
    const best = Math.max(...v.result.scores);
    if (!this.resultChanged(el, JSON.stringify([v.result, names, v.you, !!this.ctx.sharedDevice]))) return;
    el.hidden = false;
    el.replaceChildren();
    el.append(
      h("div", { class: "result-title" }, "★ ", t("game.over"), " ★"),
      h("div", { class: "result-text" },
        h("strong", {}, names.length > 1 ? t("cards.tie", { names: formatList(names) }) : this.winnerWords(names)),
        " — ", t("cards.taken_count", { n: best })),
    );
  }
}

/** Click, Enter or Space. */
function activate(el, fn) {
  el.addEventListener("click", (ev) => {
    ev.preventDefault();
    fn();
  });
  el.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      fn();
    }
  });
}

function iconButton(text, label, fn, testid, disabled = false) {
  return h("button", {
    type: "button", class: "icon-button", title: label, "aria-label": label, "data-testid": testid,
    disabled, on: { click: fn },
  }, text);
}
