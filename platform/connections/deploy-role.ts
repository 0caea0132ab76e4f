import { TAG_ORGANIZATION } from "../cloud/aws/provisioner";
import { externalIdTrustPolicy, PRODUCT_NAME } from "../terraform/role-access";
import { scanPermissions } from "../terraform/scanner";

/**
 * The role an AWS connection's "Assume a role" method deploys through (issue 24 §2, decision 048): exactly the
 * calls the provisioners, the logs and monitoring tabs, the environment's Terraform export and the connection's
 * ECR registries make with the connection's credentials (platform/connections/deploy-role.test.ts compares them
 * with the code), in the statements below. The Terraform tool keeps its read-only role (terraform/role-access.ts).
 */

export const DEPLOY_ROLE_NAME_PREFIX = "CloudConsoleDeploy";

/** One role per organization: named after its external id, so each organization's stack has its own. */
export function deployRoleNameFor(externalId: string): string {
  return `${DEPLOY_ROLE_NAME_PREFIX}-${externalId.replaceAll("-", "").slice(0, 12)}`;
}

/** Finding and reading: resources are found by their tags and names, which takes listing and describing them. */
const readActions = [
  "acm:DescribeCertificate",
  "acm:ListCertificates",
  "acm:ListTagsForCertificate",
  "application-autoscaling:DescribeScalableTargets",
  "application-autoscaling:DescribeScalingPolicies",
  "cloudwatch:GetMetricData",
  "dynamodb:DescribeTable",
  "dynamodb:ListTagsOfResource",
  // Counts a table's items before a replacement, which is refused while it holds any (decision 047).
  "dynamodb:Scan",
  "ec2:DescribeAddresses",
  "ec2:DescribeAvailabilityZones",
  // The overview's units: the instances of a cluster's node group (decision 052).
  "ec2:DescribeInstances",
  "ec2:DescribeInternetGateways",
  "ec2:DescribeNatGateways",
  "ec2:DescribeRouteTables",
  "ec2:DescribeSecurityGroups",
  "ec2:DescribeSubnets",
  "ec2:DescribeVpcAttribute",
  "ec2:DescribeVpcs",
  "ecr:DescribeImages",
  "ecr:DescribeRepositories",
  "ecr:GetAuthorizationToken",
  "ecs:DescribeClusters",
  "ecs:DescribeServices",
  "ecs:DescribeTaskDefinition",
  // The overview's units: an application's tasks (decision 052).
  "ecs:DescribeTasks",
  "ecs:ListClusters",
  "ecs:ListServices",
  "ecs:ListTaskDefinitions",
  "ecs:ListTasks",
  "eks:DescribeCluster",
  "eks:DescribeNodegroup",
  "eks:ListNodegroups",
  "elasticache:DescribeCacheClusters",
  "elasticache:DescribeCacheSubnetGroups",
  "elasticache:DescribeReplicationGroups",
  "elasticache:DescribeSnapshots",
  "elasticloadbalancing:DescribeListenerCertificates",
  "elasticloadbalancing:DescribeListeners",
  "elasticloadbalancing:DescribeLoadBalancers",
  "elasticloadbalancing:DescribeRules",
  "elasticloadbalancing:DescribeTags",
  "elasticloadbalancing:DescribeTargetGroups",
  // The connection's check reads its own role's trust policy; the export reads roles' tags.
  "iam:GetRole",
  "iam:ListAttachedRolePolicies",
  "iam:ListRoleTags",
  "lambda:GetFunction",
  "lambda:GetFunctionConfiguration",
  "lambda:GetFunctionUrlConfig",
  "logs:DescribeLogGroups",
  "logs:FilterLogEvents",
  "rds:DescribeDBInstances",
  "rds:DescribeDBSnapshots",
  "rds:DescribeDBSubnetGroups",
  "s3:GetBucketLocation",
  "s3:GetBucketPublicAccessBlock",
  "s3:GetBucketTagging",
  "s3:GetBucketVersioning",
  "s3:ListAllMyBuckets",
  "s3:ListBucket",
  "s3:ListBucketVersions",
  // The generated passwords of databases and caches, which fill their secret attributes. Not scoped by tag: a
  // step asks for the secret before it exists (ResourceNotFoundException means "create it"), and AWS answers
  // AccessDenied instead when a tag condition cannot be evaluated on a secret that is not there. A teardown looks
  // the secret up (DescribeSecret) before deleting it.
  "secretsmanager:DescribeSecret",
  "secretsmanager:GetResourcePolicy",
  "secretsmanager:GetSecretValue",
  "sqs:GetQueueAttributes",
  "sqs:GetQueueUrl",
  "sqs:ListQueueTags",
  "sts:GetCallerIdentity",
  "tag:GetResources",
];

