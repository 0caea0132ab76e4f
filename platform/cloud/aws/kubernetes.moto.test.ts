import {
  DeleteNodegroupCommand,
  DescribeClusterCommand,
  DescribeNodegroupCommand,
  ListClustersCommand,
  ListNodegroupsCommand,
} from "@aws-sdk/client-eks";
import { GetRoleCommand, ListAttachedRolePoliciesCommand } from "@aws-sdk/client-iam";
import { beforeAll, describe, expect, it } from "vitest";
import { kubernetesProvisioner } from "./kubernetes";
import { TAG_SERVICE } from "./provisioner";
import {
  applyUntilDone,
  contextFor,
  createTestNetwork,
  destroyUntilDone,
  testRegion,
  testResource,
  expectListedSecrets,
} from "../../testing/aws-provisioning";
import { setUpMoto } from "../../testing/aws";

/** moto 5.2 has EKS clusters and node groups (ACTIVE at once) but no UpdateClusterVersion (see docs/decisions/028). */

// AmazonEKSClusterPolicy and the worker policies are AWS managed policies: moto loads them on request.
const moto = setUpMoto({
  region: testRegion,
  maxAttempts: 1,
  settings: { MOTO_IAM_LOAD_MANAGED_POLICIES: "true" },
});
const { aws } = moto;
let network: Record<string, string>;

beforeAll(async () => {
  network = await createTestNetwork(moto);
}, 120_000);

async function clustersOf(serviceId: string) {
  const eks = await aws.eks();
  const names = (await eks.send(new ListClustersCommand({}))).clusters ?? [];
  const clusters = await Promise.all(
    names.map(async (name) => (await eks.send(new DescribeClusterCommand({ name }))).cluster),
  );
  return clusters.filter((cluster) => cluster?.tags?.[TAG_SERVICE] === serviceId);
}

async function nodegroupsOf(clusterName: string) {
  const eks = await aws.eks();
  const names = (await eks.send(new ListNodegroupsCommand({ clusterName }))).nodegroups ?? [];
  return Promise.all(
    names.map(
      async (nodegroupName) =>
        (await eks.send(new DescribeNodegroupCommand({ clusterName, nodegroupName }))).nodegroup,
    ),
  );
}

async function policiesOf(roleName: string) {
  const iam = await aws.iam();
  const answer = await iam.send(new ListAttachedRolePoliciesCommand({ RoleName: roleName }));
  return (answer.AttachedPolicies ?? []).map((policy) => policy.PolicyName).sort();
}

async function roleExists(roleName: string) {
  const iam = await aws.iam();
  return iam.send(new GetRoleCommand({ RoleName: roleName })).then(
    () => true,
    (error: Error) => (error.name === "NoSuchEntityException" ? false : Promise.reject(error)),
  );
}

