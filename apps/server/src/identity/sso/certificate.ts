/** The identity provider's certificate as node-saml takes it: PEM body without armour or spaces. */
export function certificateBody(pem: string): string {
  return pem
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .replace(/\s+/g, '')
    .trim()
}
