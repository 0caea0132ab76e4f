import { randomUUID } from "node:crypto";
import { DescribeTableCommand, ListTablesCommand, ListTagsOfResourceCommand } from "@aws-sdk/client-dynamodb";
import { DescribeScalableTargetsCommand } from "@aws-sdk/client-application-auto-scaling";
import { DescribeAddressesCommand } from "@aws-sdk/client-ec2";
import {
  DescribeListenersCommand,
  DescribeLoadBalancersCommand,
  DescribeRulesCommand,
  DescribeTagsCommand,
} from "@aws-sdk/client-elastic-load-balancing-v2";
import {
  DescribeDBSubnetGroupsCommand,
  ListTagsForResourceCommand as RdsTagsCommand,
} from "@aws-sdk/client-rds";
import { ListRolesCommand, ListRoleTagsCommand } from "@aws-sdk/client-iam";
import {
  DescribeClusterCommand,
  DescribeNodegroupCommand,
  ListClustersCommand,
  ListNodegroupsCommand,
} from "@aws-sdk/client-eks";
import { paginateGetResources } from "@aws-sdk/client-resource-groups-tagging-api";
import { strToU8, zipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import type { ServiceType } from "#contract/service-catalogue";
import { MOTO_ACCOUNT_ID, motoCredentials } from "../../tests/setup/moto-server";
import { awsProvisioners } from "../cloud/aws/provisioners";
import { TAG_ENVIRONMENT, TAG_ORGANIZATION, TAG_SERVICE } from "../cloud/aws/provisioner";
import { applyUntilDone, resourceOf, setUpMoto, testRegion, testService } from "../testing/aws";
import {
  parseProject,
  unresolvedImports,
  unresolvedReferences,
  type ParsedProject,
} from "../testing/terraform-checks";
import { readArchive } from "./archive";
import { arnOf, scanEnvironment } from "./environment-scan";
import { terraformArchive } from "./generate";
import type { Inventory } from "./model";
import { notExportedKinds, kindOfArn } from "./terraform-project";

/*
 * An environment with one service of every type the AWS driver deploys, made by the platform's own provisioners in
 * moto_server, then exported: every resource tagged with the environment's id (as the Resource Groups Tagging API
 * lists them, and IAM roles and EKS clusters by their own tags, which moto's Tagging API does not list) is in the
 * archive, or of a kind the archive's README names as not exported.
 */

const moto = setUpMoto({
  warmUp: true,
  settings: {
    MOTO_ECS_SERVICE_RUNNING: "1",
    MOTO_IAM_LOAD_MANAGED_POLICIES: "true",
    MOTO_ACM_VALIDATION_WAIT: "0",
  },
});
const environment = { id: randomUUID(), name: "staging" };
const functionArchive = zipSync({
  "index.js": strToU8("exports.handler = async () => ({ statusCode: 200 });\n"),
});

async function deploy(
  serviceType: ServiceType,
  config: Record<string, unknown> = {},
  network: Record<string, string> | null = null,
  settings: Record<string, unknown> = {},
) {
  const provisioner = awsProvisioners[serviceType];
  if (!provisioner) throw new Error(`no provisioner for ${serviceType}`);
  const resource = resourceOf(serviceType, config, { environmentName: environment.name });
  resource.settings = { ...resource.settings, ...settings };
  const service = testService(moto.aws, resource, {
    tags: {
      [TAG_ORGANIZATION]: "org-export",
      [TAG_ENVIRONMENT]: environment.id,
      [TAG_SERVICE]: resource.id,
      Name: resource.name,
    },
    network,
    archive: () => Promise.resolve(functionArchive),
  });
  return applyUntilDone(provisioner, service);
}

/** Everything in the account tagged with the environment's id, by ARN. */
async function taggedInventory(): Promise<string[]> {
  const filter = [{ Key: TAG_ENVIRONMENT, Values: [environment.id] }];
  const tagging = await moto.aws.resourceGroupsTagging();
  const arns: string[] = [];
  const ofEnvironment = (tag: { Key?: string; Value?: string }) =>
    tag.Key === TAG_ENVIRONMENT && tag.Value === environment.id;
  for await (const page of paginateGetResources({ client: tagging }, { TagFilters: filter })) {
    arns.push(...(page.ResourceTagMappingList ?? []).map((mapping) => mapping.ResourceARN ?? ""));
  }
  // moto's Tagging API names DynamoDB tables `table/` without their name: they are listed by their own tags.
  const dynamodb = await moto.aws.dynamodb();
  for (const TableName of (await dynamodb.send(new ListTablesCommand({}))).TableNames ?? []) {
    const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName }));
    const { Tags } = await dynamodb.send(new ListTagsOfResourceCommand({ ResourceArn: Table?.TableArn }));
    if (Tags?.some((tag) => tag.Key === TAG_ENVIRONMENT && tag.Value === environment.id))
      arns.push(Table?.TableArn ?? "");
  }
  // Neither does it list listeners, listener rules, Elastic IPs, DB subnet groups or autoscaling targets.
  const elb = await moto.aws.elbv2();
  for (const balancer of (await elb.send(new DescribeLoadBalancersCommand({}))).LoadBalancers ?? []) {
    for (const listener of (
      await elb.send(new DescribeListenersCommand({ LoadBalancerArn: balancer.LoadBalancerArn }))
    ).Listeners ?? []) {
      const rules =
        (await elb.send(new DescribeRulesCommand({ ListenerArn: listener.ListenerArn }))).Rules ?? [];
      const ResourceArns = [listener.ListenerArn ?? "", ...rules.map((rule) => rule.RuleArn ?? "")];
      for (const { ResourceArn, Tags } of (await elb.send(new DescribeTagsCommand({ ResourceArns })))
        .TagDescriptions ?? []) {
        if (Tags?.some(ofEnvironment)) arns.push(ResourceArn ?? "");
      }
    }
  }
  const { Addresses = [] } = await (
    await moto.aws.ec2()
  ).send(
    new DescribeAddressesCommand({ Filters: [{ Name: `tag:${TAG_ENVIRONMENT}`, Values: [environment.id] }] }),
  );
  arns.push(
    ...Addresses.map(
      (address) => `arn:aws:ec2:${testRegion}:${MOTO_ACCOUNT_ID}:elastic-ip/${address.AllocationId ?? ""}`,
    ),
  );
  const rds = await moto.aws.rds();
  for (const group of (await rds.send(new DescribeDBSubnetGroupsCommand({}))).DBSubnetGroups ?? []) {
    const { TagList } = await rds.send(new RdsTagsCommand({ ResourceName: group.DBSubnetGroupArn }));
    if (TagList?.some(ofEnvironment)) arns.push(group.DBSubnetGroupArn ?? "");
  }
  const scaling = await moto.aws.applicationAutoScaling();
  // moto answers no tags of scalable targets: the environment's are those of the services in its ECS cluster.
  const cluster = `${environment.name}-${environment.id.replace(/-/g, "").slice(0, 8)}-applications`;
  const { ScalableTargets = [] } = await scaling.send(
    new DescribeScalableTargetsCommand({ ServiceNamespace: "ecs" }),
  );
  for (const target of ScalableTargets) {
    if (target.ResourceId?.startsWith(`service/${cluster}/`)) arns.push(target.ScalableTargetARN ?? "");
  }
  const iam = await moto.aws.iam();
  for (const role of (await iam.send(new ListRolesCommand({}))).Roles ?? []) {
    const { Tags } = await iam.send(new ListRoleTagsCommand({ RoleName: role.RoleName }));
    if (Tags?.some((tag) => tag.Key === TAG_ENVIRONMENT && tag.Value === environment.id))
      arns.push(role.Arn ?? "");
  }
  const eks = await moto.aws.eks();
  for (const name of (await eks.send(new ListClustersCommand({}))).clusters ?? []) {
    const { cluster } = await eks.send(new DescribeClusterCommand({ name }));
    if (cluster?.tags?.[TAG_ENVIRONMENT] === environment.id) arns.push(cluster.arn ?? "");
    for (const nodegroupName of (await eks.send(new ListNodegroupsCommand({ clusterName: name })))
      .nodegroups ?? []) {
      const { nodegroup } = await eks.send(
        new DescribeNodegroupCommand({ clusterName: name, nodegroupName }),
      );
      if (nodegroup?.tags?.[TAG_ENVIRONMENT] === environment.id) arns.push(nodegroup.nodegroupArn ?? "");
    }
  }
  return [...new Set(arns)].filter((arn) => !arn.endsWith(":table/")).sort();
}

