/**
 * The lobby: a form to create a room (built from variants.js), "Play against the computer"
 * (lobby-table.js), "Play on this device" (lobby-local.js), and the lists of live and
 * recently finished games.
 */

import { api, ApiError, request } from "./api.js";
import { byId, h } from "./dom.js";
import { formatDate, formatList, initI18n, onLanguageChange, t } from "./i18n.js";
import { apiErrorWords } from "./error-words.js";
import { setupImport } from "./importer.js";
import { setupLocalPlay } from "./lobby-local.js";
import { enterRoom, listedChosen, loadOpenTables, setupLobbyTable } from "./lobby-table.js";
import { shownName, tableApi } from "./table.js";
import { renderIntro } from "./intro.js";
import { fillThumbs } from "./thumbs.js";
import { applies, choiceEntries, refusedOptionsText } from "./options.js";
import { VARIANTS, variantById } from "./variants.js";

const els = {
  form: byId("create-form"),
  variant: byId("variant-select"),
  options: byId("variant-options"),
  create: byId("create-button"),
  name: byId("create-name"),
  error: byId("create-error"),
  live: byId("live-games"),
  liveEmpty: byId("live-empty"),
  finished: byId("finished-games"),
  finishedEmpty: byId("finished-empty"),
  liveVariant: byId("live-variant"),
  finishedVariant: byId("finished-variant"),
  livePager: byId("live-pager"),
  finishedPager: byId("finished-pager"),
};

/** Page size of each list, and where each list is (offset, filter, what the server said). */
const PAGE = { live: 10, finished: 10 };
const paging = {
  live: { offset: 0, variant: "", total: 0, next: null },
  finished: { offset: 0, variant: "", total: 0, next: null },
};

const REFRESH_MS = 15000;
const THUMB_MS = 4000;
/** Latest lists, kept to re-render on a language change. */
const lists = { live: null, finished: null, liveError: false, finishedError: false };
/** Finished games' details (for the winners), by id; they never change. */
const details = new Map();
/** Option values chosen so far, by variant and key, kept across re-renders. */
const chosen = {};

function renderVariantSelect() {
  const current = els.variant.value || VARIANTS[0].id;
  els.variant.replaceChildren();
  for (const v of VARIANTS) els.variant.append(h("option", { value: v.id }, t(v.label)));
  els.variant.value = current;
}

/** One control per option of the selected variant. */
function renderOptions() {
  const variant = variantById(els.variant.value) || VARIANTS[0];
  const values = (chosen[variant.id] ||= {});
  for (const el of [...els.options.children]) if (el.tagName !== "LEGEND") el.remove();
  els.options.hidden = variant.options.length === 0;
  for (const opt of variant.options) {
    if (!(opt.key in values)) values[opt.key] = opt.default;
    const id = `opt-${opt.key}`;
    if (opt.type === "choice") {
      const select = h("select", {
        id, name: opt.key, "data-testid": id,
        on: { change: (ev) => { values[opt.key] = ev.target.value; showApplying(variant); } },
      }, ...choiceEntries(variant, values, opt).map((e) => h("option", { value: e.value, disabled: e.disabled }, e.text)));
      select.value = values[opt.key];
      els.options.append(h("div", { class: "option choice", "data-option": opt.key },
        h("label", { for: id }, h("strong", {}, t(opt.label)), opt.help ? h("span", { class: "help" }, t(opt.help)) : null),
        select));
      continue;
    }
    const input = h("input", {
      type: "checkbox", id, name: opt.key, "data-testid": id,
      on: { change: (ev) => { values[opt.key] = ev.target.checked; showApplying(variant); } },
    });
    input.checked = values[opt.key];
    els.options.append(h("div", { class: "option", "data-option": opt.key },
      input,
      h("label", { for: id }, h("strong", {}, t(opt.label)), opt.help ? h("span", { class: "help" }, t(opt.help)) : null)));
  }
  showApplying(variant);
}

/** Show only the fields that apply to the values chosen (Team: spells outside introductory
 * mode), and in each list of a `unique` group the values another holds disabled, saying
 * whose they are (a spell chosen for Red is not Yellow's to choose). The lists change in
 * place: the one in the user's hands stays open and focused. */
function showApplying(variant) {
  const values = chosen[variant.id] || {};
  for (const opt of variant.options) {
    const field = els.options.querySelector(`[data-option="${opt.key}"]`);
    if (field) field.hidden = !applies(opt, values);
    const select = opt.unique && field ? field.querySelector("select") : null;
    if (!select) continue;
    choiceEntries(variant, values, opt).forEach((e, i) => {
      const el = select.options[i];
      if (!el || el.value !== e.value) return;
      el.disabled = e.disabled;
      if (el.textContent !== e.text) el.textContent = e.text;
    });
  }
}

