import { quote, renderTopLevelBlock, type ResolveReference } from "./hcl";
import {
  attributes,
  Expression,
  serviceNames,
  type Inventory,
  type ScannedResource,
  type ServiceName,
} from "./model";
import { lambdaCodePath } from "./services/lambda";

/** The AWS provider every folder pins; import blocks need Terraform 1.5. */
export const AWS_PROVIDER_VERSION = "5.80.0";
export const REQUIRED_TERRAFORM_VERSION = ">= 1.5.0";

export type TerraformProjectInput = {
  accountId: string;
  region: string;
  generatedAt: Date;
  inventory: Inventory;
  /** `demo` marks an archive made from the built-in demo inventory rather than a real account. */
  source: "aws" | "demo";
  productName: string;
  /** Set for an environment's export: the archive holds only what the platform created for it. */
  environment?: { id: string; name: string; tag: string };
};

/**
 * `service:resource-type` of an ARN (`iam:role`, `logs:log-group`, `elasticloadbalancing:listener`): how the
 * README and the completeness test name a kind of AWS resource.
 */
export function kindOfArn(arn: string): string {
  const [, , service = "", , , ...rest] = arn.split(":");
  return `${service}:${rest.join(":").split(/[:/]/)[0] ?? ""}`;
}

/**
 * Kinds of resources the provisioners create and tag that an environment's export leaves out on purpose (issue 24,
 * decision 053): its README says so and why, and the export's moto test allows no other tagged resource to be left
 * out. Final snapshots are the restore points of deleted databases and caches: data the account keeps after the
 * environment is gone, not its configuration. In a Terraform state, `terraform destroy` of the environment's folder
 * would delete them with it, and `aws_db_snapshot` would name an instance that no longer exists.
 */
export const notExportedKinds: { kind: string; description: string }[] = [
  {
    kind: "rds:snapshot",
    description:
      "RDS snapshots (a deleted database's final snapshot): its data, which the account keeps after the environment is gone and a `terraform destroy` here must not delete; the environment's page lists them with how to restore each",
  },
  {
    kind: "elasticache:snapshot",
    description: "ElastiCache snapshots (a deleted cache's final snapshot), for the same reason",
  },
];

/** A resource with the Terraform name it got in its folder. */
type NamedResource = ScannedResource & { name: string };

/** "Public subnet (a)" → "public_subnet_a": lowercase words joined by underscores, starting with a letter. */
export function terraformName(hint: string): string {
  const words = hint
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 60)
    .replace(/_+$/, "");
  if (!words) return "resource";
  return /^[0-9]/.test(words) ? `r_${words}` : words;
}

function referenceKey(type: string, awsId: string): string {
  return `${type}\u0000${awsId}`;
}

/** Names unique per type within each folder: "web", "web_2", ... in scan order. */
function nameResources(resources: ScannedResource[]): NamedResource[] {
  const taken = new Set<string>();
  return resources.map((resource) => {
    const base = terraformName(resource.nameHint);
    let name = base;
    for (let suffix = 2; taken.has(`${resource.service}.${resource.type}.${name}`); suffix++) {
      name = `${base}_${suffix}`;
    }
    taken.add(`${resource.service}.${resource.type}.${name}`);
    return { ...resource, name };
  });
}

function shortType(type: string): string {
  return type.replace(/^aws_/, "");
}

function providerFile(input: TerraformProjectInput): string {
  const terraformBlock = renderTopLevelBlock(
    "terraform",
    [],
    [
      ...attributes({ required_version: REQUIRED_TERRAFORM_VERSION }),
      {
        kind: "block",
        type: "required_providers",
        body: attributes({ aws: { source: "hashicorp/aws", version: AWS_PROVIDER_VERSION } }),
      },
    ],
    literalOnly,
  );
  const providerBlock = renderTopLevelBlock(
    "provider",
    ["aws"],
    // allowed_account_ids stops a plan against the wrong account before it imports anything.
    attributes({ region: input.region, allowed_account_ids: [input.accountId] }),
    literalOnly,
  );
  return `${terraformBlock}\n${providerBlock}`;
}

const literalOnly: ResolveReference = (reference) => quote(reference.literal);

function folderFiles(
  service: ServiceName,
  resources: NamedResource[],
  resolve: ResolveReference,
  input: TerraformProjectInput,
): Record<string, string> {
  const files: Record<string, string> = { [`${service}/provider.tf`]: providerFile(input) };
  const types = [...new Set(resources.map((resource) => resource.type))];
  for (const type of types) {
    const blocks = resources
      .filter((resource) => resource.type === type)
      .map((resource) => renderTopLevelBlock("resource", [type, resource.name], resource.body, resolve));
    files[`${service}/${shortType(type)}.tf`] = blocks.join("\n");
  }
  files[`${service}/imports.tf`] = resources
    .map((resource) =>
      renderTopLevelBlock(
        "import",
        [],
        attributes({ to: new Expression(`${resource.type}.${resource.name}`), id: resource.importId }),
        resolve,
      ),
    )
    .join("\n");
  files[`${service}/outputs.tf`] = resources
    .filter((resource) => resource.type !== "aws_route_table_association")
    .map((resource) =>
      renderTopLevelBlock(
        "output",
        [`${shortType(resource.type)}_${resource.name}_id`],
        attributes({
          description: `ID of ${resource.nameHint}`,
          value: new Expression(`${resource.type}.${resource.name}.id`),
        }),
        resolve,
      ),
    )
    .join("\n");
  return files;
}

