import { describe, expect, it } from 'vitest'
import { isEmptyRequest, securitySearchRequest } from './securitySearchRequest'

describe('the security-compliance search request', () => {
  it('takes the text as an advisory id, alias or component name', () => {
    expect(securitySearchRequest('CVE-2021-23337')).toEqual({
      query: 'CVE-2021-23337',
      cve: [],
      severities: [],
      licenses: [],
      repositories: [],
    })
  })

  it("reads the search bar's key:value filters, keeping the severities the scanner knows", () => {
    expect(securitySearchRequest('lodash severities:HIGH,severe,low licenses:MIT,GPL-3.0 repo:npm-local cve:GHSA-x')).toEqual({
      query: 'lodash',
      cve: ['GHSA-x'],
      severities: ['high', 'low'],
      licenses: ['MIT', 'GPL-3.0'],
      repositories: ['npm-local'],
    })
  })

  it('is empty with no text and no filter that selects anything', () => {
    expect(isEmptyRequest(securitySearchRequest(''))).toBe(true)
    expect(isEmptyRequest(securitySearchRequest('repo:npm-local'))).toBe(true)
    expect(isEmptyRequest(securitySearchRequest('severities:critical'))).toBe(false)
  })
})
