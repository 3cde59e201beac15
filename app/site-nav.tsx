'use client';
import { usePathname } from 'next/navigation';

const LINKS = [
  ['/docs', 'Docs'],
  ['/docs/api', 'API reference'],
  ['/docs/mcp', 'MCP'],
  ['/docs/widgets', 'Widgets'],
  ['/docs/data', 'Data & trust'],
] as const;

export function SiteNav() {
  const path = usePathname();
  return (
    <nav className="main" aria-label="Main">
      <ul>
        {LINKS.map(([href, label]) => (
          <li key={href}>
            <a href={href} aria-current={path === href ? 'page' : undefined}>
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