/**
 * "Play against the computer" for a game of opponents; the Team Edition is played with
 * the computer, its seats team-mates: the block's words follow the game chosen. (The
 * elements' `data-i18n` keys change with them, so a change of language keeps them.)
 */
const VS_WORDS = [
  ["#vs-title", "lobby.vs_computer", "lobby.with_computer"],
  ["#vs-button", "lobby.vs_computer", "lobby.with_computer"],
  [".vs-computer > .help", "lobby.vs_computer.help", "lobby.with_computer.help"],
  ["label[for=vs-count]", "lobby.opponents", "lobby.teammates"],
];

function renderVsWords() {
  const coop = choice().variant.id === "team";
  for (const [sel, plain, team] of VS_WORDS) {
    const el = document.querySelector(sel);
    if (!el) continue;
    el.dataset.i18n = coop ? team : plain;
    if (!el.disabled) el.textContent = t(el.dataset.i18n);  // (not the button's "Starting…")
  }
  for (const opt of byId("vs-count").options) {
    opt.textContent = t(coop ? "lobby.teammates.n" : "lobby.opponents.n", { n: Number(opt.value) });
  }
}

/** The variant and options chosen in the form. */
function choice() {
  const variant = variantById(els.variant.value) || VARIANTS[0];
  const options = {};
  for (const opt of variant.options) options[opt.key] = (chosen[variant.id] || {})[opt.key] ?? opt.default;
  return { variant, options };
}

async function createRoom(ev) {
  ev.preventDefault();
  els.error.textContent = "";
  // The creator takes the first seat, the host's: a creator left watching could not
  // hold the start for the friends to come (any seated player starts a hostless room).
  const name = els.name.value.trim();
  if (!name) {
    // spaces only are not "no name yet": said so
    els.error.textContent = t(els.name.value ? "error.name.blank" : "lobby.create_name.missing");
    els.name.focus();
    return;
  }
  const { variant, options } = choice();
  els.create.disabled = true;
  els.create.textContent = t("lobby.creating");
  try {
    localStorage.setItem("labyrinth:name", name);
  } catch {
    /* not remembered */
  }
  try {
    enterRoom(await tableApi.create(variant.id, options, { name, listed: listedChosen(), clock: clockChoice() }));
  } catch (err) {
    const known = err instanceof ApiError && err.status;
    // Options refused (two seats with one spell), a name that breaks the text rule (the
    // rule it broke): said in the page's language.
    if (known && err.code === "bad_options") els.error.textContent = refusedOptionsText(variant, options);
    else els.error.textContent = apiErrorWords(err);
    els.create.disabled = false;
    els.create.textContent = t("lobby.create");
  }
}

/** The turn timer chosen in the form: "turn:60" or "fischer:600:10" (null: none). */
function clockChoice() {
  const select = byId("clock-select");
  const [kind, seconds, increment] = (select ? select.value : "none").split(":");
  if (kind === "turn") return { kind, seconds: Number(seconds) };
  if (kind === "fischer") return { kind, seconds: Number(seconds), increment: Number(increment) };
  return null;
}

/** Live games nobody has been in for a while: listed apart, still open by their link. */
async function loadAdjourned() {
  const box = byId("adjourned");
  const list = byId("adjourned-games");
  if (!box || !list) return;
  try {
    const answer = await request("GET", "/api/games?status=adjourned&limit=10");
    const games = answer.games || [];
    list.replaceChildren(...games.map((g) => h("li", { class: "game-item", "data-testid": "adjourned-game" },
      h("div", { class: "game-main" },
        h("span", { class: "game-players" }, formatList(playerNames(g))),
        h("span", { class: "game-meta" }, variantLabel(g.variant), " · ", t("lobby.adjourned_tag"), " · ",
          lengthText(g))),
      h("a", { class: "button", href: `/r/${encodeURIComponent(g.room)}` }, t("lobby.resume")))));
    box.hidden = games.length === 0;
  } catch {
    box.hidden = true;
  }
}

/** A game's length in turns (one player's whole turn), as players count; an older
 * server's entry has only `seq`, which counts actions (a classic turn is two). */
function lengthText(g) {
  return typeof g.turns === "number" ? t("lobby.turns", { n: g.turns }) : t("lobby.actions", { n: g.seq ?? 0 });
}

/** Player names of a game entry (names, or objects with a name). */
function playerNames(game) {
  return (game.players || []).map((p) => shownName(typeof p === "string" ? p : p && p.name) || "?");
}

