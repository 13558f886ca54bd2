/**
 * What every game UI does with the socket, whatever the game: send one action at a time,
 * unlock on a refusal, ask for the legal list again when it is missing. Each variant's UI
 * extends this and supplies `isMyTurn()`, `render()` and its own `legal` handling.
 */

export class GameUI {
  /** Ask for the legal actions again if they are still missing. */
  retryLegal() {
    if (this.isMyTurn() && this.legal === null) this.ctx.requestLegal();
  }

  /** A refused action: unlock the controls. */
  refused() {
    this.clearPending();
    this.render({});
  }

  clearPending() {
    this.pending = false;
    clearTimeout(this.pendingTimer);
  }

  /** Send an action once; further clicks wait for the answer (or 5 s, if none comes). */
  act(action) {
    if (this.pending || !this.isMyTurn()) return;
    if (!this.ctx.sendAction(action)) return;
    this.pending = true;
    clearTimeout(this.pendingTimer);
    this.pendingTimer = setTimeout(() => {
      this.pending = false;
      this.render({});
    }, 5000);
    this.render({});
  }
}
