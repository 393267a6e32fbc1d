import type { DockerLayersResponse } from '@trove/contracts/packages'
import type { PackageType } from '@trove/contracts/repositories'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { Selectable } from 'kysely'
import type { FilesTable } from '../../core/schema.js'
import type { FilesChanged, StorageContext } from '../../storage/context.js'
import type { Repository } from '../../storage/service.js'

/** What a format receives: storage's context, and the ports to services above the formats. */
export interface FormatContext extends StorageContext {
  advisories: Advisories
}

/** An advisory as npm audit's bulk answer lists it. */
export interface NpmBulkAdvisory {
  id: number
  url: string
  title: string
  severity: 'critical' | 'high' | 'moderate' | 'low' | 'info'
  vulnerable_versions: string
  cwe: string[]
  cvss: { score: number; vectorString: string | null }
}

/** The port to the advisory database (the scanner answers it; the app wires it in). */
export interface Advisories {
  /** Per npm package name, the advisories affecting one of the versions asked about. */
  npmBulk(
    request: Record<string, string[]>,
    linkOf: (id: string, refs: { type: string; url: string }[]) => string,
  ): Promise<Record<string, NpmBulkAdvisory[]>>
  /** What to tell a client along with an audit while the database is empty or stale (null: nothing). */
  notice(): Promise<string | null>
}

/** Versions as an ecosystem's own tools order them, where the scanner needs that order. */
export interface VersionOrder<T = unknown> {
  /** The parsed version, or undefined when the text is not a version of this ecosystem. */
  parse(version: string): T | undefined
  compare(a: T, b: T): number
  /** The version as this ecosystem writes it canonically. */
  normalize(version: string): string | undefined
}

/** A file a format reads on the packages browser's behalf. */
export interface StoredFile {
  repo_key: string
  path: string
  sha256: string
  size: number
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
  filesChanged?: (fctx: FormatContext) => FilesChanged
  /**
   * Files a version needs beside the ones recorded under it (an image tag: the manifests it names
   * and their layers): a release bundle of the version ships them with it.
   */
  versionFiles?: (fctx: FormatContext) => (repoKey: string, name: string, metadata: string) => Promise<Selectable<FilesTable>[]>
  /** The packages browser's layers view of an image, from its tag's `manifest.json`. */
  layers?: (fctx: FormatContext, file: StoredFile) => Promise<DockerLayersResponse>
  /** The advisory database's (OSV's) ecosystem of this type's packages: where the scanner matches a stored version. */
  ecosystem?: string
  /** Why the scanner does not scan this type's packages, when it does not (shown on the version). */
  notScanned?: string
  /** How the ecosystem orders versions, when the scanner's matching needs the format's own rules. */
  versions?: VersionOrder
}
