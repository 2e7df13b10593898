import type { ProjectPort } from "../jobs/project-port";
import { readyPageCount } from "./pages.repo";
import * as repo from "./projects.repo";

/** The projects domain's side of the jobs' ProjectPort: how a job's lifecycle changes its project. */
export const projectPort: ProjectPort = {
  createStatement: repo.insertJobProjectStatement,
  deleteOfJobsStatement: repo.deleteOfJobsStatement,
  statusStatement: repo.projectStatusStatement,
  setStatus: repo.setProjectStatus,
  editableNow: repo.projectEditableNow,
  async statusFromPages(db, projectId) {
    const [project, ready] = await Promise.all([repo.projectById(db, projectId), readyPageCount(db, projectId)]);
    if (!project || ready === 0) return "failed";
    return ready >= project.pageCount ? "ready" : "partial";
  },
};
