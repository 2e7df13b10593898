export default {
  async fetch(req: Request, env: Env): Promise<Response> {
    return Response.json(await env.ENGINE.ping());
  },
} satisfies ExportedHandler<Env>;
