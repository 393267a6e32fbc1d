/** Operations: nodes, service status, logs, support bundles, doctor and backups. What the rest of the server may use of it: nothing deeper is imported from outside. */
export { BackupError, backup, restore } from './backup.js'
export { checkIntegrity, formatIntegrityReport } from './doctor.js'
export { doctorRoutes } from './doctorRoutes.js'
export { nodeList, runningServices } from './nodes.js'
export { operationsRoutes, RETENTION_SETTING } from './routes.js'
export { Operations } from './service.js'
