import { sql } from "drizzle-orm";
import { memberships, serviceAccounts } from "../db/schema";

/**
 * A membership of a person, not of a service account (decision 070): service accounts take no member's seat and are
 * no teammate. A condition on `memberships`, for counts of an organization's people.
 */
export const isPersonMembership = sql`not exists (select 1 from ${serviceAccounts} where ${serviceAccounts.userId} = ${memberships.userId})`;
