/** The app's own addresses of the fastboot pages (SPEC §2.2 /fastboot/configure). */
export const fastbootPagePaths = {
  configure: "/fastboot/configure",
  /**
   * The configure page's data for another placement: the stacks' estimates there. No account is sent as an empty
   * one, the simulated cloud: left out, the page would offer its default target.
   */
  estimates: (query: { cloudConnectionId?: string; region: string }) =>
    `/fastboot/configure?${new URLSearchParams({ cloudConnectionId: query.cloudConnectionId ?? "", region: query.region })}`,
  progress: (id: string) => `/fastboot/${encodeURIComponent(id)}`,
};
