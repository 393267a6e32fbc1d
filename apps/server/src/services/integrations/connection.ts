import type { ConnectionStatus, GitRepositoryPage, GitVendorName } from '@trove/contracts/gitIntegrations'
import { GIT_VENDORS } from '@trove/contracts/gitIntegrations'
import { Messages } from '@trove/contracts/messages'
import { HttpError } from '../../core/errors.js'
import { RefusedAddress } from '../../core/safeAddress.js'
import { type VendorResponse, VendorUnreachable, vendorGet } from './vendorHttp.js'
import { VENDOR_APIS, type VendorCredentials } from './vendors.js'

/** What asking the vendor told: CONNECTED (it knows the user), DISCONNECTED (it refused the token), CONFIGURED (no verdict). */
export interface ConnectionCheck {
  status: ConnectionStatus
  vendorUser: string | null
  message: string | null
}

export const CONNECTION_TEST_FAILED = 'CONNECTION_TEST_FAILED'
const testFailed = () => new HttpError(400, Messages.connectionTestFailed, CONNECTION_TEST_FAILED)

/** The URL an integration uses when the administrator left it empty (the hosted services'). */
export function vendorUrl(vendor: GitVendorName, url: string): string {
  const chosen = url || GIT_VENDORS.find((v) => v.name === vendor)?.defaultUrl || ''
  if (!chosen) throw new HttpError(400, `url: ${vendor} needs the address of its server`)
  return chosen
}

async function call(vendor: GitVendorName, c: VendorCredentials, path: string): Promise<VendorResponse> {
  const api = VENDOR_APIS[vendor]
  return vendorGet(`${api.apiBase(c.url)}${path}`, api.apiHeaders(c))
}

const parse = (body: string): unknown => {
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}

/** Asks the vendor's "current user" call with the credentials; refused addresses throw (nothing was sent). */
export async function checkConnection(vendor: GitVendorName, c: VendorCredentials): Promise<ConnectionCheck> {
  let response: VendorResponse
  try {
    response = await call(vendor, c, VENDOR_APIS[vendor].currentUserPath(c))
  } catch (error) {
    if (error instanceof RefusedAddress) throw error
    return { status: 'CONFIGURED', vendorUser: null, message: error instanceof Error ? error.message : String(error) }
  }
  if (response.status === 401 || response.status === 403) {
    return {
      status: 'DISCONNECTED',
      vendorUser: null,
      message: `${response.url.host} refused the token (HTTP ${response.status})`,
    }
  }
  const user = response.status === 200 ? VENDOR_APIS[vendor].userOf(parse(response.body)) : undefined
  if (!user) {
    return {
      status: 'CONFIGURED',
      vendorUser: null,
      message: `${response.url.host} answered HTTP ${response.status} without a user`,
    }
  }
  return { status: 'CONNECTED', vendorUser: user, message: null }
}

/** The connection test of §4: the vendor's user name, or §8's "Connection test failed…". */
export async function testConnection(vendor: GitVendorName, c: VendorCredentials): Promise<string> {
  const check = await checkConnection(vendor, c)
  if (check.status !== 'CONNECTED' || !check.vendorUser) throw testFailed()
  return check.vendorUser
}

/** Asks the vendor for data the token should reach; a refusal or a non-JSON answer is a 502 naming the vendor. */
async function fetchJson(vendor: GitVendorName, c: VendorCredentials, path: string) {
  let response: VendorResponse
  try {
    response = await call(vendor, c, path)
  } catch (error) {
    if (error instanceof VendorUnreachable) throw new HttpError(502, `The git vendor did not answer: ${error.message}`)
    throw error
  }
  if (response.status === 401 || response.status === 403) throw testFailed()
  if (response.status === 404) throw new HttpError(404, `${response.url.host} does not know ${path}`)
  const body = parse(response.body)
  if (response.status !== 200 || body === undefined) {
    throw new HttpError(502, `${response.url.host} answered HTTP ${response.status} to ${path.split('?')[0]}`)
  }
  return { body, headers: response.headers }
}

/** One page of the repositories the token can see. */
export async function listRepositories(vendor: GitVendorName, c: VendorCredentials, page: number): Promise<GitRepositoryPage> {
  const api = VENDOR_APIS[vendor]
  const { body, headers } = await fetchJson(vendor, c, api.repositoriesPath(page))
  const { repositories, hasNext } = api.repositoriesOf(body, headers, page)
  return { repositories, page, nextPage: hasNext ? page + 1 : null }
}

/** One repository by full name, as the vendor describes it (its clone URL comes from the vendor, not the caller). */
export async function findRepository(vendor: GitVendorName, c: VendorCredentials, fullName: string) {
  const api = VENDOR_APIS[vendor]
  const { body } = await fetchJson(vendor, c, api.repositoryPath(fullName))
  const repository = api.repositoryOf(body)
  if (!repository) throw new HttpError(502, `The git vendor did not describe ${fullName}`)
  return repository
}