/**
 * Creating and changing. Resource "*" without a tag condition: AWS authorizes several of these on parts that carry
 * no tags when asked (a security group rule, a route, a listener rule's load balancer, an S3 bucket, whose tags S3
 * policies cannot read), and the idempotent steps call some of them on what may already be gone, which a tag
 * condition turns from NotFound into AccessDenied. The provisioners check the cloud-console:service tag themselves
 * before they change or delete anything they find by name (naming.ts `ownedBy`).
 */
const changeActions = [
  "acm:DeleteCertificate",
  "acm:RequestCertificate",
  "application-autoscaling:DeleteScalingPolicy",
  "application-autoscaling:DeregisterScalableTarget",
  "application-autoscaling:PutScalingPolicy",
  "application-autoscaling:RegisterScalableTarget",
  "dynamodb:CreateTable",
  "dynamodb:UpdateTable",
  "ec2:AllocateAddress",
  "ec2:AssociateRouteTable",
  "ec2:AttachInternetGateway",
  "ec2:AuthorizeSecurityGroupIngress",
  "ec2:CreateInternetGateway",
  "ec2:CreateNatGateway",
  "ec2:CreateRoute",
  "ec2:CreateRouteTable",
  "ec2:CreateSecurityGroup",
  "ec2:CreateSubnet",
  "ec2:CreateVpc",
  "ec2:DetachInternetGateway",
  "ec2:DisassociateRouteTable",
  "ec2:ModifySubnetAttribute",
  "ec2:ModifyVpcAttribute",
  "ec2:ReplaceRoute",
  "ec2:RevokeSecurityGroupIngress",
  "ecs:CreateCluster",
  "ecs:CreateService",
  "ecs:DeleteCluster",
  "ecs:DeleteService",
  "ecs:DeleteTaskDefinitions",
  "ecs:DeregisterTaskDefinition",
  "ecs:RegisterTaskDefinition",
  "ecs:UpdateService",
  "eks:CreateCluster",
  "eks:CreateNodegroup",
  "eks:UpdateClusterConfig",
  "eks:UpdateClusterVersion",
  "eks:UpdateNodegroupConfig",
  "eks:UpdateNodegroupVersion",
  "elasticache:CreateCacheCluster",
  "elasticache:CreateCacheSubnetGroup",
  "elasticache:CreateReplicationGroup",
  // The final snapshot of a Redis or Valkey group, taken before it is deleted (decision 047).
  "elasticache:CreateSnapshot",
  "elasticache:DecreaseReplicaCount",
  // A replacement or teardown with a final snapshot also authorizes the new (untagged) snapshot: no tag condition.
  "elasticache:DeleteCacheCluster",
  "elasticache:DeleteCacheSubnetGroup",
  "elasticache:DeleteReplicationGroup",
  "elasticache:IncreaseReplicaCount",
  "elasticache:ModifyCacheCluster",
  "elasticache:ModifyReplicationGroup",
  // The HTTPS listener's certificates: one per domain served there (decision 053).
  "elasticloadbalancing:AddListenerCertificates",
  "elasticloadbalancing:CreateListener",
  "elasticloadbalancing:CreateLoadBalancer",
  "elasticloadbalancing:CreateRule",
  "elasticloadbalancing:CreateTargetGroup",
  "elasticloadbalancing:DeleteRule",
  "elasticloadbalancing:DeleteTargetGroup",
  "elasticloadbalancing:ModifyListener",
  "elasticloadbalancing:ModifyRule",
  "elasticloadbalancing:ModifyTargetGroup",
  "elasticloadbalancing:RemoveListenerCertificates",
  "elasticloadbalancing:SetSecurityGroups",
  "iam:CreateRole",
  "iam:DeleteRole",
  "lambda:AddPermission",
  "lambda:CreateFunction",
  "lambda:CreateFunctionUrlConfig",
  "lambda:DeleteFunctionUrlConfig",
  "lambda:RemovePermission",
  "lambda:UpdateFunctionCode",
  "lambda:UpdateFunctionConfiguration",
  "logs:CreateLogGroup",
  "logs:DeleteLogGroup",
  "logs:PutRetentionPolicy",
  "rds:CreateDBInstance",
  // DeleteDBInstance with FinalDBSnapshotIdentifier: AWS authorizes the final snapshot as rds:CreateDBSnapshot
  // too (a dependent action in its Service Authorization Reference). Not scoped by tag: the request also names the
  // new snapshot, which has no tags yet when AWS decides (it gets the instance's with CopyTagsToSnapshot after).
  "rds:CreateDBSnapshot",
  "rds:CreateDBSubnetGroup",
  "rds:DeleteDBSubnetGroup",
  "rds:ModifyDBInstance",
  "rds:StartDBInstance",
  "s3:CreateBucket",
  "s3:DeleteBucket",
  "s3:DeleteBucketPolicy",
  "s3:DeleteObject",
  "s3:DeleteObjectVersion",
  "s3:PutBucketPolicy",
  "s3:PutBucketPublicAccessBlock",
  "s3:PutBucketTagging",
  "s3:PutBucketVersioning",
  "s3:PutEncryptionConfiguration",
  "s3:PutLifecycleConfiguration",
  "secretsmanager:CreateSecret",
  "secretsmanager:DeleteSecret",
  // An application's secret variables (decision 074): a new version when they change, readable by its tasks'
  // execution role through the secret's own policy (no policy document is ever put on a role).
  "secretsmanager:PutResourcePolicy",
  "secretsmanager:PutSecretValue",
  "secretsmanager:RestoreSecret",
  "sqs:CreateQueue",
  "sqs:DeleteQueue",
  "sqs:SetQueueAttributes",
];

