/** pdf.js's parser, run in the engine's isolate (pdf/pdfjs.ts); the package ships no typings for it. */
declare module "pdfjs-dist/build/pdf.worker.mjs" {
  export const WorkerMessageHandler: unknown;
}
