export default function Home() {
  return (
    <main>
      <h1>Gold market data API</h1>
      <p>
        Free, keyless, honest about freshness. Try <a href="/api/v1/spot?compact=1">/api/v1/spot?compact=1</a>.
      </p>
    </main>
  );
}
