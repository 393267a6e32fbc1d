import type { FastifyRequest } from 'fastify'
import type { BlobStore } from '../core/blobStore.js'
import type { AppContext } from '../core/context.js'
import type { ArtifactService } from './artifacts.js'
import type { Repository, RepositoryService } from './service.js'

/** What storage's services and routes receive (and every format): the app context plus the repository, blob and artifact services. */
export interface StorageContext extends AppContext {
  repos: RepositoryService
  blobs: BlobStore
  artifacts: ArtifactService
  /** The URL clients reach Trove at, for links in answers (from the config or the request). */
  baseUrl: (request: FastifyRequest) => string
}

/**
 * Told after files of a repository were added or removed by something else than its format's own
 * clients (the tree's delete, copy and move), with their paths: the format derives again what it
 * keeps from stored files (Maven metadata…).
 */
export type FilesChanged = (repo: Repository, paths: string[]) => Promise<void>
