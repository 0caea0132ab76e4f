import type { Cluster, Nodegroup } from "@aws-sdk/client-eks";
import type { DriverResource } from "../driver";
import { configOf } from "../configs";
import { ec2Of } from "./network-inventory";
import type { ApplyResult, ProvisionContext, Provisioner } from "./provisioner";
import { deleteRole, ensureRole, managedPolicy } from "./roles";
import {
  clientToken,
  compareVersions,
  networkOf,
  pending,
  physicalName,
  planChanges,
  unlessMissing,
} from "./common";

/**
 * A Kubernetes cluster is an EKS cluster in the environment's subnets (its own IAM cluster role) with a managed node
 * group in the private subnets (its own node role); a control plane is the EKS cluster alone, with the endpoint access
 * and control plane logging it configures. Upgrades go in place one minor version at a time, nodes after the cluster;
 * node counts, endpoint access and logging change in place; another instance type gets a new node group before the
 * old one goes; an older version needs a new cluster.
 */

const CLUSTER_WAIT_MS = 60_000;
const NODEGROUP_WAIT_MS = 30_000;
const ROLE_PROPAGATION_MS = 10_000;
const LOG_TYPES = ["api", "audit", "authenticator", "controllerManager", "scheduler"] as const;

/** What the cluster must look like, for either type. */
type ClusterShape = {
  version: string;
  endpointPublicAccess: boolean;
  endpointPrivateAccess: boolean;
  logging: boolean;
  nodes: { instanceType: string; minNodes: number; maxNodes: number } | null;
};

function shapeOf(resource: DriverResource): ClusterShape {
  if (resource.serviceType === "control-plane") {
    const config = configOf(resource, "control-plane");
    return {
      version: config.version,
      endpointPublicAccess: config.endpointAccess !== "private",
      endpointPrivateAccess: config.endpointAccess !== "public",
      logging: config.controlPlaneLogging,
      nodes: null,
    };
  }
  const config = configOf(resource, "kubernetes");
  return {
    version: config.version,
    endpointPublicAccess: true,
    endpointPrivateAccess: true,
    logging: false,
    nodes: { instanceType: config.nodeInstanceType, minNodes: config.minNodes, maxNodes: config.maxNodes },
  };
}

function namesOf(resource: DriverResource) {
  const base = physicalName(resource, 50);
  return {
    cluster: physicalName(resource, 100),
    clusterRole: `${base}-cluster`,
    nodeRole: `${base}-node`,
    /** One node group per instance type: a new type gets a new group before the old one is removed. */
    nodegroup: (instanceType: string) => `nodes-${instanceType.replace(/\./g, "-")}`,
  };
}

async function eksOf(context: ProvisionContext) {
  return { eks: await context.aws.eks(), sdk: await import("@aws-sdk/client-eks") };
}

async function describeCluster(context: ProvisionContext, name: string): Promise<Cluster | undefined> {
  const { eks, sdk } = await eksOf(context);
  const answer = await unlessMissing(
    () => eks.send(new sdk.DescribeClusterCommand({ name })),
    "ResourceNotFoundException",
  );
  return answer?.cluster;
}

async function describeNodegroup(
  context: ProvisionContext,
  clusterName: string,
  nodegroupName: string,
): Promise<Nodegroup | undefined> {
  const { eks, sdk } = await eksOf(context);
  const answer = await unlessMissing(
    () => eks.send(new sdk.DescribeNodegroupCommand({ clusterName, nodegroupName })),
    "ResourceNotFoundException",
  );
  return answer?.nodegroup;
}

async function nodegroupNames(context: ProvisionContext, clusterName: string): Promise<string[]> {
  const { eks, sdk } = await eksOf(context);
  const names: string[] = [];
  for await (const page of sdk.paginateListNodegroups({ client: eks }, { clusterName })) {
    names.push(...(page.nodegroups ?? []));
  }
  return names;
}

