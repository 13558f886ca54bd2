/**
 * The 7x7 sliding-maze board as SVG: tiles, homes, pawns, the 12 insertion arrows and the
 * cells the player may move to. It only draws what it is given and reports clicks; the
 * page controller decides what is active.
 */

import { cellName, lang, slotWords, t } from "./i18n.js";
import { DIRECTIONS, focusNearest, rove, roving } from "./keyboard-focus.js";
import { shownName } from "./table.js";
import { drawTile, svg, treasureName } from "./tiles.js";

const C = 100;           // cell size (SVG units)
const M = 72;            // margin around the board, for arrows and coordinates
const N = 7;
export const BOARD_SIZE = N * C + 2 * M;

/** The 12 slots, in the order they are drawn (and tabbed through). */
export const SLOTS = [
  ["N", 1], ["N", 3], ["N", 5],
  ["E", 1], ["E", 3], ["E", 5],
  ["S", 5], ["S", 3], ["S", 1],
  ["W", 5], ["W", 3], ["W", 1],
];

/** Pawn offsets from a cell's centre, by seat, so that pawns sharing a cell all show. */
const PAWN_OFFSET = [[-24, -24], [24, -24], [-24, 24], [24, 24]];

/** Where every tile of a pushed line came from, relative to where it is now. */
function pushShift(side) {
  return { N: [0, -C], S: [0, C], W: [-C, 0], E: [C, 0] }[side];
}

function inLine(row, col, side, index) {
  return side === "N" || side === "S" ? col === index : row === index;
}

/**
 * A lit cell's name: what a click does, where, and what is there (treasure, target,
 * start, pawns).
 * @param {any} view @param {any} ui @param {number} r @param {number} c
 * @param {number[]|null} myHome @param {number[]|null} myPos
 */
function cellLabel(view, ui, r, c, myHome, myPos) {
  const what = [];
  const tile = view.board.tiles[r][c];
  if (tile.treasure) {
    const name = treasureName(tile.treasure);
    what.push(ui.target && tile.treasure === ui.target ? t("game.cell_target", { treasure: name }) : name);
  }
  if (myHome && myHome[0] === r && myHome[1] === c) what.push(t("game.cell_home"));
  if (myPos && myPos[0] === r && myPos[1] === c) what.push(t("game.cell_you"));
  for (const p of view.players) {
    if (p.seat !== view.you && p.pos && p.pos[0] === r && p.pos[1] === c && p.name) what.push(t("game.cell_pawn", { name: shownName(p.name) }));
  }
  if (ui.cellWhat) what.push(...ui.cellWhat(r, c));
  const cell = cellName([r, c]);
  // A spell aimed at a cell (the Team Edition's rotate and switch) names what a click does
  // there: "Move to" read for a tile to turn sent the player looking for a move.
  const verb = ui.aim || "game.move_to";
  return what.length ? t(`${verb}_what`, { cell, what: what.join(", ") }) : t(verb, { cell });
}

/** Activate `fn` on click, Enter and Space; make the element a focusable button. */
function makeButton(el, label, fn) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("data-rove", "");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label);
  el.addEventListener("click", (ev) => {
    ev.preventDefault();
    fn(ev);
  });
  el.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      fn(ev);
    }
  });
}

/** A tap by a finger (or pen): on phones an arrow asks for a second tap to confirm. */
function isTouch(ev) {
  return !!ev && (ev.pointerType === "touch" || ev.pointerType === "pen");
}


/** What a cell's drawing depends on: the tile's fields and the home drawn on it. */
function tileSig(tile, home) {
  let sig = home || "";
  for (const key in tile) {
    const value = tile[key];
    sig += `|${key}:${value !== null && typeof value === "object" ? JSON.stringify(value) : value}`;
  }
  return sig;
}

/** The target marker of cell (r, c): a ring round the cell and a flag in its corner. */
function targetMark(r, c) {
  const x = M + c * C;
  const y = M + r * C;
  const g = svg("g", { class: "target-mark", "data-testid": "target-mark", "data-cell": `${r},${c}` });
  g.append(svg("rect", { class: "target-ring", x: x + 3, y: y + 3, width: C - 6, height: C - 6, rx: 14 }));
  g.append(svg("circle", { class: "target-badge", cx: x + C - 13, cy: y + 13, r: 12 }));
  g.append(svg("circle", { class: "target-dot", cx: x + C - 13, cy: y + 13, r: 4.5 }));
  return g;
}