function readme(input: TerraformProjectInput, byService: Map<ServiceName, NamedResource[]>): string {
  const { accountId, region, productName } = input;
  const { environment } = input;
  const lines: string[] = [
    environment
      ? `# Terraform for environment ${environment.name} (AWS account ${accountId} in ${region})`
      : `# Terraform for AWS account ${accountId} in ${region}`,
    "",
  ];
  if (input.source === "demo") {
    lines.push(
      "> **Demo inventory.** This archive was generated from the built-in demo account inventory, not from an",
      "> AWS account: the platform that made it runs without AWS access. The resources and ids are examples, so",
      "> `terraform plan` against a real account will not find them. Connect a real account to export its",
      "> infrastructure.",
      "",
    );
  }
  lines.push(
    `Generated by ${productName} on ${input.generatedAt.toISOString()} from a read-only scan of account`,
    `${accountId} in ${region}.`,
    ...(environment
      ? [
          `It holds what ${productName} created for the environment ${environment.name}: the resources tagged`,
          `\`${environment.tag} = ${environment.id}\`, with the parts that belong to them, except the kinds`,
          `listed under "What is not exported".`,
        ]
      : []),
    "",
    "## What is inside",
    "",
    "| folder | resources |",
    "|---|---|",
  );
  for (const [service, resources] of byService) {
    const counts = new Map<string, number>();
    for (const resource of resources) counts.set(resource.type, (counts.get(resource.type) ?? 0) + 1);
    lines.push(
      `| \`${service}/\` | ${[...counts].map(([type, count]) => `${count} \`${type}\``).join(", ")} |`,
    );
  }
  if (byService.size === 0) lines.push("| (none) | the scan found no resources to export |");
  lines.push(
    "",
    "Each folder is a Terraform root module of its own:",
    "",
    "- `provider.tf` pins Terraform and the AWS provider, sets the region and `allowed_account_ids`, so a plan",
    "  against another account stops before it touches anything.",
    "- one file per resource type, with readable resource names taken from `Name` tags or resource names.",
    "- `imports.tf` holds one `import` block per resource: Terraform adopts the existing resources into its",
    "  state on the first apply, with no hand-made state file.",
    "- `outputs.tf` exposes each resource's id.",
    "",
    "Within a folder resources refer to each other (a subnet's `vpc_id` is `aws_vpc.<name>.id`). A resource",
    "in another folder, or one that was not exported, is named by its AWS id.",
    "",
    "## How to use it",
    "",
    "1. Install Terraform 1.5 or later and sign in to the account (for example `export AWS_PROFILE=...`).",
    "2. In a folder, run `terraform init`.",
    "3. Run `terraform plan`. Every resource should show `will be imported` with no changes. A resource that",
    "   would also be updated means the generated configuration differs from AWS in that argument: adjust the",
    "   configuration until the plan only imports.",
    "4. Run `terraform apply` to record the resources in Terraform's state. Afterwards `imports.tf` can be",
    "   deleted: an import block for a resource already in state does nothing.",
    "",
    "## What is not exported",
    "",
    "- The region's default VPC and the network inside it (subnets, route tables, gateways, security groups),",
    "  each VPC's main route table and `default` security group: AWS creates them, Terraform manages them with",
    "  `aws_default_*` resources.",
    `- Lambda function code and environment variables: the configuration ignores changes to them. Before`,
    `  changing a function's code with Terraform, download its package into \`lambda/${lambdaCodePath("<function>")}\`.`,
    "- Policies attached to IAM roles, Aurora cluster members, imported ACM certificates (their private key",
    "  cannot be read), and EC2 root volumes (they belong to their instance).",
    "- Secrets Manager secrets' values: the scan never reads them, so each secret is declared without its value.",
    "- IAM roles and Route 53 zones are global: every region's archive lists them.",
    ...(environment
      ? [
          `- Tagged for the environment but left out on purpose: ${notExportedKinds
            .map(({ description }) => description)
            .join("; ")}.`,
        ]
      : []),
  );
  if (input.inventory.skipped.length) {
    lines.push("", "## Services that could not be scanned", "");
    for (const { service, reason } of input.inventory.skipped) lines.push(`- \`${service}\`: ${reason}`);
  }
  lines.push("");
  return lines.join("\n");
}

/** The archive's files, path → content: a README and one folder per service that has resources. */
export function writeTerraformProject(input: TerraformProjectInput): Record<string, string> {
  const named = nameResources(input.inventory.resources);
  const byKey = new Map(named.map((resource) => [referenceKey(resource.type, resource.awsId), resource]));
  const byService = new Map<ServiceName, NamedResource[]>();
  for (const service of serviceNames) {
    const resources = named.filter((resource) => resource.service === service);
    if (resources.length) byService.set(service, resources);
  }
  const files: Record<string, string> = { "README.md": readme(input, byService) };
  for (const [service, resources] of byService) {
    const resolve: ResolveReference = (reference) => {
      const target = byKey.get(referenceKey(reference.targetType, reference.targetId));
      if (target && target.service === service) return `${target.type}.${target.name}.${reference.attribute}`;
      return quote(reference.literal);
    };
    Object.assign(files, folderFiles(service, resources, resolve, input));
  }
  return files;
}
