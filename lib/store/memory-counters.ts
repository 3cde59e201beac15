/** Claims and counters of this instance alone, used only while the store cannot be reached. */
export class MemoryCounters {
  private entries = new Map<string, { n: number; expires: number }>();

  claim(key: string, ttlS: number): boolean {
    if (this.live(key)) return false;
    this.entries.set(key, { n: 1, expires: Date.now() + ttlS * 1000 });
    return true;
  }

  release(key: string): void {
    this.entries.delete(key);
  }

  incr(key: string, ttlS: number, by = 1): number {
    const e = this.live(key);
    if (e) return (e.n += by);
    this.entries.set(key, { n: by, expires: Date.now() + ttlS * 1000 });
    return by;
  }

  clear() {
    this.entries.clear();
  }

  private live(key: string) {
    const now = Date.now();
    if (this.entries.size > 10_000) for (const [k, e] of this.entries) if (e.expires <= now) this.entries.delete(k);
    const e = this.entries.get(key);
    if (e && e.expires <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }
}
