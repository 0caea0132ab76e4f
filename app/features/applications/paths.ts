/** The app's own addresses of the applications pages and their resource routes. */
const applicationsRoot = (environmentName: string) =>
  `/env/${encodeURIComponent(environmentName)}/applications`;

export const applicationPagePaths = {
  create: (environmentName: string) => `${applicationsRoot(environmentName)}/create`,
  /** GET resource route: a source's choices (repositories, tags, branches, charts, chart versions). */
  sourceOptions: (environmentName: string) => `${applicationsRoot(environmentName)}/source-options`,
};
