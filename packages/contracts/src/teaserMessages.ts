/**
 * What a teaser page (shell §2.3, §2.5) says under its description. Trove is free and
 * self-hosted: the free-trial invitation stays for the flavours that are a trial (the tour, a cloud
 * trial, an edge trial); everywhere else the page says what turns the module on, or that Trove does
 * not have it yet.
 */
export const TeaserMessages = {
  trialInvitation: 'Start a free trial to try {label}.',
  trialButton: 'Start a free trial',
  /** Trove has no module for it: nothing to turn on, nothing to buy. */
  notInTrove: '{label} is not part of Trove yet.',
  /** Part of every Trove node: the teaser only points at it. */
  inTrove: '{label} is part of Trove, on this instance.',
  open: 'Open {label}',
  /** A module no Online node runs: the setting, on the node it is best added to. */
  turnOnAt: 'No node of this instance runs the {service} module. To turn {label} on, restart node {node} with',
  turnOnNewNode: 'No node of this instance runs the {service} module. To turn {label} on, start a node with',
  /** Someone who cannot see the nodes: who can turn it on. */
  askAdmin: 'No node of this instance runs the {service} module. An administrator can turn it on.',
  /** The module runs, but the installed licence keeps it locked. */
  needsLicense: '{label} runs here, but the installed {license} licence does not include it. Install one that does: {licenses}.',
  licensesLink: 'Go to Licenses',
} as const