describe("the kubernetes provisioner against moto", { timeout: 120_000 }, () => {
  it("creates an EKS cluster with its roles and a managed node group, scales it, changes its instance type and deletes everything", async () => {
    const resource = testResource("kubernetes", { name: "platform" });
    const context = contextFor(aws, resource, network);

    const created = await applyUntilDone(kubernetesProvisioner, context);
    expectListedSecrets(kubernetesProvisioner, resource, created.result.secrets);
    expect(created.progress).toEqual([
      "Waiting for the IAM roles to propagate",
      "Creating the EKS cluster",
      "Creating the node group",
    ]);
    const [cluster] = await clustersOf(resource.id);
    const clusterName = cluster?.name ?? "";
    expect(clusterName).toMatch(/^platform-[a-z0-9]{8}$/);
    expect(cluster).toMatchObject({
      status: "ACTIVE",
      version: "1.33",
      roleArn: created.result.state.clusterRoleArn,
      resourcesVpcConfig: {
        securityGroupIds: [network.securityGroupId],
        endpointPublicAccess: true,
        endpointPrivateAccess: true,
      },
    });
    expect(cluster?.resourcesVpcConfig?.subnetIds?.sort()).toEqual(
      [...(network.privateSubnetIds ?? "").split(","), ...(network.publicSubnetIds ?? "").split(",")].sort(),
    );
    expect(await policiesOf(`${clusterName}-cluster`)).toEqual(["AmazonEKSClusterPolicy"]);
    expect(await policiesOf(`${clusterName}-node`)).toEqual([
      "AmazonEC2ContainerRegistryReadOnly",
      "AmazonEKSWorkerNodePolicy",
      "AmazonEKS_CNI_Policy",
    ]);
    expect(await nodegroupsOf(clusterName)).toMatchObject([
      {
        nodegroupName: "nodes-t3-large",
        status: "ACTIVE",
        instanceTypes: ["t3.large"],
        scalingConfig: { minSize: 2, maxSize: 5, desiredSize: 2 },
        subnets: (network.privateSubnetIds ?? "").split(","),
        nodeRole: created.result.state.nodeRoleArn,
        version: "1.33",
        tags: { [TAG_SERVICE]: resource.id },
      },
    ]);
    expect(created.result.endpoint).toBe(cluster?.endpoint);
    const kubeconfig = created.result.secrets.kubeconfig ?? "";
    expect(kubeconfig).toContain(`    server: ${cluster?.endpoint}\n`);
    expect(kubeconfig).toContain(`    certificate-authority-data: ${cluster?.certificateAuthority?.data}\n`);
    expect(kubeconfig).toContain(`      - --cluster-name\n      - ${clusterName}\n`);
    expect(await kubernetesProvisioner.observe(context)).toEqual({ state: "ok" });

    // From a stale state: the same roles, cluster and node group are found, nothing is created twice.
    const again = await applyUntilDone(kubernetesProvisioner, contextFor(aws, resource, network));
    expect(again.progress).toEqual([]);
    expect(await clustersOf(resource.id)).toHaveLength(1);
    expect(await nodegroupsOf(clusterName)).toHaveLength(1);

    // More nodes: the node group's scaling changes in place.
    const larger = { ...resource, config: { ...resource.config, minNodes: 3, maxNodes: 8 } };
    expect(kubernetesProvisioner.plan(resource, larger)).toEqual({
      inPlace: ["config.maxNodes", "config.minNodes"],
      replace: [],
    });
    const scaled = await applyUntilDone(kubernetesProvisioner, {
      ...context,
      resource: larger,
      state: created.result.state,
    });
    expect(scaled.progress).toEqual(["Updating the node group"]);
    expect((await nodegroupsOf(clusterName))[0]?.scalingConfig).toEqual({
      minSize: 3,
      maxSize: 8,
      desiredSize: 3,
    });

    // Another instance type: a new node group takes over, the old one goes, the cluster stays.
    const retyped = { ...larger, config: { ...larger.config, nodeInstanceType: "m7i.large" } };
    expect(kubernetesProvisioner.plan(larger, retyped)).toEqual({
      inPlace: ["config.nodeInstanceType"],
      replace: [],
    });
    const moved = await applyUntilDone(kubernetesProvisioner, {
      ...context,
      resource: retyped,
      state: scaled.result.state,
    });
    expect(moved.progress).toEqual(["Creating the node group"]);
    expect(await nodegroupsOf(clusterName)).toMatchObject([
      {
        nodegroupName: "nodes-m7i-large",
        instanceTypes: ["m7i.large"],
        scalingConfig: { minSize: 3, maxSize: 8 },
      },
    ]);
    expect((await clustersOf(resource.id))[0]?.arn).toBe(cluster?.arn);
    expect(context.logs.map((line) => line.message)).toContain(
      `Deleting node group nodes-t3-large of ${clusterName}`,
    );

    // A node group deleted outside the product shows as degraded.
    await (
      await aws.eks()
    ).send(new DeleteNodegroupCommand({ clusterName, nodegroupName: "nodes-m7i-large" }));
    expect(await kubernetesProvisioner.observe({ ...context, resource: retyped })).toEqual({
      state: "degraded",
      message: `The node group nodes-m7i-large of ${clusterName} no longer exists`,
    });

    expect(await destroyUntilDone(kubernetesProvisioner, { ...context, resource: retyped })).toEqual([
      "Deleting the EKS cluster",
    ]);
    expect(await clustersOf(resource.id)).toEqual([]);
    expect(await roleExists(`${clusterName}-cluster`)).toBe(false);
    expect(await roleExists(`${clusterName}-node`)).toBe(false);
    expect(await kubernetesProvisioner.observe(context)).toEqual({
      state: "missing",
      message: `The EKS cluster ${clusterName} no longer exists in AWS`,
    });
  });

  it("creates a control plane without nodes, changes its endpoint access and logging in place, and replaces it for an older version", async () => {
    const resource = testResource("control-plane", {
      name: "control",
      config: { version: "1.33", endpointAccess: "private", controlPlaneLogging: true },
    });
    const context = contextFor(aws, resource, network);
    const created = await applyUntilDone(kubernetesProvisioner, context);
    expect(created.progress).toEqual(["Waiting for the IAM roles to propagate", "Creating the EKS cluster"]);
    const [cluster] = await clustersOf(resource.id);
    const clusterName = cluster?.name ?? "";
    expect(cluster?.resourcesVpcConfig).toMatchObject({
      endpointPublicAccess: false,
      endpointPrivateAccess: true,
    });
    expect(cluster?.logging?.clusterLogging).toEqual([
      { types: ["api", "audit", "authenticator", "controllerManager", "scheduler"], enabled: true },
    ]);
    expect(await nodegroupsOf(clusterName)).toEqual([]);
    expect(await roleExists(`${clusterName}-node`)).toBe(false);
    expect(created.result.secrets.kubeconfig).toContain(`server: ${cluster?.endpoint}`);

    const opened = {
      ...resource,
      config: { ...resource.config, endpointAccess: "public", controlPlaneLogging: false },
    };
    expect(kubernetesProvisioner.plan(resource, opened)).toEqual({
      inPlace: ["config.controlPlaneLogging", "config.endpointAccess"],
      replace: [],
    });
    const updated = await applyUntilDone(kubernetesProvisioner, {
      ...context,
      resource: opened,
      state: created.result.state,
    });
    expect(updated.progress).toEqual(["Updating the endpoint access", "Updating control plane logging"]);
    const [after] = await clustersOf(resource.id);
    expect(after?.resourcesVpcConfig).toMatchObject({
      endpointPublicAccess: true,
      endpointPrivateAccess: false,
    });
    expect(after?.logging?.clusterLogging?.[0]?.enabled).toBe(false);

    // EKS upgrades in place but never downgrades: an older version is a new cluster.
    const older = { ...opened, config: { ...opened.config, version: "1.31" } };
    expect(kubernetesProvisioner.plan(opened, older)).toEqual({ inPlace: [], replace: ["config.version"] });
    expect(kubernetesProvisioner.plan(older, opened)).toEqual({ inPlace: ["config.version"], replace: [] });
    const replaced = await applyUntilDone(kubernetesProvisioner, {
      ...context,
      resource: older,
      state: updated.result.state,
    });
    expect(replaced.progress).toEqual(["Deleting the EKS cluster to replace it", "Creating the EKS cluster"]);
    expect(await clustersOf(resource.id)).toMatchObject([{ name: clusterName, version: "1.31" }]);

    // An upgrade asks EKS for the next minor version: moto does not implement UpdateClusterVersion (404).
    await expect(
      kubernetesProvisioner.apply({ ...context, resource: opened, state: replaced.result.state }),
    ).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });

    await destroyUntilDone(kubernetesProvisioner, context);
    expect(await clustersOf(resource.id)).toEqual([]);
    expect(await roleExists(`${clusterName}-cluster`)).toBe(false);
  });
});
