/**
 * Structural patches (see app/patches.py): a replay arrives as its first frame and, per
 * step, the few places that changed. Applying a patch copies only the objects on the
 * changed paths, so consecutive frames share everything else, and every frame is frozen:
 * a renderer that tried to modify one would throw instead of silently altering others.
 */

/** Freeze a value and everything inside it (once, for the first frame). */
export function deepFreeze(value) {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze(value[key]);
  }
  return value;
}

/**
 * `doc` with the operations applied (`[path, value]` sets, `[path]` removes); `doc` is
 * left as it was.
 * @param {any} doc a frozen frame
 * @param {Array<[Array<string|number>, any?]>} ops
 */
export function applyPatch(doc, ops) {
  const copied = new Set();
  const fresh = (value) => {
    if (copied.has(value)) return value;
    const copy = Array.isArray(value) ? value.slice() : { ...value };
    copied.add(copy);
    return copy;
  };
  let root = doc;
  for (const op of ops) {
    const path = op[0];
    if (path.length === 0) {
      root = deepFreeze(op[1]);
      copied.clear();
      continue;
    }
    root = fresh(root);
    let node = root;
    for (let i = 0; i < path.length - 1; i++) {
      const child = fresh(node[path[i]]);
      node[path[i]] = child;
      node = child;
    }
    const last = path[path.length - 1];
    if (op.length > 1) node[last] = deepFreeze(op[1]);
    else delete node[last];
  }
  for (const value of copied) Object.freeze(value);
  return root;
}

/** Frames on demand from a start frame and one patch per step, each built once. */
export class PatchedFrames {
  constructor(start, patches) {
    this.frames = [deepFreeze(start)];
    this.patches = patches;
  }

  get length() {
    return this.patches.length + 1;
  }

  /** Frame `k` (0 is the start), built from the nearest one already built. */
  at(k) {
    while (this.frames.length <= k) {
      const i = this.frames.length;
      this.frames.push(applyPatch(this.frames[i - 1], this.patches[i - 1]));
    }
    return this.frames[k];
  }
}
