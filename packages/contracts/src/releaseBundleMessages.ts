/**
 * The release bundles screens' texts. Kept apart from messages.ts, which the login page's script
 * carries: these load with the release bundles screens only.
 */
export const ReleaseBundleMessages = {
  releaseBundlesTitle: 'Release bundles',
  distributionOff:
    'No node of this instance runs distribution. It runs where TROVE_MODULES is unset or names distribution (e.g. TROVE_MODULES=repository,distribution).',
  noSourceBundles: 'No release bundle made here yet. A bundle is a signed list of files, shipped to other Trove nodes.',
  noTargetBundles: 'No release bundle has been received here yet.',
  noMatchingBundles: 'No release bundle matches',
  noBundleHistory: 'Nothing has been distributed, received or removed on this node yet.',
  bundleNameInvalid: 'Letters, digits, dots, dashes or underscores (at most 128), a letter or digit first',
  bundleVersionInvalid: 'Letters, digits, dots, plus signs, dashes or underscores (at most 64), a letter or digit first',
  bundleNeedsSource: 'Add at least one source: the bundle’s files come from its sources',
  bundlePropertiesInvalid: 'One key=value a line',
  bundleCreated: 'Release bundle {name} {version} created',
  bundleSigned: 'Release bundle {name} {version} signed',
  bundleDistributing: 'Release bundle {name} {version} is on its way to {targets}',
  bundleRemoving: 'Release bundle {name} {version} is being removed from {target}',
  bundleRecalling: 'Release bundle {name} {version} is being removed from every target',
  bundleDeleted: 'Release bundle {name} {version} deleted',
  bundleDeleteConfirm: 'Delete release bundle {name} {version}? Its files are no longer held here; copies on targets stay.',
  bundleDeleteReceivedConfirm: 'Delete release bundle {name} {version} and its files from this node?',
  bundleRecallConfirm: 'Remove release bundle {name} {version} from every target it was distributed to?',
  bundleRemoveConfirm: 'Remove release bundle {name} {version} from {target}? The target deletes it and its files.',
  bundleNotSigned: 'Not signed yet: signing freezes its files, and only a signed bundle can be distributed.',
  bundleNotDistributed: 'Not distributed yet',
  bundleTargetsAdminOnly: 'Only an administrator can list the targets: type the names of the ones to send to.',
  bundleNoTargets: 'No target yet: an administrator registers other Trove nodes as targets.',
  bundleTargetSaved: 'Target {name} registered',
  bundleTargetDeleted: 'Target {name} removed',
  bundleTargetDeleteConfirm: 'Remove the target {name}? Bundles already there stay; nothing more is sent to it.',
  bundleRetentionSaved: 'Retention saved',
  bundleRetentionRemoved: 'Retention removed {bundles}',
  bundleRetentionRemovedNothing: 'Retention removed nothing',
  bundleChecksumInvalid: 'Expected a sha256, sha1 or md5 in hex',
  bundleChecksumNoMatch: 'No release bundle holds a file with this checksum',
  bundleUpdated: 'Release bundle {name} {version} saved',
  bundleKeyRotateConfirm:
    'Make a new signing key and sign new bundles with it? Bundles signed before stay verifiable: their keys stay published, and targets are told the new key before the next distribution.',
  bundleKeyRotated: 'Signing key {id} is now active',
} as const
