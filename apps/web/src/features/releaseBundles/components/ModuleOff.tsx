import { Alert } from '@mantine/core'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'

/** Shown instead of a tab when the node does not run the distribution module (its calls answer 404). */
export function ModuleOff() {
  return (
    <Alert color="gray" variant="light" title="Distribution is off" role="status">
      {ReleaseBundleMessages.distributionOff}
    </Alert>
  )
}
