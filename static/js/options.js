/**
 * A room's options in words ("Event variant: on", "Mode: Standard", "Red's spell:
 * Switch"), for the room's header and its seat list; and which options apply given the
 * others (the Team Edition's spells only outside its introductory mode), which the
 * lobby's form follows too.
 */

import { addTranslations, t } from "./i18n.js";

addTranslations({
  en: { "option.dealt": "{value} (dealt at random)", "option.value": "{label}: {value}", "option.on": "on", "option.off": "off", "option.none": "No options", "room.options": "Options",
    "option.held": "{value} ({owner})" },
  fr: { "option.dealt": "{value} (tiré au hasard)", "option.value": "{label} : {value}", "option.on": "oui", "option.off": "non", "option.none": "Sans option", "room.options": "Options",
    "option.held": "{value} ({owner})" },
  de: { "option.dealt": "{value} (zufällig)", "option.value": "{label}: {value}", "option.on": "an", "option.off": "aus", "option.none": "Keine Optionen", "room.options": "Optionen",
    "option.held": "{value} ({owner})" },
});

/** Whether `opt` applies given the option `values` (an option without `when` always does). */
export function applies(opt, values) {
  return !opt.when || opt.when(values || {});
}

/** The value of `opt` in `values` (its default when left out). */
function valueOf(opt, values) {
  return values && opt.key in values && values[opt.key] !== undefined ? values[opt.key] : opt.default;
}

/**
 * The values of `opt` that another option of its `unique` group holds, given `values`: a
 * Map from the value to the option holding it (Yellow's spell list: Switch is Red's). The
 * group's default (a spell dealt at random) is everyone's. Options that do not apply
 * count too: the server checks them all.
 */
export function heldElsewhere(variant, values, opt) {
  const held = new Map();
  if (!opt.unique) return held;
  for (const other of variant.options || []) {
    if (other === opt || other.unique !== opt.unique) continue;
    const value = valueOf(other, values);
    if (value !== other.default && !held.has(value)) held.set(value, other);
  }
  return held;
}

/**
 * The entries of a choice option's list, each `{value, text, disabled}`: a value another
 * option of its group holds is disabled, and says whose it is, briefly ("Switch (red)" in
 * Yellow's list: a select is as wide as its longest entry, and a phone has no room).
 */
export function choiceEntries(variant, values, opt) {
  const held = heldElsewhere(variant, values, opt);
  return (opt.choices || []).map((ch) => {
    const owner = held.get(ch.value);
    if (!owner) return { value: ch.value, text: t(ch.label), disabled: false };
    const name = owner.color ? t(`team.color.${owner.color}`) : t(owner.label);
    return { value: ch.value, text: t("option.held", { value: t(ch.label), owner: name }), disabled: true };
  });
}

/** The `unique` group two options of which hold the same value in `values` (null: none). */
export function clashingGroup(variant, values) {
  for (const opt of variant.options || []) {
    const value = valueOf(opt, values);
    if (opt.unique && value !== opt.default && heldElsewhere(variant, values, opt).has(value)) return opt.unique;
  }
  return null;
}

/**
 * Words for the server's refusal of the options `values` (`bad_options`): in the page's
 * language, naming the rule when two options of a group clash ("Each spell exists only
 * once…"), the server's own words being English.
 */
export function refusedOptionsText(variant, values) {
  const group = clashingGroup(variant, values);
  return t(group ? `error.bad_options.same_${group}` : "error.bad_options");
}

/**
 * The options of `variant` set to `values`, each as `{key, text}`: only those that apply,
 * each value in words. With `colors` (the seats' colours once a game is dealt), an option
 * of one colour (a Team seat's spell) is told only when a seat plays that colour. With
 * `dealt` (what a game dealt for options left to chance, by key), a "random" option says
 * what it became: "Red's spell: Teleport (dealt at random)".
 * @param {{options: object[]}} variant
 * @param {Record<string, any>} values
 * @param {Set<string>|null} [colors]
 * @param {Record<string, any>|null} [dealt]
 */
export function optionWords(variant, values, colors = null, dealt = null) {
  const out = [];
  const given = values || {};
  // An option left out has its default, and whether another applies depends on it (a
  // Team room without `mode` is introductory: no spells).
  const effective = {};
  for (const opt of variant.options || []) effective[opt.key] = opt.key in given ? given[opt.key] : opt.default;
  for (const opt of variant.options || []) {
    if (!applies(opt, effective) || (colors && opt.color && !colors.has(opt.color))) continue;
    const value = opt.key in given ? given[opt.key] : opt.default;
    let shown;
    if (opt.type === "boolean") shown = t(value ? "option.on" : "option.off");
    else {
      const choice = (opt.choices || []).find((c) => c.value === value);
      shown = choice ? t(choice.label) : String(value);
      const became = value === "random" && dealt ? (opt.choices || []).find((c) => c.value === dealt[opt.key]) : null;
      if (became) shown = t("option.dealt", { value: t(became.label) });
    }
    out.push({ key: opt.key, text: t("option.value", { label: t(opt.label), value: shown }) });
  }
  return out;
}
