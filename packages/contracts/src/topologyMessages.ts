/**
 * The topology page's texts (the admin's landing tab). Kept apart from messages.ts, which the
 * login page's script carries: these load with the topology page only.
 */
export const TopologyMessages = {
  title: 'Topology',
  servicesTitle: 'Services',
  nodesTitle: 'Nodes',
  nodesIntro: 'Each node runs the modules its TROVE_MODULES names, or every module when it is unset.',
  running: 'Running',
  notRunning: 'Not running',
  notInTrove: 'Not in Trove',
  runsOn: 'Runs on {nodes}',
  /** A service with no module in Trove: no setting turns it on, so none is offered. */
  notPartOfTrove: 'Not part of Trove: no module of Trove provides it, so no setting turns it on.',
  turnOnAt: 'To turn it on, restart node {node} with',
  turnOnNewNode: 'To turn it on, start a node with',
  offlineNodes: 'Set up on {nodes}, offline now.',
  nodeColumn: 'Node',
  addressColumn: 'Address',
  modulesColumn: 'Runs',
  healthColumn: 'Health',
  noAddress: 'not listening yet',
  runsNothing: 'nothing',
  noNodes: 'No node has registered yet.',
} as const
