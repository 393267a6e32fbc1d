/** Where a repository keeps an image's pieces in the files table (`@` never occurs in names or tags). */
export const blobPath = (image: string, hex: string) => `${image}/@blobs/sha256__${hex}`
export const manifestPath = (image: string, hex: string) => `${image}/@manifests/sha256__${hex}`
export const tagPath = (image: string, tag: string, file: string) => `${image}/${tag}/${file}`
