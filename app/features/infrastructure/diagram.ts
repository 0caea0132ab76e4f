import type { EnvironmentMap } from "#contract/infrastructure-map";
import type { ServiceType } from "#contract/service-catalogue";
import type { Stage } from "#contract/stages";

/** One box of the diagram: a service, with the names of those it is linked to. */
export type DiagramService = {
  id: string;
  name: string;
  serviceType: ServiceType;
  stage: Stage;
  /** An application's: the services it uses and the certificate of its domain. */
  uses: string[];
  /** A service's: the applications that use it (or serve their domain with it). */
  usedBy: string[];
};

/**
 * The environment as nested boxes (decision 037): its networks around everything; inside, the Kubernetes clusters
 * with the applications they run, the applications that run on no cluster, the data services (databases, caches,
 * queues, storage) with the applications that use them, and the rest (control planes, functions, certificates).
 */
export type EnvironmentDiagram = {
  networks: DiagramService[];
  clusters: (DiagramService & { applications: DiagramService[] })[];
  unplacedApplications: DiagramService[];
  data: DiagramService[];
  other: DiagramService[];
};

const dataTypes: readonly ServiceType[] = ["database", "cache", "queue", "file-storage", "nosql-database"];

export function environmentDiagramOf(map: EnvironmentMap): EnvironmentDiagram {
  const names = new Map(map.nodes.map((node) => [node.id, node.name]));
  const nameOf = (id: string) => names.get(id) ?? "";
  const byName = (a: string, b: string) => a.localeCompare(b);
  const service = (node: EnvironmentMap["nodes"][number]): DiagramService => ({
    id: node.id,
    name: node.name,
    serviceType: node.serviceType,
    stage: node.stage,
    uses: map.links
      .filter((link) => link.from === node.id && link.kind !== "runs-on")
      .map((link) => nameOf(link.to))
      .sort(byName),
    usedBy: map.links
      .filter((link) => link.to === node.id && link.kind !== "runs-on")
      .map((link) => nameOf(link.from))
      .sort(byName),
  });
  const nodes = [...map.nodes].sort((a, b) => byName(a.name, b.name));
  const ofTypes = (types: readonly ServiceType[]) =>
    nodes.filter((node) => types.includes(node.serviceType)).map(service);
  const clusterOf = new Map(
    map.links.filter((link) => link.kind === "runs-on").map((link) => [link.from, link.to]),
  );
  const applications = ofTypes(["application"]);
  return {
    networks: ofTypes(["network"]),
    clusters: ofTypes(["kubernetes"]).map((cluster) => ({
      ...cluster,
      applications: applications.filter((application) => clusterOf.get(application.id) === cluster.id),
    })),
    unplacedApplications: applications.filter((application) => !clusterOf.has(application.id)),
    data: ofTypes(dataTypes),
    other: ofTypes(["control-plane", "serverless", "tls"]),
  };
}
