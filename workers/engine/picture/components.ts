/**
 * Connected components of a binary mask (two-pass labelling with union-find). Labels start at 1;
 * 0 is background. `eight` joins diagonal neighbours too.
 */
export interface Components {
  labels: Int32Array;
  count: number;
  area: Uint32Array;
  x0: Uint32Array;
  y0: Uint32Array;
  x1: Uint32Array;
  y1: Uint32Array;
}

function find(parent: Int32Array, a: number): number {
  while (parent[a] !== a) {
    parent[a] = parent[parent[a]!]!;
    a = parent[a]!;
  }
  return a;
}

/** Labels the set pixels of `mask` (width × height). */
export function labelComponents(mask: Uint8Array, width: number, height: number, eight: boolean): Components {
  const labels = new Int32Array(width * height);
  // Provisional labels: at most one a pixel; union-find over them.
  let parent = new Int32Array(1024);
  let next = 1;
  // Neighbours already visited: left, up (and the two upper diagonals with `eight`).
  const offsets = eight ? [-1, -width - 1, -width, -width + 1] : [-1, -width];
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const i = row + x;
      if (!mask[i]) continue;
      let l = 0;
      for (let o = 0; o < offsets.length; o++) {
        const d = offsets[o]!;
        // Left neighbours need x > 0, upper ones y > 0, upper-right x < width - 1.
        if ((d === -1 || d === -width - 1) && x === 0) continue;
        if (d !== -1 && y === 0) continue;
        if (d === -width + 1 && x === width - 1) continue;
        const m = labels[i + d]!;
        if (!m) continue;
        if (!l) l = m;
        else if (m !== l) {
          const ra = find(parent, l);
          const rb = find(parent, m);
          if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
      }
      if (!l) {
        if (next >= parent.length) {
          const grown = new Int32Array(parent.length * 2);
          grown.set(parent);
          parent = grown;
        }
        parent[next] = next;
        l = next++;
      }
      labels[i] = l;
    }
  }
  // Final labels numbered densely from 1.
  const dense = new Int32Array(next);
  let count = 0;
  for (let l = 1; l < next; l++) {
    const r = find(parent, l);
    dense[l] = r === l ? ++count : dense[r]!;
  }
  const area = new Uint32Array(count + 1);
  const x0 = new Uint32Array(count + 1).fill(width);
  const y0 = new Uint32Array(count + 1).fill(height);
  const x1 = new Uint32Array(count + 1);
  const y1 = new Uint32Array(count + 1);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const p = labels[i]!;
      if (!p) continue;
      const l = dense[p]!;
      labels[i] = l;
      area[l]!++;
      if (x < x0[l]!) x0[l] = x;
      if (x + 1 > x1[l]!) x1[l] = x + 1;
      if (y < y0[l]!) y0[l] = y;
      if (y + 1 > y1[l]!) y1[l] = y + 1;
    }
  }
  return { labels, count, area, x0, y0, x1, y1 };
}
