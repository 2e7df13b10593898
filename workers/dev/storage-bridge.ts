// Local development only: the engine processes reach the api process's R2 buckets over RPC instead
// of opening the local R2 store themselves (two workerd processes writing one Miniflare store fail
// with SQLITE_BUSY). The api process serves `storageCalls`; each engine process wraps them back
// into the part of the R2Bucket interface the engine uses (get, head, put, list, delete).
// Bodies cross as streams: Workers RPC refuses arguments and results over 32 MiB, and uploads
// (up to 50 MiB), source pages and exports of long documents are larger than that.

/** The buckets the engine binds; the same names as in both Workers' configs. */
export type BucketName = "FILES" | "MODELS";

/** An object's metadata as it crosses the process boundary (plain data, structured-cloneable). */
export interface StoredMeta {
  key: string;
  version: string;
  size: number;
  etag: string;
  httpEtag: string;
  uploaded: number;
  httpMetadata?: R2HTTPMetadata;
  customMetadata?: Record<string, string>;
}

export interface StoredList {
  objects: StoredMeta[];
  truncated: boolean;
  cursor?: string;
  delimitedPrefixes: string[];
}

export interface PutOptions {
  httpMetadata?: R2HTTPMetadata;
  customMetadata?: Record<string, string>;
}

/** The calls the api process answers for the engine processes; bodies are byte streams, never buffers. */
export interface StorageCalls {
  get(bucket: BucketName, key: string): Promise<(StoredMeta & { body: ReadableStream<Uint8Array> }) | null>;
  head(bucket: BucketName, key: string): Promise<StoredMeta | null>;
  /** `size` is the body's length in bytes: R2 stores only streams of a known length. */
  put(bucket: BucketName, key: string, body: ReadableStream<Uint8Array>, size: number, options?: PutOptions): Promise<StoredMeta>;
  list(bucket: BucketName, options?: R2ListOptions): Promise<StoredList>;
  delete(bucket: BucketName, keys: string | string[]): Promise<void>;
}

function metaOf(o: R2Object): StoredMeta {
  return {
    key: o.key,
    version: o.version,
    size: o.size,
    etag: o.etag,
    httpEtag: o.httpEtag,
    uploaded: o.uploaded.getTime(),
    httpMetadata: o.httpMetadata,
    customMetadata: o.customMetadata,
  };
}

/** Serves the storage calls from real R2 bindings (in the api process, which owns the local store). */
export function storageCalls(buckets: Record<BucketName, R2Bucket>): StorageCalls {
  return {
    async get(bucket, key) {
      const o = await buckets[bucket].get(key);
      return o ? { ...metaOf(o), body: o.body } : null;
    },
    async head(bucket, key) {
      const o = await buckets[bucket].head(key);
      return o ? metaOf(o) : null;
    },
    async put(bucket, key, body, size, options) {
      return metaOf(await buckets[bucket].put(key, body.pipeThrough(new FixedLengthStream(size)), options));
    },
    async list(bucket, options) {
      const l = await buckets[bucket].list(options);
      return {
        objects: l.objects.map(metaOf),
        truncated: l.truncated,
        cursor: l.truncated ? l.cursor : undefined,
        delimitedPrefixes: l.delimitedPrefixes,
      };
    },
    async delete(bucket, keys) {
      await buckets[bucket].delete(keys);
    },
  };
}

/** An object as `R2Bucket.head` gives it, rebuilt from its metadata. */
class RemoteObject {
  readonly key: string;
  readonly version: string;
  readonly size: number;
  readonly etag: string;
  readonly httpEtag: string;
  readonly uploaded: Date;
  readonly httpMetadata: R2HTTPMetadata;
  readonly customMetadata: Record<string, string>;
  readonly checksums: R2Checksums = { toJSON: () => ({}) };
  readonly storageClass = "Standard";

  constructor(meta: StoredMeta) {
    this.key = meta.key;
    this.version = meta.version;
    this.size = meta.size;
    this.etag = meta.etag;
    this.httpEtag = meta.httpEtag;
    this.uploaded = new Date(meta.uploaded);
    this.httpMetadata = meta.httpMetadata ?? {};
    this.customMetadata = meta.customMetadata ?? {};
  }

  writeHttpMetadata(headers: Headers): void {
    const m = this.httpMetadata;
    if (m.contentType) headers.set("content-type", m.contentType);
    if (m.contentLanguage) headers.set("content-language", m.contentLanguage);
    if (m.contentDisposition) headers.set("content-disposition", m.contentDisposition);
    if (m.contentEncoding) headers.set("content-encoding", m.contentEncoding);
    if (m.cacheControl) headers.set("cache-control", m.cacheControl);
  }
}

/** An object as `R2Bucket.get` gives it: metadata and its body as a stream, read once. */
class RemoteObjectBody extends RemoteObject {
  readonly #body: ReadableStream<Uint8Array>;

  constructor(meta: StoredMeta, body: ReadableStream<Uint8Array>) {
    super(meta);
    this.#body = body;
  }

  get body(): ReadableStream<Uint8Array> {
    return this.#body;
  }
  get bodyUsed(): boolean {
    return this.#body.locked;
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return new Response(this.#body).arrayBuffer();
  }
  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.arrayBuffer());
  }
  async text(): Promise<string> {
    return new TextDecoder().decode(await this.arrayBuffer());
  }
  async json<T>(): Promise<T> {
    return JSON.parse(await this.text()) as T;
  }
  async blob(): Promise<Blob> {
    return new Blob([await this.arrayBuffer()]);
  }
}

/** A body as `R2Bucket.put` takes it, as bytes (a view's own bytes only, never the rest of its buffer). */
async function bytesOf(value: ReadableStream | ArrayBuffer | ArrayBufferView | string | null | Blob): Promise<Uint8Array> {
  if (value === null) return new Uint8Array(0);
  if (typeof value === "string") return new TextEncoder().encode(value);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return new Uint8Array(await new Response(value).arrayBuffer());
}

/**
 * The R2Bucket the engine code sees in an engine process: get, head, put, list and delete go to
 * the api process; multipart uploads, which the engine never makes, are refused.
 */
export function remoteBucket(calls: StorageCalls, bucket: BucketName): R2Bucket {
  const unsupported = () => {
    throw new Error("Multipart uploads are not available through the local storage bridge.");
  };
  const remote = {
    async get(key: string) {
      const o = await calls.get(bucket, key);
      return o ? new RemoteObjectBody(o, o.body) : null;
    },
    async head(key: string) {
      const o = await calls.head(bucket, key);
      return o ? new RemoteObject(o) : null;
    },
    async put(key: string, value: Parameters<R2Bucket["put"]>[1], options?: R2PutOptions) {
      const httpMetadata = options?.httpMetadata instanceof Headers ? undefined : options?.httpMetadata;
      const bytes = await bytesOf(value);
      const body = new Blob([bytes]).stream();
      return new RemoteObject(
        await calls.put(bucket, key, body, bytes.byteLength, { httpMetadata, customMetadata: options?.customMetadata }),
      );
    },
    async list(options?: R2ListOptions) {
      const l = await calls.list(bucket, options);
      return { ...l, objects: l.objects.map((o) => new RemoteObject(o)) };
    },
    delete: (keys: string | string[]) => calls.delete(bucket, keys),
    createMultipartUpload: unsupported,
    resumeMultipartUpload: unsupported,
  };
  return remote as unknown as R2Bucket;
}