let inventory: Inventory;
let tagged: string[];
let archive: Record<string, string>;
let project: ParsedProject;
const folder = `terraform-${environment.name}-${testRegion}`;

beforeAll(async () => {
  const network = (await deploy("network")).outputs;
  await deploy("database", {}, network);
  await deploy("cache", {}, network);
  await deploy("kubernetes", {}, network);
  await deploy("application", { source: { kind: "image", image: "nginx:1.27" } }, network, {
    networking: { port: 80, public: true, customDomain: "" },
  });
  await deploy("queue");
  await deploy("file-storage", { bucketName: `export-${environment.id.slice(0, 8)}` });
  await deploy("nosql-database");
  await deploy("serverless", { uploadId: "upload-1" });
  await deploy("tls", { domain: "export.example.com" });

  tagged = await taggedInventory();
  const scanned = await scanEnvironment(
    { region: testRegion, credentials: motoCredentials, endpoint: moto.endpoint },
    environment,
  );
  inventory = scanned.inventory;
  archive = readArchive(
    terraformArchive({ ...scanned, source: "aws", generatedAt: new Date(), environment }),
  );
  project = await parseProject(
    Object.fromEntries(Object.entries(archive).map(([path, text]) => [path.slice(folder.length + 1), text])),
  );
}, 600_000);

