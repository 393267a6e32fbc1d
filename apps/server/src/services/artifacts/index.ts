/** The artifact tree's console and REST calls. What the rest of the server may use of it: nothing deeper is imported from outside. */
export { artifactConsoleRoutes, artifactRestRoutes, nativeListingRoutes } from './routes.js'