/** Deletes the cluster's node groups but `keep`; answers how many are still there (deleting included). */
async function deleteNodegroups(
  context: ProvisionContext,
  clusterName: string,
  keep?: string,
): Promise<number> {
  const { eks, sdk } = await eksOf(context);
  const doomed = (await nodegroupNames(context, clusterName)).filter((name) => name !== keep);
  for (const nodegroupName of doomed) {
    const group = await describeNodegroup(context, clusterName, nodegroupName);
    if (!group || group.status === "DELETING") continue;
    await unlessMissing(
      () => eks.send(new sdk.DeleteNodegroupCommand({ clusterName, nodegroupName })),
      "ResourceNotFoundException",
    );
    context.log("info", `Deleting node group ${nodegroupName} of ${clusterName}`);
  }
  return (await nodegroupNames(context, clusterName)).filter((name) => name !== keep).length;
}

const enabledLogTypes = (cluster: Cluster) =>
  new Set(
    (cluster.logging?.clusterLogging ?? [])
      .filter((entry) => entry.enabled)
      .flatMap((entry) => entry.types ?? []),
  );

/** The next minor version: EKS upgrades one at a time (1.31 → 1.32 → 1.33). */
function nextMinor(version: string): string {
  const [major = "1", minor = "0"] = version.split(".");
  return `${major}.${Number(minor) + 1}`;
}

/** What `aws eks update-kubeconfig` writes: the endpoint, its certificate authority, and a token from the AWS CLI. */
function kubeconfigOf(cluster: Cluster, region: string): string {
  const name = cluster.arn ?? cluster.name ?? "";
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "- cluster:",
    `    certificate-authority-data: ${cluster.certificateAuthority?.data ?? ""}`,
    `    server: ${cluster.endpoint ?? ""}`,
    `  name: ${name}`,
    "contexts:",
    "- context:",
    `    cluster: ${name}`,
    `    user: ${name}`,
    `  name: ${name}`,
    `current-context: ${name}`,
    "users:",
    `- name: ${name}`,
    "  user:",
    "    exec:",
    "      apiVersion: client.authentication.k8s.io/v1beta1",
    "      command: aws",
    "      args:",
    "      - --region",
    `      - ${region}`,
    "      - eks",
    "      - get-token",
    "      - --cluster-name",
    `      - ${cluster.name ?? ""}`,
    "      - --output",
    "      - json",
    "",
  ].join("\n");
}