export class BoardView {
  /**
   * @param {SVGSVGElement} root the board's `<svg>`
   * @param {{onArrow: (side: string, index: number) => void,
   *          onCell: (cell: number[]) => void,
   *          onPawn: (seat: number) => void}} handlers
   */
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers;
    root.setAttribute("viewBox", `0 0 ${BOARD_SIZE} ${BOARD_SIZE}`);
    root.setAttribute("role", "group");
    /** The layers built once and kept (see `build`); null until the first render. */
    this.layers = null;
    /** @type {Animation[]} the slide and glide animations of the last view drawn */
    this.running = [];
    /** The view those animations belong to. */
    this.animated = null;
    /** The slot ("N1") a first tap chose on a touch screen, waiting for the second. */
    this.armed = null;
    // Arrow keys move the focus to the nearest arrow or cell that way.
    root.addEventListener("keydown", (ev) => this.onArrowKey(ev));
    // Tab stops once on the board: the arrow keys go through its controls.
    roving(root);
  }

  /** Move the focus from one board control to the nearest one in the arrow's direction. */
  onArrowKey(ev) {
    const from = ev.target;
    if (!DIRECTIONS[ev.key] || ev.altKey || ev.ctrlKey || ev.metaKey || !from || !from.getAttribute || !from.getAttribute("data-key")) return;
    ev.preventDefault();
    focusNearest(from, this.root.querySelectorAll("[data-key][tabindex]"), ev.key);
  }

  /** An active arrow chosen: on a touch screen the first tap previews, the second pushes. */
  arrowChosen(side, index, ev) {
    const key = side + index;
    if (isTouch(ev) && this.armed !== key) {
      this.arm(key);
      if (this.handlers.onArm) this.handlers.onArm(side, index);
      return;
    }
    this.arm(null);
    this.handlers.onArrow(side, index);
  }

  /** Mark `key`'s arrow as waiting for its confirming tap (null: none), its line shown. */
  arm(key) {
    this.armed = key;
    if (!this.layers) return;
    SLOTS.forEach(([side, index], i) => {
      const g = this.layers.arrowSlots[i].outer.firstChild;
      if (!g) return;
      const on = key === side + index;
      g.classList.toggle("armed", on);
      g.setAttribute("data-armed", on ? "true" : "false");
      if (on) this.showLine(this.layers.hint, side, index);
    });
    if (key === null) this.layers.hint.setAttribute("width", 0);
  }

  /**
   * The parts that never change (frame, coordinates) and one node per cell, pawn and
   * arrow. Later renders update these nodes in place, redrawing only what changed, so a
   * step costs a few tiles, not the whole board.
   */
  build() {
    const root = this.root;
    root.replaceChildren();
    const frame = svg("rect", { class: "board-frame", x: 0, y: 0, width: BOARD_SIZE, height: BOARD_SIZE, rx: 24 });
    const bed = svg("rect", { class: "board-bed", x: M - 6, y: M - 6, width: N * C + 12, height: N * C + 12, rx: 10 });

    // Coordinates: columns a-g, rows 1-7, as in the move notation.
    const labels = svg("g", { class: "coords", "aria-hidden": "true" });
    for (let i = 0; i < N; i++) {
      const mid = M + i * C + C / 2;
      for (const y of [16, BOARD_SIZE - 16]) labels.append(svg("text", { x: mid, y, "dominant-baseline": "middle", "text-anchor": "middle" }, "abcdefg"[i]));
      for (const x of [16, BOARD_SIZE - 16]) labels.append(svg("text", { x, y: mid, "dominant-baseline": "middle", "text-anchor": "middle" }, String(i + 1)));
    }
    const tiles = svg("g", { class: "tiles" });
    // The line an arrow would push, shown while pointing at / focusing an arrow.
    const hint = svg("rect", { class: "line-hint", x: 0, y: 0, width: 0, height: 0, rx: 8 });
    // The viewer's target (treasure or home): its own marker, above the tiles, so it never
    // reads like the frames of the cells one may move to.
    const marks = svg("g", { class: "target-marks", "aria-hidden": "true" });
    const cells = svg("g", { class: "cells" });
    const pawns = svg("g", { class: "pawns" });
    const arrows = svg("g", { class: "arrows" });
    const arrowSlots = SLOTS.map(([side, index]) => {
      const [x, y, angle] = this.arrowPlace(side, index);
      const outer = svg("g", { transform: `translate(${x} ${y}) rotate(${angle})` });
      arrows.append(outer);
      return { outer, sig: null };
    });
    root.append(frame, bed, labels, tiles, hint, marks, cells, pawns, arrows);
    this.layers = {
      first: frame,
      lang: lang(),
      own: new Set([frame, bed, labels, tiles, hint, marks, cells, pawns, arrows]),
      tiles, hint, marks, marksSig: "", cells, pawns, arrows, arrowSlots,
      /** per cell (r * N + c): {outer, inner, sig} */
      cells7: new Array(N * N).fill(null),
      cellsSig: null,
      /** per pawn, in `view.players` order: {outer, inner, sig} */
      pawnList: [],
      label: null,
    };
  }

  /**
   * Draw the board.
   * @param {object} view the classic view
   * @param {object} ui
   * @param {Set<string>} ui.activeSlots slots ("N1") the player may push at now
   * @param {Map<string, object>} ui.reachable "r,c" -> move action
   * @param {Set<number>} ui.swappable seats whose pawn may be chosen for a swap
   * @param {string|null} ui.target the viewer's target treasure (highlighted), or null
   * @param {boolean} ui.goHome the viewer must return home (home highlighted)
   * @param {{side: string, index: number}|null} ui.animatePush slide this line in
   * @param {{seat: number, from: number[]}|null} ui.animateMove glide this pawn
   */
  render(view, ui) {
    const focusedKey = this.root.contains(document.activeElement)
      ? document.activeElement.getAttribute("data-key")
      : null;
    const board = view.board;
    const homes = new Map(view.players.map((p) => [p.home.join(","), p.color]));
    const me = view.you;
    const turnSeat = view.turn ? view.turn.seat : null;

    // A new view ends the animations of the one before (a rebuilt board used to drop
    // them). The same view drawn again (the room's seats or presence changed, a refusal)
    // lets them run to their end: a room message used to cut a move's glide short.
    if (view !== this.animated) {
      for (const a of this.running) a.cancel();
      this.running = [];
      this.animated = view;
    }

    const root = this.root;
    // Built once; again after a language change (tooltips) or if the board was cleared.
    if (!this.layers || root.firstChild !== this.layers.first || this.layers.lang !== lang()) this.build();
    const L = this.layers;
    // Whatever a variant laid over the board last time (it lays it again after this).
    for (const child of [...root.children]) if (!L.own.has(child)) child.remove();
    const boardLabel = t("game.board");
    if (L.label !== boardLabel) {
      root.setAttribute("aria-label", boardLabel);
      L.label = boardLabel;
    }

    // Tiles: a cell is redrawn only when its tile (or home) changed, or when a variant
    // decorated it (anything beyond the tile drawn here).
    const sliding = [];
    const targets = [];
    const myHome = ui.goHome && me !== null && view.players[me] ? view.players[me].home : null;
    for (let r = 0; r < N; r++) {
      for (let c = 0; c < N; c++) {
        const tile = board.tiles[r][c];
        const home = homes.get(`${r},${c}`) || null;
        const sig = tileSig(tile, home);
        const i = r * N + c;
        let cell = L.cells7[i];
        const clean = cell && cell.outer.childNodes.length === 1 && cell.outer.firstChild === cell.inner
          && cell.outer.attributes.length === 2;
        if (!clean || cell.sig !== sig) {
          const outer = svg("g", { transform: `translate(${M + c * C} ${M + r * C})`, "data-cell": `${r},${c}` });
          const inner = drawTile(tile, { home });
          outer.append(inner);
          if (cell) L.tiles.replaceChild(outer, cell.outer);
          else L.tiles.append(outer);
          cell = { outer, inner, sig };
          L.cells7[i] = cell;
        }
        const isTarget = (!!ui.target && tile.treasure === ui.target)
          || (!!myHome && myHome[0] === r && myHome[1] === c);
        if (cell.inner.classList.contains("is-target") !== isTarget) cell.inner.classList.toggle("is-target", isTarget);
        if (isTarget) targets.push([r, c]);
        if (ui.animatePush && inLine(r, c, ui.animatePush.side, ui.animatePush.index)) sliding.push(cell.inner);
      }
    }

    const marksSig = targets.map((x) => x.join(",")).join(";");
    if (marksSig !== L.marksSig) {
      L.marksSig = marksSig;
      L.marks.replaceChildren(...targets.map(([r, c]) => targetMark(r, c)));
    }

    // The hint starts hidden, as after any render.
    if (L.hint.getAttribute("width") !== "0") L.hint.setAttribute("width", 0);

    // Cells the player may move to.
    const myPos = me !== null && view.players[me] ? view.players[me].pos : null;
    // Each cell's name says what is there (the picture alone does not reach a screen
    // reader): "Move to c4: bat, your target", "Move to a1: your start".
    const labels = new Map();
    for (const key of ui.reachable.keys()) {
      const [r, c] = key.split(",").map(Number);
      labels.set(key, cellLabel(view, ui, r, c, myHome, myPos));
    }
    const cellsSig = [...labels].map(([key, label]) => `${key}=${label}`).join(";");
    if (cellsSig !== L.cellsSig || L.cells.childNodes.length !== ui.reachable.size) {
      L.cellsSig = cellsSig;
      const rects = [];
      for (const [key, action] of ui.reachable) {
        const [r, c] = key.split(",").map(Number);
        const isStay = myPos && myPos[0] === r && myPos[1] === c;
        // The whole cell is the target (44 px and more on phones); the frame is drawn inset.
        const rect = svg("g", {
          class: "reachable" + (isStay ? " stay" : ""),
          "data-testid": `cell-${r}-${c}`, "data-key": `cell-${r}-${c}`,
        });
        rect.append(
          svg("rect", { class: "reachable-hit", x: M + c * C, y: M + r * C, width: C, height: C }),
          svg("rect", { class: "reachable-frame", x: M + c * C + 4, y: M + r * C + 4, width: C - 8, height: C - 8, rx: 10 }),
        );
        makeButton(rect, labels.get(key), () => this.handlers.onCell(action.to));
        rects.push(rect);
      }
      L.cells.replaceChildren(...rects);
    }

    // Pawns: one node each, redrawn when anything about it changed.
    let gliding = null;
    if (L.pawnList.length !== view.players.length) {
      L.pawns.replaceChildren();
      L.pawnList = [];
    }
    view.players.forEach((p, i) => {
      const [r, c] = p.pos;
      const label = t("game.pawn", { name: shownName(p.name), cell: cellName(p.pos) });
      const swappable = ui.swappable.has(p.seat);
      const swapLabel = swappable ? t("game.swap_with", { name: shownName(p.name) }) : "";
      const sig = [p.seat, r, c, p.color, p.seat === turnSeat, p.seat === me, swappable, label, swapLabel].join("|");
      let pawn = L.pawnList[i];
      if (!pawn || pawn.sig !== sig || pawn.outer.parentNode !== L.pawns) {
        const [dx, dy] = PAWN_OFFSET[p.seat % 4];
        const outer = svg("g", { transform: `translate(${M + c * C + C / 2 + dx} ${M + r * C + C / 2 + dy})` });
        const inner = svg("g", {
          class: `pawn pawn-${p.color}` + (p.seat === turnSeat ? " turn" : "") + (p.seat === me ? " mine" : ""),
          "data-testid": `pawn-${p.seat}`, "data-key": `pawn-${p.seat}`,
        });
        inner.append(svg("title", {}, label));
        if (p.seat === turnSeat) inner.append(svg("circle", { class: "pawn-halo", r: 21 }));
        inner.append(svg("circle", { class: "pawn-body", r: 15 }));
        inner.append(svg("circle", { class: "pawn-shine", cx: -5, cy: -5, r: 4.5 }));
        if (p.seat === me) inner.append(svg("circle", { class: "pawn-you", r: 6 }));
        if (swappable) {
          inner.classList.add("swappable");
          inner.append(svg("circle", { class: "pawn-hit", r: 24 }));
          makeButton(inner, swapLabel, () => this.handlers.onPawn(p.seat));
        }
        outer.append(inner);
        if (pawn && pawn.outer.parentNode === L.pawns) L.pawns.replaceChild(outer, pawn.outer);
        else L.pawns.append(outer);
        pawn = { outer, inner, sig };
        L.pawnList[i] = pawn;
      }
      if (ui.animatePush && inLine(r, c, ui.animatePush.side, ui.animatePush.index)) sliding.push(pawn.inner);
      if (ui.animateMove && ui.animateMove.seat === p.seat) {
        const [fr, fc] = ui.animateMove.from;
        gliding = { el: pawn.inner, dx: (fc - c) * C, dy: (fr - r) * C };
      }
    });

    // Arrows: redrawn when their state (active, forbidden, last, label) changed.
    const forbidden = board.forbidden;
    const last = board.last_push;
    SLOTS.forEach(([side, index], i) => {
      const slot = L.arrowSlots[i];
      const name = slotWords(side, index);
      const isForbidden = !!forbidden && forbidden.side === side && forbidden.index === index;
      const active = !isForbidden && ui.activeSlots.has(side + index);
      const isLast = !!last && last.side === side && last.index === index;
      const label = isForbidden ? t("game.arrow_forbidden", { slot: name }) : t("game.arrow", { slot: name });
      const sig = `${active}|${isForbidden}|${isLast}|${label}|${active && this.armed === side + index}`;
      if (slot.sig === sig && slot.outer.childNodes.length === 1) return;
      slot.sig = sig;
      const g = svg("g", {
        class: "arrow" + (active ? " active" : "") + (isForbidden ? " forbidden" : "") + (isLast ? " last" : ""),
        "data-testid": `arrow-${side}-${index}`, "data-key": `arrow-${side}-${index}`,
        "data-active": active ? "true" : "false",
        "data-armed": active && this.armed === side + index ? "true" : "false",
      });
      if (active && this.armed === side + index) g.classList.add("armed");
      g.append(svg("circle", { class: "arrow-hit", r: 30 }));
      g.append(svg("path", { class: "arrow-shape", d: "M -20 -16 L 20 -16 L 0 16 Z" }));
      if (isForbidden) g.append(svg("path", { class: "arrow-cross", d: "M -11 -11 L 11 11 M 11 -11 L -11 11" }));
      g.append(svg("title", {}, label));
      if (active) {
        const hint = L.hint;
        makeButton(g, label, (ev) => this.arrowChosen(side, index, ev));
        const show = () => this.showLine(hint, side, index);
        const hide = () => {
          if (this.armed) this.arm(this.armed);
          else hint.setAttribute("width", 0);
        };
        g.addEventListener("pointerenter", show);
        g.addEventListener("focus", show);
        g.addEventListener("pointerleave", hide);
        g.addEventListener("blur", hide);
      } else {
        g.setAttribute("aria-disabled", "true");
        g.setAttribute("aria-label", label);
      }
      slot.outer.replaceChildren(g);
    });

    // A waiting first tap holds while its arrow stays active; its line shows again.
    if (this.armed && !ui.activeSlots.has(this.armed)) this.armed = null;
    if (this.armed) this.arm(this.armed);

    if (focusedKey && !root.contains(document.activeElement)) {
      const again = root.querySelector(`[data-key="${focusedKey}"][tabindex]`);
      if (again) again.focus({ preventScroll: true });
    }
    rove(root);

    // Short animations; they never hold anything up (the DOM is already final).
    const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (!reduce && ui.animatePush && sliding.length) {
      const [dx, dy] = pushShift(ui.animatePush.side);
      for (const el of sliding) {
        this.running.push(el.animate(
          [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0px, 0px)" }],
          { duration: 250, easing: "ease-out" },
        ));
      }
    }
    if (!reduce && gliding && (gliding.dx || gliding.dy)) {
      this.running.push(gliding.el.animate(
        [{ transform: `translate(${gliding.dx}px, ${gliding.dy}px)` }, { transform: "translate(0px, 0px)" }],
        { duration: 250, easing: "ease-in-out", delay: ui.animatePush ? 150 : 0 },
      ));
    }
  }

  /**
   * The board in words, for a screen reader (audit 1: its tiles, pawns and pieces reached
   * none): a visually hidden heading and list right after the board, with what a sighted
   * player reads off it (where each pawn is, the viewer's target, the variant's pieces,
   * the spare tile). Each line is the caller's; the list is rewritten only when its words
   * changed, so a state that moved nothing costs one string comparison.
   * @param {string[]} lines
   */
  describe(lines) {
    const sig = lang() + "\n" + lines.join("\n");
    if (this.summary && this.summary.isConnected && this.summarySig === sig) return;
    this.summarySig = sig;
    if (!this.summary || !this.summary.isConnected) {
      const holder = this.root.parentElement;
      if (!holder) return;
      this.summaryList = document.createElement("ul");
      this.summaryTitle = document.createElement("h2");
      this.summary = document.createElement("div");
      this.summary.className = "visually-hidden board-summary";
      this.summary.dataset.testid = "board-summary";
      this.summary.append(this.summaryTitle, this.summaryList);
      this.root.after(this.summary);
    }
    this.summaryTitle.textContent = t("a11y.board_summary");
    this.summaryList.replaceChildren(...lines.map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }));
  }

  /** Centre and rotation of a slot's arrow (the triangle points into the board). */
  arrowPlace(side, index) {
    const mid = M + index * C + C / 2;
    const d = M - 30;
    switch (side) {
      case "N": return [mid, d, 0];
      case "S": return [mid, BOARD_SIZE - d, 180];
      case "W": return [d, mid, -90];
      default: return [BOARD_SIZE - d, mid, 90];
    }
  }

  showLine(hint, side, index) {
    if (side === "N" || side === "S") {
      hint.setAttribute("x", M + index * C);
      hint.setAttribute("y", M);
      hint.setAttribute("width", C);
      hint.setAttribute("height", N * C);
    } else {
      hint.setAttribute("x", M);
      hint.setAttribute("y", M + index * C);
      hint.setAttribute("width", N * C);
      hint.setAttribute("height", C);
    }
  }
}
