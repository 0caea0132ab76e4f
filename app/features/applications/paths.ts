/** The app's own addresses of the applications pages and their resource routes. */
const applicationsRoot = (environmentName: string) =>
  `/env/${encodeURIComponent(environmentName)}/applications`;

export const applicationPagePaths = {
  create: (environmentName: string) => `${applicationsRoot(environmentName)}/create`,
  /** GET resource route: a source's choices (repositories, tags, branches, charts, chart versions). */
  sourceOptions: (environmentName: string) => `${applicationsRoot(environmentName)}/source-options`,
  /** GET resource route: the environment's certificate that covers a domain (`?domain=`), or what to do. */
  certificateMatch: (environmentName: string, domain: string) =>
    `${applicationsRoot(environmentName)}/certificate-match?${new URLSearchParams({ domain })}`,
};
