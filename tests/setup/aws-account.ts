import { ACMClient, RequestCertificateCommand } from "@aws-sdk/client-acm";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  AllocateAddressCommand,
  AssociateRouteTableCommand,
  AttachInternetGatewayCommand,
  AuthorizeSecurityGroupIngressCommand,
  CreateInternetGatewayCommand,
  CreateNatGatewayCommand,
  CreateRouteCommand,
  CreateRouteTableCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateVolumeCommand,
  CreateVpcCommand,
  DescribeImagesCommand,
  EC2Client,
  RunInstancesCommand,
  type Tag,
} from "@aws-sdk/client-ec2";
import { CreateRepositoryCommand, ECRClient } from "@aws-sdk/client-ecr";
import {
  CreateClusterCommand as CreateEcsClusterCommand,
  CreateServiceCommand,
  ECSClient,
  RegisterTaskDefinitionCommand,
} from "@aws-sdk/client-ecs";
import { CreateClusterCommand, CreateNodegroupCommand, EKSClient } from "@aws-sdk/client-eks";
import {
  CreateCacheClusterCommand,
  CreateReplicationGroupCommand,
  ElastiCacheClient,
} from "@aws-sdk/client-elasticache";
import {
  CreateLoadBalancerCommand,
  ElasticLoadBalancingV2Client,
} from "@aws-sdk/client-elastic-load-balancing-v2";
import { CreateRoleCommand, IAMClient } from "@aws-sdk/client-iam";
import { CreateFunctionCommand, LambdaClient } from "@aws-sdk/client-lambda";
import { CreateDBInstanceCommand, CreateDBSubnetGroupCommand, RDSClient } from "@aws-sdk/client-rds";
import { CreateHostedZoneCommand, Route53Client } from "@aws-sdk/client-route-53";
import { CreateBucketCommand, S3Client, type BucketLocationConstraint } from "@aws-sdk/client-s3";
import { CreateSecretCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { CreateTopicCommand, SNSClient } from "@aws-sdk/client-sns";
import { CreateQueueCommand, SQSClient } from "@aws-sdk/client-sqs";
import { strToU8, zipSync } from "fflate";
import { MOTO_ACCOUNT_ID, motoCredentials } from "./moto-server";

/** What was created, as Terraform resource type → the import ids Terraform needs to adopt each resource. */
export type SeededAccount = {
  accountId: string;
  region: string;
  importIds: Record<string, string[]>;
  /** Resources that exist but must not be exported (another region's bucket). */
  excludedBucket: string;
};

function required<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`moto did not return ${what}`);
  return value;
}

function nameTag(name: string, resourceType: string) {
  return [{ ResourceType: resourceType as never, Tags: [{ Key: "Name", Value: name }] as Tag[] }];
}

/**
 * Seeds one of each resource type the scanner exports into moto's default account, in `region`, the way a
 * small production account looks: a VPC with public and private subnets, routing through an internet and a NAT
 * gateway, a web tier, a database, a cache, queues, functions, a cluster and DNS. Names are fixed (only
 * buckets and the zone's caller reference carry `suffix`), so a moto server is seeded once per region.
 */
