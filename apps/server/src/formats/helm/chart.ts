import semver from 'semver'
import YAML from 'yaml'
import { HttpError } from '../../core/errors.js'
import { readTarGz } from '../kit/archive.js'

/**
 * A chart archive as `helm package` makes it: a gzipped tar whose entries all sit under one folder
 * named after the chart, holding `Chart.yaml` (apiVersion v1 or v2), and usually `values.yaml`,
 * `templates/`, `README.md` and `LICENSE`.
 */

/** What a repository's `index.yaml` lists for one chart version (Helm's ChartVersion, minus urls/digest/created). */
export interface ChartMetadata {
  apiVersion: string
  name: string
  version: string
  appVersion?: string
  description?: string
  type?: string
  keywords?: string[]
  home?: string
  sources?: string[]
  icon?: string
  kubeVersion?: string
  deprecated?: boolean
  maintainers?: { name: string; email?: string; url?: string }[]
  dependencies?: { name: string; version?: string; repository?: string; condition?: string; alias?: string }[]
  annotations?: Record<string, string>
}

export interface ReadChart {
  metadata: ChartMetadata
  readme: string | null
  /** Licences the chart declares (the `licenses` annotation Artifact Hub reads), as written. */
  licenses: string[]
}

/** Helm's rule for chart names: lower-case letters and digits, words separated by dashes (or dots, kept by older charts). */
const CHART_NAME = /^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/

const bad = (message: string) => new HttpError(400, `Refused chart: ${message}`)

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value : undefined)

/** Reads and checks a chart archive (safely: the archive checks of formats/kit/archive.ts apply). */
export async function readChart(data: Buffer | string, maxExpandedBytes: number): Promise<ReadChart> {
  let entries: Map<string, Buffer>
  // Every entry's top folder: a chart's archive holds one, named after the chart.
  const tops = new Set<string>()
  try {
    entries = await readTarGz(data, {
      want: (n) => {
        tops.add(n.replace(/^\.\//, '').split('/')[0] as string)
        return /^[^/]+\/(Chart\.yaml|README\.md|README|readme\.md)$/.test(n)
      },
      maxExpandedBytes,
      maxEntryBytes: 1024 * 1024,
    })
  } catch (error) {
    if (error instanceof HttpError) throw error
    throw bad('not a gzipped tar archive')
  }
  const chartFiles = [...entries.keys()].filter((n) => n.endsWith('/Chart.yaml'))
  if (chartFiles.length !== 1)
    throw bad(chartFiles.length === 0 ? 'no <chart>/Chart.yaml in the archive' : 'several Chart.yaml files at the top')
  const chartFile = chartFiles[0] as string
  const folder = chartFile.slice(0, chartFile.indexOf('/'))
  let doc: unknown
  try {
    doc = YAML.parse((entries.get(chartFile) as Buffer).toString('utf8'), { maxAliasCount: 50 })
  } catch (error) {
    throw bad(`Chart.yaml is not YAML (${(error as Error).message.split('\n')[0]})`)
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw bad('Chart.yaml is not a mapping')
  const y = doc as Record<string, unknown>
  const name = text(y.name)
  const version = typeof y.version === 'number' ? String(y.version) : text(y.version)
  const apiVersion = text(y.apiVersion)
  if (!apiVersion || !['v1', 'v2'].includes(apiVersion)) throw bad('Chart.yaml: apiVersion must be v1 or v2')
  if (!name) throw bad('Chart.yaml: name is missing')
  if (!CHART_NAME.test(name) || name.length > 250) throw bad(`Chart.yaml: ${JSON.stringify(name)} is not a valid chart name`)
  if (folder !== name) throw bad(`the chart ${name} must sit in the archive's folder ${name}/, not ${folder}/`)
  const outside = [...tops].filter((top) => top !== name)
  if (outside.length > 0) throw bad(`entries outside the chart's folder ${name}/: ${outside.slice(0, 3).join(', ')}`)
  if (!version || !semver.valid(version))
    throw bad(`Chart.yaml: version ${JSON.stringify(version ?? '')} is not a SemVer 2 version`)
  const metadata: ChartMetadata = { apiVersion, name, version }
  const appVersion = typeof y.appVersion === 'number' ? String(y.appVersion) : text(y.appVersion)
  if (appVersion) metadata.appVersion = appVersion
  for (const key of ['description', 'type', 'home', 'icon', 'kubeVersion'] as const) {
    const value = text(y[key])
    if (value) metadata[key] = value
  }
  const keywords = strings(y.keywords)
  if (keywords?.length) metadata.keywords = keywords
  const sources = strings(y.sources)
  if (sources?.length) metadata.sources = sources
  if (y.deprecated === true) metadata.deprecated = true
  if (Array.isArray(y.maintainers)) {
    metadata.maintainers = y.maintainers
      .filter(
        (m): m is Record<string, unknown> => !!m && typeof m === 'object' && typeof (m as { name?: unknown }).name === 'string',
      )
      .map((m) => ({
        name: m.name as string,
        ...(text(m.email) ? { email: m.email as string } : {}),
        ...(text(m.url) ? { url: m.url as string } : {}),
      }))
  }
  if (Array.isArray(y.dependencies)) {
    metadata.dependencies = y.dependencies
      .filter(
        (d): d is Record<string, unknown> => !!d && typeof d === 'object' && typeof (d as { name?: unknown }).name === 'string',
      )
      .map((d) => {
        const dep: NonNullable<ChartMetadata['dependencies']>[number] = { name: d.name as string }
        for (const key of ['version', 'repository', 'condition', 'alias'] as const) {
          const value = text(d[key])
          if (value) dep[key] = value
        }
        return dep
      })
  }
  if (y.annotations && typeof y.annotations === 'object' && !Array.isArray(y.annotations)) {
    metadata.annotations = Object.fromEntries(
      Object.entries(y.annotations as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'),
    )
  }
  const readmeEntry = [...entries.entries()].find(([n]) => n.startsWith(`${folder}/`) && /\/readme(\.md)?$/i.test(n))
  const license = metadata.annotations?.['artifacthub.io/license']
  return {
    metadata,
    readme: readmeEntry ? readmeEntry[1].toString('utf8') : null,
    licenses: license ? [license] : [],
  }
}

/** The file a chart version is stored as, at its repository's root (as `helm package` names it). */
export const chartFileName = (name: string, version: string) => `${name}-${version}.tgz`
