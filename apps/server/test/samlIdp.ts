import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import selfsigned from 'selfsigned'
import { SignedXml } from 'xml-crypto'

export interface KeyPair {
  key: string
  cert: string
}

const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString()

/** A key and a self-signed certificate, as an identity provider signs with. */
export async function makeKeyPair(): Promise<KeyPair> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'idp.test' }], { keySize: 2048, algorithm: 'sha256' })
  return { key: pems.private, cert: pems.cert }
}

export interface ResponseOptions {
  user: string
  /** Signs the assertion; null sends it unsigned. */
  signer: KeyPair | null
  issuer: string
  acs: string
  audience: string
  notOnOrAfterMs?: number
}

/** A SAML 2.0 response as an identity provider sends it, its assertion signed with `signer` unless null. */
export function samlResponse({ user, signer, issuer, acs, audience, notOnOrAfterMs }: ResponseOptions): string {
  const IDP = issuer
  const ACS = acs
  const later = iso(notOnOrAfterMs ?? 5 * 60_000)
  const id = `_${crypto.randomBytes(16).toString('hex')}`
  const assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${iso(0)}"><saml:Issuer>${IDP}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${user}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${later}" Recipient="${ACS}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(-60_000)}" NotOnOrAfter="${later}"><saml:AudienceRestriction><saml:Audience>${audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${user}@example.test</saml:AttributeValue></saml:Attribute></saml:AttributeStatement></saml:Assertion>`
  let signed = assertion
  if (signer) {
    const sig = new SignedXml({
      privateKey: signer.key,
      publicCert: signer.cert,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    })
    sig.addReference({
      xpath: "//*[local-name(.)='Assertion']",
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    })
    sig.computeSignature(assertion, {
      location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
    })
    signed = sig.getSignedXml()
  }
  return `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_r${id}" Version="2.0" IssueInstant="${iso(0)}" Destination="${ACS}"><saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${IDP}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${signed}</samlp:Response>`
}

/**
 * A small SAML identity provider over real HTTP: GET /sso?user=<name> answers the HTML page an
 * identity provider sends after its own sign-in, a form that posts the signed response to the
 * service provider's assertion consumer (HTTP-POST binding). The user name comes from the query
 * because signing in at the identity provider is not what is under test.
 */
export async function startSamlIdp(options: { acs: string; audience: string; keys: KeyPair }) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://idp')
    if (url.pathname === '/logged-out') {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>Signed out</title><h1>Signed out</h1>')
      return
    }
    if (url.pathname !== '/sso') {
      res.writeHead(404).end()
      return
    }
    const user = url.searchParams.get('user') ?? 'saml-user'
    const xml = samlResponse({ user, signer: options.keys, issuer: base, acs: options.acs, audience: options.audience })
    const value = Buffer.from(xml, 'utf8').toString('base64')
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(
      `<!doctype html><html><body><form method="post" action="${options.acs}"><input type="hidden" name="SAMLResponse" value="${value}"/><button type="submit">Continue to Trove</button></form></body></html>`,
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: base,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
