import { relations } from "drizzle-orm";
import { glossaries, glossaryTerms, idempotencyKeys, translationMemory, webhookDeliveries, webhookEndpoints } from "./account";
import { apiKeys, authTokens, oauthIdentities, sessions, users } from "./auth";
import { ledgerEntries, paymentEvents, payments, subscriptions, usageDaily, wallets } from "./billing";
import { jobEvents, jobPages, jobs } from "./jobs";
import { exportFiles, folders, pages, projects, regions, shares, tableCells, tables } from "./projects";

/** Relations for drizzle's relational queries (`db.query.projects.findFirst({ with: { pages: true } })`). */

export const usersRelations = relations(users, ({ one, many }) => ({
  wallet: one(wallets, { fields: [users.id], references: [wallets.userId] }),
  oauthIdentities: many(oauthIdentities),
  sessions: many(sessions),
  authTokens: many(authTokens),
  apiKeys: many(apiKeys),
  folders: many(folders),
  projects: many(projects),
  jobs: many(jobs),
  exports: many(exportFiles),
  shares: many(shares),
  ledgerEntries: many(ledgerEntries),
  payments: many(payments),
  subscriptions: many(subscriptions),
  usageDaily: many(usageDaily),
  webhookEndpoints: many(webhookEndpoints),
  glossaries: many(glossaries),
  translationMemory: many(translationMemory),
  idempotencyKeys: many(idempotencyKeys),
}));

export const oauthIdentitiesRelations = relations(oauthIdentities, ({ one }) => ({
  user: one(users, { fields: [oauthIdentities.userId], references: [users.id] }),
}));

export const sessionsRelations = relations(sessions, ({ one }) => ({
  user: one(users, { fields: [sessions.userId], references: [users.id] }),
}));

export const authTokensRelations = relations(authTokens, ({ one }) => ({
  user: one(users, { fields: [authTokens.userId], references: [users.id] }),
}));

export const apiKeysRelations = relations(apiKeys, ({ one, many }) => ({
  user: one(users, { fields: [apiKeys.userId], references: [users.id] }),
  jobs: many(jobs),
}));

export const foldersRelations = relations(folders, ({ one, many }) => ({
  user: one(users, { fields: [folders.userId], references: [users.id] }),
  projects: many(projects),
}));

export const projectsRelations = relations(projects, ({ one, many }) => ({
  user: one(users, { fields: [projects.userId], references: [users.id] }),
  folder: one(folders, { fields: [projects.folderId], references: [folders.id] }),
  sourceJob: one(jobs, { fields: [projects.sourceJobId], references: [jobs.id], relationName: "project_source_job" }),
  pages: many(pages),
  regions: many(regions),
  tables: many(tables),
  jobs: many(jobs, { relationName: "job_project" }),
  exports: many(exportFiles),
  shares: many(shares),
}));

export const pagesRelations = relations(pages, ({ one, many }) => ({
  project: one(projects, { fields: [pages.projectId], references: [projects.id] }),
  regions: many(regions),
  tables: many(tables),
  jobPages: many(jobPages),
}));

export const regionsRelations = relations(regions, ({ one }) => ({
  project: one(projects, { fields: [regions.projectId], references: [projects.id] }),
  page: one(pages, { fields: [regions.pageId], references: [pages.id] }),
}));

export const tablesRelations = relations(tables, ({ one, many }) => ({
  project: one(projects, { fields: [tables.projectId], references: [projects.id] }),
  page: one(pages, { fields: [tables.pageId], references: [pages.id] }),
  cells: many(tableCells),
}));

export const tableCellsRelations = relations(tableCells, ({ one }) => ({
  table: one(tables, { fields: [tableCells.tableId], references: [tables.id] }),
}));

export const exportFilesRelations = relations(exportFiles, ({ one }) => ({
  user: one(users, { fields: [exportFiles.userId], references: [users.id] }),
  project: one(projects, { fields: [exportFiles.projectId], references: [projects.id] }),
  job: one(jobs, { fields: [exportFiles.jobId], references: [jobs.id] }),
}));

