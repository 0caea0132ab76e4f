import { attributes, type ScannedResource } from "../model";
import { collect, definedStrings, type ServiceScanner } from "./service-scanner";

export type SnsInventory = { topicArns: string[] };

const service = "sns";

export const snsScanner: ServiceScanner<SnsInventory> = {
  service,
  permissions: ["sns:ListTopics"],

  async read(clients) {
    const { paginateListTopics } = await import("@aws-sdk/client-sns");
    const client = await clients.sns();
    const topics = await collect(paginateListTopics({ client }, {}), (page) => page.Topics);
    return { topicArns: definedStrings(topics.map((topic) => topic.TopicArn)) };
  },

  toResources(raw) {
    return raw.topicArns.map((arn): ScannedResource => {
      const name = arn.split(":").pop() ?? arn;
      return {
        service,
        type: "aws_sns_topic",
        awsId: arn,
        importId: arn,
        nameHint: name,
        body: attributes({ name, fifo_topic: name.endsWith(".fifo") ? true : undefined }),
      };
    });
  },
};
