/** The Overview dashboard: the roll-up of migration 0133 and the one call that answers from it. What the rest of the server may use of it: nothing deeper is imported from outside. */
export { dashboardRoutes } from './routes.js'
export { DashboardService } from './service.js'
