/**
 * The words a refusal is shown in, one way for every page (the room, the lobby's forms):
 * the code's own sentence in the page's language; for a name or a chat line that breaks
 * the text rule, the rule it broke (`reason`, ext: a 14-character name was told "Names are
 * 1 to 32 characters" whatever it broke); else the server's English.
 */
import { ApiError } from "./api.js";
import { t } from "./i18n.js";

/** `reason`: the text rule's word when the answer carries one (an error frame's `reason`,
 * an HTTP error's `detail.reason`). */
export function errorWords(code, message, reason = null) {
  if (reason && (code === "bad_name" || code === "bad_message")) {
    const key = `error.${code === "bad_name" ? "name" : "chat"}.${reason}`;
    if (t(key) !== key) return t(key);
  }
  const key = "error." + code;
  const known = t(key);
  if (known === key) return message || t("error.generic");
  if ((code === "illegal" || code === "bad_message") && message) return `${known}: ${message}`;
  return known;
}

/** A failed call's words: the server's refusal (`ApiError`) as above, anything else (no
 * answer at all) a network error. */
export function apiErrorWords(err) {
  if (!(err instanceof ApiError) || !err.status) return t("error.network");
  return errorWords(err.code, err.message, err.detail && err.detail.reason);
}
