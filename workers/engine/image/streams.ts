/** Runs `data` through a (de)compression stream, streaming output chunks to `sink`. */
export async function pipeThroughStream(
  data: Uint8Array | Iterable<Uint8Array>,
  transform: CompressionStream | DecompressionStream,
  sink: (chunk: Uint8Array) => void,
): Promise<void> {
  const parts = data instanceof Uint8Array ? [data] : data;
  const writer = transform.writable.getWriter();
  const writing = (async () => {
    for (const p of parts) await writer.write(p);
    await writer.close();
  })();
  // Surface write-side failures through the read side, without an unhandled rejection.
  writing.catch(() => {});
  const reader = transform.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    sink(value as Uint8Array);
  }
  await writing;
}

/** Concatenates chunks into one buffer starting at offset 0. */
export function concat(chunks: Uint8Array[]): Uint8Array {
  const total = chunks.reduce((n, c) => n + c.byteLength, 0);
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.byteLength;
  }
  return out;
}
