/** The rules page: translated blocks, plus the treasure legend and event glyphs drawn from tiles.js. */
import { h } from "./dom.js";
import { initI18n, onLanguageChange, t } from "./i18n.js";
import { LEGEND, moveWords } from "./movelog.js";
import { renderCardPictures } from "./rules-cards-pictures.js";
import { renderPictures } from "./rules-pictures.js";
import { ensureSprite, eventIcon, TREASURES, treasureIcon, treasureName } from "./tiles.js";

function treasureList(names) {
  return h("ul", { class: "treasure-grid" },
    ...names.map((name) => h("li", { "data-treasure": name }, treasureIcon(name, 34), h("span", {}, treasureName(name)))));
}

function render() {
  const legend = document.getElementById("treasure-legend");
  if (legend) {
    legend.replaceChildren(
      h("h3", {}, t("rules.objects")), treasureList(TREASURES.slice(0, 12)),
      h("h3", {}, t("rules.creatures")), treasureList(TREASURES.slice(12)));
  }
  const pictures = document.getElementById("rules-pictures");
  if (pictures) (pictures.dataset.variant === "cards" ? renderCardPictures : renderPictures)(pictures);
  const notation = document.getElementById("notation-legend");
  if (notation) {
    // Each example in words through the very code the move log uses.
    const examples = LEGEND[notation.dataset.variant] || [];
    const sample = { variant: notation.dataset.variant, names: (seat) => ["Ann", "Bob", "Cid", "Dee"][seat] || `#${seat}` };
    notation.replaceChildren(
      h("h2", { id: "notation-title" }, t("legend.title")),
      h("p", {}, t("legend.intro")),
      h("table", { class: "legend-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("legend.notation")), h("th", { scope: "col" }, t("legend.meaning")))),
        h("tbody", {}, ...examples.map((code) => h("tr", { "data-notation": code },
          h("td", {}, h("code", {}, code)), h("td", {}, moveWords(code, sample) || code))))));
  }
  for (const slot of document.querySelectorAll(".event-glyph[data-event]")) {
    slot.replaceChildren(eventIcon(slot.dataset.event, 32));
  }
  renderContents();
}

/**
 * "On this page": a link to each section of the language shown, under the introduction. A
 * page of nine sections on a phone is some twenty screens: a player who came for the
 * event variant or the notation scrolled past everything else to find it.
 */
function renderContents() {
  const page = document.querySelector(".rules-page");
  if (!page) return;
  for (const old of page.querySelectorAll(".rules-toc")) old.remove();
  const shown = page.querySelector("[data-lang-block]:not([hidden])");
  const intro = shown && shown.querySelector("section");
  if (!intro) return;
  const headings = [...page.querySelectorAll("h2")].filter((el) => !el.closest("[hidden]"));
  for (const el of page.querySelectorAll("h2[data-toc]")) el.removeAttribute("id");
  const items = headings.map((el, i) => {
    // an id of the page's own (the legend's, for aria-labelledby) is kept
    if (!el.id) {
      el.id = `section-${i + 1}`;
      el.dataset.toc = "";
    }
    return h("li", {}, h("a", { href: `#${el.id}` }, el.textContent));
  });
  intro.after(h("nav", { class: "card rules-toc", "data-testid": "rules-toc", "aria-labelledby": "rules-toc-title" },
    h("h2", { id: "rules-toc-title" }, t("rules.on_this_page")),
    h("ol", {}, ...items)));
}

initI18n();
ensureSprite();
render();
onLanguageChange(render);
// A link to a section (`/rules/classic#section-5`) arrived before its id was given.
if (location.hash) {
  const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target) target.scrollIntoView();
}
