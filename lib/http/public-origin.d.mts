/** Request headers: fetch `Headers`, or Node's `IncomingHttpHeaders`. */
export type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

/** The origin (`scheme://host[:port]`) every absolute link of this request is built from. */
export function publicOrigin(headers: HeaderSource, url?: string | URL): string;

/** `Vary` for cacheable responses that contain links, or null when no request header can change them. */
export function linkVary(): string | null;

/** The request header server.mjs sets to the socket's remote address (any value a client sent is replaced). */
export const SOCKET_ADDRESS_HEADER: string;

/** The client for per-client limits: an IPv4 address, an IPv6 /64 (`2001:db8:0:1::/64`), or `unknown`. */
export function clientAddress(headers: HeaderSource): string;
