/** A PDF transformation matrix [a, b, c, d, e, f]. */
export type Matrix = number[];

/** m × n: n applied first, then m (PDF's order for `cm` on the current transform). */
export function mul(m: Matrix, n: Matrix): Matrix {
  return [
    m[0]! * n[0]! + m[2]! * n[1]!,
    m[1]! * n[0]! + m[3]! * n[1]!,
    m[0]! * n[2]! + m[2]! * n[3]!,
    m[1]! * n[2]! + m[3]! * n[3]!,
    m[0]! * n[4]! + m[2]! * n[5]! + m[4]!,
    m[1]! * n[4]! + m[3]! * n[5]! + m[5]!,
  ];
}
