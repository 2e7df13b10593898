// Benchmark driver Worker: forwards JSON calls to the engine's RPC methods and moves R2 objects,
// so a Node script can drive the engine under `wrangler dev` (see ocr-harness.mjs).
export default {
  async fetch(req, env) {
    const url = new URL(req.url);
    const bucket = url.searchParams.get("bucket") === "MODELS" ? env.MODELS : env.FILES;
    const key = url.searchParams.get("key");
    if (url.pathname === "/put" && key) {
      await bucket.put(key, await req.arrayBuffer());
      return Response.json({ ok: true });
    }
    if (url.pathname === "/get" && key) {
      const obj = await bucket.get(key);
      return obj ? new Response(obj.body) : new Response("not found", { status: 404 });
    }
    const { method, input } = await req.json();
    try {
      return Response.json({ ok: true, result: await env.ENGINE[method](input) });
    } catch (err) {
      return Response.json({ ok: false, error: String((err && err.message) || err) });
    }
  },
};
