import type { AwsClients } from "../../cloud/aws/clients";
import type { ScannedResource, ServiceName } from "../model";

/** What the services share while their raw answers become resources. */
export type ScanContext = {
  accountId: string;
  region: string;
  /** The region's default VPCs: they and the network inside them are not exported. */
  defaultVpcIds: ReadonlySet<string>;
  /** Roles whose names start with this are the product's own read-only roles, not the user's infrastructure. */
  productRolePrefix: string;
};

/**
 * One AWS service: `read` asks AWS (every page) and returns the SDK's own shapes, `toResources` turns them into
 * Terraform resources without further calls. The demo inventory feeds `toResources` with fixed SDK shapes.
 */
export type ServiceScanner<Raw> = {
  service: ServiceName;
  /** The IAM actions `read` uses; the CloudFormation role's policy grants exactly their union. */
  permissions: readonly string[];
  read: (clients: AwsClients) => Promise<Raw>;
  toResources: (raw: Raw, context: ScanContext) => ScannedResource[];
};

/** Collects every page of a paginated SDK call. */
export async function collect<Page, Item>(
  pages: AsyncIterable<Page>,
  items: (page: Page) => Item[] | undefined,
): Promise<Item[]> {
  const result: Item[] = [];
  for await (const page of pages) result.push(...(items(page) ?? []));
  return result;
}

export function definedStrings(values: (string | undefined)[] | undefined): string[] {
  return (values ?? []).filter((value): value is string => typeof value === "string" && value.length > 0);
}

/** `map` with at most `limit` calls in flight, so describing many items does not provoke throttling. */
export async function mapWithConcurrency<Item, Result>(
  items: readonly Item[],
  limit: number,
  map: (item: Item) => Promise<Result>,
): Promise<Result[]> {
  const results: Result[] = new Array<Result>(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const index = next++;
      results[index] = await map(items[index] as Item);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
