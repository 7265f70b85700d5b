// The access policy the tenancy tests run under: a shop team's channel and user group that see
// the shop namespaces only, a platform channel and an SRE group that see everything, and per
// namespace approvers (shop restarts need two shop leads; payments fixes its own lead).
import type { PolicyInput } from '../../src/access/policy.js';

export const POLICY: PolicyInput = {
  channels: {
    C0SHOP: { namespaces: ['shop*'], defaultNamespace: 'shop' },
    C0PLATFORM: {},
  },
  usergroups: {
    S0SHOPDEV: { namespaces: ['shop*'] },
    S0SRE: {},
  },
  approvals: [
    { namespaces: ['shop*'], playbooks: ['restart-*'], approvers: ['S0SHOPLEADS'], twoPersonRisks: ['medium', 'high'] },
    { namespaces: ['payments'], approvers: ['S0PAYLEADS'] },
  ],
};

/** Who is in which Slack user group. U0MALLORY is in none. */
export const GROUPS: Record<string, string[]> = {
  S0SHOPDEV: ['U0ALICE', 'U0DAN'],
  S0SRE: ['U0SARA'],
  S0SHOPLEADS: ['U0ALICE', 'U0LEAD1', 'U0LEAD2'],
  S0PAYLEADS: ['U0PAYLEAD'],
};

/** The global approvers (POD_DOCTOR_APPROVERS): where no namespace rule applies. */
export const GLOBAL_APPROVERS = ['S0SRE'];
