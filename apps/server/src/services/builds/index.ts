/** Builds: build info, runs and their console. What the rest of the server may use of it: nothing deeper is imported from outside. */
export { runStatus } from './buildInfoDoc.js'
export { artifactBuilds, buildInfo, buildRuns, listBuilds, publishBuild } from './builds.js'
export { runOf } from './buildsRepo.js'
export { buildsRoutes } from './buildsRoutes.js'
