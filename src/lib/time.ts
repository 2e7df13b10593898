/** A stored time (epoch milliseconds) as the API shows it: ISO 8601 in UTC; null stays null. */
export function iso(ms: number): string;
export function iso(ms: number | null): string | null;
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
