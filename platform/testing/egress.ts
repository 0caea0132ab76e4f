import { parseOutboundAllowList, setOutboundAllowList } from "../lib/egress";

/**
 * The platform tests' set-up (vitest.config.ts, setupFiles): the stand-in providers listen on loopback, so the
 * egress policy lets loopback through, as OUTBOUND_ALLOW does for the e2e stack. Tests that prove a refusal set
 * their own list.
 */
export const testOutboundAllowList = parseOutboundAllowList("127.0.0.0/8, ::1").allowList;

setOutboundAllowList(testOutboundAllowList);
