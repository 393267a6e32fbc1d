/**
 * A writer of Ruby's Marshal format (version 4.8), enough for what RubyGems reads from a gem
 * server: the specs indexes (`specs.4.8.gz`: arrays of name, `Gem::Version`, platform) and the
 * quick gemspecs (`quick/Marshal.4.8/<gem>.gemspec.rz`: a `Gem::Specification` by its `_dump`).
 * https://docs.ruby-lang.org/en/master/marshal_rdoc.html
 */

/** A Ruby value as Marshal writes it. */
export type RubyValue =
  | null
  | boolean
  | number
  | string
  | RubySymbol
  | RubyValue[]
  | RubyHash
  | RubyUserMarshal
  | RubyUserDump
  | RubyObject

export class RubySymbol {
  constructor(readonly name: string) {}
}
export class RubyHash {
  constructor(readonly entries: [RubyValue, RubyValue][]) {}
}
/** An object of a class with `marshal_dump` (type `U`): the class and what `marshal_dump` returns. */
export class RubyUserMarshal {
  constructor(
    readonly className: string,
    readonly data: RubyValue,
  ) {}
}
/** An object of a class with `_dump` (type `u`): the class and the bytes `_dump` returns. */
export class RubyUserDump {
  constructor(
    readonly className: string,
    readonly bytes: Buffer,
  ) {}
}
/** A plain object (type `o`): its class and instance variables (names with their `@`). */
export class RubyObject {
  constructor(
    readonly className: string,
    readonly ivars: [string, RubyValue][],
  ) {}
}

export const sym = (name: string) => new RubySymbol(name)

/** Marshal's integer encoding (used for lengths, counts and Fixnums). */
function fixnum(n: number): Buffer {
  if (!Number.isInteger(n) || n < -(2 ** 30) || n >= 2 ** 30) throw new Error(`not a Fixnum: ${n}`)
  if (n === 0) return Buffer.from([0])
  if (n > 0 && n < 123) return Buffer.from([n + 5])
  if (n < 0 && n > -124) return Buffer.from([(n - 5) & 0xff])
  const bytes: number[] = []
  let rest = n
  for (let i = 0; i < 4; i++) {
    bytes.push(rest & 0xff)
    rest >>= 8
    if ((n > 0 && rest === 0) || (n < 0 && rest === -1)) break
  }
  return Buffer.from([n > 0 ? bytes.length : -bytes.length & 0xff, ...bytes])
}

/** Marshal.dump of a value: the version header, then the value. */
export function marshal(value: RubyValue): Buffer {
  const out: Buffer[] = [Buffer.from([4, 8])]
  const symbols = new Map<string, number>()
  const symbol = (name: string) => {
    const seen = symbols.get(name)
    if (seen !== undefined) {
      out.push(Buffer.from(';'), fixnum(seen))
      return
    }
    symbols.set(name, symbols.size)
    const bytes = Buffer.from(name, 'utf8')
    out.push(Buffer.from(':'), fixnum(bytes.length), bytes)
  }
  const write = (v: RubyValue): void => {
    if (v === null) out.push(Buffer.from('0'))
    else if (v === true) out.push(Buffer.from('T'))
    else if (v === false) out.push(Buffer.from('F'))
    else if (typeof v === 'number') out.push(Buffer.from('i'), fixnum(v))
    else if (typeof v === 'string') {
      // A UTF-8 string: the bytes, and the instance variable E = true that names its encoding.
      const bytes = Buffer.from(v, 'utf8')
      out.push(Buffer.from('I"'), fixnum(bytes.length), bytes, fixnum(1))
      symbol('E')
      out.push(Buffer.from('T'))
    } else if (v instanceof RubySymbol) symbol(v.name)
    else if (Array.isArray(v)) {
      out.push(Buffer.from('['), fixnum(v.length))
      for (const item of v) write(item)
    } else if (v instanceof RubyHash) {
      out.push(Buffer.from('{'), fixnum(v.entries.length))
      for (const [key, item] of v.entries) {
        write(key)
        write(item)
      }
    } else if (v instanceof RubyUserMarshal) {
      out.push(Buffer.from('U'))
      symbol(v.className)
      write(v.data)
    } else if (v instanceof RubyUserDump) {
      out.push(Buffer.from('u'))
      symbol(v.className)
      out.push(fixnum(v.bytes.length), v.bytes)
    } else {
      out.push(Buffer.from('o'))
      symbol(v.className)
      out.push(fixnum(v.ivars.length))
      for (const [name, item] of v.ivars) {
        symbol(name)
        write(item)
      }
    }
  }
  write(value)
  return Buffer.concat(out)
}
