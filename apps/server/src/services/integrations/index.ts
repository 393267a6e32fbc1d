/** Git and IDE integrations. What the rest of the server may use of it: nothing deeper is imported from outside. */
export { integrationRoutes, vcsIntegrationRoutes } from './routes.js'
export { GitIntegrationService } from './service.js'