/**
 * Deleting what holds data or costs money, only where it carries this organization's tag. Each of these is called
 * only after a describe found the resource (so a tag condition never meets one that is gone), on a resource the
 * platform tagged when it created it, and AWS authorizes it on that resource alone.
 */
const ownedDeleteActions = [
  "dynamodb:DeleteTable",
  "ec2:DeleteInternetGateway",
  "ec2:DeleteNatGateway",
  "ec2:DeleteRouteTable",
  "ec2:DeleteSecurityGroup",
  "ec2:DeleteSubnet",
  "ec2:DeleteVpc",
  "ec2:ReleaseAddress",
  "eks:DeleteCluster",
  "eks:DeleteNodegroup",
  // The HTTPS listener once no domain is served on it: created with the environment's tags.
  "elasticloadbalancing:DeleteListener",
  "elasticloadbalancing:DeleteLoadBalancer",
  "lambda:DeleteFunction",
  "rds:DeleteDBInstance",
];

/**
 * The permission each service asks for when a create call carries tags (tag-on-create), by IAM prefix; S3 tags a
 * bucket with a call of its own (s3:PutBucketTagging). EC2's is limited to tagging at creation below.
 */
export const tagOnCreateActions: Record<string, string> = {
  acm: "acm:AddTagsToCertificate",
  "application-autoscaling": "application-autoscaling:TagResource",
  dynamodb: "dynamodb:TagResource",
  ec2: "ec2:CreateTags",
  ecs: "ecs:TagResource",
  eks: "eks:TagResource",
  elasticache: "elasticache:AddTagsToResource",
  elasticloadbalancing: "elasticloadbalancing:AddTags",
  iam: "iam:TagRole",
  lambda: "lambda:TagResource",
  logs: "logs:TagResource",
  rds: "rds:AddTagsToResource",
  secretsmanager: "secretsmanager:TagResource",
  sqs: "sqs:TagQueue",
};

/** The EC2 calls that tag what they create (TagSpecifications), the only ones ec2:CreateTags is granted with. */
const ec2TaggedCreates = [
  "AllocateAddress",
  "CreateInternetGateway",
  "CreateNatGateway",
  "CreateRouteTable",
  "CreateSecurityGroup",
  "CreateSubnet",
  "CreateVpc",
];

/**
 * The AWS managed policies the provisioners attach to the roles they create (ECS task execution, EKS cluster and
 * nodes, Lambda): no other policy may be attached, so the role cannot grant itself more through a role it creates.
 */
export const attachablePolicies = [
  "service-role/AmazonECSTaskExecutionRolePolicy",
  "AmazonEKSClusterPolicy",
  "AmazonEKSWorkerNodePolicy",
  "AmazonEKS_CNI_Policy",
  "AmazonEC2ContainerRegistryReadOnly",
  "service-role/AWSLambdaBasicExecutionRole",
];

/** The services the created roles are handed to (ECS tasks, EKS clusters and nodes, Lambda functions). */
const roleReceivers = [
  "ecs-tasks.amazonaws.com",
  "eks.amazonaws.com",
  "ec2.amazonaws.com",
  "lambda.amazonaws.com",
];

