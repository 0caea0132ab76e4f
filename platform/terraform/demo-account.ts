import type { RawInventory } from "./scanner";

/**
 * The demo account inventory: what a small production account answers to the scan, in the AWS SDK's own shapes,
 * so it goes through exactly the conversion a real scan does. Used when the platform has no AWS access
 * (TERRAFORM_SCANNER=demo); the archive's README says so in its first lines, and every resource is tagged
 * `Inventory = "demo"`.
 */
export function demoRawInventory(accountId: string, region: string): RawInventory {
  const zoneA = `${region}a`;
  const zoneB = `${region}b`;
  const tags = (name: string) => [
    { Key: "Name", Value: name },
    { Key: "Inventory", Value: "demo" },
  ];
  const arn = (service: string, resource: string, scopedRegion: string = region) =>
    `arn:aws:${service}:${scopedRegion}:${accountId}:${resource}`;
  const vpcId = "vpc-0demo00000000001";
  const defaultVpcId = "vpc-0demo0000default";
  const publicSubnet = "subnet-0demo0000000pub1";
  const privateSubnet = "subnet-0demo000000priv2";
  const gatewayId = "igw-0demo00000000001";
  const natId = "nat-0demo00000000001";
  const webGroup = "sg-0demo000000000web";
  const databaseGroup = "sg-0demo00000000db01";
  const lambdaRole = `arn:aws:iam::${accountId}:role/demo-orders-worker`;
  const clusterRole = `arn:aws:iam::${accountId}:role/demo-eks-cluster`;

  return {
    vpc: {
      vpcs: [
        {
          VpcId: vpcId,
          CidrBlock: "10.42.0.0/16",
          InstanceTenancy: "default",
          IsDefault: false,
          Tags: tags("demo-network"),
        },
        { VpcId: defaultVpcId, CidrBlock: "172.31.0.0/16", InstanceTenancy: "default", IsDefault: true },
      ],
      subnets: [
        {
          SubnetId: publicSubnet,
          VpcId: vpcId,
          CidrBlock: "10.42.1.0/24",
          AvailabilityZone: zoneA,
          MapPublicIpOnLaunch: true,
          Tags: tags("demo-public-a"),
        },
        {
          SubnetId: privateSubnet,
          VpcId: vpcId,
          CidrBlock: "10.42.2.0/24",
          AvailabilityZone: zoneB,
          MapPublicIpOnLaunch: false,
          Tags: tags("demo-private-b"),
        },
        {
          SubnetId: "subnet-0demo00default1",
          VpcId: defaultVpcId,
          CidrBlock: "172.31.0.0/20",
          AvailabilityZone: zoneA,
        },
      ],
      internetGateways: [
        {
          InternetGatewayId: gatewayId,
          Attachments: [{ VpcId: vpcId, State: "attached" }],
          Tags: tags("demo-gateway"),
        },
        {
          InternetGatewayId: "igw-0demo000default1",
          Attachments: [{ VpcId: defaultVpcId, State: "attached" }],
        },
      ],
      natGateways: [
        {
          NatGatewayId: natId,
          VpcId: vpcId,
          SubnetId: publicSubnet,
          ConnectivityType: "public",
          NatGatewayAddresses: [{ AllocationId: "eipalloc-0demo0000000001" }],
          Tags: tags("demo-nat"),
        },
      ],
      addresses: [
        {
          AllocationId: "eipalloc-0demo0000000001",
          Domain: "vpc",
          PublicIp: "203.0.113.10",
          Tags: tags("demo-nat-ip"),
        },
      ],
      routeTables: [
        {
          RouteTableId: "rtb-0demo0000000main1",
          VpcId: vpcId,
          Associations: [{ Main: true, RouteTableAssociationId: "rtbassoc-0demo00000main1" }],
          Routes: [{ DestinationCidrBlock: "10.42.0.0/16", GatewayId: "local", Origin: "CreateRouteTable" }],
        },
        {
          RouteTableId: "rtb-0demo000000public",
          VpcId: vpcId,
          Associations: [
            { Main: false, SubnetId: publicSubnet, RouteTableAssociationId: "rtbassoc-0demo0000public" },
          ],
          Routes: [
            { DestinationCidrBlock: "10.42.0.0/16", GatewayId: "local", Origin: "CreateRouteTable" },
            { DestinationCidrBlock: "0.0.0.0/0", GatewayId: gatewayId, Origin: "CreateRoute" },
          ],
          Tags: tags("demo-public-routes"),
        },
        {
          RouteTableId: "rtb-0demo00000private",
          VpcId: vpcId,
          Associations: [
            { Main: false, SubnetId: privateSubnet, RouteTableAssociationId: "rtbassoc-0demo000private" },
          ],
          Routes: [
            { DestinationCidrBlock: "10.42.0.0/16", GatewayId: "local", Origin: "CreateRouteTable" },
            { DestinationCidrBlock: "0.0.0.0/0", NatGatewayId: natId, Origin: "CreateRoute" },
          ],
          Tags: tags("demo-private-routes"),
        },
      ],
      securityGroups: [
        {
          GroupId: "sg-0demo0000default1",
          GroupName: "default",
          VpcId: vpcId,
          Description: "default VPC security group",
        },
        {
          GroupId: webGroup,
          GroupName: "demo-web",
          VpcId: vpcId,
          Description: "HTTPS from anywhere",
          IpPermissions: [
            {
              IpProtocol: "tcp",
              FromPort: 443,
              ToPort: 443,
              IpRanges: [{ CidrIp: "0.0.0.0/0", Description: "HTTPS" }],
            },
          ],
          IpPermissionsEgress: [{ IpProtocol: "-1", IpRanges: [{ CidrIp: "0.0.0.0/0" }] }],
          Tags: tags("demo-web"),
        },
        {
          GroupId: databaseGroup,
          GroupName: "demo-database",
          VpcId: vpcId,
          Description: "PostgreSQL from the web tier",
          IpPermissions: [
            { IpProtocol: "tcp", FromPort: 5432, ToPort: 5432, UserIdGroupPairs: [{ GroupId: webGroup }] },
          ],
          IpPermissionsEgress: [{ IpProtocol: "-1", IpRanges: [{ CidrIp: "0.0.0.0/0" }] }],
          Tags: tags("demo-database"),
        },
      ],
    },
    ec2: {
      instances: [
        {
          InstanceId: "i-0demo0000000000web1",
          ImageId: "ami-0demo00000000linux",
          InstanceType: "t3.small",
          SubnetId: publicSubnet,
          SecurityGroups: [{ GroupId: webGroup, GroupName: "demo-web" }],
          RootDeviceName: "/dev/xvda",
          BlockDeviceMappings: [{ DeviceName: "/dev/xvda", Ebs: { VolumeId: "vol-0demo000000000root" } }],
          State: { Name: "running" },
          Tags: tags("demo-web-server"),
        },
      ],
      volumes: [
        {
          VolumeId: "vol-0demo000000000root",
          AvailabilityZone: zoneA,
          Size: 8,
          VolumeType: "gp3",
          Iops: 3000,
          Throughput: 125,
        },
        {
          VolumeId: "vol-0demo000000000data",
          AvailabilityZone: zoneA,
          Size: 100,
          VolumeType: "gp3",
          Iops: 3000,
          Throughput: 125,
          Encrypted: true,
          Tags: tags("demo-data"),
        },
      ],
    },
    s3: { buckets: [{ name: `demo-assets-${accountId}`, region, tags: tags("demo-assets") }] },
    rds: {
      instances: [
        {
          DBInstanceIdentifier: "demo-orders-db",
          Engine: "postgres",
          EngineVersion: "16.3",
          DBInstanceClass: "db.t3.micro",
          AllocatedStorage: 20,
          StorageType: "gp3",
          StorageEncrypted: true,
          MasterUsername: "orders",
          DBSubnetGroup: { DBSubnetGroupName: "demo-orders-db-subnets" },
          VpcSecurityGroups: [{ VpcSecurityGroupId: databaseGroup, Status: "active" }],
          TagList: [{ Key: "Inventory", Value: "demo" }],
        },
      ],
      subnetGroups: [
        {
          DBSubnetGroupName: "demo-orders-db-subnets",
          DBSubnetGroupDescription: "Private subnets of the orders database",
          Subnets: [{ SubnetIdentifier: privateSubnet }],
          TagList: [{ Key: "Inventory", Value: "demo" }],
        },
      ],
    },
    elasticache: {
      clusters: [
        {
          CacheClusterId: "demo-sessions",
          Engine: "redis",
          EngineVersion: "7.1",
          CacheNodeType: "cache.t3.micro",
          NumCacheNodes: 1,
          CacheParameterGroup: { CacheParameterGroupName: "default.redis7" },
          CacheSubnetGroupName: "demo-cache-subnets",
          SecurityGroups: [{ SecurityGroupId: databaseGroup, Status: "active" }],
        },
        ...["demo-carts-001", "demo-carts-002"].map((CacheClusterId) => ({
          CacheClusterId,
          ReplicationGroupId: "demo-carts",
          Engine: "redis",
          EngineVersion: "7.1",
          CacheNodeType: "cache.t3.micro",
          NumCacheNodes: 1,
          CacheParameterGroup: { CacheParameterGroupName: "default.redis7" },
          CacheSubnetGroupName: "demo-cache-subnets",
          SecurityGroups: [{ SecurityGroupId: databaseGroup, Status: "active" }],
        })),
      ],
      replicationGroups: [
        {
          ReplicationGroupId: "demo-carts",
          Description: "Carts",
          Engine: "redis",
          CacheNodeType: "cache.t3.micro",
          MemberClusters: ["demo-carts-001", "demo-carts-002"],
          NodeGroups: [
            { NodeGroupId: "0001", PrimaryEndpoint: { Address: "demo-carts.cache.local", Port: 6379 } },
          ],
          AutomaticFailover: "enabled",
          MultiAZ: "enabled",
          AtRestEncryptionEnabled: true,
          TransitEncryptionEnabled: true,
        },
      ],
    },
    dynamodb: {
      tables: [
        {
          TableName: "demo-orders",
          BillingModeSummary: { BillingMode: "PAY_PER_REQUEST" },
          KeySchema: [
            { AttributeName: "pk", KeyType: "HASH" },
            { AttributeName: "sk", KeyType: "RANGE" },
          ],
          AttributeDefinitions: [
            { AttributeName: "pk", AttributeType: "S" },
            { AttributeName: "sk", AttributeType: "S" },
            { AttributeName: "customer", AttributeType: "S" },
          ],
          GlobalSecondaryIndexes: [
            {
              IndexName: "by-customer",
              KeySchema: [{ AttributeName: "customer", KeyType: "HASH" }],
              Projection: { ProjectionType: "ALL" },
            },
          ],
        },
      ],
    },
    sqs: {
      queues: [
        {
          url: `https://sqs.${region}.amazonaws.com/${accountId}/demo-order-events-dlq`,
          attributes: {
            QueueArn: arn("sqs", "demo-order-events-dlq"),
            MessageRetentionPeriod: "1209600",
            VisibilityTimeout: "30",
          },
        },
        {
          url: `https://sqs.${region}.amazonaws.com/${accountId}/demo-order-events`,
          attributes: {
            QueueArn: arn("sqs", "demo-order-events"),
            MessageRetentionPeriod: "345600",
            VisibilityTimeout: "60",
            RedrivePolicy: JSON.stringify({
              deadLetterTargetArn: arn("sqs", "demo-order-events-dlq"),
              maxReceiveCount: 5,
            }),
          },
        },
      ],
    },
    sns: { topicArns: [arn("sns", "demo-order-notifications")] },
    lambda: {
      functions: [
        {
          configuration: {
            FunctionName: "demo-process-orders",
            FunctionArn: arn("lambda", "function:demo-process-orders"),
            Runtime: "nodejs20.x",
            Handler: "index.handler",
            Role: lambdaRole,
            MemorySize: 256,
            Timeout: 30,
            PackageType: "Zip",
            Architectures: ["arm64"],
            VpcConfig: { SubnetIds: [privateSubnet], SecurityGroupIds: [webGroup] },
          },
        },
      ],
    },
    ecr: {
      repositories: [
        {
          repositoryName: "demo-web-app",
          repositoryArn: arn("ecr", "repository/demo-web-app"),
          imageTagMutability: "IMMUTABLE",
          imageScanningConfiguration: { scanOnPush: true },
          encryptionConfiguration: { encryptionType: "AES256" },
        },
      ],
    },
    eks: {
      clusters: [
        {
          name: "demo-platform",
          arn: arn("eks", "cluster/demo-platform"),
          roleArn: clusterRole,
          version: "1.30",
          resourcesVpcConfig: {
            subnetIds: [publicSubnet, privateSubnet],
            securityGroupIds: [webGroup],
            endpointPrivateAccess: true,
            endpointPublicAccess: true,
            publicAccessCidrs: ["0.0.0.0/0"],
          },
          tags: { Inventory: "demo" },
        },
      ],
      nodegroups: [
        {
          clusterName: "demo-platform",
          nodegroupName: "demo-platform-nodes",
          nodegroupArn: arn("eks", "nodegroup/demo-platform/demo-platform-nodes/0demo0000000001"),
          nodeRole: `arn:aws:iam::${accountId}:role/demo-eks-nodes`,
          subnets: [privateSubnet],
          instanceTypes: ["t3.medium"],
          amiType: "AL2023_x86_64_STANDARD",
          capacityType: "ON_DEMAND",
          scalingConfig: { minSize: 1, maxSize: 3, desiredSize: 1 },
          tags: { Inventory: "demo" },
        },
      ],
    },
    ecs: {
      clusters: [{ clusterArn: arn("ecs", "cluster/demo-apps"), clusterName: "demo-apps" }],
      services: [
        {
          serviceArn: arn("ecs", "service/demo-apps/demo-web"),
          serviceName: "demo-web",
          clusterArn: arn("ecs", "cluster/demo-apps"),
          taskDefinition: arn("ecs", "task-definition/demo-web:3"),
          desiredCount: 2,
          launchType: "FARGATE",
          networkConfiguration: {
            awsvpcConfiguration: {
              subnets: [privateSubnet],
              securityGroups: [webGroup],
              assignPublicIp: "DISABLED",
            },
          },
          tags: [{ key: "Inventory", value: "demo" }],
        },
      ],
      taskDefinitions: [
        {
          taskDefinitionArn: arn("ecs", "task-definition/demo-web:3"),
          family: "demo-web",
          cpu: "256",
          memory: "512",
          networkMode: "awsvpc",
          requiresCompatibilities: ["FARGATE"],
          executionRoleArn: lambdaRole,
          containerDefinitions: [
            { name: "web", image: "nginx:1.27", essential: true, portMappings: [{ containerPort: 80 }] },
          ],
        },
      ],
    },
    elbv2: {
      loadBalancers: [
        {
          LoadBalancerName: "demo-web",
          LoadBalancerArn: arn("elasticloadbalancing", "loadbalancer/app/demo-web/0demo0000000001"),
          Scheme: "internet-facing",
          Type: "application",
          IpAddressType: "ipv4",
          AvailabilityZones: [
            { ZoneName: zoneA, SubnetId: publicSubnet },
            { ZoneName: zoneB, SubnetId: privateSubnet },
          ],
          SecurityGroups: [webGroup],
        },
      ],
    },
    iam: {
      roles: [
        {
          RoleName: "demo-orders-worker",
          Arn: lambdaRole,
          Path: "/",
          RoleId: "AROADEMO0000000000001",
          CreateDate: new Date("2024-01-01T00:00:00Z"),
          AssumeRolePolicyDocument: encodeURIComponent(
            JSON.stringify({
              Version: "2012-10-17",
              Statement: [
                { Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" },
              ],
            }),
          ),
        },
        {
          RoleName: "demo-eks-cluster",
          Arn: clusterRole,
          Path: "/",
          RoleId: "AROADEMO0000000000002",
          CreateDate: new Date("2024-01-01T00:00:00Z"),
          AssumeRolePolicyDocument: encodeURIComponent(
            JSON.stringify({
              Version: "2012-10-17",
              Statement: [
                { Effect: "Allow", Principal: { Service: "eks.amazonaws.com" }, Action: "sts:AssumeRole" },
              ],
            }),
          ),
        },
        {
          RoleName: "AWSServiceRoleForElasticLoadBalancing",
          Arn: `arn:aws:iam::${accountId}:role/aws-service-role/elasticloadbalancing.amazonaws.com/AWSServiceRoleForElasticLoadBalancing`,
          Path: "/aws-service-role/elasticloadbalancing.amazonaws.com/",
          RoleId: "AROADEMO0000000000003",
          CreateDate: new Date("2024-01-01T00:00:00Z"),
        },
      ],
    },
    route53: {
      zones: [
        {
          zone: {
            Id: "/hostedzone/Z0DEMO00000000000001",
            Name: "demo.example.com.",
            CallerReference: "demo",
            Config: { Comment: "Demo zone", PrivateZone: false },
          },
          vpcs: [],
        },
      ],
    },
    acm: {
      certificates: [
        {
          CertificateArn: arn("acm", "certificate/0demo000-0000-4000-8000-000000000001"),
          DomainName: "demo.example.com",
          SubjectAlternativeNames: ["demo.example.com", "*.demo.example.com"],
          Type: "AMAZON_ISSUED",
          KeyAlgorithm: "RSA_2048",
          DomainValidationOptions: [{ DomainName: "demo.example.com", ValidationMethod: "DNS" }],
        },
      ],
    },
    secretsmanager: {
      secrets: [
        {
          ARN: arn("secretsmanager", "secret:demo-orders-db-password-AbCdEf"),
          Name: "demo-orders-db-password",
          Description: "Password of the demo-orders-db database",
          Tags: [{ Key: "Inventory", Value: "demo" }],
        },
      ],
    },
  };
}