/** Brings the node group to the configuration; undefined once it is there. */
async function applyNodegroups(
  context: ProvisionContext,
  nodes: NonNullable<ClusterShape["nodes"]>,
  cluster: { name: string; version: string },
  nodeRoleArn: string,
  state: Record<string, string>,
): Promise<ApplyResult | undefined> {
  const { eks, sdk } = await eksOf(context);
  const network = networkOf(context);
  const nodegroupName = namesOf(context.resource).nodegroup(nodes.instanceType);
  const group = await describeNodegroup(context, cluster.name, nodegroupName);
  if (!group) {
    await eks.send(
      new sdk.CreateNodegroupCommand({
        clusterName: cluster.name,
        nodegroupName,
        nodeRole: nodeRoleArn,
        subnets: network.privateSubnetIds,
        instanceTypes: [nodes.instanceType],
        amiType: "AL2023_x86_64_STANDARD",
        capacityType: "ON_DEMAND",
        version: cluster.version,
        scalingConfig: { minSize: nodes.minNodes, maxSize: nodes.maxNodes, desiredSize: nodes.minNodes },
        tags: context.tags,
        clientRequestToken: clientToken(context.resource.id, nodegroupName),
      }),
    );
    context.log(
      "info",
      `Creating node group ${nodegroupName} (${nodes.minNodes}–${nodes.maxNodes} × ${nodes.instanceType})`,
    );
    return pending(state, "Creating the node group", NODEGROUP_WAIT_MS);
  }
  if (group.nodegroupArn) state.nodegroupArn = group.nodegroupArn;
  const status = group.status ?? "UNKNOWN";
  if (status === "CREATE_FAILED") {
    const issues = (group.health?.issues ?? []).map((issue) => `${issue.code}: ${issue.message}`).join("; ");
    throw new Error(`EKS could not create the node group ${nodegroupName}${issues ? `: ${issues}` : ""}`);
  }
  if (status !== "ACTIVE" && status !== "DEGRADED") {
    return pending(state, `Node group ${status.toLowerCase().replace(/_/g, " ")}`, NODEGROUP_WAIT_MS);
  }

  const scaling = group.scalingConfig ?? {};
  if (scaling.minSize !== nodes.minNodes || scaling.maxSize !== nodes.maxNodes) {
    // The desired size is the autoscaler's: only kept within the new bounds.
    const desired = Math.min(Math.max(scaling.desiredSize ?? nodes.minNodes, nodes.minNodes), nodes.maxNodes);
    await eks.send(
      new sdk.UpdateNodegroupConfigCommand({
        clusterName: cluster.name,
        nodegroupName,
        scalingConfig: { minSize: nodes.minNodes, maxSize: nodes.maxNodes, desiredSize: desired },
      }),
    );
    context.log("info", `Scaling node group ${nodegroupName} to ${nodes.minNodes}–${nodes.maxNodes} nodes`);
    return pending(state, "Updating the node group", NODEGROUP_WAIT_MS);
  }
  if (group.version && compareVersions(cluster.version, group.version) > 0) {
    await eks.send(
      new sdk.UpdateNodegroupVersionCommand({
        clusterName: cluster.name,
        nodegroupName,
        version: cluster.version,
      }),
    );
    context.log("info", `Upgrading node group ${nodegroupName} to Kubernetes ${cluster.version}`);
    return pending(state, "Upgrading the node group", NODEGROUP_WAIT_MS);
  }
  if ((await deleteNodegroups(context, cluster.name, nodegroupName)) > 0) {
    return pending(state, "Removing the node group of the previous instance type", NODEGROUP_WAIT_MS);
  }
  return undefined;
}

/** What a cluster answers: a kubeconfig for it (its token comes from the caller's AWS credentials). */
const SECRET_ATTRIBUTES = ["kubeconfig"] as const;