/** Service-linked roles AWS creates on an account's first load balancer, ECS service, EKS cluster, ... */
const serviceLinkedRoles = [
  "elasticloadbalancing.amazonaws.com",
  "ecs.amazonaws.com",
  "eks.amazonaws.com",
  "eks-nodegroup.amazonaws.com",
  "rds.amazonaws.com",
  "elasticache.amazonaws.com",
  "ecs.application-autoscaling.amazonaws.com",
];

const policyArn = (name: string) => ({ "Fn::Sub": `arn:\${AWS::Partition}:iam::aws:policy/${name}` });

/** The template's policy statements, each with a Sid saying what it is for. */
function deployStatements() {
  const sorted = (actions: string[]) => [...new Set(actions)].sort();
  return [
    {
      Sid: "FindAndRead",
      Effect: "Allow",
      // The environment's Terraform export reads with the same scanners as the Terraform tool.
      Action: sorted([...readActions, ...scanPermissions()]),
      Resource: "*",
    },
    {
      Sid: "CreateAndChange",
      Effect: "Allow",
      Action: sorted([
        ...changeActions,
        ...Object.values(tagOnCreateActions).filter((action) => action !== "ec2:CreateTags"),
      ]),
      Resource: "*",
    },
    {
      Sid: "TagEc2OnCreate",
      Effect: "Allow",
      Action: ["ec2:CreateTags"],
      Resource: "*",
      Condition: { StringEquals: { "ec2:CreateAction": ec2TaggedCreates } },
    },
    {
      Sid: "DeleteOwnOnly",
      Effect: "Allow",
      Action: sorted(ownedDeleteActions),
      Resource: "*",
      Condition: {
        StringEquals: { [`aws:ResourceTag/${TAG_ORGANIZATION}`]: { Ref: "OrganizationId" } },
      },
    },
    {
      Sid: "AttachOnlyTheProvisionersPolicies",
      Effect: "Allow",
      Action: ["iam:AttachRolePolicy", "iam:DetachRolePolicy"],
      Resource: "*",
      Condition: { ArnEquals: { "iam:PolicyARN": attachablePolicies.map(policyArn) } },
    },
    {
      Sid: "PassRolesToTheirServices",
      Effect: "Allow",
      Action: ["iam:PassRole"],
      Resource: "*",
      Condition: { StringEquals: { "iam:PassedToService": roleReceivers } },
    },
    {
      Sid: "CreateServiceLinkedRoles",
      Effect: "Allow",
      Action: ["iam:CreateServiceLinkedRole"],
      Resource: "*",
      Condition: { StringEquals: { "iam:AWSServiceName": serviceLinkedRoles } },
    },
  ];
}

/**
 * The CloudFormation template of the deploy role: it trusts the platform's account only with the organization's
 * external id, and may do what deploying, monitoring and exporting the organization's environments takes.
 */
export function deployRoleTemplate() {
  return {
    AWSTemplateFormatVersion: "2010-09-09",
    Description: `${PRODUCT_NAME}: the role that deploys your environments (creates, changes and deletes their AWS resources), reads their logs and metrics and exports them as Terraform. Delete this stack to revoke the access.`,
    Parameters: {
      RoleName: {
        Type: "String",
        Description: `Name of the role ${PRODUCT_NAME} assumes`,
        AllowedPattern: "[\\w+=,.@-]{1,64}",
      },
      ExternalId: {
        Type: "String",
        Description: `The external id ${PRODUCT_NAME} must present: it ties the role to one organization`,
        MinLength: 16,
      },
      TrustedAccountId: {
        Type: "String",
        Description: `The AWS account ${PRODUCT_NAME} runs in`,
        AllowedPattern: "\\d{12}",
      },
      OrganizationId: {
        Type: "String",
        Description: `The organization whose resources the role may delete (their ${TAG_ORGANIZATION} tag)`,
        MinLength: 1,
      },
    },
    Resources: {
      DeployRole: {
        Type: "AWS::IAM::Role",
        Properties: {
          RoleName: { Ref: "RoleName" },
          Description: `${PRODUCT_NAME} deployments, logs, metrics and Terraform exports`,
          MaxSessionDuration: 3600,
          AssumeRolePolicyDocument: externalIdTrustPolicy,
          Policies: [
            {
              PolicyName: "CloudConsoleDeploy",
              PolicyDocument: { Version: "2012-10-17", Statement: deployStatements() },
            },
          ],
        },
      },
    },
    Outputs: { RoleArn: { Value: { "Fn::GetAtt": ["DeployRole", "Arn"] } } },
  };
}
