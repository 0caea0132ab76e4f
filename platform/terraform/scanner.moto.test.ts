import { beforeAll, describe, expect, it } from "vitest";
import { seedAwsAccount, type SeededAccount } from "../../tests/setup/aws-account";
import { motoCredentials } from "../../tests/setup/moto-server";
import { setUpMoto } from "../testing/aws";
import { demoInventory, scanAccount } from "./generate";
import type { Inventory } from "./model";
import { PRODUCT_NAME } from "./role-access";
import { writeTerraformProject } from "./terraform-project";
import {
  importIdsByType,
  parseProject,
  unresolvedImports,
  unresolvedReferences,
  type ParsedProject,
} from "../testing/terraform-checks";

const region = "eu-west-1";
const moto = setUpMoto();
let seeded: SeededAccount;
let inventory: Inventory;
let files: Record<string, string>;
let project: ParsedProject;

beforeAll(async () => {
  seeded = await seedAwsAccount({ endpoint: moto.endpoint, region, suffix: "scan" });
  inventory = await scanAccount(
    { region, endpoint: moto.endpoint, credentials: motoCredentials },
    { accountId: seeded.accountId, region },
  );
  files = writeTerraformProject({
    accountId: seeded.accountId,
    region,
    inventory,
    source: "aws",
    generatedAt: new Date("2026-01-02T03:04:05Z"),
    productName: PRODUCT_NAME,
  });
  project = await parseProject(files);
}, 120_000);

describe("scanning an account seeded in moto with one of each resource type", () => {
  it("reads every service without skipping any", () => {
    expect(inventory.skipped).toEqual([]);
  });

  it("exports exactly the seeded resources, with the import ids Terraform needs", () => {
    const expected = Object.fromEntries(
      Object.entries(seeded.importIds).map(([type, ids]) => [type, [...ids].sort()]),
    );
    expect(importIdsByType(project)).toEqual(expected);
  });

  it("skips the default VPC and the network AWS creates with it", () => {
    const defaultVpc = inventory.resources.filter(
      (resource) => resource.type === "aws_vpc" && resource.importId !== seeded.importIds.aws_vpc?.[0],
    );
    expect(defaultVpc).toEqual([]);
    expect(Object.values(files).join("\n")).not.toMatch(/name\s+=\s+"default"/);
  });

  it("leaves out buckets of other regions", () => {
    expect(Object.values(files).join("\n")).not.toContain(seeded.excludedBucket);
  });

  it("writes Terraform that parses, with every reference and import resolving in its folder", () => {
    const tfFiles = Object.keys(files).filter((path) => path.endsWith(".tf"));
    expect(Object.keys(project.files).sort()).toEqual(tfFiles.sort());
    expect(unresolvedReferences(project)).toEqual([]);
    expect(unresolvedImports(project)).toEqual([]);
    expect(project.references.length).toBeGreaterThan(10);
  });

  it("refers from one resource to another where both are exported in one folder", () => {
    const subnets = project.files["vpc/subnet.tf"]?.resource as Record<string, Record<string, unknown[]>>;
    const publicSubnet = subnets.aws_subnet?.public_a?.[0] as Record<string, unknown>;
    expect(publicSubnet.vpc_id).toBe("${aws_vpc.app_network.id}");
    const association = (
      project.files["vpc/route_table_association.tf"]?.resource as Record<string, Record<string, unknown[]>>
    ).aws_route_table_association?.public_a?.[0] as Record<string, unknown>;
    expect(association).toEqual({
      subnet_id: "${aws_subnet.public_a.id}",
      route_table_id: "${aws_route_table.public_routes.id}",
    });
  });

  it("writes a replication group with its settings and without its auth token", () => {
    const groups = project.files["elasticache/elasticache_replication_group.tf"]?.resource as Record<
      string,
      Record<string, unknown[]>
    >;
    expect(groups.aws_elasticache_replication_group?.carts_cache?.[0]).toEqual({
      replication_group_id: "carts-cache",
      description: "Cache carts",
      engine: "redis",
      node_type: "cache.t3.micro",
      num_cache_clusters: 1,
      port: 6379,
      automatic_failover_enabled: false,
      multi_az_enabled: false,
      at_rest_encryption_enabled: true,
      transit_encryption_enabled: true,
    });
  });

  it("declares a secret without its value", () => {
    const secrets = project.files["secretsmanager/secretsmanager_secret.tf"]?.resource as Record<
      string,
      Record<string, unknown[]>
    >;
    expect(secrets.aws_secretsmanager_secret?.orders_db_password?.[0]).toEqual({
      name: "orders-db-password",
      description: "Password of the orders-db database",
      tags: { Team: "orders" },
    });
    expect(Object.values(files).join("\n")).not.toContain("not-a-real-password-1");
    expect(files["README.md"]).toContain("Secrets Manager secrets' values");
  });

  it("writes an EKS node group that refers to its cluster", () => {
    const groups = project.files["eks/eks_node_group.tf"]?.resource as Record<
      string,
      Record<string, unknown[]>
    >;
    expect(groups.aws_eks_node_group?.platform_nodes?.[0]).toMatchObject({
      cluster_name: "${aws_eks_cluster.platform_cluster.name}",
      node_group_name: "platform-nodes",
      instance_types: ["t3.medium"],
      capacity_type: "ON_DEMAND",
      scaling_config: [{ desired_size: 2, max_size: 3, min_size: 1 }],
      tags: { Team: "platform" },
    });
  });

  it("writes an ECS service that refers to its cluster and task definition", () => {
    const services = project.files["ecs/ecs_service.tf"]?.resource as Record<
      string,
      Record<string, unknown[]>
    >;
    expect(services.aws_ecs_service?.web?.[0]).toMatchObject({
      name: "web",
      cluster: "${aws_ecs_cluster.apps.id}",
      task_definition: "${aws_ecs_task_definition.web_app.arn}",
      desired_count: 2,
      launch_type: "FARGATE",
    });
    const definitions = project.files["ecs/ecs_task_definition.tf"]?.resource as Record<
      string,
      Record<string, unknown[]>
    >;
    expect(definitions.aws_ecs_task_definition?.web_app?.[0]).toMatchObject({
      family: "web-app",
      cpu: "256",
      memory: "512",
      network_mode: "awsvpc",
      requires_compatibilities: ["FARGATE"],
    });
    expect(files["ecs/ecs_task_definition.tf"]).toMatch(/image\s*=\s*"nginx:1\.27"/);
  });

  it("names resources after their Name tags or own names", () => {
    expect([...project.resources].sort()).toEqual(
      expect.arrayContaining([
        "vpc/aws_vpc.app_network",
        "vpc/aws_internet_gateway.app_gateway",
        "vpc/aws_nat_gateway.app_nat",
        "vpc/aws_security_group.web",
        "ec2/aws_instance.web_server",
        "ec2/aws_ebs_volume.data_volume",
        "rds/aws_db_instance.orders_db",
        "lambda/aws_lambda_function.process_orders",
        "eks/aws_eks_cluster.platform_cluster",
        "elbv2/aws_lb.web_alb",
        "iam/aws_iam_role.process_orders_lambda",
      ]),
    );
  });

  it("pins the AWS provider and the account in every folder", () => {
    const folders = new Set(
      Object.keys(files).flatMap((path) => (path.includes("/") ? [path.split("/")[0]] : [])),
    );
    expect(folders.size).toBe(17);
    for (const folder of folders) {
      expect(files[`${folder}/provider.tf`]).toMatch(/version = "\d+\.\d+\.\d+"/);
      expect(files[`${folder}/provider.tf`]).toContain(`allowed_account_ids = ["${seeded.accountId}"]`);
      expect(files[`${folder}/outputs.tf`]).toBeDefined();
      expect(files[`${folder}/imports.tf`]).toBeDefined();
    }
    expect(files["README.md"]).toContain(`# Terraform for AWS account ${seeded.accountId} in ${region}`);
    expect(files["README.md"]).not.toContain("Demo inventory");
  });
});

