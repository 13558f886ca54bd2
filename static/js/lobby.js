/**
 * The lobby: a form to create a room (built from variants.js), and the lists of live and
 * recently finished games.
 */

import { api, ApiError } from "./api.js";
import { byId, h } from "./dom.js";
import { formatDate, formatList, initI18n, onLanguageChange, t } from "./i18n.js";
import { VARIANTS, variantById } from "./variants.js";

const els = {
  form: byId("create-form"),
  variant: byId("variant-select"),
  options: byId("variant-options"),
  create: byId("create-button"),
  error: byId("create-error"),
  live: byId("live-games"),
  liveEmpty: byId("live-empty"),
  finished: byId("finished-games"),
  finishedEmpty: byId("finished-empty"),
};

const REFRESH_MS = 15000;
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
    const input = h("input", {
      type: "checkbox", id, name: opt.key, "data-testid": id,
      on: { change: (ev) => { values[opt.key] = ev.target.checked; } },
    });
    input.checked = values[opt.key];
    els.options.append(h("div", { class: "option" },
      input,
      h("label", { for: id }, h("strong", {}, t(opt.label)), opt.help ? h("span", { class: "help" }, t(opt.help)) : null)));
  }
}

async function createRoom(ev) {
  ev.preventDefault();
  els.error.textContent = "";
  const variant = variantById(els.variant.value) || VARIANTS[0];
  const options = {};
  for (const opt of variant.options) options[opt.key] = chosen[variant.id][opt.key];
  els.create.disabled = true;
  els.create.textContent = t("lobby.creating");
  try {
    const res = await api.createRoom(variant.id, options);
    location.assign(res.url || `/r/${encodeURIComponent(res.code)}`);
  } catch (err) {
    els.error.textContent = err instanceof ApiError && err.status ? err.message : t("error.network");
    els.create.disabled = false;
    els.create.textContent = t("lobby.create");
  }
}

/** Player names of a game entry (names, or objects with a name). */
function playerNames(game) {
  return (game.players || []).map((p) => (typeof p === "string" ? p : p && p.name) || "?");
}

function variantLabel(id) {
  const v = variantById(id);
  return v ? t(v.label) : t("variant.unknown", { id });
}

function renderLive() {
  els.live.replaceChildren();
  const games = lists.live || [];
  for (const g of games) {
    els.live.append(h("li", { class: "game-item", "data-testid": "live-game" },
      h("div", { class: "game-main" },
        h("span", { class: "game-players" }, formatList(playerNames(g))),
        h("span", { class: "game-meta" },
          variantLabel(g.variant), " · ", t("lobby.moves", { n: g.seq ?? 0 }),
          g.started_at ? " · " + t("lobby.started", { date: formatDate(g.started_at) }) : "")),
      h("a", { class: "button", href: `/r/${encodeURIComponent(g.room)}` }, t("lobby.watch"))));
  }
  els.liveEmpty.hidden = games.length > 0;
  els.liveEmpty.textContent = lists.liveError ? t("lobby.load_error") : lists.live === null ? t("lobby.loading") : t("lobby.none_live");
}

function winnerText(g) {
  const result = g.result || (details.get(g.id) && details.get(g.id).result);
  if (!result) return details.has(g.id) || g.result === null ? t("lobby.no_winner") : "";
  const names = playerNames(g);
  const winners = (result.winners || []).map((s) => names[s] ?? `#${s}`);
  return winners.length ? t("lobby.winner", { names: formatList(winners) }) : t("lobby.no_winner");
}

function renderFinished() {
  els.finished.replaceChildren();
  const games = lists.finished || [];
  for (const g of games) {
    els.finished.append(h("li", { class: "game-item", "data-testid": "finished-game" },
      h("div", { class: "game-main" },
        h("span", { class: "game-players" }, formatList(playerNames(g))),
        h("span", { class: "game-winner" }, winnerText(g)),
        h("span", { class: "game-meta" },
          variantLabel(g.variant), " · ", t("lobby.moves", { n: g.seq ?? 0 }),
          g.finished_at ? " · " + t("lobby.ended", { date: formatDate(g.finished_at) }) : "")),
      h("a", { class: "button secondary", href: `/r/${encodeURIComponent(g.room)}` }, t("lobby.view"))));
  }
  els.finishedEmpty.hidden = games.length > 0;
  els.finishedEmpty.textContent = lists.finishedError ? t("lobby.load_error") : lists.finished === null ? t("lobby.loading") : t("lobby.none_finished");
}

async function loadLists() {
  const [live, finished] = await Promise.allSettled([api.games("live", 20), api.games("finished", 10)]);
  lists.liveError = live.status === "rejected";
  if (live.status === "fulfilled") lists.live = live.value.games || [];
  lists.finishedError = finished.status === "rejected";
  if (finished.status === "fulfilled") lists.finished = finished.value.games || [];
  renderLive();
  renderFinished();
  // The list entries carry no result: fetch each finished game once for its winners.
  const missing = (lists.finished || []).filter((g) => !("result" in g) && !details.has(g.id));
  if (missing.length) {
    await Promise.allSettled(missing.map(async (g) => details.set(g.id, await api.game(g.id))));
    renderFinished();
  }
}

function main() {
  initI18n();
  renderVariantSelect();
  renderOptions();
  els.variant.addEventListener("change", renderOptions);
  els.form.addEventListener("submit", createRoom);
  onLanguageChange(() => {
    renderVariantSelect();
    renderOptions();
    renderLive();
    renderFinished();
  });
  loadLists();
  setInterval(() => {
    if (!document.hidden) loadLists();
  }, REFRESH_MS);
}

main();
