/** The instance: its settings, proxies, account portal and read-only mode. What the rest of the server may use of it: nothing deeper is imported from outside. */
export { accountPortalRoutes } from './accountPortal.js'
export { instanceAdminRoutes } from './adminRoutes.js'
export { enforceReadOnly } from './readOnly.js'
export { startupRoutes } from './routes.js'
