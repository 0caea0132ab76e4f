import { invitationErrorCodes } from "#contract/invitations";
import { isPlatformError } from "~/platform/client.server";

/** Why an invitation link cannot be used, and what the person holding it can do about it. */
export type InvitationProblem = {
  message: string;
  /** Signed in as another address: sign out and back in as the invited one. */
  signInAgain: boolean;
};

const linkProblems = new Set<string>([
  invitationErrorCodes.unknown,
  invitationErrorCodes.expired,
  invitationErrorCodes.accepted,
  invitationErrorCodes.cancelled,
  invitationErrorCodes.otherAddress,
  invitationErrorCodes.alreadyMember,
]);

/**
 * The platform's own explanation of a refused link (404, 410, 403, 409 with an invitation code, or a malformed
 * token's 400); anything else is rethrown for the error page.
 */
export function invitationProblemOf(error: unknown): InvitationProblem {
  if (!isPlatformError(error)) throw error;
  const known = (error.code && linkProblems.has(error.code)) || error.status === 400;
  if (!known) throw error;
  return { message: error.message, signInAgain: error.code === invitationErrorCodes.otherAddress };
}
