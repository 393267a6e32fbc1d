// deb-version-compare ships no type declarations: one function, dpkg's ordering of two versions.
declare module 'deb-version-compare' {
  /** -1, 0 or 1 as `a` is older than, the same as or newer than `b`. */
  export default function compare(a: string, b: string): number
}