export const kubernetesProvisioner: Provisioner = {
  secretAttributeNames: () => SECRET_ATTRIBUTES,
  async apply(context) {
    const shape = shapeOf(context.resource);
    const network = networkOf(context);
    const names = namesOf(context.resource);
    const { eks, sdk } = await eksOf(context);
    const state: Record<string, string> = { ...context.state };

    const clusterRole = await ensureRole(context, {
      name: names.clusterRole,
      service: "eks.amazonaws.com",
      policyArns: [managedPolicy("AmazonEKSClusterPolicy")],
      description: `EKS cluster role of ${names.cluster}`,
    });
    state.clusterRoleArn = clusterRole.arn;
    const nodeRole = shape.nodes
      ? await ensureRole(context, {
          name: names.nodeRole,
          service: "ec2.amazonaws.com",
          policyArns: [
            managedPolicy("AmazonEKSWorkerNodePolicy"),
            managedPolicy("AmazonEKS_CNI_Policy"),
            managedPolicy("AmazonEC2ContainerRegistryReadOnly"),
          ],
          description: `EKS node role of ${names.cluster}`,
        })
      : undefined;
    if (nodeRole) state.nodeRoleArn = nodeRole.arn;
    // EKS refuses a role it cannot assume yet; a new role needs a few seconds to reach it.
    if (clusterRole.created || nodeRole?.created) {
      return pending(state, "Waiting for the IAM roles to propagate", ROLE_PROPAGATION_MS);
    }

    const cluster = await describeCluster(context, names.cluster);
    if (!cluster) {
      const created = await eks.send(
        new sdk.CreateClusterCommand({
          name: names.cluster,
          version: shape.version,
          roleArn: clusterRole.arn,
          resourcesVpcConfig: {
            subnetIds: [...network.privateSubnetIds, ...network.publicSubnetIds],
            securityGroupIds: [network.securityGroupId],
            endpointPublicAccess: shape.endpointPublicAccess,
            endpointPrivateAccess: shape.endpointPrivateAccess,
          },
          logging: { clusterLogging: [{ types: [...LOG_TYPES], enabled: shape.logging }] },
          tags: context.tags,
          clientRequestToken: clientToken(context.resource.id, "cluster", shape.version),
        }),
      );
      if (created.cluster?.arn) state.clusterArn = created.cluster.arn;
      context.log("info", `Creating EKS cluster ${names.cluster} (Kubernetes ${shape.version})`);
      return pending(state, "Creating the EKS cluster", CLUSTER_WAIT_MS);
    }
    if (cluster.arn) state.clusterArn = cluster.arn;
    const status = cluster.status ?? "UNKNOWN";
    if (status === "FAILED")
      throw new Error(`EKS could not create the cluster ${names.cluster} (status FAILED)`);
    if (status !== "ACTIVE") return pending(state, `EKS cluster ${status.toLowerCase()}`, CLUSTER_WAIT_MS);

    const version = cluster.version ?? "0";
    if (compareVersions(shape.version, version) < 0) {
      if ((await deleteNodegroups(context, names.cluster)) > 0) {
        return pending(state, "Deleting the node groups to replace the cluster", NODEGROUP_WAIT_MS);
      }
      await eks.send(new sdk.DeleteClusterCommand({ name: names.cluster }));
      context.log(
        "warn",
        `Replacing EKS cluster ${names.cluster}: EKS does not downgrade ${version} to ${shape.version}`,
      );
      return pending(state, "Deleting the EKS cluster to replace it", CLUSTER_WAIT_MS);
    }
    if (compareVersions(shape.version, version) > 0) {
      const next = nextMinor(version);
      await eks.send(new sdk.UpdateClusterVersionCommand({ name: names.cluster, version: next }));
      context.log("info", `Upgrading EKS cluster ${names.cluster} to Kubernetes ${next}`);
      return pending(state, `Upgrading the EKS cluster to ${next}`, CLUSTER_WAIT_MS);
    }
    const access = cluster.resourcesVpcConfig;
    if (
      Boolean(access?.endpointPublicAccess) !== shape.endpointPublicAccess ||
      Boolean(access?.endpointPrivateAccess) !== shape.endpointPrivateAccess
    ) {
      await eks.send(
        new sdk.UpdateClusterConfigCommand({
          name: names.cluster,
          resourcesVpcConfig: {
            endpointPublicAccess: shape.endpointPublicAccess,
            endpointPrivateAccess: shape.endpointPrivateAccess,
          },
        }),
      );
      context.log("info", `Changing the endpoint access of ${names.cluster}`);
      return pending(state, "Updating the endpoint access", CLUSTER_WAIT_MS);
    }
    const logTypes = enabledLogTypes(cluster);
    if (LOG_TYPES.some((type) => logTypes.has(type) !== shape.logging)) {
      await eks.send(
        new sdk.UpdateClusterConfigCommand({
          name: names.cluster,
          logging: { clusterLogging: [{ types: [...LOG_TYPES], enabled: shape.logging }] },
        }),
      );
      context.log(
        "info",
        `Turning control plane logging ${shape.logging ? "on" : "off"} for ${names.cluster}`,
      );
      return pending(state, "Updating control plane logging", CLUSTER_WAIT_MS);
    }

    if (shape.nodes && nodeRole) {
      const step = await applyNodegroups(
        context,
        shape.nodes,
        { name: names.cluster, version },
        nodeRole.arn,
        state,
      );
      if (step) return step;
    }
    if (!cluster.endpoint) return pending(state, "Waiting for the cluster endpoint", CLUSTER_WAIT_MS);
    return {
      done: true,
      state,
      endpoint: cluster.endpoint,
      secrets: {
        kubeconfig: kubeconfigOf(cluster, context.aws.region),
      } satisfies Record<(typeof SECRET_ATTRIBUTES)[number], string>,
      outputs: {
        clusterName: names.cluster,
        clusterArn: cluster.arn ?? "",
        certificateAuthorityData: cluster.certificateAuthority?.data ?? "",
        oidcIssuer: cluster.identity?.oidc?.issuer ?? "",
      },
    };
  },

  async destroy(context) {
    const names = namesOf(context.resource);
    const { eks, sdk } = await eksOf(context);
    const state = { ...context.state };
    const cluster = await describeCluster(context, names.cluster);
    if (cluster) {
      if ((await deleteNodegroups(context, names.cluster)) > 0) {
        return pending(state, "Deleting the node groups", NODEGROUP_WAIT_MS);
      }
      if (cluster.status !== "DELETING") {
        await unlessMissing(
          () => eks.send(new sdk.DeleteClusterCommand({ name: names.cluster })),
          "ResourceNotFoundException",
        );
        context.log("info", `Deleting EKS cluster ${names.cluster}`);
      }
      return pending(state, "Deleting the EKS cluster", CLUSTER_WAIT_MS);
    }
    await deleteRole(context, names.nodeRole);
    await deleteRole(context, names.clusterRole);
    return { done: true };
  },

  plan(before, after) {
    const from = shapeOf(before);
    const to = shapeOf(after);
    return planChanges(before, after, ({ path }) => {
      switch (path) {
        case "config.version":
          return compareVersions(to.version, from.version) < 0 ? "replace" : "inPlace";
        // A new node group of the new type takes over before the old one goes: the cluster stays.
        case "config.nodeInstanceType":
        case "config.minNodes":
        case "config.maxNodes":
        case "config.endpointAccess":
        case "config.controlPlaneLogging":
          return "inPlace";
        default:
          return null;
      }
    });
  },

  async units(context) {
    const shape = shapeOf(context.resource);
    if (!shape.nodes) return [];
    const names = namesOf(context.resource);
    const { client, sdk } = await ec2Of(context);
    // EKS tags the instances of a managed node group with its cluster's and its own name.
    const filters = [
      { Name: "tag:eks:cluster-name", Values: [names.cluster] },
      { Name: "tag:eks:nodegroup-name", Values: [names.nodegroup(shape.nodes.instanceType)] },
      { Name: "instance-state-name", Values: ["pending", "running", "stopping", "stopped"] },
    ];
    const units = [];
    for await (const page of sdk.paginateDescribeInstances({ client }, { Filters: filters })) {
      for (const instance of (page.Reservations ?? []).flatMap(
        (reservation) => reservation.Instances ?? [],
      )) {
        // The node's name in Kubernetes is its private DNS name.
        const name = instance.PrivateDnsName || instance.InstanceId;
        if (name) units.push({ name, status: instance.State?.Name ?? "unknown" });
      }
    }
    return units;
  },

  async observe(context) {
    const shape = shapeOf(context.resource);
    const names = namesOf(context.resource);
    const cluster = await describeCluster(context, names.cluster);
    if (!cluster)
      return { state: "missing", message: `The EKS cluster ${names.cluster} no longer exists in AWS` };
    if (cluster.status === "FAILED" || cluster.status === "DELETING") {
      return {
        state: "degraded",
        message: `The EKS cluster ${names.cluster} is ${cluster.status.toLowerCase()}`,
      };
    }
    if (!shape.nodes) return { state: "ok" };
    const nodegroupName = names.nodegroup(shape.nodes.instanceType);
    const group = await describeNodegroup(context, names.cluster, nodegroupName);
    if (!group) {
      return {
        state: "degraded",
        message: `The node group ${nodegroupName} of ${names.cluster} no longer exists`,
      };
    }
    const issues = group.health?.issues ?? [];
    if (group.status === "DEGRADED" || group.status === "CREATE_FAILED" || issues.length > 0) {
      const detail = issues.map((issue) => `${issue.code}: ${issue.message}`).join("; ");
      return {
        state: "degraded",
        message: `The node group ${nodegroupName} is ${(group.status ?? "unknown").toLowerCase()}${detail ? `: ${detail}` : ""}`,
      };
    }
    return { state: "ok" };
  },
};