describe("the export of an environment with every type", () => {
  it("holds every resource tagged with the environment, or names its kind as not exported", () => {
    const scope = { accountId: MOTO_ACCOUNT_ID, region: testRegion };
    const exported = new Set(inventory.resources.map((resource) => arnOf(resource, scope)));
    const missing = tagged.filter((arn) => !exported.has(arn));
    const unexplained = missing.filter(
      (arn) => !notExportedKinds.some(({ kind }) => kind === kindOfArn(arn)),
    );
    expect(unexplained).toEqual([]);
    const readme = archive[`${folder}/README.md`] ?? "";
    for (const kind of new Set(missing.map(kindOfArn))) {
      const entry = notExportedKinds.find((each) => each.kind === kind);
      expect(readme).toContain(entry?.description);
    }
    // The coverage figure of issue 24: tagged resources in the account, and how many of them the archive holds.
    console.info(
      `Export coverage: ${tagged.length - missing.length} of ${tagged.length} tagged resources ` +
        `(${project.imports.length} import blocks); not exported: ${missing.join(", ") || "none"}`,
    );
  });

  it("parses, and refers between resources instead of repeating their AWS ids", () => {
    expect(unresolvedReferences(project)).toEqual([]);
    expect(unresolvedImports(project)).toEqual([]);
    const file = (name: string) => archive[`${folder}/elbv2/${name}.tf`] ?? "";
    expect(file("lb_listener")).toMatch(/load_balancer_arn\s*=\s*aws_lb\.[a-z0-9_]+\.arn/);
    expect(file("lb_listener_rule")).toMatch(/listener_arn\s*=\s*aws_lb_listener\.[a-z0-9_]+\.arn/);
    expect(file("lb_listener_rule")).toMatch(/target_group_arn\s*=\s*aws_lb_target_group\.[a-z0-9_]+\.arn/);
    expect(archive[`${folder}/rds/db_instance.tf`]).toMatch(
      /db_subnet_group_name\s*=\s*aws_db_subnet_group\.[a-z0-9_]+\.name/,
    );
    expect(archive[`${folder}/eks/eks_node_group.tf`]).toMatch(
      /cluster_name\s*=\s*aws_eks_cluster\.[a-z0-9_]+\.name/,
    );
    // The NAT gateway's Elastic IP, the application's log group, autoscaling target and CPU policy.
    expect(archive[`${folder}/vpc/nat_gateway.tf`]).toMatch(/allocation_id\s*=\s*aws_eip\.[a-z0-9_]+\.id/);
    expect(archive[`${folder}/vpc/eip.tf`]).toMatch(/domain\s*=\s*"vpc"/);
    expect(archive[`${folder}/ecs/ecs_task_definition.tf`]).toMatch(
      /awslogs-group"?\s*=\s*aws_cloudwatch_log_group\.[a-z0-9_]+\.name/,
    );
    expect(archive[`${folder}/ecs/cloudwatch_log_group.tf`]).toMatch(/retention_in_days\s*=\s*30/);
    expect(archive[`${folder}/lambda/cloudwatch_log_group.tf`]).toMatch(/name\s*=\s*"\/aws\/lambda\//);
    expect(archive[`${folder}/ecs/appautoscaling_target.tf`]).toMatch(/max_capacity\s*=\s*\d+/);
    expect(archive[`${folder}/ecs/appautoscaling_policy.tf`]).toMatch(
      /resource_id\s*=\s*aws_appautoscaling_target\.[a-z0-9_]+\.resource_id/,
    );
  });
});
