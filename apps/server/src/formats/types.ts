import type { PackageType } from '@trove/contracts/repositories'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { BlobStore } from '../core/blobStore.js'
import type { AppContext } from '../core/context.js'
import type { ArtifactService } from '../modules/repositories/artifacts.js'
import type { Repository, RepositoryService } from '../modules/repositories/service.js'

/** What a format receives: the app context plus the repository, blob and artifact services. */
export interface FormatContext extends AppContext {
  repos: RepositoryService
  blobs: BlobStore
  artifacts: ArtifactService
  /** The URL clients reach Trove at, for links in answers (from the config or the request). */
  baseUrl: (request: FastifyRequest) => string
}

/** Handles a path inside a repository: `/artifactory/<repo>/<path>` (Maven, generic). */
export type PathHandler = (request: FastifyRequest, reply: FastifyReply, repo: Repository, path: string) => Promise<unknown>

/**
 * A package format: a folder `formats/<type>/` whose index exports one of these, listed in
 * `formats/index.ts`. `routes` registers the client protocol at its own prefixes (every route
 * declares `config.access`, usually 'public', and asks `authorize()` per repository); `paths`
 * answers `/artifactory/<repo>/<path>` for repositories of this type.
 */
export interface Format {
  type: PackageType
  routes?: (fctx: FormatContext) => FastifyPluginAsync
  paths?: (fctx: FormatContext) => PathHandler
  /**
   * Called after files of a repository of this type were added or removed by something else than
   * the format's own clients (the tree's delete, copy and move), with their paths: a format that
   * derives records or metadata from stored files derives them again.
   */
  filesChanged?: (fctx: FormatContext) => (repo: Repository, paths: string[]) => Promise<void>
}
