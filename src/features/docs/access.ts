// "Who may call it", for every operation's description, from what the route really runs: the
// roles its requireRole() middleware checks (`x-required-roles`, written by createRouter() in
// src/env.ts), else the security it declares (none: anyone; the bearer or socket scheme: any
// signed-in user).
type Security = Record<string, string[]>[] | undefined;

/** The sentence appended to an operation's description. */
export function accessSentence(roles: string[] | undefined, security: Security): string {
  if (roles?.length) return `Who may call it: signed-in users holding ${roles.join(' or ')} (a super-admin holds every role).`;
  if (!security || security.length === 0 || security.every((s) => Object.keys(s).length === 0)) {
    return 'Who may call it: anyone, without an access token (any other proof it needs is named above).';
  }
  if (security.some((s) => Object.keys(s).length === 0)) {
    return 'Who may call it: anyone; signed-in callers send their access token (what else a caller without one sends is named above).';
  }
  return 'Who may call it: any signed-in user (access token); which records they may reach is said above.';
}
