/**
 * Plural categories through `Intl.PluralRules`, one rule object per language (building
 * one costs far more than asking it). `t()` in i18n.js picks `key.one`, `key.few`, ...
 * with it, so "1 card" and "2 cards" both read right in every language, French's
 * "0 carte" and "1,5" included.
 */

const rules = new Map();

/** The CLDR plural category (`one`, `few`, `many`, `other`...) of `n` in `lang`. */
export function pluralCategory(lang, n) {
  let rule = rules.get(lang);
  if (!rule) {
    try {
      rule = new Intl.PluralRules(lang);
    } catch {
      rule = { select: (x) => (x === 1 ? "one" : "other") };
    }
    rules.set(lang, rule);
  }
  return rule.select(n);
}