export const sharesRelations = relations(shares, ({ one }) => ({
  user: one(users, { fields: [shares.userId], references: [users.id] }),
  project: one(projects, { fields: [shares.projectId], references: [projects.id] }),
}));

export const jobsRelations = relations(jobs, ({ one, many }) => ({
  user: one(users, { fields: [jobs.userId], references: [users.id] }),
  project: one(projects, { fields: [jobs.projectId], references: [projects.id], relationName: "job_project" }),
  createdProjects: many(projects, { relationName: "project_source_job" }),
  parent: one(jobs, { fields: [jobs.parentJobId], references: [jobs.id], relationName: "job_children" }),
  children: many(jobs, { relationName: "job_children" }),
  apiKey: one(apiKeys, { fields: [jobs.apiKeyId], references: [apiKeys.id] }),
  pages: many(jobPages),
  events: many(jobEvents),
  exports: many(exportFiles),
  ledgerEntries: many(ledgerEntries),
}));

export const jobPagesRelations = relations(jobPages, ({ one }) => ({
  job: one(jobs, { fields: [jobPages.jobId], references: [jobs.id] }),
  page: one(pages, { fields: [jobPages.pageId], references: [pages.id] }),
}));

export const jobEventsRelations = relations(jobEvents, ({ one }) => ({
  job: one(jobs, { fields: [jobEvents.jobId], references: [jobs.id] }),
}));

export const walletsRelations = relations(wallets, ({ one }) => ({
  user: one(users, { fields: [wallets.userId], references: [users.id] }),
}));

export const ledgerEntriesRelations = relations(ledgerEntries, ({ one }) => ({
  user: one(users, { fields: [ledgerEntries.userId], references: [users.id] }),
  job: one(jobs, { fields: [ledgerEntries.jobId], references: [jobs.id] }),
  payment: one(payments, { fields: [ledgerEntries.paymentId], references: [payments.id] }),
}));

export const paymentsRelations = relations(payments, ({ one, many }) => ({
  user: one(users, { fields: [payments.userId], references: [users.id] }),
  ledgerEntries: many(ledgerEntries),
  events: many(paymentEvents),
}));

export const paymentEventsRelations = relations(paymentEvents, ({ one }) => ({
  payment: one(payments, { fields: [paymentEvents.paymentId], references: [payments.id] }),
}));

export const subscriptionsRelations = relations(subscriptions, ({ one }) => ({
  user: one(users, { fields: [subscriptions.userId], references: [users.id] }),
}));

export const usageDailyRelations = relations(usageDaily, ({ one }) => ({
  user: one(users, { fields: [usageDaily.userId], references: [users.id] }),
}));

export const webhookEndpointsRelations = relations(webhookEndpoints, ({ one, many }) => ({
  user: one(users, { fields: [webhookEndpoints.userId], references: [users.id] }),
  deliveries: many(webhookDeliveries),
}));

export const webhookDeliveriesRelations = relations(webhookDeliveries, ({ one }) => ({
  endpoint: one(webhookEndpoints, { fields: [webhookDeliveries.endpointId], references: [webhookEndpoints.id] }),
  user: one(users, { fields: [webhookDeliveries.userId], references: [users.id] }),
}));

export const glossariesRelations = relations(glossaries, ({ one, many }) => ({
  user: one(users, { fields: [glossaries.userId], references: [users.id] }),
  terms: many(glossaryTerms),
}));

export const glossaryTermsRelations = relations(glossaryTerms, ({ one }) => ({
  glossary: one(glossaries, { fields: [glossaryTerms.glossaryId], references: [glossaries.id] }),
}));

export const translationMemoryRelations = relations(translationMemory, ({ one }) => ({
  user: one(users, { fields: [translationMemory.userId], references: [users.id] }),
}));

export const idempotencyKeysRelations = relations(idempotencyKeys, ({ one }) => ({
  user: one(users, { fields: [idempotencyKeys.userId], references: [users.id] }),
}));
