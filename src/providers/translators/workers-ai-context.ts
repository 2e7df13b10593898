import { isPermanentAiFailure } from "./workers-ai";
import { mapLimit } from "../../lib/concurrency";
import { ProviderError } from "./translator";

/** The instruction model of the context pass. */
export const INSTRUCT_MODEL = "@cf/meta/llama-3.1-8b-instruct";

export interface ContextSegment {
  id: string;
  source: string;
  translation: string;
  /** Text the pass must not touch in this translation (glossary targets put there on purpose). */
  locked?: string[];
}

export interface ContextPassRequest {
  source: string;
  target: string;
  segments: ContextSegment[];
  glossary: { source: string; target: string }[];
  /** Free text about the document (what it is, who speaks), passed to the model as is. */
  context?: string;
}

/** A replacement the model proposed and the pass accepted. */
export interface ContextEdit {
  id: string;
  from: string;
  to: string;
}

export interface ContextPassResult {
  /** Every input segment, with its translation after the accepted edits. */
  segments: { id: string; translation: string }[];
  applied: ContextEdit[];
  /** Proposals refused by the constraints (unknown rendering, locked text, not found, …). */
  rejected: number;
}

export interface ContextPassOptions {
  model?: string;
  /** Segments per model call; a page with more is sent in several calls. */
  maxSegmentsPerCall?: number;
  /** Characters of source + translation per model call. */
  maxCharsPerCall?: number;
  timeoutMs?: number;
  concurrency?: number;
  retries?: number;
  retryDelayMs?: number;
}

type AiRun = (model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }) => Promise<unknown>;

const MAX_EDIT_CHARS = 80;

const SYSTEM_PROMPT = `You review the machine translation of one page for consistency.
You get the source language, the target language, a glossary and the page's segments, each with its source text and its translation.
Find names and terms that the translation renders in different ways on this page, or glossary terms whose target is missing, and propose replacements.
Rules:
- "from" must be copied exactly from that segment's translation.
- "to" must be a glossary target, or a rendering that already appears in another segment's translation, or a name exactly as written in a source text.
- Change only names and terms: never rephrase, never correct grammar, never translate anew.
- When everything is consistent, answer {"edits": []}.
Answer with JSON only: {"edits": [{"id": "<segment id>", "from": "<text in its translation>", "to": "<replacement>"}]}`;

const RESPONSE_SCHEMA = {
  type: "object",
  properties: {
    edits: {
      type: "array",
      items: {
        type: "object",
        properties: { id: { type: "string" }, from: { type: "string" }, to: { type: "string" } },
        required: ["id", "from", "to"],
      },
    },
  },
  required: ["edits"],
};

const WORD = "[\\p{L}\\p{N}_]";
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const wordRe = (s: string, flags = "gu") => new RegExp(`(?<!${WORD})${escapeRegExp(s)}(?!${WORD})`, flags);

/**
 * The context-aware step of production translation: an instruction model (Workers AI, default
 * `@cf/meta/llama-3.1-8b-instruct`) reads a page's segments with their translations and the
 * glossary, and proposes term-level replacements so that names and terms read the same way
 * everywhere on the page.
 *
 * An 8B model rewriting text freely would hallucinate, so it never writes the translation: it may
 * only **choose** among renderings that already exist. An edit is applied only when `from` occurs
 * (as whole words) in that segment's translation, does not touch a locked glossary target, is at
 * most 80 characters, and `to` is a glossary target, a rendering already present in another
 * segment's translation, or a name exactly as written in a source segment. Everything else is
 * dropped and counted in `rejected`. A failing call throws `ProviderError` (provider_unavailable);
 * callers keep the translations they had.
 */
export class WorkersAiContextPass {
  private readonly ai: Ai;
  private readonly opts: Required<ContextPassOptions>;

  constructor(ai: Ai, options: ContextPassOptions = {}) {
    this.ai = ai;
    this.opts = {
      model: options.model ?? INSTRUCT_MODEL,
      maxSegmentsPerCall: options.maxSegmentsPerCall ?? 40,
      maxCharsPerCall: options.maxCharsPerCall ?? 6000,
      timeoutMs: options.timeoutMs ?? 30_000,
      concurrency: options.concurrency ?? 2,
      retries: options.retries ?? 1,
      retryDelayMs: options.retryDelayMs ?? 250,
    };
  }

