/**
 * Talking to the server: JSON over HTTP, and the room's WebSocket with automatic
 * reconnection (see docs/protocol.md).
 */

/** An HTTP error answer: `{"error": {"code", "message"}}` with a 4xx/5xx status. */
export class ApiError extends Error {
  /** `detail`: the answer's whole `error` object, with the fields some errors add (ext),
   * such as an import's `reason` and `seq`. */
  constructor(status, code, message, detail = {}) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code || "http_" + status;
    this.detail = detail;
  }
}

/**
 * Call a JSON endpoint.
 * @param {string} method
 * @param {string} path
 * @param {{body?: object, token?: string|null}} [opts]
 * @returns {Promise<any>} the decoded JSON body
 */
export async function request(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = "Bearer " + token;
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch (err) {
    throw new ApiError(0, "network", err && err.message);
  }
  return answerBody(await fetchAnswer(res));
}

/**
 * Read a response whole: `{status, ok, body}`, `body` the decoded JSON or null. The
 * replay page's head does the same before any module has loaded (templates/replay.html).
 * @param {Response} res
 */
export async function fetchAnswer(res) {
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  return { status: res.status, ok: res.ok, body };
}

/**
 * The body of a successful answer; an `ApiError` for an error answer.
 * @param {{status: number, ok: boolean, body: any}} answer
 */
export function answerBody({ status, ok, body }) {
  if (!ok) {
    const e = (body && body.error) || {};
    throw new ApiError(status, e.code, e.message, e);
  }
  return body;
}

export const api = {
  createRoom: (variant, options, clock = null) => request("POST", "/api/rooms", { body: { variant, options, clock } }),
  deviceLink: (code, token) => request("POST", `/api/rooms/${encodeURIComponent(code)}/device-link`, { token }),
  claim: (code, transfer) => request("POST", `/api/rooms/${encodeURIComponent(code)}/claim`, { body: { transfer } }),
  getRoom: (code) => request("GET", `/api/rooms/${encodeURIComponent(code)}`),
  join: (code, name) => request("POST", `/api/rooms/${encodeURIComponent(code)}/join`, { body: { name } }),
  start: (code, token) => request("POST", `/api/rooms/${encodeURIComponent(code)}/start`, { token }),
  games: (status, limit = 20) => request("GET", `/api/games?status=${encodeURIComponent(status)}&limit=${limit}`),
  game: (id) => request("GET", `/api/games/${encodeURIComponent(id)}`),
};

/** localStorage key of a room's seat token. */
export function tokenKey(code) {
  return `labyrinth:token:${code}`;
}

export function loadToken(code) {
  try {
    return localStorage.getItem(tokenKey(code));
  } catch {
    return null;
  }
}

export function saveToken(code, token) {
  try {
    if (token) localStorage.setItem(tokenKey(code), token);
    else localStorage.removeItem(tokenKey(code));
  } catch {
    /* storage unavailable: the seat lasts as long as the page */
  }
}

/** How long a connection may take to open before it is given up and tried again. */
const OPEN_TIMEOUT_MS = 8000;

/** How often an open connection asks the server for a sign of life (idle proxies keep it
 * open too), and how long it waits for one before taking the connection for dead. */
const PING_EVERY_MS = 20000;
const PONG_TIMEOUT_MS = 10000;

/**
 * The room's WebSocket. Sends `hello` on every (re)connection with the current token,
 * reconnects with exponential backoff when the connection drops, and pings now and then
 * so that idle proxies keep it open.
 *
 * Events (an EventTarget): `message` (detail: the decoded server message) and
 * `status` (detail: "connecting" | "online" | "offline" | "gone").
 */
