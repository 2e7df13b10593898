/** The only place R2 FILES keys are built, so every artefact's location is known and purgeable by prefix. */
export const keys = {
  upload: (userId: string, jobId: string) => `uploads/${userId}/${jobId}/source`,
  jobPrefix: (userId: string, jobId: string) => `pages/${userId}/${jobId}/`,
  pageImage: (userId: string, jobId: string, page: number) => `pages/${userId}/${jobId}/${page}/page.png`,
  pageLayout: (userId: string, jobId: string, page: number) => `pages/${userId}/${jobId}/${page}/layout.json`,
  pageText: (userId: string, jobId: string, page: number) => `pages/${userId}/${jobId}/${page}/text.json`,
  exportPrefix: (userId: string, jobId: string) => `exports/${userId}/${jobId}/`,
};
