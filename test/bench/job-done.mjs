// Waits for a job's end on its event stream (`event: done`), until `deadline` (performance.now()
// milliseconds); returns early when the stream cannot be opened, and the caller then polls.
export async function jobDone(base, auth, id, deadline) {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), Math.max(0, deadline - performance.now()));
  try {
    const res = await fetch(`${base}/api/v1/jobs/${id}/events`, { headers: auth, signal: ctrl.signal });
    if (res.status !== 200 || !res.body) return;
    const decoder = new TextDecoder();
    let seen = "";
    for await (const chunk of res.body) {
      seen = (seen + decoder.decode(chunk, { stream: true })).slice(-4096);
      if (/^event: ?done$/m.test(seen)) break;
    }
    ctrl.abort();
  } catch {
    // Aborted at the deadline, or the stream broke: the caller polls.
  } finally {
    clearTimeout(timer);
  }
}