function variantLabel(id) {
  const v = variantById(id);
  return v ? t(v.label) : t("variant.unknown", { id });
}

function renderLive() {
  els.live.replaceChildren();
  const games = lists.live || [];
  for (const g of games) {
    // A game whose players all went stays listed until it is adjourned: said, so "Watch"
    // does not open a frozen table unawares (`at_table` is absent from an older server).
    const away = g.at_table === 0;
    els.live.append(h("li", { class: "game-item" + (away ? " players-away" : ""), "data-testid": "live-game" },
      g.room ? h("a", { class: "thumb", href: `/r/${encodeURIComponent(g.room)}`, "data-thumb": g.room, "data-testid": "live-thumb", "aria-hidden": "true", tabindex: "-1" }) : null,
      h("div", { class: "game-main" },
        h("span", { class: "game-players", title: formatList(playerNames(g)) }, formatList(playerNames(g))),
        h("span", { class: "game-meta" },
          variantLabel(g.variant), " · ", lengthText(g),
          g.started_at ? " · " + t("lobby.started", { date: formatDate(g.started_at) }) : "",
          " · ", h("span", { class: "watching", "data-testid": "watching" }, t("lobby.watching", { n: g.watching ?? 0 })),
          away ? h("span", { class: "away-note", "data-testid": "players-away" }, " · ", t("lobby.nobody_at_table")) : null)),
      h("a", { class: "button", href: `/r/${encodeURIComponent(g.room)}` }, t("lobby.watch"))));
  }
  els.liveEmpty.hidden = games.length > 0;
  fillThumbs(els.live);
  renderPager("live");
  els.liveEmpty.textContent = lists.liveError ? t("lobby.load_error") : lists.live === null ? t("lobby.loading") : t("lobby.none_live");
}

/** Whether a finished game was won by someone (the star is theirs). */
function hasWinner(g) {
  const result = g.result || (details.get(g.id) && details.get(g.id).result);
  return !!(result && (result.winners || []).length);
}

function winnerText(g) {
  const result = g.result || (details.get(g.id) && details.get(g.id).result);
  if (!result) return details.has(g.id) || g.result === null ? t("lobby.no_winner") : "";
  // The Team Edition is won or lost by everyone together.
  if (g.variant === "team") return t((result.winners || []).length ? "lobby.team_won" : "lobby.team_lost");
  const names = playerNames(g);
  const winners = (result.winners || []).map((s) => names[s] ?? `#${s}`);
  if (!winners.length) return t("lobby.no_winner");
  return t(winners.length > 1 ? "lobby.winners" : "lobby.winner", { names: formatList(winners) });
}

function renderFinished() {
  els.finished.replaceChildren();
  const games = lists.finished || [];
  for (const g of games) {
    els.finished.append(h("li", { class: "game-item", "data-testid": "finished-game" },
      h("div", { class: "game-main" },
        h("span", { class: "game-players", title: formatList(playerNames(g)) }, formatList(playerNames(g))),
        h("span", { class: "game-winner", "data-won": String(hasWinner(g)) }, winnerText(g)),
        h("span", { class: "game-meta" },
          variantLabel(g.variant), " · ", lengthText(g),
          g.finished_at ? " · " + t("lobby.ended", { date: formatDate(g.finished_at) }) : "",
          g.imported ? " · " + t("lobby.imported") : "")),
      h("a", { class: "button secondary", "data-testid": "replay-link", href: `/replay/${encodeURIComponent(g.id)}` }, t("lobby.replay"))));
  }
  els.finishedEmpty.hidden = games.length > 0;
  renderPager("finished");
  els.finishedEmpty.textContent = lists.finishedError ? t("lobby.load_error") : lists.finished === null ? t("lobby.loading") : t("lobby.none_finished");
}

/** One page of a list, newest first, with the list's variant filter. */
function fetchPage(kind) {
  const where = paging[kind];
  // the games being played, not those nobody has been in for half an hour (`adjourned`)
  const status = kind === "live" ? "playing" : kind;
  const params = new URLSearchParams({ status, limit: String(PAGE[kind]), offset: String(where.offset) });
  if (where.variant) params.set("variant", where.variant);
  return request("GET", `/api/games?${params}`);
}

async function loadLists() {
  const [live, finished] = await Promise.allSettled([fetchPage("live"), fetchPage("finished")]);
  for (const [kind, answer] of [["live", live], ["finished", finished]]) {
    lists[kind + "Error"] = answer.status === "rejected";
    if (answer.status === "fulfilled") {
      lists[kind] = answer.value.games || [];
      paging[kind].total = answer.value.total ?? lists[kind].length;
      paging[kind].next = answer.value.next_offset ?? null;
    }
  }
  renderLive();
  renderFinished();
  loadAdjourned();
  // Older servers' list entries carry no result: fetch each finished game once for it.
  const missing = (lists.finished || []).filter((g) => !("result" in g) && !details.has(g.id));
  if (missing.length) {
    await Promise.allSettled(missing.map(async (g) => details.set(g.id, await api.game(g.id))));
    renderFinished();
  }
}

