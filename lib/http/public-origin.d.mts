/** Request headers: fetch `Headers`, or Node's `IncomingHttpHeaders`. */
export type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

/** The origin (`scheme://host[:port]`) every absolute link of this request is built from. */
export function publicOrigin(headers: HeaderSource, url?: string | URL): string;

/** `Vary` for cacheable responses that contain links, or null when no request header can change them. */
export function linkVary(): string | null;
