/**
 * The "import a game record" form, shared by the lobby and the replay page: the file is
 * sent as it is to `POST /api/games/import`; the server re-plays it and either stores it
 * (we go to its replay) or names the first illegal action (shown under the form).
 */

import { ApiError, request } from "./api.js";
import { onLanguageChange, t } from "./i18n.js";

const MAX_BYTES = 4 * 1024 * 1024;

/**
 * Why the server refused the record, in the page's language: by its `reason` (ext), the
 * server's English words kept only as the detail of a malformed file. An unknown reason
 * shows the server's message as it is.
 * @param {ApiError} err
 */
function refusal(err) {
  const { reason, seq } = err.detail || {};
  const key = `import.reason.${reason}`;
  const said = reason ? t(key, { seq: seq ?? "?", message: err.message }) : key;
  return said !== key ? said : t("replay.import_refused", { message: err.message });
}

/**
 * @param {HTMLFormElement} form
 * @param {HTMLInputElement} fileInput
 * @param {HTMLElement} errorEl
 */
export function setupImport(form, fileInput, errorEl) {
  // The chosen file's name, where the browser's own control would say it in its language.
  const nameEl = form.querySelector("[data-testid=import-file-name]");
  const showName = () => {
    const file = fileInput.files && fileInput.files[0];
    if (!nameEl) return;
    if (file) nameEl.removeAttribute("data-i18n");  // a name is no text to translate
    else nameEl.setAttribute("data-i18n", "replay.import_no_file");
    nameEl.textContent = file ? file.name : t("replay.import_no_file");
    nameEl.classList.toggle("muted", !file);
  };
  fileInput.addEventListener("change", showName);
  onLanguageChange(showName);
  showName();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    errorEl.textContent = "";
    const file = fileInput.files && fileInput.files[0];
    if (!file) {
      errorEl.textContent = t("replay.import_none");
      return;
    }
    if (file.size > MAX_BYTES) {
      errorEl.textContent = t("replay.import_too_big");
      return;
    }
    let record;
    try {
      record = JSON.parse(await file.text());
    } catch {
      errorEl.textContent = t("replay.import_not_json");
      return;
    }
    const button = form.querySelector("button[type=submit]");
    if (button) button.disabled = true;
    try {
      const res = await request("POST", "/api/games/import", { body: record });
      location.assign(res.url || `/replay/${encodeURIComponent(res.id)}`);
    } catch (err) {
      errorEl.textContent = err instanceof ApiError && err.status ? refusal(err) : t("error.network");
      if (button) button.disabled = false;
    }
  });
}
