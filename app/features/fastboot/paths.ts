/** The app's own addresses of the fastboot pages (SPEC §2.2 /fastboot/configure). */
export const fastbootPagePaths = {
  configure: "/fastboot/configure",
  /** The configure page's data for another placement: the stacks' estimates there. */
  estimates: (query: { cloudConnectionId?: string; region: string }) =>
    `/fastboot/configure?${new URLSearchParams(
      query.cloudConnectionId
        ? { cloudConnectionId: query.cloudConnectionId, region: query.region }
        : { region: query.region },
    )}`,
  progress: (id: string) => `/fastboot/${encodeURIComponent(id)}`,
};
