/** The only place R2 FILES keys are built, so every artefact's location is known and purgeable by prefix. */
export const keys = {
  upload: (userId: string, jobId: string) => `uploads/${userId}/${jobId}/source`,
  jobPrefix: (userId: string, jobId: string) => `pages/${userId}/${jobId}/`,
  pageImage: (userId: string, jobId: string, page: number) => `pages/${userId}/${jobId}/${page}/page.png`,
  pageLayout: (userId: string, jobId: string, page: number) => `pages/${userId}/${jobId}/${page}/layout.json`,
  pageText: (userId: string, jobId: string, page: number) => `pages/${userId}/${jobId}/${page}/text.json`,
  /** The reading of one band of a page read in parts (`detect`'s `split`), joined into the page's reading. */
  pageBandText: (userId: string, jobId: string, page: number, band: number) => `pages/${userId}/${jobId}/${page}/band-${band}.json`,
  pageTables: (userId: string, jobId: string, page: number) => `pages/${userId}/${jobId}/${page}/tables.json`,
  /** Text removal and rendering: the glyph mask, the clean plate (text removed) and the rendered page. */
  pageMask: (userId: string, jobId: string, page: number) => `pages/${userId}/${jobId}/${page}/mask.png`,
  pageClean: (userId: string, jobId: string, page: number) => `pages/${userId}/${jobId}/${page}/clean.png`,
  pageRender: (userId: string, jobId: string, page: number) => `pages/${userId}/${jobId}/${page}/render.png`,
  /** The export builder's input (an ExportDocument), written beside the files it builds and deleted after. */
  exportInput: (exportPrefix: string) => `${exportPrefix}input/document.json`,
  exportPrefix: (userId: string, jobId: string) => `exports/${userId}/${jobId}/`,
  /** Files a project owns itself (copies made by duplicate), apart from those of its jobs (`prj_` never collides with `job_`). */
  projectPrefix: (userId: string, projectId: string) => `pages/${userId}/${projectId}/`,
  projectFile: (userId: string, projectId: string, name: string) => `pages/${userId}/${projectId}/${name}`,
  /** Exports built from a project's edited regions (not by a job). */
  projectExportsPrefix: (userId: string, projectId: string) => `exports/${userId}/${projectId}/`,
  projectExport: (userId: string, projectId: string, exportId: string) => `exports/${userId}/${projectId}/${exportId}/`,
  /** A batch parent's ZIP of every child's exports and its CSV report (rebuilt in place by retry-failed). */
  batchZip: (userId: string, jobId: string) => `batches/${userId}/${jobId}/batch.zip`,
  batchReport: (userId: string, jobId: string) => `batches/${userId}/${jobId}/report.csv`,
  /** Every prefix under which an account's files live; account deletion purges them all. */
  userPrefixes: (userId: string) => [`uploads/${userId}/`, `pages/${userId}/`, `exports/${userId}/`, `batches/${userId}/`],
  /** Development mail outbox: zero-padded send time first, so a listing is in sending order. */
  outboxMessage: (sentAt: number, id: string) => `outbox/${String(sentAt).padStart(15, "0")}-${id}.json`,
  outboxPrefix: "outbox/",
};
