export { Lingoscan, isTerminal, TERMINAL_STATUSES } from "./client.js";
export type {
  CostEstimate,
  DownloadedFile,
  ExportRef,
  ExportRequest,
  FileInput,
  Job,
  JobEvent,
  JobList,
  JobListQuery,
  JobStatus,
  ProcessOptions,
  ProjectExport,
  WaitOptions,
  WebhookCreated,
  WebhookCreateRequest,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookRotated,
} from "./client.js";
export { LingoscanError } from "./errors.js";
export type { ApiErrorCode, ClientErrorCode } from "./errors.js";
export type { TransportOptions } from "./transport.js";
export { verifyWebhook } from "./webhooks.js";
export type { VerifyWebhookOptions, WebhookEvent } from "./webhooks.js";
export type { components, operations, paths } from "./schema.js";