/** "Newer" / "Older" buttons and the position in the list. */
function renderPager(kind) {
  const where = paging[kind];
  const pager = kind === "live" ? els.livePager : els.finishedPager;
  const count = (lists[kind] || []).length;
  pager.hidden = where.offset === 0 && where.next === null;
  pager.replaceChildren(
    h("button", {
      type: "button", "data-testid": `${kind}-newer`, disabled: where.offset === 0,
      on: { click: () => turnPage(kind, Math.max(0, where.offset - PAGE[kind])) },
    }, "‹ ", t("lobby.prev_page")),
    h("span", { "data-testid": `${kind}-page` },
      count ? t("lobby.page", { from: where.offset + 1, to: where.offset + count, total: where.total }) : ""),
    h("button", {
      type: "button", "data-testid": `${kind}-older`, disabled: where.next === null,
      on: { click: () => turnPage(kind, where.next) },
    }, t("lobby.next_page"), " ›"),
  );
}

function turnPage(kind, offset) {
  if (offset === null || offset === undefined) return;
  paging[kind].offset = offset;
  keepListsPlace();
  loadLists();
}

/** Each list's page and filter, kept in the address (replaced, not pushed): Back from a
 * replay opened from "Older" came back to the first page of "Recently finished". */
function keepListsPlace() {
  const params = new URLSearchParams(location.search);
  for (const kind of ["live", "finished"]) {
    const { offset, variant } = paging[kind];
    if (offset) params.set(kind, String(offset));
    else params.delete(kind);
    if (variant) params.set(`${kind}_variant`, variant);
    else params.delete(`${kind}_variant`);
  }
  const query = params.toString();
  history.replaceState(history.state, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
}

/** The lists' places the address keeps (a page come back to), or the first pages. */
function readListsPlace() {
  const params = new URLSearchParams(location.search);
  for (const kind of ["live", "finished"]) {
    const offset = Number(params.get(kind));
    if (Number.isInteger(offset) && offset > 0) paging[kind].offset = offset;
    const variant = params.get(`${kind}_variant`);
    if (variant && VARIANTS.some((v) => v.id === variant)) paging[kind].variant = variant;
  }
}

function renderFilters() {
  for (const [kind, select] of [["live", els.liveVariant], ["finished", els.finishedVariant]]) {
    select.replaceChildren(h("option", { value: "" }, t("lobby.all_variants")));
    for (const v of VARIANTS) select.append(h("option", { value: v.id }, t(v.label)));
    select.value = paging[kind].variant;
  }
}

function setupFilters() {
  renderFilters();
  for (const [kind, select] of [["live", els.liveVariant], ["finished", els.finishedVariant]]) {
    select.addEventListener("change", () => {
      paging[kind].variant = select.value;
      paging[kind].offset = 0;
      keepListsPlace();
      loadLists();
    });
  }
}

/** An introduction's "Play this game": that game in the form, and the form in sight. */
function playVariant(id) {
  els.variant.value = id;
  els.variant.dispatchEvent(new Event("change"));
  const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  byId("create-title").scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
  els.variant.focus({ preventScroll: true });
}

function main() {
  initI18n();
  const intro = () => renderIntro(byId("intro-lead"), byId("game-intros"), playVariant);
  intro();
  onLanguageChange(intro);
  renderVariantSelect();
  renderOptions();
  const table = setupLobbyTable(choice);
  const local = setupLocalPlay(choice, clockChoice);
  renderVsWords();
  els.variant.addEventListener("change", () => {
    renderOptions();
    table.render();
    renderVsWords();
    local.render();
  });
  els.form.addEventListener("submit", createRoom);
  readListsPlace();
  setupFilters();
  setupImport(byId("import-form"), byId("import-file"), byId("import-error"));
  onLanguageChange(() => {
    renderVariantSelect();
    renderOptions();
    renderFilters();
    renderLive();
    renderFinished();
    table.render();
    renderVsWords();
    local.render();
  });
  loadLists();
  loadOpenTables();
  setInterval(() => {
    if (document.hidden) return;
    loadLists();
    loadOpenTables();
  }, REFRESH_MS);
  // The live boards move more often than the lists change.
  setInterval(() => {
    if (!document.hidden) fillThumbs(els.live);
  }, THUMB_MS);
}

main();
