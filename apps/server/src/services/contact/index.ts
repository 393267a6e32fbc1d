/** Contact us. What the rest of the server may use of it: nothing deeper is imported from outside. */
export { contactAdminRoutes, contactRoutes } from './routes.js'
