const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The image an application's configuration names, before the deployment resolves it: the public image, the
 * registry's repository and tag, or what a GitHub build or a chart is known by.
 */
export function applicationImageOf(config: Record<string, unknown>): string {
  const source: Record<string, unknown> = isRecord(config.source)
    ? config.source
    : { kind: "image", image: config.image };
  switch (source.kind) {
    case "registry":
      return `${String(source.repository)}:${String(source.tag)}`;
    case "github":
      return `${String(source.repository).split("/").at(-1)}:${String(source.branch).replace(/[^A-Za-z0-9_.-]/g, "-")}`;
    case "helm":
      return `${String(source.chart)}:${String(source.version)}`;
    default:
      return typeof source.image === "string" ? source.image : "";
  }
}
