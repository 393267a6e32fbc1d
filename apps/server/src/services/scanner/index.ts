/** The security scanner: advisories, scans, policies and SBOMs. What the rest of the server may use of it: nothing deeper is imported from outside. */
export { buildScanRoutes } from './buildScan.js'
export { PolicyService } from './policies.js'
export {
  databaseState,
  findingsPage,
  gitRepoCounts,
  latestVersionCounts,
  mergeCounts,
  npmBulkAdvisories,
  SCAN_SEVERITIES,
  scanStates,
} from './queries.js'
export { scannerRoutes } from './routes.js'
export { ScannerService } from './service.js'
export { noCounts } from './store.js'
