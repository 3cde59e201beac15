import type { Metadata } from 'next';
import type { ReactNode } from 'react';

export const metadata: Metadata = {
  title: 'Gold API: free, keyless gold market data',
  description: 'Live gold spot in 160+ currencies, intraday and daily history, central-bank reserves, an MCP endpoint and embeddable widgets. Honest about freshness.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
