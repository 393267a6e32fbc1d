import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  from: string
  to: string[]
  raw: string
}

/** A real SMTP server on a free loopback port that keeps what it receives. */
export async function startSmtp(): Promise<{
  port: number
  mails: ReceivedMail[]
  next: () => Promise<ReceivedMail>
  close: () => Promise<void>
}> {
  const mails: ReceivedMail[] = []
  const waiting: ((mail: ReceivedMail) => void)[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = ''
      stream.setEncoding('utf8')
      stream.on('data', (chunk: string) => {
        raw += chunk
      })
      stream.on('end', () => {
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        }
        mails.push(mail)
        waiting.shift()?.(mail)
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  let seen = 0
  return {
    port,
    mails,
    next: () => {
      const index = seen++
      const ready = mails[index]
      if (ready) return Promise.resolve(ready)
      return new Promise((resolve) => waiting.push(resolve))
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** The body of a plain-text mail, with quoted-printable soft breaks undone. */
export function mailText(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
}

/** Points the app's mail settings at a test SMTP server, as an admin would. */
export async function configureTestMail(
  fastify: import('fastify').FastifyInstance,
  admin: { cookie: string; csrf: string },
  port: number,
  baseUrl = 'https://trove.example.com/',
) {
  return fastify.inject({
    method: 'PUT',
    url: '/ui/api/v1/ui/admin/configuration/mail',
    headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf },
    payload: { enabled: true, host: '127.0.0.1', port, secure: false, from: 'trove@example.com', baseUrl },
  })
}