describe("the demo account inventory", () => {
  it("becomes Terraform that parses and resolves, labelled as a demo", async () => {
    const demoFiles = writeTerraformProject({
      accountId: "123456789012",
      region: "us-east-1",
      inventory: demoInventory({ accountId: "123456789012", region: "us-east-1" }),
      source: "demo",
      generatedAt: new Date("2026-01-02T03:04:05Z"),
      productName: PRODUCT_NAME,
    });
    const demo = await parseProject(demoFiles);
    expect(unresolvedReferences(demo)).toEqual([]);
    expect(unresolvedImports(demo)).toEqual([]);
    expect(demoFiles["README.md"]).toContain("**Demo inventory.**");
    expect(Object.keys(importIdsByType(demo)).sort()).toEqual(Object.keys(seeded.importIds).sort());
    // The replication group's two members are its num_cache_clusters, not clusters of their own; their shared
    // settings are the group's (the security group lives in the vpc folder, so it is written as its id).
    const group = demoFiles["elasticache/elasticache_replication_group.tf"];
    expect(group).toMatch(/num_cache_clusters\s+= 2\n/);
    expect(group).toMatch(/subnet_group_name\s+= "demo-cache-subnets"\n/);
    expect(group).toMatch(/security_group_ids\s+= \["sg-0demo00000000db01"\]\n/);
    expect(Object.values(demoFiles).join("\n")).not.toContain("demo-carts-001");
    // Two queues, the second's redrive policy names the first by reference.
    expect(demoFiles["sqs/sqs_queue.tf"]).toContain(
      "deadLetterTargetArn = aws_sqs_queue.demo_order_events_dlq.arn",
    );
  });
});
