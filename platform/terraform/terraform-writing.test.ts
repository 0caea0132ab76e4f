import { describe, expect, it } from "vitest";
import { createArchive, readArchive } from "./archive";
import { createDownloadLinks } from "./download-links";
import { quote, renderTopLevelBlock } from "./hcl";
import { attributes, block, FunctionCall, Reference } from "./model";
import { trustPolicyRequiresExternalId } from "./role-access";
import { terraformName } from "./terraform-project";

const literal = (reference: Reference) => quote(reference.literal);

describe("HCL strings", () => {
  it("escapes quotes, backslashes, control characters and template sequences", () => {
    expect(quote('say "hi"\\now\n')).toBe('"say \\"hi\\"\\\\now\\n"');
    expect(quote("${var.secret} and %{if x}")).toBe('"$${var.secret} and %%{if x}"');
    expect(quote("bell\u0007")).toBe('"bell\\u0007"');
  });
});

describe("a rendered block", () => {
  it("aligns runs of single-line arguments and keeps multi-line ones apart, as terraform fmt does", () => {
    const text = renderTopLevelBlock(
      "resource",
      ["aws_sqs_queue", "jobs"],
      [
        ...attributes({
          name: "jobs",
          visibility_timeout_seconds: 30,
          redrive_policy: new FunctionCall("jsonencode", [
            { maxReceiveCount: 5, deadLetterTargetArn: "arn:x" },
          ]),
          tags: { Name: "jobs", "kubernetes.io/role": "queue" },
          empty_list: [],
          unset: undefined,
        }),
        block("lifecycle", attributes({ prevent_destroy: true })),
      ],
      literal,
    );
    expect(text).toBe(
      [
        'resource "aws_sqs_queue" "jobs" {',
        '  name                       = "jobs"',
        "  visibility_timeout_seconds = 30",
        "  redrive_policy = jsonencode({",
        "    maxReceiveCount     = 5",
        '    deadLetterTargetArn = "arn:x"',
        "  })",
        "  tags = {",
        '    Name                 = "jobs"',
        '    "kubernetes.io/role" = "queue"',
        "  }",
        "",
        "  lifecycle {",
        "    prevent_destroy = true",
        "  }",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("renders a reference as the resolver decides", () => {
    const text = renderTopLevelBlock(
      "resource",
      ["aws_subnet", "a"],
      attributes({ vpc_id: new Reference("aws_vpc", "vpc-1") }),
      () => "aws_vpc.main.id",
    );
    expect(text).toContain("vpc_id = aws_vpc.main.id");
  });
});

describe("resource names", () => {
  it.each([
    ["web-server", "web_server"],
    ["Public Subnet (A)", "public_subnet_a"],
    ["10.0.0.0/16", "r_10_0_0_0_16"],
    ["---", "resource"],
    ["São Paulo", "sao_paulo"],
  ])("%s becomes %s", (hint, name) => {
    expect(terraformName(hint)).toBe(name);
  });
});

describe("the archive", () => {
  it("is byte for byte the same for the same files, under one folder", () => {
    const files = { "b/main.tf": "b", "README.md": "readme", "a/main.tf": "a" };
    const first = createArchive("terraform-1", files);
    expect(createArchive("terraform-1", { ...files })).toEqual(first);
    expect(Object.keys(readArchive(first))).toEqual([
      "terraform-1/README.md",
      "terraform-1/a/main.tf",
      "terraform-1/b/main.tf",
    ]);
  });
});

describe("signed download links", () => {
  const links = createDownloadLinks({ publicUrl: "http://platform.test", secret: "s".repeat(32) });
  const jobId = "6f1c2a9e-1111-4222-8333-444455556666";
  const expiresAt = new Date("2026-03-02T10:00:00Z");
  const url = new URL(links.create(jobId, expiresAt));
  const expires = url.searchParams.get("expires") ?? undefined;
  const signature = url.searchParams.get("signature") ?? undefined;

  it("are valid until they expire, then expired", () => {
    expect(url.pathname).toBe(`/files/terraform/${jobId}.zip`);
    expect(links.verify(jobId, expires, signature, new Date(expiresAt.getTime() - 1000))).toBe("valid");
    expect(links.verify(jobId, expires, signature, expiresAt)).toBe("expired");
  });

  it("are invalid for another job, another expiry, another key or no signature", () => {
    const before = new Date(expiresAt.getTime() - 1000);
    expect(links.verify("7f1c2a9e-1111-4222-8333-444455556666", expires, signature, before)).toBe("invalid");
    expect(links.verify(jobId, String(Number(expires) + 60), signature, before)).toBe("invalid");
    const other = createDownloadLinks({ publicUrl: "http://platform.test", secret: "t".repeat(32) });
    expect(other.verify(jobId, expires, signature, before)).toBe("invalid");
    expect(links.verify(jobId, expires, undefined, before)).toBe("invalid");
  });
});

describe("the role's trust policy", () => {
  const statement = (condition?: unknown) => ({
    Effect: "Allow",
    Principal: { AWS: "arn:aws:iam::111111111111:root" },
    Action: "sts:AssumeRole",
    ...(condition ? { Condition: condition } : {}),
  });

  it("is accepted only when every way to assume the role requires the job's external id", () => {
    const required = statement({ StringEquals: { "sts:ExternalId": "job-external-id" } });
    expect(trustPolicyRequiresExternalId({ Statement: [required] }, "job-external-id")).toBe(true);
    expect(trustPolicyRequiresExternalId({ Statement: required }, "job-external-id")).toBe(true);
    expect(trustPolicyRequiresExternalId({ Statement: [required] }, "another-id")).toBe(false);
    expect(trustPolicyRequiresExternalId({ Statement: [required, statement()] }, "job-external-id")).toBe(
      false,
    );
    expect(trustPolicyRequiresExternalId({ Statement: [] }, "job-external-id")).toBe(false);
    expect(
      trustPolicyRequiresExternalId(
        { Statement: [statement({ StringEquals: { "sts:ExternalId": ["job-external-id", "other"] } })] },
        "job-external-id",
      ),
    ).toBe(false);
  });
});
