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
}

initI18n();
ensureSprite();
render();
onLanguageChange(render);
