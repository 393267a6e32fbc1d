import type { Component } from '../types.js'
import { ComponentList, linesOf, ManifestError } from './components.js'

/** A Java .properties file's keys and values (comments, `=`, `:` or blank separators, simple escapes). */
export function parseProperties(text: string): Map<string, string> {
  const properties = new Map<string, string>()
  for (const raw of linesOf(text)) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue
    const pair = /^((?:[^\\=:\s]|\\.)+)\s*[=:\s]\s*(.*)$/.exec(line)
    if (!pair?.[1]) continue
    properties.set(unescapeProperty(pair[1]), unescapeProperty(pair[2] ?? ''))
  }
  return properties
}

const unescapeProperty = (value: string): string => value.replace(/\\(.)/g, '$1')

/** pom.properties, as Maven writes it into every jar it builds: groupId, artifactId, version. */
export function parsePomProperties(path: string, text: string): Component[] {
  const properties = parseProperties(text)
  const group = properties.get('groupId')
  const artifact = properties.get('artifactId')
  const version = properties.get('version')
  if (!group || !artifact || !version) throw new ManifestError('no groupId, artifactId and version')
  const list = new ComponentList('Maven', path)
  list.add(`${group}:${artifact}`, version)
  return list.items
}

/** The text of each `<tag>…</tag>` element in `xml`, in order (no nesting of the same tag). */
function elements(xml: string, tag: string): string[] {
  const found: string[] = []
  const open = new RegExp(`<${tag}(\\s[^>]{0,1000})?>`, 'g')
  const close = `</${tag}>`
  for (let match = open.exec(xml); match; match = open.exec(xml)) {
    const start = match.index + match[0].length
    const end = xml.indexOf(close, start)
    if (end < 0) break
    found.push(xml.slice(start, end))
    open.lastIndex = end + close.length
  }
  return found
}

const childText = (xml: string, tag: string): string | undefined => elements(xml, tag)[0]?.trim()

/** `xml` without the elements named: what is inside them is not what is being looked for. */
function without(xml: string, tag: string): string {
  let result = xml
  for (const inner of elements(xml, tag)) result = result.replace(inner, '')
  return result
}

/** `xml` without its comments (an unclosed one runs to the end). */
function withoutComments(xml: string): string {
  const parts: string[] = []
  let from = 0
  for (let start = xml.indexOf('<!--'); start >= 0; start = xml.indexOf('<!--', from)) {
    parts.push(xml.slice(from, start))
    const end = xml.indexOf('-->', start + 4)
    from = end < 0 ? xml.length : end + 3
  }
  parts.push(xml.slice(from))
  return parts.join('')
}

/**
 * pom.xml: the project's declared `<dependencies>` with a version written in it, or taken from a
 * property the same pom defines. Managed versions (`<dependencyManagement>`) and plugins'
 * dependencies (`<build>`) are not the project's own, and version ranges name no single release.
 */
export function parsePomXml(path: string, text: string): Component[] {
  if (!/<project[\s>]/.test(text)) throw new ManifestError('no <project> element')
  let xml = withoutComments(text)
  xml = without(without(xml, 'dependencyManagement'), 'build')
  const properties = new Map<string, string>()
  for (const block of elements(xml, 'properties')) {
    for (const property of block.matchAll(/<([A-Za-z0-9_.-]+)>([^<]*)<\/\1>/g)) {
      if (property[1]) properties.set(property[1], (property[2] ?? '').trim())
    }
  }
  const list = new ComponentList('Maven', path)
  for (const dependencies of elements(xml, 'dependencies')) {
    for (const dependency of elements(dependencies, 'dependency')) {
      const group = childText(dependency, 'groupId')
      const artifact = childText(dependency, 'artifactId')
      let version = childText(dependency, 'version')
      const property = version && /^\$\{([^}]+)\}$/.exec(version)
      if (property?.[1]) version = properties.get(property[1])
      if (!group || !artifact || !version || /[$[(]/.test(version)) continue
      list.add(`${group}:${artifact}`, version)
    }
  }
  return list.items
}
