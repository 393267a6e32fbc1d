/** System calls (ping, version). What the rest of the server may use of it: nothing deeper is imported from outside. */
export { systemRoutes } from './routes.js'