  async refine(req: ContextPassRequest): Promise<ContextPassResult> {
    const current = new Map(req.segments.map((s) => [s.id, s.translation]));
    if (req.segments.length < 2 && req.glossary.length === 0) {
      return { segments: req.segments.map((s) => ({ id: s.id, translation: s.translation })), applied: [], rejected: 0 };
    }
    const proposals = (await mapLimit(this.batches(req.segments), this.opts.concurrency, (batch) => this.call(req, batch))).flat();

    // Renderings the model may choose among, fixed before any edit (no chained inventions).
    const glossaryTargets = new Set(req.glossary.map((g) => g.target));
    const applied: ContextEdit[] = [];
    let rejected = 0;
    for (const edit of proposals) {
      const seg = req.segments.find((s) => s.id === edit.id);
      const text = current.get(edit.id);
      if (!seg || text === undefined || !this.acceptable(edit, seg, text, req.segments, glossaryTargets)) {
        rejected++;
        continue;
      }
      current.set(
        edit.id,
        text.replace(wordRe(edit.from), () => edit.to),
      );
      applied.push(edit);
    }
    return { segments: req.segments.map((s) => ({ id: s.id, translation: current.get(s.id) ?? s.translation })), applied, rejected };
  }

  private acceptable(
    edit: ContextEdit,
    seg: ContextSegment,
    text: string,
    all: readonly ContextSegment[],
    glossaryTargets: ReadonlySet<string>,
  ): boolean {
    const { from, to } = edit;
    if (!from.trim() || !to.trim() || from === to || from.length > MAX_EDIT_CHARS || to.length > MAX_EDIT_CHARS) return false;
    if (!wordRe(from, "u").test(text)) return false;
    const f = from.toLowerCase();
    if ((seg.locked ?? []).some((l) => l.toLowerCase().includes(f) || f.includes(l.toLowerCase()))) return false;
    if (glossaryTargets.has(to)) return true;
    const elsewhere = all.some((o) => (o.id !== seg.id && wordRe(to, "u").test(o.translation)) || wordRe(to, "u").test(o.source));
    return elsewhere;
  }

  /** Consecutive segments in calls of at most maxSegmentsPerCall segments and maxCharsPerCall characters. */
  private batches(segments: readonly ContextSegment[]): ContextSegment[][] {
    const out: ContextSegment[][] = [];
    let batch: ContextSegment[] = [];
    let chars = 0;
    for (const s of segments) {
      const size = s.source.length + s.translation.length;
      if (batch.length > 0 && (batch.length >= this.opts.maxSegmentsPerCall || chars + size > this.opts.maxCharsPerCall)) {
        out.push(batch);
        batch = [];
        chars = 0;
      }
      batch.push(s);
      chars += size;
    }
    if (batch.length) out.push(batch);
    return out;
  }

  private async call(req: ContextPassRequest, batch: ContextSegment[]): Promise<ContextEdit[]> {
    const glossary = req.glossary.filter((g) => batch.some((s) => s.source.toLowerCase().includes(g.source.toLowerCase())));
    const user = JSON.stringify({
      source_language: req.source,
      target_language: req.target,
      ...(req.context ? { context: req.context } : {}),
      glossary,
      segments: batch.map((s) => ({ id: s.id, source: s.source, translation: s.translation })),
    });
    const inputs = {
      messages: [
        { role: "system", content: SYSTEM_PROMPT },
        { role: "user", content: user },
      ],
      response_format: { type: "json_schema", json_schema: RESPONSE_SCHEMA },
      temperature: 0,
      max_tokens: 1024,
    };
    for (let attempt = 0; ; attempt++) {
      try {
        return parseEdits(await this.run(inputs));
      } catch (err) {
        if (!(err instanceof ProviderError) || !err.retryable || attempt >= this.opts.retries) throw err;
        await new Promise((resolve) => setTimeout(resolve, this.opts.retryDelayMs * 2 ** attempt));
      }
    }
  }

  private async run(inputs: Record<string, unknown>): Promise<unknown> {
    const run = this.ai.run.bind(this.ai) as unknown as AiRun;
    try {
      return await run(this.opts.model, inputs, { signal: AbortSignal.timeout(this.opts.timeoutMs) });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new ProviderError("provider_unavailable", `Workers AI ${this.opts.model} failed: ${message}`, {
        provider: "workers-ai",
        retryable: !isPermanentAiFailure(message),
        cause: err,
      });
    }
  }
}

/** Edits from the model's answer: `response` as an object (JSON mode) or as JSON text. */
function parseEdits(result: unknown): ContextEdit[] {
  let response = (result as { response?: unknown } | null)?.response;
  if (typeof response === "string") {
    const json = /\{[\s\S]*\}/.exec(response)?.[0];
    try {
      response = json ? JSON.parse(json) : undefined;
    } catch {
      response = undefined;
    }
  }
  const edits = (response as { edits?: unknown } | undefined)?.edits;
  if (!Array.isArray(edits)) {
    throw new ProviderError("provider_unavailable", `Workers AI ${INSTRUCT_MODEL} answered without an edits list`, {
      provider: "workers-ai",
      retryable: true,
    });
  }
  return edits.filter(
    (e): e is ContextEdit =>
      !!e && typeof e === "object" && typeof e.id === "string" && typeof e.from === "string" && typeof e.to === "string",
  );
}
