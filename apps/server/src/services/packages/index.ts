/** The packages browser and the metadata API. What the rest of the server may use of it: nothing deeper is imported from outside. */
export { packagesRoutes } from './routes.js'