export class RoomSocket extends EventTarget {
  /**
   * @param {string} code room code
   * @param {() => string|null} getToken the token to present in hello
   * @param {() => string|null} [getSeated] for a spectator's socket of a device that holds
   *   a seat: that seat's token, sent as hello's `seated` (not counted as a spectator)
   */
  constructor(code, getToken, getSeated = () => null) {
    super();
    this.getSeated = getSeated;
    this.code = code;
    this.getToken = getToken;
    this.ws = null;
    this.attempt = 0;
    this.retryTimer = null;
    this.openTimer = null;
    this.pingTimer = null;
    this.pongTimer = null;
    /** when the open connection was last heard from (any message, a pong included) */
    this.heard = 0;
    this.stopped = false;
    this.status = "connecting";
    // Hellos sent, and the `id` of the last: a welcome answers one by its `ref`.
    this.hellos = 0;
    this.lastHello = null;
    window.addEventListener("online", () => this.reconnectNow());
    // A network gone (the browser knows it) leaves an open socket silent, not closed: the
    // page kept "Connected" on a stale position, its moves queued in the socket. It is
    // dropped at once, and tried again until the network is back.
    window.addEventListener("offline", () => {
      if (this.ws) this.lost(this.ws);
    });
    // A page that comes back to the front (a phone's tab left for the night) checks its
    // connection at once rather than at the next ping.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && this.ws && this.ws.readyState === WebSocket.OPEN) this.beat(this.ws);
    });
  }

  get url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/${encodeURIComponent(this.code)}`;
  }

  connect() {
    this.stopped = false;
    clearTimeout(this.retryTimer);
    this.setStatus(this.attempt === 0 ? "connecting" : "offline");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    // A connection that neither opens nor fails (a network that drops what it sends, an
    // address the browser blocks) left the page "reconnecting…" for good: it is given up
    // after a while, and the next try scheduled.
    clearTimeout(this.openTimer);
    this.openTimer = setTimeout(() => {
      if (this.ws !== ws || ws.readyState === WebSocket.OPEN) return;
      this.ws = null;
      ws.close();
      if (!this.stopped) this.scheduleRetry();
    }, OPEN_TIMEOUT_MS);
    ws.addEventListener("open", () => {
      clearTimeout(this.openTimer);
      this.heard = Date.now();
      this.hello();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.beat(ws), PING_EVERY_MS);
    });
    ws.addEventListener("message", (ev) => {
      if (this.ws === ws) this.heard = Date.now();
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "welcome") {
        this.attempt = 0;
        this.setStatus("online");
        // The answer to an earlier hello than the last one sent (a page that joined says
        // hello again with its new token before the first answer came): its `seat: null`
        // is not news that the seat was freed. The last hello's answer follows.
        if (msg.ref !== undefined && msg.ref !== this.lastHello) return;
      }
      if (msg.type === "pong") return;
      this.dispatchEvent(new CustomEvent("message", { detail: msg }));
    });
    ws.addEventListener("close", (ev) => {
      if (this.ws !== ws) return;
      clearTimeout(this.openTimer);
      clearInterval(this.pingTimer);
      clearTimeout(this.pongTimer);
      this.ws = null;
      if (ev.code === 4404) {
        // The room does not exist: retrying cannot help.
        this.stopped = true;
        this.setStatus("gone");
        return;
      }
      if (!this.stopped) this.scheduleRetry();
    });
  }

  /**
   * Send hello with the current token (also used to re-sync after joining). Each state
   * then carries the seat's legal actions: no `legal` round trip at every turn.
   */
  hello() {
    this.hellos += 1;
    this.lastHello = `h${this.hellos}`;
    const hello = { type: "hello", token: this.getToken() || null, legal: true, id: this.lastHello };
    const seated = hello.token ? null : this.getSeated();
    if (seated) hello.seated = seated;
    return this.send(hello);
  }

  /**
   * Ask for a sign of life; none within `PONG_TIMEOUT_MS` (nothing at all heard since the
   * ping) and the connection is taken for dead. A socket over a network that vanished
   * (a laptop's Wi-Fi gone, a phone between cells) is not closed for minutes: the page
   * said "Connected" while the others played on and the computer played its turn.
   * @param {WebSocket} ws
   */
  beat(ws) {
    if (this.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
    const asked = Date.now();
    this.send({ type: "ping" });
    clearTimeout(this.pongTimer);
    this.pongTimer = setTimeout(() => {
      if (this.ws === ws && this.heard < asked) this.lost(ws);
    }, PONG_TIMEOUT_MS);
  }

  /** Give up a connection that no longer carries anything, and try again (the page is
   * told "reconnecting"; the next welcome resyncs it). */
  lost(ws) {
    if (this.ws !== ws) return;
    clearTimeout(this.openTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.ws = null;
    try {
      ws.close();
    } catch {
      /* already closing */
    }
    if (!this.stopped) this.scheduleRetry();
  }

  /** Send one message; false when the socket is not open. */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  scheduleRetry() {
    this.setStatus("offline");
    const delay = Math.min(10000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Skip the backoff wait (the browser says it is online again). */
  reconnectNow() {
    if (this.stopped || this.ws) return;
    this.attempt = 0;
    this.connect();
  }

  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.dispatchEvent(new CustomEvent("status", { detail: status }));
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
