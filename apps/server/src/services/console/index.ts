/** The console's static files. What the rest of the server may use of it: nothing deeper is imported from outside. */
export { consoleIndex, consoleRoutes, isConsolePath } from './routes.js'