export async function seedAwsAccount({
  endpoint,
  region,
  suffix = Date.now().toString(36),
}: {
  endpoint: string;
  region: string;
  suffix?: string;
}): Promise<SeededAccount> {
  const config = { endpoint, region, credentials: motoCredentials };
  const ec2 = new EC2Client(config);
  const importIds: Record<string, string[]> = {};
  const record = (type: string, id: string) => (importIds[type] ??= []).push(id);

  const vpc = await ec2.send(
    new CreateVpcCommand({ CidrBlock: "10.20.0.0/16", TagSpecifications: nameTag("app-network", "vpc") }),
  );
  const vpcId = required(vpc.Vpc?.VpcId, "a VPC id");
  record("aws_vpc", vpcId);

  const subnetIds: string[] = [];
  for (const [index, [name, zone]] of (
    [
      ["public-a", `${region}a`],
      ["private-b", `${region}b`],
    ] as const
  ).entries()) {
    const subnet = await ec2.send(
      new CreateSubnetCommand({
        VpcId: vpcId,
        CidrBlock: `10.20.${index + 1}.0/24`,
        AvailabilityZone: zone,
        TagSpecifications: nameTag(name, "subnet"),
      }),
    );
    const subnetId = required(subnet.Subnet?.SubnetId, "a subnet id");
    subnetIds.push(subnetId);
    record("aws_subnet", subnetId);
  }
  const [publicSubnetId, privateSubnetId] = subnetIds as [string, string];

  const gateway = await ec2.send(
    new CreateInternetGatewayCommand({ TagSpecifications: nameTag("app-gateway", "internet-gateway") }),
  );
  const gatewayId = required(gateway.InternetGateway?.InternetGatewayId, "an internet gateway id");
  await ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: gatewayId, VpcId: vpcId }));
  record("aws_internet_gateway", gatewayId);

  const address = await ec2.send(new AllocateAddressCommand({ Domain: "vpc" }));
  const nat = await ec2.send(
    new CreateNatGatewayCommand({
      SubnetId: publicSubnetId,
      AllocationId: required(address.AllocationId, "an allocation id"),
      TagSpecifications: nameTag("app-nat", "natgateway"),
    }),
  );
  const natId = required(nat.NatGateway?.NatGatewayId, "a NAT gateway id");
  // Exported with the NAT gateway that uses it.
  record("aws_eip", required(address.AllocationId, "an allocation id"));
  record("aws_nat_gateway", natId);

  for (const [name, subnetId, target] of [
    ["public-routes", publicSubnetId, { GatewayId: gatewayId }],
    ["private-routes", privateSubnetId, { NatGatewayId: natId }],
  ] as const) {
    const table = await ec2.send(
      new CreateRouteTableCommand({ VpcId: vpcId, TagSpecifications: nameTag(name, "route-table") }),
    );
    const tableId = required(table.RouteTable?.RouteTableId, "a route table id");
    await ec2.send(
      new CreateRouteCommand({ RouteTableId: tableId, DestinationCidrBlock: "0.0.0.0/0", ...target }),
    );
    await ec2.send(new AssociateRouteTableCommand({ RouteTableId: tableId, SubnetId: subnetId }));
    record("aws_route_table", tableId);
    record("aws_route_table_association", `${subnetId}/${tableId}`);
  }

  const group = await ec2.send(
    new CreateSecurityGroupCommand({
      GroupName: "web",
      Description: "HTTPS from anywhere",
      VpcId: vpcId,
      TagSpecifications: nameTag("web", "security-group"),
    }),
  );
  const groupId = required(group.GroupId, "a security group id");
  await ec2.send(
    new AuthorizeSecurityGroupIngressCommand({
      GroupId: groupId,
      IpPermissions: [{ IpProtocol: "tcp", FromPort: 443, ToPort: 443, IpRanges: [{ CidrIp: "0.0.0.0/0" }] }],
    }),
  );
  record("aws_security_group", groupId);

  const images = await ec2.send(new DescribeImagesCommand({ Owners: ["amazon"] }));
  const imageId = required(images.Images?.[0]?.ImageId, "an AMI");
  const instances = await ec2.send(
    new RunInstancesCommand({
      ImageId: imageId,
      InstanceType: "t3.micro",
      MinCount: 1,
      MaxCount: 1,
      SubnetId: publicSubnetId,
      SecurityGroupIds: [groupId],
      TagSpecifications: nameTag("web-server", "instance"),
    }),
  );
  record("aws_instance", required(instances.Instances?.[0]?.InstanceId, "an instance id"));

  const volume = await ec2.send(
    new CreateVolumeCommand({
      AvailabilityZone: `${region}a`,
      Size: 20,
      VolumeType: "gp3",
      TagSpecifications: nameTag("data-volume", "volume"),
    }),
  );
  record("aws_ebs_volume", required(volume.VolumeId, "a volume id"));

  const s3 = new S3Client({ ...config, forcePathStyle: true });
  const bucket = `assets-${suffix}`;
  await s3.send(
    new CreateBucketCommand({
      Bucket: bucket,
      ...(region === "us-east-1"
        ? {}
        : { CreateBucketConfiguration: { LocationConstraint: region as BucketLocationConstraint } }),
    }),
  );
  record("aws_s3_bucket", bucket);
  const otherRegion = region === "us-west-2" ? "eu-west-1" : "us-west-2";
  const excludedBucket = `elsewhere-${suffix}`;
  await new S3Client({ ...config, region: otherRegion, forcePathStyle: true }).send(
    new CreateBucketCommand({
      Bucket: excludedBucket,
      CreateBucketConfiguration: { LocationConstraint: otherRegion as BucketLocationConstraint },
    }),
  );

  const rds = new RDSClient(config);
  await rds.send(
    new CreateDBSubnetGroupCommand({
      DBSubnetGroupName: "orders-db-subnets",
      DBSubnetGroupDescription: "Private subnets of the orders database",
      SubnetIds: subnetIds,
    }),
  );
  await rds.send(
    new CreateDBInstanceCommand({
      DBInstanceIdentifier: "orders-db",
      Engine: "postgres",
      EngineVersion: "16.3",
      DBInstanceClass: "db.t3.micro",
      AllocatedStorage: 20,
      MasterUsername: "orders",
      MasterUserPassword: "not-a-real-password-1",
      DBSubnetGroupName: "orders-db-subnets",
      VpcSecurityGroupIds: [groupId],
    }),
  );
  record("aws_db_subnet_group", "orders-db-subnets");
  record("aws_db_instance", "orders-db");
  const secret = await new SecretsManagerClient(config).send(
    new CreateSecretCommand({
      Name: "orders-db-password",
      Description: "Password of the orders-db database",
      SecretString: "not-a-real-password-1",
      Tags: [{ Key: "Team", Value: "orders" }],
    }),
  );
  record("aws_secretsmanager_secret", required(secret.ARN, "a secret ARN"));

  await new ElastiCacheClient(config).send(
    new CreateCacheClusterCommand({
      CacheClusterId: "sessions-cache",
      Engine: "redis",
      CacheNodeType: "cache.t3.micro",
      NumCacheNodes: 1,
    }),
  );
  record("aws_elasticache_cluster", "sessions-cache");
  // moto 5 makes one member cluster whatever the count asked, and lists it neither with the group's security
  // groups nor in DescribeCacheClusters; the demo inventory covers a group of two members.
  await new ElastiCacheClient(config).send(
    new CreateReplicationGroupCommand({
      ReplicationGroupId: "carts-cache",
      ReplicationGroupDescription: "Cache carts",
      Engine: "redis",
      CacheNodeType: "cache.t3.micro",
      NumCacheClusters: 1,
      AtRestEncryptionEnabled: true,
      TransitEncryptionEnabled: true,
      SecurityGroupIds: [groupId],
    }),
  );
  record("aws_elasticache_replication_group", "carts-cache");

  await new DynamoDBClient(config).send(
    new CreateTableCommand({
      TableName: "orders",
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [
        { AttributeName: "pk", AttributeType: "S" },
        { AttributeName: "sk", AttributeType: "S" },
      ],
      KeySchema: [
        { AttributeName: "pk", KeyType: "HASH" },
        { AttributeName: "sk", KeyType: "RANGE" },
      ],
    }),
  );
  record("aws_dynamodb_table", "orders");

  const queue = await new SQSClient(config).send(new CreateQueueCommand({ QueueName: "order-events" }));
  record("aws_sqs_queue", required(queue.QueueUrl, "a queue URL"));

  const topic = await new SNSClient(config).send(new CreateTopicCommand({ Name: "order-notifications" }));
  record("aws_sns_topic", required(topic.TopicArn, "a topic ARN"));

  const iam = new IAMClient(config);
  const role = await iam.send(
    new CreateRoleCommand({
      RoleName: "process-orders-lambda",
      AssumeRolePolicyDocument: JSON.stringify({
        Version: "2012-10-17",
        Statement: [
          { Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" },
        ],
      }),
    }),
  );
  const roleArn = required(role.Role?.Arn, "a role ARN");
  record("aws_iam_role", "process-orders-lambda");

  await new LambdaClient(config).send(
    new CreateFunctionCommand({
      FunctionName: "process-orders",
      Runtime: "python3.12",
      Role: roleArn,
      Handler: "index.handler",
      Code: { ZipFile: zipSync({ "index.py": strToU8("def handler(event, context):\n    return event\n") }) },
    }),
  );
  record("aws_lambda_function", "process-orders");

  await new ECRClient(config).send(new CreateRepositoryCommand({ repositoryName: "web-app" }));
  record("aws_ecr_repository", "web-app");

  await new EKSClient(config).send(
    new CreateClusterCommand({
      name: "platform-cluster",
      roleArn,
      resourcesVpcConfig: { subnetIds, securityGroupIds: [groupId] },
    }),
  );
  record("aws_eks_cluster", "platform-cluster");
  await new EKSClient(config).send(
    new CreateNodegroupCommand({
      clusterName: "platform-cluster",
      nodegroupName: "platform-nodes",
      nodeRole: roleArn,
      subnets: subnetIds,
      instanceTypes: ["t3.medium"],
      capacityType: "ON_DEMAND",
      scalingConfig: { minSize: 1, maxSize: 3, desiredSize: 2 },
      tags: { Team: "platform" },
    }),
  );
  record("aws_eks_node_group", "platform-cluster:platform-nodes");

  const ecs = new ECSClient(config);
  await ecs.send(new CreateEcsClusterCommand({ clusterName: "apps", tags: [{ key: "Team", value: "web" }] }));
  record("aws_ecs_cluster", "apps");
  const taskDefinition = await ecs.send(
    new RegisterTaskDefinitionCommand({
      family: "web-app",
      requiresCompatibilities: ["FARGATE"],
      networkMode: "awsvpc",
      cpu: "256",
      memory: "512",
      executionRoleArn: roleArn,
      containerDefinitions: [
        { name: "web", image: "nginx:1.27", essential: true, portMappings: [{ containerPort: 80 }] },
      ],
    }),
  );
  const taskDefinitionArn = required(
    taskDefinition.taskDefinition?.taskDefinitionArn,
    "a task definition ARN",
  );
  record("aws_ecs_task_definition", taskDefinitionArn);
  await ecs.send(
    new CreateServiceCommand({
      cluster: "apps",
      serviceName: "web",
      taskDefinition: taskDefinitionArn,
      desiredCount: 2,
      launchType: "FARGATE",
      networkConfiguration: {
        awsvpcConfiguration: { subnets: subnetIds, securityGroups: [groupId], assignPublicIp: "DISABLED" },
      },
    }),
  );
  record("aws_ecs_service", "apps/web");

  const balancer = await new ElasticLoadBalancingV2Client(config).send(
    new CreateLoadBalancerCommand({
      Name: "web-alb",
      Subnets: subnetIds,
      SecurityGroups: [groupId],
      Type: "application",
      Scheme: "internet-facing",
    }),
  );
  record("aws_lb", required(balancer.LoadBalancers?.[0]?.LoadBalancerArn, "a load balancer ARN"));

  const zone = await new Route53Client(config).send(
    new CreateHostedZoneCommand({ Name: "orders.example.test", CallerReference: `zone-${suffix}` }),
  );
  record(
    "aws_route53_zone",
    required(zone.HostedZone?.Id, "a hosted zone id").replace(/^\/hostedzone\//, ""),
  );

  const certificate = await new ACMClient(config).send(
    new RequestCertificateCommand({ DomainName: "app.orders.example.test", ValidationMethod: "DNS" }),
  );
  record("aws_acm_certificate", required(certificate.CertificateArn, "a certificate ARN"));

  return { accountId: MOTO_ACCOUNT_ID, region, importIds, excludedBucket };
}
