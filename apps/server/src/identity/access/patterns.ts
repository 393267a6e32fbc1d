/**
 * Include/exclude patterns of permission targets, Ant style: `**` matches anything (slashes
 * included), `*` anything but a slash, `?` one character but a slash. Matching is
 * case-sensitive, as repository keys and build names are.
 */
export function compilePattern(pattern: string): RegExp {
  let source = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        source += '.*'
        i++
        // `**/` also matches nothing at all: `a/**/b` matches `a/b`.
        if (pattern[i + 1] === '/') {
          source = `${source.slice(0, -2)}(?:.*/)?`
          i++
        }
      } else source += '[^/]*'
    } else if (c === '?') source += '[^/]'
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${source}$`)
}

/** A compiled resource set: named resources, plus what include patterns match and exclude patterns do not. */
export interface ResourceMatcher {
  matches(name: string): boolean
}

export function resourceMatcher(set: { names: string[]; include: string[]; exclude: string[] }): ResourceMatcher {
  const names = new Set(set.names)
  const include = set.include.map(compilePattern)
  const exclude = set.exclude.map(compilePattern)
  return {
    matches(name) {
      // A resource named outright is in; exclude patterns only narrow what the include patterns add.
      if (names.has(name)) return true
      return include.some((re) => re.test(name)) && !exclude.some((re) => re.test(name))
    },
  }
}
